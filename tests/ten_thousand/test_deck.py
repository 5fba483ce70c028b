"""Every one of the 163 action cards, one by one: its data against the rulebook's card
list, then the card itself played (or forced) in the window of a roll it names.

The rulebook's card list is typed in below in a short code, card 1 first:
``TR-1`` a roll and its change, ``FT+1`` / ``AT-1`` tokens gained or lost (``&`` joins
two), ``RR*`` one extra Rally roll, ``BR@`` a Battle reroll, ``@`` a reroll of any roll,
``D3`` draw three cards; ``|`` separates the two effects of an "A or B" card.
"""

from __future__ import annotations

import pytest

PRINTED = """
FT+1 TR-1 ZR-2 TR-1 FT+1|TR+1 MR+2 FT+1 FR-1 FT+1 MR+3 FT+1 DR+1 RR* AR-3 RR* AR-2 BR+1
AR-2 BR+1 MR+2 BR+1 AR-2 RR* SR+3 NR+1 SR+3 @ SR+3 RR* FT-1 BR+1|RR+1 AR-2 BR+1|RR+1
MR+2 RR* MR+2 RR* MR+4 FT+1 NR-1 FT+1 TR-1 BR@ AT+1 BR@ AT+1&MT+1 BR@ NR-1|MR+2 @
NR-1|MR+2 @ NR-1|MR+2 @ NR-1|MR+2 FT+1 MR+2 FR+2 TR-1|FT-1 BR+1 BR-1 BR+1 SR+3 BR+1 AT+1
BR+1 BR-1|AR-1 BR+1 BR+1 BR+1|RR+1 AR-2 RR* AR-1 NR+1|RR+1 MR+2 ER-1 TR-1 NR+1 WR+2 NR+1
WR+1 TR+2 WR+1 TR+2 ER+1 TR+2 ER+1 BR@ ER+1 BR+1|TR+2 AR-1 BR+1 TR-2 ER-2 TR-2 MR-2 MR-2
NR+1 NR+1 BR+1|TR+2 NR+1|BR+1 TR-2 FT+1 NR+1|TR+2 RR* ER-1 TR+1 TR+1 BR+1 BR+1 FT+2 FT+1
FT+1 NR+1 NR+1|RR+1 BR+1 BR+1 RR* BR-1|RR* D3 RR* BR+1 BR-1|RR* RR* BR+1 BR+1 BR+1 BR+1
AR+2 BR+1|TR+2 BR+1 BR@ BR+1|ER-1 FT+1 BR+1 BR+1 BR@ @ TR+2 TR+2|BR+1 TR+2 BR+1|TR+2 D3
BR+1 TR+2 BR@ BR+1 NR+1 ER-1 D3 BR+1 ER-1 AT-1 BR+1|TR+2 TR+2 FT+1 AT+1 FR-2 FR+2 BR+1
NR+1 BR+1 BR+1 BR+1
""".split()

# A higher total is better for these rolls (Attack: a higher roll escapes the barbarians);
# for the others (Morale, Exposure, Desertion, Weather, Starvation) higher is worse.
HIGHER_HELPS = {"TR", "FR", "BR", "AR", "RR", "NR"}
TOKEN = {"FT": "food", "AT": "anger", "MT": "mutiny"}
CW = 119   # Council of War, held by the roller so that every roll opens its window


def expected_option(code: str) -> dict:
    """The ruleset option a printed effect stands for, with the side it is played on
    (reference 3.1 and X-05: the Satrap cards and rerolls of any roll on either side)."""
    if code == "RR*":
        return {"effect": "extra_roll", "roll": "RR", "target": "self"}
    if code == "BR@":
        return {"effect": "reroll", "roll": "BR", "target": "self"}
    if code == "@":
        return {"effect": "reroll", "roll": "any", "target": "any"}
    if code == "D3":
        return {"effect": "draw", "count": 3, "target": "self"}
    if code[:2] in TOKEN:
        tokens = {TOKEN[part[:2]]: int(part[2:]) for part in code.split("&")}
        hurts = tokens.get("food", 0) < 0 or tokens.get("anger", 0) > 0
        return {"effect": "tokens", "tokens": tokens, "target": "opponent" if hurts else "self"}
    roll, amount = code[:2], int(code[2:])
    if roll == "SR":
        target = "any"
    else:
        target = "self" if (amount > 0) == (roll in HIGHER_HELPS) else "opponent"
    return {"effect": "modify", "roll": roll, "amount": amount, "target": target}


def test_every_card_holds_the_effects_the_rulebook_prints(engine):
    cards = engine.ruleset.data["cards"]
    assert len(PRINTED) == len(cards) == 163
    wrong = []
    for card, code in zip(cards, PRINTED, strict=True):
        expected = [expected_option(part) for part in code.split("|")]
        if card["options"] != expected:
            wrong.append((card["number"], card["name"], code, card["options"]))
    assert not wrong


# ----- each card in a window ------------------------------------------------------------
WINDOWS = {   # a position whose next roll is the one named, for p1 with 1 Anger token
    "WR": dict(phase="weather"),
    "SR": dict(phase="satrap", route="Desert"),
    "NR": dict(phase="negotiation", flags=["satrap"]),
    "AR": dict(phase="attack"),
    "BR": dict(phase="battle", route="Desert", flags=["attacked"]),
    "ER": dict(phase="exposure", weather="Harsh"),
    "FR": dict(phase="forage", route="Desert", weather="Mild"),
    "ZR": dict(phase="starvation", tokens={"starvation": 1}),
    "MR": dict(phase="morale"),
    "RR": dict(phase="rally", tokens={"mutiny": 1}),
    "DR": dict(phase="desertion", tokens={"mutiny": 1}),
    "TR": dict(phase="travel", route="Desert", weather="Mild"),
}


def window_of(position, roll: str, hands: dict):
    setup = dict(WINDOWS[roll])
    tokens = {"anger": 1, **setup.pop("tokens", {})}
    state = position(players=2, hands=hands, tokens={"p1": tokens}, dice=[1], **setup)
    if state.pending()[0].legal == ["forage", "skip"]:
        state.apply("p1", "forage")
    assert state.rules.tables[state.window.table].roll == roll
    return state


def roll_for(opt) -> str:
    """A roll whose window the option may be played in: its own, or Travel for the
    options that fit any roll of one's own (tokens, draws, rerolls of any roll)."""
    return opt.roll if opt.roll in WINDOWS else "TR"


@pytest.mark.parametrize("number", range(1, 164))
def test_each_card_does_what_it_prints_in_a_window(engine, position, number):
    card = engine.rules.cards[number]
    for opt in card.options:
        if card.penalising:
            if opt.effect != "modify":
                continue   # penalising token cards: played as a turn starts (test_cards)
            # X-07: an opponent holding it must play it on p1's roll
            state = window_of(position, opt.roll, {"p1": [CW], "p2": [number]})
            assert [card.name, opt.amount] in state.window.mods
            assert number in state.discard and number not in state.armies["p2"].hand
            continue
        mine = opt.target in ("self", "any")
        seat = "p1" if mine else "p2"
        state = window_of(position, roll_for(opt),
                          {"p1": [CW, number]} if mine else {"p1": [CW], "p2": [number]})
        if not mine:
            state.apply("p1", "pass")
        action = f"play {number} {opt.label}"
        decision = state.pending()[0]
        assert decision.seat == seat and action in decision.legal
        tokens, hand, total = (dict(state.armies["p1"].tokens), len(state.armies[seat].hand),
                               state.window.total)
        state.apply(seat, action)
        if opt.effect == "modify":
            assert state.window.total == total + opt.amount
        elif opt.effect == "tokens":
            assert state.armies["p1"].tokens == {
                **tokens, **{t: tokens[t] + n for t, n in opt.tokens}}
        elif opt.effect == "draw":
            assert len(state.armies[seat].hand) == hand - 1 + opt.count
        elif opt.effect == "extra_roll":
            assert state.turn.rolls_left == 2
        else:   # reroll: the dice are thrown again (the loaded filler face, 3)
            assert state.window.dice == [3] * len(state.window.dice)
        assert number in state.discard
