"""City States (engine `city-states`): war and politics in the Aegean, 2 to 6 players.

Modules, one concept each (phases in the order a player-turn plays them):
  tables      immutable tables built once from the ruleset (lists by space number)
  checks      semantic checks of a ruleset's data (what a map editor gets wrong)
  core        the flat position: fields, copying, JSON, dice, cards, events
  realm       what a player's traits and leaders add up to; control, sieges, friendship
  setup       turn order, home cities, starting units, leaders and traits
  turns       the game turn and the player-turn: phases in order, the end of a turn
  draw        phase 1: draw, the hand limit, cards played on one's own turn
  revenue     phase 2: income
  upkeep      phase 3: paying, baggage, starvation
  recruit     phase 4: the experience roll and recruiting
  diplomacy   phase 5: rolls, cards against an opponent's rolls, revolts and rebels
  movement    phases 6 and 9: groups, routes, carrying, capture on entering
  battle      what sea and land battles share: cards, totals, casualties, retreats
  sea_battle  phase 7
  land_battle phase 8: garrisons, neutral cities, taking, plundering and razing cities
  second_move phase 9: the navigation roll at its end
  cards       the cards played on one's own turn, with their targets
  leaders     new leaders, skills, capture, ransom and execution, exile
  end         the victory count and the result
  board       the text board a terminal player sees (`describe`)
  state       the agon State interface over the step mixins
  engine      CityStatesEngine
"""

from .engine import CityStatesEngine

__all__ = ["CityStatesEngine"]
