"""300: Earth & Water (engine id `earth-and-water`).

Modules, one concept each:
  tables     immutable tables built once from the ruleset (ints and lists by city)
  core       the flat position: fields, clone/JSON, control, dice, draws, continuations
  prep       campaign start/end, buying cards, Sudden Death, raising forces
  turns      the operations phase: turns, passing, playing a card
  movement   land and naval movement, transport, Themistocles, the bridge choice
  battle     land and naval battles, retreats, battle reaction cards
  cards      the events played on one's own turn
  supply     cards in hand, attrition, lines of communication, scoring
  automaton  PERS.IA, the solo automaton (active when the ruleset has `data.automaton`)
  checks     semantic checks of a ruleset's data
  board      the text board a terminal player sees (`describe`)
  state      the agon State interface over the step mixins
  engine     EarthAndWaterEngine
"""

from .engine import EarthAndWaterEngine
from .state import EarthAndWaterState

__all__ = ["EarthAndWaterEngine", "EarthAndWaterState"]
