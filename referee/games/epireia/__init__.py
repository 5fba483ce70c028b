"""Epireia: two leagues of Greek city-states, three acts and a great battle; and its solo mode."""

from .engine import EpireiaEngine

__all__ = ["EpireiaEngine"]
