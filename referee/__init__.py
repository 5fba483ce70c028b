"""agon's referee: rulesets, engines, matches, tournaments and records."""

__version__ = "0.1.0"
