"""An event whose data an engine puts off (a function of the text's args) reads,
compares and is recorded exactly like one built at once, whichever part is read first."""

from __future__ import annotations

import pytest

from agon.referee.engine import Event


def march_data(seat: str, steps: int, space: int) -> dict:
    return {"seat": seat, "space": space}


def put_off() -> Event:
    return Event("move", "{} marches {} spaces to space {}", march_data, frozenset(["p1"]),
                 ("p1", 3, 12))


AT_ONCE = Event("move", "p1 marches 3 spaces to space 12", {"seat": "p1", "space": 12},
                frozenset(["p1"]))


READERS = {"data": lambda e: e.data, "text": lambda e: e.text, "to_json": Event.to_json,
           "repr": repr}


@pytest.mark.parametrize("first", READERS)
def test_put_off_data_reads_like_data_given_at_once(first):
    event = put_off()
    READERS[first](event)
    assert event.data == {"seat": "p1", "space": 12}
    assert event.text == "p1 marches 3 spaces to space 12"
    assert event.to_json() == {"type": "move", "seat": "p1", "space": 12,
                               "text": "p1 marches 3 spaces to space 12"}
    assert event == AT_ONCE and repr(event) == repr(AT_ONCE)


def test_the_data_is_built_once_and_kept():
    calls = []

    def counted(seat: str) -> dict:
        calls.append(seat)
        return {"seat": seat}

    event = Event("turn", "{} plays", counted, None, ("p2",))
    assert event.data is event.data and event.text == "p2 plays" and event.data == {"seat": "p2"}
    assert calls == ["p2"]


def test_no_data_reads_as_an_empty_dict():
    event = Event("end", "the game is over")
    assert event.data == {} and event.to_json() == {"type": "end", "text": "the game is over"}
