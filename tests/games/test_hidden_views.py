"""A seat's view shows nothing hidden from it, in every shipped ruleset, over whole games.

Two checks on random games (tests/protocol/test_hidden_information.py scans
Earth & Water transcripts for the other hand's cards; these hold for every game):

* the views of all seats at one position are equal except under the keys the
  game's page marks as seen by a seat or its league only (its hand, its
  league's face-down tokens ...): a new key that differs between seats must be
  documented as private, and a public key may never carry seat-specific data;
* resampling everything a seat cannot see (`determinize`) leaves that seat's
  view unchanged, at positions spread over whole games, while it does change
  what the other seats see: so the view depends on nothing hidden from it.
"""

from __future__ import annotations

import pytest


def test_seats_views_differ_only_under_keys_documented_as_private(survey, doc):
    public = []
    for path, seat in sorted(survey.seat_differences.items()):
        key = doc.key(path)
        while key is None and len(path) > 1:   # a key one seat has and another lacks
            path = path[:-1]
            key = doc.key(path)
        if key is None or not key.private:
            public.append(f"{'.'.join(path)} (differs in {seat}'s view)")
    assert not public, (f"views of different seats differ under keys {doc.file.name} documents "
                        "as seen by everyone:\n  " + "\n  ".join(public[:30]))


def test_a_view_does_not_change_when_what_its_seat_cannot_see_is_resampled(survey):
    assert survey.determinized >= 4
    assert not survey.view_changed, "the view changed after determinize: " + ", ".join(
        survey.view_changed[:10])


def test_the_resampling_reaches_the_other_seats_hidden_data(survey):
    """The check above has teeth: what other seats hold really was redrawn."""
    if int(survey.ruleset.players["max"]) < 2:
        pytest.skip("a one-seat game: there is no other seat to hide anything from")
    assert survey.hidden_resampled > 0
