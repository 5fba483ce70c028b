"""agon's referee: rulesets, engines, matches, tournaments and records."""
