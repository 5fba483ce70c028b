"""Engines play seeded random games move for move as they did before the speed work.

Bots and game records depend on what an engine shows: the legal action strings,
the views of every seat and the events (type, data, text, who sees them).  Each
digest below is a sha256 over that whole sequence for one seeded random game,
recorded from the engines as they were before they were reworked for speed
(main at 80f928a; City States since its audit's rules fixes: retreats one unit at
a time, gold cards all turn long, ports, razing, attacks from the sea, a casualty
die of its own for every ship, and no leave or take that leaves the group as it was (D23); Epireia
since a league short of figures may leave a battle front empty, and since a territory given
up is left by its figures and the solo enemy fights with dice of its own; Ten Thousand since an army alone on the march
suffers a penalising token card as soon as it draws it; Earth & Water solo since every
PERS.IA raise event names its cities and piece).  A digest that changes means a bot or a stored record
would see a different game: if the change is meant (a rules fix), say so in the
commit and print the new table with

    python tests/platform/test_engine_golden.py
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import pytest

from agon.referee.games import engine_class
from agon.referee.ruleset import load_ruleset

# (ruleset, players, options) -> seeds played
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("earth-and-water", 2, {}),
    ("earth-and-water", 2, {"forced_spend": True, "cheap_fleets": True}),
    ("earth-and-water", 2, {"reaction_prompts": "always"}),
    ("earth-and-water-solo", 1, {}),
    ("ten-thousand", 1, {}),
    ("ten-thousand", 2, {}),
    ("ten-thousand", 4, {"penalising_cards": "opponents-only"}),
    ("ten-thousand", 6, {"finished_play_penalising": True}),
    ("epireia", 2, {}),
    ("epireia", 3, {}),
    ("epireia", 4, {}),
    ("epireia-solo", 1, {"scenario": "S1"}),
    ("epireia-solo", 1, {"scenario": "S2"}),
    ("epireia-solo", 1, {"scenario": "S3"}),
    ("epireia-solo", 1, {"scenario": "S4"}),
    ("city-states", 2, {}),
]
SEEDS = (1, 2, 3)


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def _events(events: list) -> list:
    return [[e.to_json(), sorted(e.to) if e.to is not None else None] for e in events]


def game_digest(ruleset_id: str, players: int, options: dict[str, Any], seed: int) -> str:
    """sha256 over every legal list, every seat's view and every event of one random game."""
    ruleset = load_ruleset(ruleset_id)
    engine = engine_class(ruleset.engine)(ruleset)
    seats = engine.seats(players)
    state = engine.new_game(seats, seed, options)
    chooser = random.Random(seed)
    digest = hashlib.sha256()
    digest.update(_dump(_events(state.setup_events())))
    while True:
        pending = state.pending()
        digest.update(_dump([[d.seat, d.prompt, list(d.legal)] for d in pending]))
        digest.update(_dump([state.view(seat) for seat in seats]))
        if not pending:
            break
        for decision in pending:
            action = chooser.choice(list(decision.legal))
            digest.update(_dump(_events(state.apply(decision.seat, action))))
    digest.update(_dump(state.result().to_json()))
    return digest.hexdigest()


def _key(ruleset_id: str, players: int, options: dict[str, Any], seed: int) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{ruleset_id}/{players}/{opts}/{seed}"


GOLDEN: dict[str, str] = {
    'earth-and-water/2//1': '9495d199e8cc188fa8c053ad7f83c4844e8d8f428142e9828dfa40b8dce925d5',
    'earth-and-water/2//2': '781e8486857d6b44a8b91e56fc4961e26657410800964c6ccf4ddb50c7eb64e7',
    'earth-and-water/2//3': 'be93458f1f2846e5949e31bf6636c8f3d544d561589c7158cbc96e6818d88a14',
    'earth-and-water/2/cheap_fleets=True,forced_spend=True/1': '17881fa3c9426e113eb428d57b915cd618461ab77597e9ae8b0d1a45b8dc5d75',
    'earth-and-water/2/cheap_fleets=True,forced_spend=True/2': '8a7abbb4e91ba862cb7deb7c32783e406f4c6120aaf14f706bfa1ebecc7056ee',
    'earth-and-water/2/cheap_fleets=True,forced_spend=True/3': '196b9cca6a045f735d338f9321aae6d88265349095e0cbd7722eb21f2b6c89f8',
    'earth-and-water/2/reaction_prompts=always/1': '9495d199e8cc188fa8c053ad7f83c4844e8d8f428142e9828dfa40b8dce925d5',
    'earth-and-water/2/reaction_prompts=always/2': '781e8486857d6b44a8b91e56fc4961e26657410800964c6ccf4ddb50c7eb64e7',
    'earth-and-water/2/reaction_prompts=always/3': '0ca1401c2015ae8d922a1c0271ec89faa12d434c3c59aab21fdc4f8d9e664071',
    'earth-and-water-solo/1//1': '11f9f74f7f911cf18401c3b4d04ca9ec6b483628e576799de15f44fadd63219f',
    'earth-and-water-solo/1//2': '41c6ac1ba4d50e8a57a4adfe3e2414ebbb90427dec9625f714be35299e32b5e3',
    'earth-and-water-solo/1//3': '380b772d151ae7ecf2c21317a7f3b5a3d574067f82a89a3eefaaca32bd486fe1',
    'ten-thousand/1//1': '08e92e8b9c050dbc48b4c5708452feedaf34c5202c8c8820007c459c0ee65222',
    'ten-thousand/1//2': '2ea43aaa7a6b2c459fc0a819aa5f7bfc5044bc70f6cf4ab8c3d5679fbf34d5ce',
    'ten-thousand/1//3': 'd4f8990895f8b0d98bde0a0a5110792ef180c9c4e6012845625d2fc8abd4bbb4',
    'ten-thousand/2//1': 'b3350754b593150a531c84ea113f862ea0c563498af427a894766ef00598d3a5',
    'ten-thousand/2//2': '46997bc781138a6dd5371866879cbd0ab377884b958515d0ea8ecfbbad256010',
    'ten-thousand/2//3': '7ff8dd84b7c49d5ae1c46ecf8c5c451ec0c907bbafd4a475129f34f0d59a320f',
    'ten-thousand/4/penalising_cards=opponents-only/1': '79c8a6045dfb4a876e8cb351564846fe052826d89170aa43734fe7ddf97224d6',
    'ten-thousand/4/penalising_cards=opponents-only/2': '016929e258c54bf1629cad6d13662523ffc8a94fb5943c4750eac85b283a9ae3',
    'ten-thousand/4/penalising_cards=opponents-only/3': 'e1be8bbac880bb1e54c4e88a576c85fe84f9336cceae578760a33ae910466a1a',
    'ten-thousand/6/finished_play_penalising=True/1': '00bdc922fcb4166ee0db21158f797059bdc1039c7fbe6137e024ff42f82018c7',
    'ten-thousand/6/finished_play_penalising=True/2': '01a9bc3f012277ded002459713bc526b5a2be8fd39070a0dc674db0fa3ef12d7',
    'ten-thousand/6/finished_play_penalising=True/3': 'b8521187494f171e3727721fbcb9fb8ae8f01734ee857e88d18754c1a21b928b',
    'epireia/2//1': '19b1ad41b7ce408f33eaac963161ba6e0cff1bbac8cb7eaba9f1b40878877620',
    'epireia/2//2': '04f3d6ba6606b0d531917e43dfb78665f67920687062b5568f462f1e422d4f49',
    'epireia/2//3': '18c50dd81b0a47f02c3532f78a0946d173d47d948ccb95e2367b43569315cae6',
    'epireia/3//1': '7d44bd32eb9d50ed70446be42bedcc103156bfa4640d236819e4c2245ed67de5',
    'epireia/3//2': '7cdca9d53d3596539dcedb7b207fecb32e17be08256d29bad539ed2bf8988693',
    'epireia/3//3': '077e3767e869aaa557f7fcdf0052e1333571ca3b37f402e647864e4d59ea7bb1',
    'epireia/4//1': 'd8b06968863eb25efb1737cdc92301fb6ff26c9070491a34e916ce998050bc74',
    'epireia/4//2': 'ae50a77a8d52a7a50367cb980bc94d7f30cd41e48531d62f2c859cbd04e1b7ca',
    'epireia/4//3': '1a279d4d792db73789218b907624341377377ae3f88f0dcb72a81605949b9fae',
    'epireia-solo/1/scenario=S1/1': '38efd8de55e7deb9b4cc20b5ae6c648e014ce47c51e1ca4fa52ac050ea5f9a94',
    'epireia-solo/1/scenario=S1/2': '3768ed7bc04ac46897096c4a7d5940bbd69e592973783e319c31ffd15f1063bb',
    'epireia-solo/1/scenario=S1/3': 'dc8901b14fcbb211f62042f1c494251fad40c1a60e42f161bf18c9e285a2e1de',
    'epireia-solo/1/scenario=S2/1': '841c2e206df9721d2ea3b2ad75ce152eedd43506a20557006e8bb4b947b6a97e',
    'epireia-solo/1/scenario=S2/2': '0d1c8f00c70a6d79e3f5cba9eb6bb7aedbfaa32134f5af5f7ce1a8683f4070dd',
    'epireia-solo/1/scenario=S2/3': '6a72a153ec7c358127088610d2506767dad3a73d10b6555ca842f0577e790585',
    'epireia-solo/1/scenario=S3/1': 'f1dac0d5333b0e8a06b1007d842c5c908db561886f52a0b7fb1a45c6bd8c7d74',
    'epireia-solo/1/scenario=S3/2': '3e8884c18f8f040b5a8bac0efc8619cbae12309e03fffa5d78ebc0a74f3f11c0',
    'epireia-solo/1/scenario=S3/3': '472cd07fd81f40ea53936551fda75073b83cee9ce976c5773d98c8f12e3a90bf',
    'epireia-solo/1/scenario=S4/1': '79aad78c803f8977d89550570ef0913db6aa2e9f02e25abe0b04c1c60275bfbe',
    'epireia-solo/1/scenario=S4/2': '19dea33110cf5d53957c7e1a5eff5e69f5d8b918e9fecc3f14cddc9aa7d7064f',
    'epireia-solo/1/scenario=S4/3': '73cd91d15e8d34bfa7c29340a442b9db9e32dc95494e017cdea1daa02bde70a8',
    'city-states/2//1': 'be8d4a840fab9b50cbcd836743e98f00a71b87b0161466c5d6a26ad51c53740a',
    'city-states/2//2': '28646828c6f6f9e94d892a8e07966ea0bad4636fba93e5f2b3321c6f75102ac6',
    'city-states/2//3': 'a57742edd94f2318425dd43976db0da4c49d2650d92e8f296cf757644487130a',
}


@pytest.mark.parametrize(("ruleset_id", "players", "options"), CASES,
                         ids=[_key(r, p, o, 0)[:-2] for r, p, o in CASES])
def test_random_games_replay_move_for_move(ruleset_id: str, players: int,
                                           options: dict[str, Any]) -> None:
    for seed in SEEDS:
        key = _key(ruleset_id, players, options, seed)
        assert game_digest(ruleset_id, players, options, seed) == GOLDEN[key], key


if __name__ == "__main__":
    for ruleset_id, players, options in CASES:
        for seed in SEEDS:
            key = _key(ruleset_id, players, options, seed)
            print(f"    {key!r}: {game_digest(ruleset_id, players, options, seed)!r},")
            sys.stdout.flush()
