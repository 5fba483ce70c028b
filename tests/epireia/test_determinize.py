"""Determinizing an Epireia position: what a search bot may be handed."""

from __future__ import annotations

import json
import random

SEED = 913572468




def test_future_augur_cards_are_drawn_anew(solo_engine, play_until):
    real = play_until(solo_engine, 1, lambda s: s.g["augur"] and s.g["turn"] >= 3)
    augurs = real.g["solo"]["augurs"]
    shown = augurs.index(real.g["augur"]) + 1
    futures = set()
    for k in range(8):
        d = real.determinize("p1", random.Random(k))
        new = d.g["solo"]["augurs"]
        assert new[:shown] == augurs[:shown]            # the cards already turned up stay
        assert len(new) == len(augurs) and len(set(new)) == len(new)
        assert not set(new[shown:]) & set(augurs[:shown])
        futures.add(tuple(new[shown:]))
        assert d.view("p1") == real.view("p1")
    assert len(futures) > 1   # drawn from the rng, not kept from the real deck


def test_the_enemy_army_powers_are_hidden(solo_engine, play_until):
    real = play_until(solo_engine, 1, lambda s: s.g["enemy"] and not s.g["battle"])
    army = real.g["enemy"]["army"]
    changed = False
    for k in range(5):
        d = real.determinize("p1", random.Random(k))
        new = d.g["enemy"]["army"]
        assert {key: t["deck"] for key, t in new.items()} == {key: t["deck"] for key, t in army.items()}
        changed |= any(new[key]["power"] != army[key]["power"] for key in army)
    assert changed


def test_seed_and_every_stream_are_drawn_anew(solo_engine):
    real = solo_engine.new_game(["p1"], SEED, {})
    d = real.determinize("p1", random.Random(4))
    assert d.g["seed"] != SEED and str(SEED) not in json.dumps(d.to_json())
    for name, rng in real.rng.items():
        assert d.rng[name].getstate() != rng.getstate(), name


def test_the_other_leagues_face_down_figures_are_drawn_from_its_figures(engine, play_until):
    real = play_until(engine, 2, lambda s: s.g["battle"] and not s.g["battle"]["figures_revealed"]
                      and s.g["battle"]["figs"][s.league_of("p2")], seeds=range(200))
    side = real.league_of("p2")
    figures = set(real.player("p2")["figures"])
    placed = real.g["battle"]["figs"][side]
    for k in range(5):
        d = real.determinize("p1", random.Random(k))
        new = d.g["battle"]["figs"][side]
        assert list(new) == list(placed) and set(new.values()) <= figures
        assert len(set(new.values())) == len(new)
        assert d.view("p1") == real.view("p1")


def test_the_other_leagues_face_down_tokens_are_dealt_anew_to_its_slots(engine, play_until):
    def placing(state):
        b = state.g["battle"]
        return b and len(b["placed"][state.league_of("p2")]) >= 3 and not b["revealed"]

    real = play_until(engine, 2, placing, seeds=range(200))
    side = real.league_of("p2")
    b = real.g["battle"]

    def tokens(battle):
        return sorted((t["deck"], t["power"]) for t in [*battle["placed"][side].values(),
                                                        *battle["pool"][side]])

    decks_moved = False
    for k in range(10):
        d = real.determinize("p1", random.Random(k))
        db = d.g["battle"]
        assert list(db["placed"][side]) == list(b["placed"][side])   # the same slots filled
        assert len(db["pool"][side]) == len(b["pool"][side])
        assert sorted(t[0] for t in tokens(db)) == sorted(t[0] for t in tokens(b))
        for key, token in db["placed"][side].items():
            front, _, row = key.rsplit("-", 2)
            assert engine.tables.tokens[token["deck"]]["type"] in \
                engine.tables.slot_types(front, int(row) - 1)
        decks_moved |= ({k: t["deck"] for k, t in db["placed"][side].items()}
                        != {k: t["deck"] for k, t in b["placed"][side].items()})
        assert d.view("p1") == real.view("p1")
        assert engine.load(d.to_json()).to_json() == d.to_json()
    assert decks_moved


def test_a_sampled_world_of_the_secret_placement_agrees_with_the_table(engine):
    # The slot a league is choosing for shows that it holds a token that fits
    # (a slot nothing fits is passed over).  A sampled world used to deal that
    # league's tokens so that nothing fitted: its only choice was `empty`, and
    # the other league's placement then passed the slot over under it.
    sampled = 0
    for seed in range(12):
        state = engine.new_game(engine.seats(2), seed, {})
        chooser = random.Random(seed)
        while decisions := state.pending():
            if len(decisions) > 1 and state.g["battle"]:
                for k in range(6):
                    world = state.determinize("p1", random.Random(k))
                    shown = {d.seat: d.prompt for d in decisions}
                    assert {d.seat: d.prompt for d in world.pending()} == shown
                    for decision in world.pending():
                        if "token face down" in decision.prompt:
                            assert len(decision.legal) > 1, decision.prompt   # a token fits
                    choices = [(d.seat, random.Random(k).choice(d.legal))
                               for d in world.pending()]
                    for seat, action in choices:   # applied as the referee does: all apply
                        world.apply(seat, action)
                    sampled += 1
            for seat, action in [(d.seat, chooser.choice(d.legal)) for d in decisions]:
                state.apply(seat, action)
    assert sampled > 50


def _tokens(state):
    """Every military token's (deck, power) in the world: piles, reserves, Greek cities, the
    solo enemy's army (a token in the battle is one of its reserve's)."""
    g, found = state.g, []
    for deck, pile in g["decks"].items():
        found += [(deck, p) for p in pile]
    for league in g["leagues"].values():
        found += [(t["deck"], t["power"]) for t in league["reserve"]]
    found += [(c["token"]["deck"], c["token"]["power"]) for c in g["integrated"].values() if c["token"]]
    if g["enemy"]:
        found += [(t["deck"], t["power"]) for t in g["enemy"]["army"].values()]
    return sorted(found)


def test_a_battle_read_back_from_json_is_sampled_with_the_real_tokens(engine, solo_engine, play_until):
    """A bot run as a program is handed the position as JSON: a token in the battle is then
    written twice (reserve and slot) and must still be one token when it is resampled."""
    for eng, seats in ((engine, 2), (solo_engine, 1)):
        real = play_until(eng, seats, lambda s: s.g["battle"] and s.g["step"] == "battle-fight")
        loaded = eng.load(json.loads(json.dumps(real.to_json())))
        for k in range(4):
            world = loaded.determinize("p1", random.Random(k))
            assert _tokens(world) == _tokens(real)
            assert world.view("p1") == real.view("p1")
