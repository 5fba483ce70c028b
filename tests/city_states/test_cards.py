"""Every kind of card effect, at its timing (rule 12), with loaded dice."""

from __future__ import annotations

import random

THEBES_ATHENS = ("thebes", "athens", "troy")


def own_turn(board, leaders=(), **kw):
    """p1's card window after the draw phase; leaders: (player, space, name, skills)."""
    s = board.empty(**kw)
    for leader in leaders:
        board.add_leader(s, *leader)
    s.stack.append("cards_window")
    s.open_cards_window()
    return s


def set_city(s, space: str, owner: int, income: int = 3):
    i = s.t.index[space]
    s.owner[i], s.income[i] = owner, income
    return i


# -- battle cards: who may play them, where -------------------------------------------------------

def window_cards(board, play, sea: bool, target: str, units: dict, hands: dict, homes=None):
    s = board.empty(units=units, hands=hands, homes=homes or THEBES_ATHENS)
    s.begin_attacks(sea=sea)
    play(s, f"attack {target}")
    return s


def test_battle_cards_depend_on_side_battle_and_target(board, play):
    cards = ["strong-garrison", "night-raid", "narrow-channel", "narrow-defile",
             "attack-beached-ships", "boarding-actions", "sapping", "right-flank-drift"]
    s = window_cards(board, play, False, "boeotia",
                     {"thebes": (0, {"army": 1}), "boeotia": (1, {"army": 1})},
                     {0: list(cards), 1: list(cards)})
    assert s.pending()[0].legal == ["pass", "play night-raid", "play right-flank-drift"]
    play(s, "pass")
    assert s.pending()[0].seat == "p2"
    assert s.pending()[0].legal == ["pass", "play narrow-defile", "play right-flank-drift"]
    s = window_cards(board, play, False, "athens",
                     {"marathon": (0, {"army": 1}), "athens": (1, {"army": 1})},
                     {0: list(cards), 1: list(cards)})
    assert "play sapping" in s.pending()[0].legal
    play(s, "pass")
    assert "play strong-garrison" in s.pending()[0].legal
    s = window_cards(board, play, True, "euboean-gulf",
                     {"saronic-gulf": (0, {"fleet": 1, "rowers": 1}),
                      "euboean-gulf": (1, {"fleet": 1, "rowers": 1})},
                     {0: list(cards), 1: list(cards)})
    assert s.pending()[0].legal == ["pass", "play boarding-actions", "play night-raid",
                                    "play attack-beached-ships"]
    play(s, "pass")
    assert "play narrow-channel" in s.pending()[0].legal


def test_allies_leave_takes_a_die_from_the_other_total(board, play, texts):
    s = window_cards(board, play, False, "boeotia",
                     {"thebes": (0, {"army": 1}), "boeotia": (1, {"army": 1})},
                     {0: ["allies-leave"]})
    s.rigged = [5, 8, 6, 6]   # 5 against 8; Allies Leave rolls 6: the defence drops to 2
    events = play(s, "play allies-leave")
    assert "p1 5, p2 2 - p1 wins" in texts(events) and "Allies Leave -6" in texts(events)


def test_boarding_actions_add_to_every_fleet(board, play, texts):
    s = window_cards(board, play, True, "euboean-gulf",
                     {"saronic-gulf": (0, {"fleet": 2, "rowers": 2}),
                      "euboean-gulf": (1, {"fleet": 1, "rowers": 1})},
                     {0: ["boarding-actions"]})
    s.rigged = [1, 1, 9, 6]
    events = play(s, "play boarding-actions")
    assert "p1 8, p2 9" in texts(events)


# -- diplomacy cards ---------------------------------------------------------------------------

def test_a_card_adds_a_diplomacy_roll(board, play):
    s = board.empty(hands={0: ["coercion"]})
    s.phase_diplomacy()
    play(s, "play coercion")
    assert s.dip_left == 2 and s.step == "diplomacy"


def test_an_extra_diplomacy_roll_is_not_offered_when_no_city_can_be_rolled_at(board, play):
    # every city is p1's own (and none hostile) or another player's home: a roll has no
    # target, so Coercion could change nothing and is kept in hand
    s = board.empty(hands={0: ["coercion", "alliance"]})
    for city in s.t.cities:
        if s.owner[city] < 0:
            s.owner[city] = 0
    s.phase_diplomacy()   # nothing to ask p1: his turn runs on to the next player's
    assert s.active == 1 and len(s.hands[0]) == 2
    s = board.empty(hands={0: ["coercion"]})
    s.phase_diplomacy()   # neutral cities remain: the card is offered
    assert s.pending()[0].legal[-1] == "play coercion"


def test_an_opponent_takes_a_roll_at_the_start_of_the_phase(board, play):
    s = board.empty(hands={1: ["threatened", "spy"], 2: ["spy"]},
                    units={"athens": (0, {"army": 1})})
    s.phase_diplomacy()
    assert s.pending()[0].seat == "p2" and s.pending()[0].legal == ["pass", "play threatened"]
    play(s, "play threatened")
    assert s.dip_left == 0
    # p3 holds no such card: no window (held mode); p1 has no roll and no card: phase over
    assert s.step == "move" and s.active == 0


def test_taking_a_neutral_city_by_card(board, play):
    s = board.empty(hands={0: ["alliance"]})
    s.phase_diplomacy()
    play(s, "play alliance")
    assert "target megara" in s.pending()[0].legal and "target sparta" not in \
        s.pending()[0].legal
    play(s, "target megara")
    megara = s.t.index["megara"]
    assert s.owner[megara] == 0 and not s.hostile[megara]


def test_revolt_card_and_executions(board, play, texts):
    s = board.empty(hands={0: ["revolt"], 1: ["executions"]})
    set_city(s, "megara", 1)
    s.phase_diplomacy()
    play(s, "play revolt", "target megara")
    assert s.pending()[0].seat == "p2" and s.pending()[0].legal == ["pass", "play executions"]
    events = play(s, "play executions")
    assert s.owner[s.t.index["megara"]] == 1 and "crushed before it starts" in texts(events)
    s = board.empty(hands={0: ["exact-tribute"]})
    set_city(s, "megara", 1)
    s.phase_diplomacy()
    s.rigged = [1]
    play(s, "play exact-tribute", "target megara")
    assert s.owner[s.t.index["megara"]] == -1


# -- own-turn cards ---------------------------------------------------------------------------

def test_starvation_hits_a_besieged_enemy_city(board, play):
    s = own_turn(board, homes=THEBES_ATHENS, hands={0: ["starvation"]},
                 units={"athens": (1, {"army": 2}), "marathon": (0, {"army": 1})})
    play(s, "play starvation")
    assert s.pending()[0].legal == ["target athens"]
    play(s, "target athens")
    assert s.starve[s.t.index["athens"]] == 1


def test_short_supplies_plague_and_desertions(board, play, texts):
    s = own_turn(board, homes=THEBES_ATHENS,
                 hands={0: ["short-supplies", "plague", "desertions"]},
                 units={"athens": (1, {"army": 2, "baggage": 5}),
                        "boeotia": (1, {"army": 1, "rowers": 1})})
    s.rigged = [3]
    events = play(s, "play short-supplies", "target athens")
    assert s.bag[s.t.index["athens"]] == 2
    assert "p2 loses 3 baggage in Athens" in texts(events)   # baggage, never "baggages"
    s.rigged = [4, 1]   # Plague: upkeep rolls at +2: 6 disbands, 3 gains a marker
    play(s, "play plague")
    assert s.pending()[0].legal == ["target athens"]   # a city: Boeotia is farmland
    events = play(s, "target athens")
    athens = s.t.index["athens"]
    assert s.arm[athens] == 1 and s.starve[athens] == 1 and "(+2)" in texts(events)
    s.rigged = [6, 2]   # Desertions: the rowers roll 6 - 1 (farms): 5; the army 2 - 1
    play(s, "play desertions", "target boeotia")
    boeotia = s.t.index["boeotia"]
    assert (s.arm[boeotia], s.row[boeotia], s.starve[boeotia]) == (1, 1, 1)


def test_hesitation_stops_a_stack_attacking_in_its_next_turn(board, play):
    s = own_turn(board, homes=THEBES_ATHENS, hands={0: ["hesitation"]},
                 units={"marathon": (1, {"army": 1}), "thebes": (0, {"army": 1})})
    play(s, "play hesitation", "target marathon")
    assert s.hesitant[1] == [s.t.index["marathon"]]
    s.active = 1
    s.begin_attacks(sea=False)
    assert s.step != "attack"   # Marathon may not attack Thebes
    s.end_player_turn()
    assert s.hesitant[1] == []


def moves_after_hesitation_in_marathon(board, play, units):
    """p1 (Thebes, one army) plays Hesitation on p2's stack in Marathon; then p2's moves
    begin with `units` (p2's) on the map."""
    s = own_turn(board, homes=THEBES_ATHENS, hands={0: ["hesitation"]},
                 units={**units, "thebes": (0, {"army": 1})})
    play(s, "play hesitation", "target marathon")
    s.active, s.cur, s.stack = 1, s.order.index(1), []
    s.begin_moves("first_move", "after_first_move")
    return s


def test_a_hesitant_stack_that_moves_still_may_not_attack(board, play):
    # the card strikes the stack, not the space it stood in
    s = moves_after_hesitation_in_marathon(board, play, {"marathon": (1, {"army": 2}),
                                                         "cithaeron": (1, {"army": 1})})
    play(s, "move marathon", "to boeotia", "done")
    s.begin_attacks(sea=False)
    play(s, "attack thebes")
    # only the stack in Cithaeron joins: the one from Marathon, now in Boeotia, may not
    assert s.b_origins == [s.t.index["cithaeron"]]


def test_hesitation_does_not_stick_to_the_space_a_hesitant_stack_left(board, play):
    # the hesitant army leaves Marathon; a fresh army that walks in later may attack (D7)
    s = moves_after_hesitation_in_marathon(board, play, {"marathon": (1, {"army": 1}),
                                                         "laurion": (1, {"army": 1})})
    play(s, "move marathon", "to boeotia", "move laurion", "to marathon")
    # nothing is left to move: the land battle phase opens (it was skipped, as though the
    # army from Laurion had caught the hesitation left behind in Marathon)
    assert s.step == "attack" and s.pending()[0].legal == ["done", "attack thebes"]
    play(s, "attack thebes")
    # the army from Laurion, now in Marathon, fights; the hesitant one in Boeotia may not
    assert s.b_origins == [s.t.index["marathon"]]


def test_political_rivalry_freezes_the_next_turn(board, play, texts):
    s = own_turn(board, homes=THEBES_ATHENS, hands={0: ["political-rivalry"]},
                 units={"athens": (1, {"army": 1})})
    play(s, "play political-rivalry", "target p2")
    assert s.frozen[1]
    s.active = 1
    s.begin_moves("first_move", "after_first_move")
    assert "p2 may not move this turn" in texts(s.events) and s.step != "move"


def test_truce_forbids_all_attacks_until_the_end_of_the_players_next_turn(board, play):
    s = own_turn(board, homes=THEBES_ATHENS, hands={0: ["truce"]},
                 units={"thebes": (0, {"army": 1}), "boeotia": (1, {"army": 1})})
    play(s, "play truce")
    assert not s.may_attack()
    s.end_player_turn()          # p1's turn ends: one more turn of p1 to go
    assert not s.may_attack()
    s.active = 0
    s.end_player_turn()
    assert s.may_attack()


def test_a_truce_ends_when_its_player_leaves_the_game(board, play):
    # his "next turn" never comes: the others may fight again at once
    s = own_turn(board, homes=THEBES_ATHENS, hands={0: ["truce"]},
                 units={"thebes": (0, {"army": 1}), "boeotia": (1, {"army": 1}),
                        "marathon": (2, {"army": 1})})
    play(s, "play truce")
    s.owner[s.t.index["thebes"]] = 1   # p1 loses his last city and army
    s.arm[s.t.index["thebes"]], s.occ[s.t.index["thebes"]] = 0, -1
    s.end_player_turn()
    assert s.out[0]
    s.active = 1
    assert s.may_attack()


def test_leader_cards(board, play, texts):
    s = board.empty(homes=THEBES_ATHENS, gold=20,
                    hands={0: ["failure", "assassination", "exiled", "election"]})
    beaten = board.add_leader(s, 1, "athens", "Brasidas", ["judgment"])
    other = board.add_leader(s, 1, "athens", "Cleon", ["oratory"])
    mine = board.add_leader(s, 0, "thebes", "Nicias", ["oratory"])
    s.l_lost[beaten] = True
    s.stack.append("cards_window")
    s.open_cards_window()
    play(s, "play failure")
    assert s.pending()[0].legal == ["target Brasidas"]
    play(s, "target Brasidas")
    assert s.l_state[beaten] == 2
    s.rigged = [3, 4]
    play(s, "play exiled", "target Cleon")
    assert s.l_state[other] == 1 and s.l_back[other] == s.turn + 7
    s.rigged = [1, 3]   # the new leader: one skill, D100 3 = Heroism
    play(s, "play election", "target Nicias")
    assert s.l_state[mine] == 2 and s.l_skills[-1] == ["heroism"]
    assert s.l_space[-1] == s.t.index["thebes"]
    # the exile ends at the start of p2's turn 7 turns on
    s.turn += 7
    s.return_exiles(1)
    assert s.l_state[other] == 0 and s.l_space[other] == s.t.index["athens"]
    s.stack.append("cards_window")
    s.open_cards_window()
    play(s, "play assassination", "target Cleon")
    assert s.l_state[other] == 2


def test_economic_cards(board, play):
    s = own_turn(board, homes=THEBES_ATHENS, gold=10,
                 hands={0: ["economic-blockade", "internal-jealousies", "contributions", "coup"]})
    play(s, "play economic-blockade", "target athens")
    s.rigged = [5, 4]
    play(s, "play internal-jealousies", "target p2")
    assert s.gold[1] == 1
    s.rigged = [6, 6]
    play(s, "play contributions")
    assert s.gold[0] == 22
    s.rigged = [4]
    play(s, "play coup", "target p2")
    assert s.razed[s.t.index["athens"]] == 4
    s.active = 1
    s.phase_revenue()
    assert s.gold[1] == 1   # Athens: blockaded (and razed)
    assert not s.noinc[s.t.index["athens"]]


def test_storms_sink_ships(board, play, texts):
    s = own_turn(board, homes=THEBES_ATHENS, hands={0: ["storms"]},
                 units={"saronic-gulf": (1, {"fleet": 2, "rowers": 2, "baggage": 4})})
    s.rigged = [5, 2]
    events = play(s, "play storms", "target saronic-gulf")
    i = s.t.index["saronic-gulf"]
    assert (s.flt[i], s.row[i], s.bag[i]) == (1, 1, 2) and "1 ship sunk" in texts(events)


def test_grand_strategy_draws_then_the_hand_limit(board, play):
    s = own_turn(board, hands={0: ["grand-strategy", "spy", "truce", "coup", "raids", "revolt"]})
    s.rigged = [6]
    play(s, "play grand-strategy")
    assert len(s.hands[0]) == 11 and s.step == "discard"
    for _ in range(4):
        play(s, s.pending()[0].legal[0])
    assert len(s.hands[0]) == 7 and s.step == "cards"


def test_spy_shows_a_hand_to_the_spy_only_and_determinize_keeps_it(board, play):
    s = own_turn(board, hands={0: ["spy"], 1: ["truce", "coup"], 2: ["raids"]})
    events = play(s, "play spy", "target p2")
    [shown] = [e for e in events if e.type == "spy"]
    assert shown.to == frozenset({"p1"}) and "Truce" in shown.text and "Coup" in shown.text
    assert s.view("p1")["known_hands"] == {"p2": ["coup", "truce"]}
    assert s.view("p3")["known_hands"] == {}
    for k in range(5):
        d = s.determinize("p1", random.Random(k))
        assert sorted(d.hands[1]) == sorted(s.hands[1])   # p1 saw them
        assert d.view("p1") == s.view("p1")
    # once a seen card is played it is no longer "known held"
    s.discard_card(1, s.t.card_by_id["coup"])
    assert s.view("p1")["known_hands"] == {"p2": ["truce"]}


def test_cards_that_cannot_act_are_not_offered(board):
    s = own_turn(board, hands={0: ["starvation", "failure", "storms"]})
    assert s.step != "cards"   # no besieged enemy city, no beaten leader, no enemy ship


# -- gold cards at any time of one's own turn (reference C-16, D5) -----------------------------

def test_a_gold_card_pays_for_recruits_after_revenue_and_upkeep(board, play):
    s = board.empty(players=2, homes=("athens", "sparta"), gold=0, hands={0: ["contributions"]},
                    units={"athens": (0, {"army": 1})})
    s.rigged = [1]   # the experience roll: nothing
    s.phase_recruit()
    assert s.pending()[0].legal == ["done", "play contributions"]   # no gold for any recruit
    s.rigged = [5, 4]   # Contributions: 2D6 = 9 gold
    play(s, "play contributions")
    assert s.gold[0] == 9 and s.step == "recruit"
    assert "recruit athens" in s.pending()[0].legal
    play(s, "recruit athens", "army")
    assert board.count(s, "arm", "athens") == 2 and s.gold[0] == 7


def test_gold_cards_are_offered_beside_the_other_choices_of_ones_own_turn(board, play):
    def position():
        return board.empty(players=2, homes=("athens", "sparta"), gold=1,
                           hands={0: ["ransom-prisoners"], 1: ["contributions"]},
                           units={"athens": (0, {"army": 1})})

    s = position()
    s.rigged = [1]
    s.phase_recruit()
    play(s, "recruit athens")   # while recruiting in a city
    assert s.pending()[0].legal == ["done", "baggage 1", "play ransom-prisoners"]
    s = position()
    s.begin_moves("first_move", "after_first_move")
    assert s.pending()[0].legal == ["done", "move athens", "play ransom-prisoners"]
    s = position()
    s.begin_attacks(sea=False)
    assert s.pending()[0].legal == ["done", "attack megara", "play ransom-prisoners"]
    s.rigged = [3]
    play(s, "play ransom-prisoners")
    assert s.gold[0] == 4 and s.pending()[0].legal == ["done", "attack megara"]
    s = position()
    s.phase_diplomacy()
    legal = s.pending()[0].legal
    assert "play ransom-prisoners" in legal and "play contributions" not in legal


def test_raids_lapse_when_the_city_changes_hands(board, play):
    """Raids (and Economic Blockade) cost the opponent his next turn's income from the city;
    a city that changes hands first earns its new master his usual income (D20)."""
    s = own_turn(board, homes=THEBES_ATHENS, hands={0: ["raids", "revolt", "alliance"]})
    megara = set_city(s, "megara", 1, income=3)
    play(s, "play raids", "target megara")
    assert s.noinc[megara]
    s.phase_diplomacy()
    s.rigged = [1]   # one rebel; no army of p2 holds Megara: it turns neutral
    play(s, "play revolt", "target megara")
    assert s.owner[megara] == -1 and not s.noinc[megara]
    play(s, "play alliance", "target megara")
    assert s.owner[megara] == 0
    gold = s.gold[0]
    s.phase_revenue()
    assert s.gold[0] - gold == 3 + 7   # Megara earns p1 its income; Thebes 7
