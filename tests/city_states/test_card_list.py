"""The rulebook's card list, card by card: who may play each card, in which battle or
phase, and the effect a player sees.  The tables below are read from the rulebook's
card text (and rule 12, D5-D7 for the timing), not from the engine's data."""

from __future__ import annotations

import pytest

HOMES = ("thebes", "athens", "troy")

# -- battle cards ----------------------------------------------------------------------------

# Where a battle is fought: attacker's units, defender's units, target, sea battle?
SETTINGS = {
    "land": ({"thebes": (0, {"army": 1}), "boeotia": (1, {"army": 1})}, "boeotia", False),
    "city": ({"marathon": (0, {"army": 1}), "athens": (1, {"army": 1})}, "athens", False),
    "sea": ({"saronic-gulf": (0, {"fleet": 1, "rowers": 1}),
             "euboean-gulf": (1, {"fleet": 1, "rowers": 1})}, "euboean-gulf", True),
}

# Battle-total cards: who plays ("either", "attack", "defence"), the settings where they
# act, dice added (count, die), and +1 for one's own total, -1 for the opponent's.
ANY, LAND, CITY, SEA = ("land", "city", "sea"), ("land", "city"), ("city",), ("sea",)
BATTLE_TOTALS = {
    "break-formation": ("either", ANY, 1, 10, 1),
    "savage-fighting": ("either", ANY, 1, 6, 1),
    "determined-resistance": ("defence", ANY, 1, 10, 1),
    "allies-leave": ("either", ANY, 1, 10, -1),
    "disorganization": ("either", ANY, 1, 10, -1),
    "strong-garrison": ("defence", CITY, 1, 10, 1),
    "night-raid": ("attack", ANY, 1, 10, 1),
    "narrow-channel": ("defence", SEA, 2, 10, 1),
    "narrow-defile": ("defence", LAND, 2, 10, 1),
    "reconnaissance": ("either", ANY, 1, 10, 1),
    "elite-units": ("either", ANY, 1, 6, 1),
    "outflank": ("either", ANY, 1, 10, 1),
    "reinforce-wings": ("defence", LAND, 2, 6, 1),
    "treachery": ("either", ANY, 1, 10, 1),
    "attack-beached-ships": ("attack", SEA, 2, 10, 1),   # only against ships
    "surprise-attack": ("attack", ANY, 2, 10, 1),
    "tactical-ruse": ("defence", ANY, 2, 6, 1),
    "military-blunder": ("either", ANY, 2, 10, -1),
    "right-flank-drift": ("either", LAND, 1, 6, 1),
    "sapping": ("attack", CITY, 1, 10, 1),
    "siege-works": ("attack", CITY, 1, 6, 1),
    "siege-artillery": ("either", CITY, 1, 6, 1),
}
# Battle-roll cards: who plays, where they act, and the bonus to each unit's roll.
BATTLE_ROLLS = {
    "strong-position": ("defence", LAND, 3),    # armies' defence rolls
    "boarding-actions": ("either", SEA, 3),     # fleets
    "diekplus-circle": ("defence", SEA, 3),     # fleets' defence rolls
    "superior-numbers": ("either", ANY, 2),
    "pitched-battle": ("either", ANY, 2),
}
# Casualty cards: +1 to one's own casualty rolls, or -1 to the opponent's.
CASUALTY = {"withdrawal": 1, "delaying-action": 1, "escape": 1, "skirmish": 1,
            "block-escape": -1, "cavalry-pursuit": -1}
SIDES = ("attack", "defence")


def battle(board, play, setting: str, hands: dict, faces: list[int]):
    units, target, sea = SETTINGS[setting]
    s = board.empty(units=units, hands=hands, homes=HOMES)
    s.rigged = list(faces)
    s.begin_attacks(sea=sea)
    events = play(s, f"attack {target}")
    return s, events


def result(events) -> tuple[int, int]:
    [r] = [e for e in events if e.type == "battle_result"]
    return r.data["attack"], r.data["defence"]


def offered(board, play, card: str, setting: str, side: int) -> bool:
    s, _ = battle(board, play, setting, {side: [card]}, [5] * 12)
    pending = s.pending()
    return bool(pending) and pending[0].seat == s.seats[side] and \
        f"play {card}" in pending[0].legal


@pytest.mark.parametrize("card", sorted(BATTLE_TOTALS) + sorted(BATTLE_ROLLS)
                         + sorted(CASUALTY))
def test_battle_card_offered_to_the_right_side_in_the_right_battles(board, play, card):
    who, where = (BATTLE_TOTALS.get(card) or BATTLE_ROLLS.get(card) or ("either", ANY))[:2]
    for setting in SETTINGS:
        for side in (0, 1):
            expected = setting in where and who in ("either", SIDES[side])
            assert offered(board, play, card, setting, side) == expected, (setting, side)


def card_delta(board, play, card: str, setting: str, side: int, faces: list[int]):
    """(attack, defence) with the card played by `side` minus the same battle without it."""
    base = result(battle(board, play, setting, {}, faces)[1])
    s, _ = battle(board, play, setting, {side: [card]}, faces)
    events = play(s, f"play {card}")
    while s.pending() and s.step == "battle_card":
        events += play(s, "pass")
    after = result(events)
    return after[0] - base[0], after[1] - base[1]


@pytest.mark.parametrize("card", sorted(BATTLE_TOTALS))
def test_battle_total_card_adds_its_dice(board, play, card):
    who, where, count, die, sign = BATTLE_TOTALS[card]
    side = 1 if who == "defence" else 0
    face = 3   # every die shows 3: the card moves a total by count * 3
    delta = card_delta(board, play, card, where[0], side, [face] * 12)
    moved = sign * count * face
    own, other = (moved, 0) if sign > 0 else (0, moved)
    assert delta == ((own, other) if side == 0 else (other, own))


@pytest.mark.parametrize("card", sorted(BATTLE_ROLLS))
def test_battle_roll_card_adds_to_each_roll(board, play, card):
    who, where, amount = BATTLE_ROLLS[card]
    side = 1 if who == "defence" else 0
    delta = card_delta(board, play, card, where[0], side, [3] * 12)   # one unit a side
    assert delta == ((amount, 0) if side == 0 else (0, amount))


@pytest.mark.parametrize("card", sorted(CASUALTY))
def test_casualty_card_moves_the_casualty_roll(board, play, card):
    # the defender loses (10 against 1); its army's casualty roll is 4 (lost) or 5 (retreat)
    sign = CASUALTY[card]
    side = 1 if sign > 0 else 0   # the card helps the loser or hurts him
    roll = 4 if sign > 0 else 5
    s, _ = battle(board, play, "land", {side: [card]}, [10, 1, roll])
    events = play(s, f"play {card}")
    while s.pending() and s.step == "battle_card":
        events += play(s, "pass")
    [cas] = [e for e in events if e.type == "casualties"]
    assert cas.data["lost"] == (0 if sign > 0 else 1)


# -- diplomacy-phase cards -----------------------------------------------------------------------

EXTRA_ROLL = ["coercion", "intrigue", "political-ties", "racial-ties", "colonial-ties", "bribes",
              "artful-diplomacy", "ideological-ties", "intervene", "promise-of-clemency",
              "liberators", "negotiations"]
ONE_LESS = ["threatened", "defiance", "atrocities", "brutality", "massacre", "enslavement",
            "suspicious", "disaffected"]
TAKE_NEUTRAL = ["natural-allies", "formal-agreement", "for-the-common-defense", "alliance",
                "ambassador"]
REVOLT = ["revolt", "exact-tribute", "install-governments", "install-garrisons"]


@pytest.mark.parametrize("card", EXTRA_ROLL)
def test_extra_diplomacy_roll_card(board, play, card):
    s = board.empty(homes=HOMES, hands={0: [card]})
    assert s.legal_cards_of(0) == ["done"]   # not an own-turn card: only in diplomacy
    s.phase_diplomacy()
    assert s.dip_left == 1
    play(s, f"play {card}")
    assert s.dip_left == 2 and s.hands[0] == []
    s.rigged = [6, 6]
    play(s, "roll megara", "roll delphi")
    assert s.owner[s.t.index["megara"]] == 0 and s.owner[s.t.index["delphi"]] == 0
    assert "roll larissa" not in s.pending()[0].legal   # both rolls spent


@pytest.mark.parametrize("card", ONE_LESS)
def test_opponent_loses_a_diplomacy_roll(board, play, card):
    s = board.empty(homes=HOMES, hands={2: [card]}, units={"thebes": (0, {"army": 1})})
    s.phase_diplomacy()
    assert s.pending()[0].seat == "p3" and f"play {card}" in s.pending()[0].legal
    play(s, f"play {card}")
    assert s.dip_left == 0 and s.hands[2] == []


@pytest.mark.parametrize("card", TAKE_NEUTRAL)
def test_take_neutral_card(board, play, card):
    s = board.empty(homes=HOMES, hands={0: [card]})
    set_owner(s, "megara", 1)
    s.phase_diplomacy()
    play(s, f"play {card}")
    legal = s.pending()[0].legal
    # any neutral city, however far; never one another player holds, nor a home
    assert "target corcyra" in legal and "target megara" not in legal
    assert "target athens" not in legal and "target sparta" in legal   # unchosen: neutral
    play(s, "target corcyra")
    corcyra = s.t.index["corcyra"]
    assert s.owner[corcyra] == 0 and not s.hostile[corcyra]


@pytest.mark.parametrize("card", REVOLT)
def test_revolt_card_raises_rebels_in_an_enemy_minor_city(board, play, texts, card):
    s = board.empty(homes=HOMES, hands={0: [card]},
                    units={"megara": (1, {"army": 1}), "delphi": (2, {"army": 1})})
    set_owner(s, "megara", 1)
    set_owner(s, "delphi", 2)
    set_owner(s, "chalcis", 0)
    s.phase_diplomacy()
    play(s, f"play {card}")
    legal = s.pending()[0].legal
    assert "target megara" in legal and "target delphi" in legal
    assert "target athens" not in legal and "target chalcis" not in legal   # home, own city
    # 1D3 rebels: a 6 gives 3; each rolls 1D10 (9, 9, 9) against the army (1) + terrain 5
    s.rigged = [6, 9, 9, 9, 1, 1]
    events = play(s, "target megara")
    assert "3 rebels rise in Megara" in texts(events)
    megara = s.t.index["megara"]
    assert s.owner[megara] == -1 and s.arm[megara] == 0   # the army fell: neutral again


def set_owner(s, space: str, p: int) -> None:
    s.owner[s.t.index[space]] = p


# -- own-turn cards not covered elsewhere ---------------------------------------------------------

def own_turn(board, **kw):
    s = board.empty(homes=HOMES, **kw)
    s.stack.append("cards_window")
    s.open_cards_window()
    return s


def test_social_division_stops_the_opponents_next_turn(board, play, texts):
    s = own_turn(board, hands={0: ["social-division"]}, units={"athens": (1, {"army": 1})})
    play(s, "play social-division")
    assert s.pending()[0].legal == ["target p2", "target p3"]   # an opponent of one's choice
    play(s, "target p2")
    s.end_player_turn()
    s.active = 1
    assert not s.may_move() and not s.may_attack()
    s.end_player_turn()   # only his next turn
    assert s.may_move() and s.may_attack()


def test_ransom_prisoners_gains_one_die_of_gold(board, play):
    s = own_turn(board, hands={0: ["ransom-prisoners"]}, gold=5)
    s.rigged = [4]
    events = play(s, "play ransom-prisoners")
    [gain] = [e for e in events if e.type == "gold"]
    assert gain.data["gold"] == 4 and gain.data["seat"] == "p1"


def test_raids_silences_any_city_another_player_controls(board, play):
    s = own_turn(board, hands={0: ["raids"]})
    set_owner(s, "megara", 1)
    set_owner(s, "chalcis", 0)
    s.income[s.t.index["megara"]] = 3
    play(s, "play raids")
    legal = s.pending()[0].legal
    assert "target megara" in legal and "target athens" in legal
    assert "target chalcis" not in legal and "target thebes" not in legal
    play(s, "target megara")
    s.active = 1
    s.phase_revenue()
    assert s.gold[1] == 20 + 7   # Athens pays, Megara nothing this once


def test_treasure_gives_a_die_of_gold_when_a_city_is_taken(board, play):
    s = board.empty(homes=HOMES, hands={0: ["treasure"]}, gold=0,
                    units={"boeotia": (0, {"army": 2})})
    assert s.legal_cards_of(0) == ["done"]   # not an own-turn card
    s.rigged = [10, 10, 1, 1, 7]   # two armies beat Delphi's army + garrison; Treasure 7
    s.begin_attacks(sea=False)
    play(s, "attack delphi")
    assert s.step == "plunder" and "play treasure" in s.pending()[0].legal
    play(s, "play treasure", "spare")
    assert s.gold[0] == 7 and s.owner[s.t.index["delphi"]] == 0
