"""`python -m agon.bots.greedy`: the greedy bot over the line protocol."""

from agon.bots.greedy.bot import GreedyBot
from agon.bots.protocol_main import run

raise SystemExit(run(GreedyBot))
