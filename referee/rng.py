"""Named random streams derived from one game seed.

Each kind of chance (deck shuffles, battle dice, an automaton's rolls) draws
from its own stream, so two games on the same seed keep the same deck order and
the same automaton dice even when the players' choices diverge.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Iterator, MutableMapping
from functools import partial


def stream(seed: int, name: str) -> random.Random:
    """A generator for one named stream of the game with this seed.

    Seeding with a string hashes it with SHA-512, which is stable across
    Python processes (unlike hash()).
    """
    return random.Random(f"agon:{seed}:{name}")


def rng_state(rng: random.Random) -> list:
    """JSON-ready snapshot of a generator's state."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_state(state: list) -> random.Random:
    rng = random.Random()
    version, internal, gauss = state
    rng.setstate((version, tuple(internal), gauss))
    return rng


def roll_die(rng: random.Random, sides: int) -> int:
    """One die: the very number ``rng.randint(1, sides)`` gives, for less work.

    randint draws ``sides.bit_length()`` random bits until they make a number
    below `sides`; this does the same without its layers of checks.  Any other
    object standing in for a stream (a test's loaded dice) is asked for randint.
    """
    if type(rng) is not random.Random:
        return rng.randint(1, sides)
    bits = sides.bit_length()
    face = rng.getrandbits(bits)
    while face >= sides:
        face = rng.getrandbits(bits)
    return face + 1


class Streams(MutableMapping[str, random.Random]):
    """The named streams of one position, cheap to copy: ``streams["deck"]``.

    Search bots copy positions thousands of times a second, while copying a
    Mersenne Twister costs about 10 µs and seeding one about 5 µs.  So `copy`
    shares the generators, and whichever position next reads a shared stream
    first takes its own copy of it (copy on write); a new or reseeded stream is
    built when it is first read.  A position that never rolls a stream's dice
    never pays for it.
    """

    __slots__ = ("_rngs", "_own")

    def __init__(self, rngs: dict[str, random.Random] | None = None) -> None:
        # name -> generator, or the partial that builds one not read yet
        self._rngs: dict[str, random.Random | partial] = dict(rngs or {})
        # the names whose generator no other copy holds
        self._own: set[str] = set(self._rngs)

    @classmethod
    def named(cls, seed: int, names: Iterable[str]) -> Streams:
        """The streams `names` of the game with this seed."""
        streams = cls()
        streams._rngs = {name: partial(stream, seed, name) for name in names}
        return streams

    def __getitem__(self, name: str) -> random.Random:
        rng = self._rngs[name]
        if name not in self._own:
            rng = self._rngs[name] = _private(rng)
            self._own.add(name)
        return rng   # type: ignore[return-value]

    def __setitem__(self, name: str, rng: random.Random) -> None:
        self._rngs[name] = rng
        self._own.add(name)

    def __delitem__(self, name: str) -> None:
        del self._rngs[name]
        self._own.discard(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._rngs)

    def __len__(self) -> int:
        return len(self._rngs)

    def copy(self) -> Streams:
        """Another set of the same streams; neither copy owns a generator any more."""
        other = Streams.__new__(Streams)
        other._rngs = dict(self._rngs)
        other._own = set()
        self._own = set()
        return other

    def reseed(self, rng: random.Random) -> None:
        """Give every stream, in name order, a new seed drawn from `rng`."""
        for name in sorted(self._rngs):
            self._rngs[name] = partial(random.Random, rng.getrandbits(64))
        self._own = set()

    def to_json(self) -> dict[str, list]:
        # reading a shared generator's state needs no copy of it
        return {name: rng_state(rng() if isinstance(rng, partial) else rng)
                for name, rng in self._rngs.items()}

    @classmethod
    def from_json(cls, data: dict[str, list]) -> Streams:
        return cls({name: rng_from_state(state) for name, state in data.items()})


def _private(rng: random.Random | partial) -> random.Random:
    """A generator of one's own: built now, or a copy of a shared one."""
    if isinstance(rng, partial):
        return rng()
    if type(rng) is random.Random:
        own = random.Random.__new__(random.Random)
        own.setstate(rng.getstate())
        return own
    return copy.deepcopy(rng)   # a test's loaded dice
