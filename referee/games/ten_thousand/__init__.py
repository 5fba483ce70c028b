"""Xenophon and the Ten Thousand: the march race for 1 to 6 players."""

from .engine import TenThousandEngine

__all__ = ["TenThousandEngine"]
