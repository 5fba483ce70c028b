"""Seeded random games of every shipped ruleset, every player count and option, end well.

The same games feed the page, schema, hidden-view and encoder checks of this
folder; here: no dead end (a position with no decision that is not over), no
game longer than the bound, and a result at the end.
"""

from __future__ import annotations


def test_random_games_end_with_a_result(survey):
    assert survey.games >= 1 and survey.plies > 0
    assert not survey.dead_ends, "\n".join(survey.dead_ends)
