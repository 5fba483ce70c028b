"""The referee's key: HMAC-SHA256 signatures on game records and journal rows.

A record's moves can be checked by anyone (replay them), but its forfeits,
the bots it names and the timings are the referee's word.  The referee signs
what it writes with a secret key kept in the user's data directory
(``$XDG_DATA_HOME/agon/``, by default ``~/.local/share/agon/``; the folder
0700, the file 0600), created the first time something is signed.  A
signature covers the canonical JSON of the whole record (sorted keys, no
spaces) except the signature itself, so changing any field breaks it.

HMAC is symmetric: whoever holds the key can both check and make
signatures, so the key never leaves this machine and records signed
elsewhere cannot be checked here.  ``agon key rotate`` starts a new key and
keeps the old ones (retired) so that older records still verify.
"""

from __future__ import annotations

import datetime
import enum
import hashlib
import hmac
import json
import math
import os
import secrets
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import orjson

KEYRING_FORMAT = "agon-keyring/1"
ALGORITHM = "hmac-sha256"
KEY_FILE = "referee-keys.json"


class KeyringError(Exception):
    """The key file cannot be read or written; the message says why."""


def data_dir() -> Path:
    """agon's folder in the user's data directory (XDG base directory rules)."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "agon"


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              allow_nan=False, check_circular=False)  # a record has no cycles
# orjson writes the same bytes six to nine times faster (a game's journal line and its
# position's digest: 50 µs of a tournament game's 800).  Whatever it would write
# otherwise goes to Python's encoder, so that every signature made before still holds:
# its own types (subclasses, dataclasses, dates: the passthrough options), integers
# beyond 64 bits, keys that are not strings (errors), and floats below 1e-4, whose
# exponent it writes as 1e-7 or 0.00001 where Python writes 1e-07 and 1e-05.
_FAST = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS \
    | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def canonical(value: Any) -> bytes:
    """The one byte string a JSON value signs and hashes as: sorted keys, no spaces,
    UTF-8.  A value that holds NaN or an infinity never comes here (`parse_json`
    refuses them, and the referee computes none): Python's encoder refuses them,
    orjson writes them as null."""
    try:
        fast: bytes | None = orjson.dumps(value, option=_FAST)
    except orjson.JSONEncodeError:
        fast = None
    if fast is None or b"e-" in fast or b"0.0000" in fast:   # (or a string like a small float)
        return _CANONICAL.encode(value).encode("utf-8")
    return fast


def parse_json(text: str | bytes) -> Any:
    """JSON that `canonical` can write again, or ValueError.

    Python reads NaN, Infinity and numbers too large for a float (1e400) as
    floats that JSON has no way to write: such a value was never signed by
    this referee, and it would break `canonical` later.  Nor did it ever write
    a key twice in one object: Python keeps the last, another reader the first,
    and the signature covers only what Python kept.
    """
    return json.loads(text, parse_constant=_not_a_number, parse_float=_finite,
                      object_pairs_hook=_object)


class NotFinite(ValueError):
    """NaN, Infinity or a number too large for a float, which JSON does not allow."""

    def __init__(self, text: str) -> None:
        super().__init__(f"it holds {text}, which JSON does not allow")


class DuplicateKey(ValueError):
    """An object that holds one key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(f"it holds the key {key[:60]!r} twice in one object")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        raise DuplicateKey(next(key for key, _ in pairs if key in seen or seen.add(key)))
    return value


def _not_a_number(text: str) -> float:
    raise NotFinite(text)


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise NotFinite(f"{text[:20]}, a number too large for JSON")
    return value


def digest(value: Any) -> str:
    """SHA-256 of a JSON value's canonical form (a state digest)."""
    return hashlib.sha256(canonical(value)).hexdigest()


@dataclass(frozen=True)
class Key:
    id: str  # names the key without revealing it: a hash of the secret
    secret: bytes
    created: str
    retired: str | None = None

    @classmethod
    def new(cls) -> Key:
        secret = secrets.token_bytes(32)
        return cls(hashlib.sha256(b"agon-key:" + secret).hexdigest()[:16], secret, _now())

    def mac(self, payload: dict[str, Any]) -> str:
        return self.mac_of(canonical(payload))

    @cached_property
    def signature_start(self) -> bytes:
        """The canonical JSON of this key's signature up to its MAC's hex digits:
        `Keyring.signed_line` adds those and the closing quote and brace."""
        head = canonical({"alg": ALGORITHM, "key": self.id, "value": ""})
        return b'"signature":' + head[:-2]

    def mac_of(self, body: bytes) -> str:
        """The MAC of a payload already in its canonical form."""
        return hmac.digest(self.secret, body, "sha256").hex()  # one call: C all the way

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "secret": self.secret.hex(), "created": self.created,
                "retired": self.retired}


class Check(enum.Enum):
    """What a signature says about what it signs."""

    VALID = "signed by this referee's key"
    VALID_RETIRED = "signed by a retired key of this referee"
    BROKEN = "signature does not match: the content was changed after signing"
    UNKNOWN_KEY = "signed by a key this referee does not hold"
    UNSIGNED = "not signed"
    NO_KEYRING = "this referee has no key yet, so the signature cannot be checked"

    @property
    def proven(self) -> bool:
        return self in (Check.VALID, Check.VALID_RETIRED)


def unsigned(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k != "signature"}


@dataclass
class Keyring:
    """The referee's keys: the current one signs, every one held verifies."""

    path: Path
    current: Key
    keys: dict[str, Key]

    # -- reading and writing ---------------------------------------------------

    @classmethod
    def load(cls, folder: Path | None = None) -> Keyring:
        """The user's keyring, made on first use."""
        path = (folder or data_dir()) / KEY_FILE
        if not path.exists():
            made = cls._create(path)
            if made is not None:
                return made
        return cls._read(path)

    @classmethod
    def existing(cls, folder: Path | None = None) -> Keyring | None:
        """The user's keyring if there is one (checking a signature makes no key)."""
        path = (folder or data_dir()) / KEY_FILE
        if path.exists():
            return cls._read(path)
        in_the_way = next((above for above in (path.parent, *path.parent.parents)
                           if above.exists() and not above.is_dir()), None)
        if in_the_way is not None:   # no key, and none can be made: say why, not "no key yet"
            folder = "" if in_the_way == path.parent else f" ({path.parent})"
            raise KeyringError(f"{in_the_way} is a file, where the folder of the referee's "
                               f"key goes{folder}: move it away")
        return None

    @classmethod
    def _read(cls, path: Path) -> Keyring:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            keys = {k["id"]: Key(k["id"], bytes.fromhex(k["secret"]), k["created"],
                                 k.get("retired")) for k in data["keys"]}
            return cls(path, keys[data["current"]], keys)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise KeyringError(f"{path}: not a readable agon key file ({why}); move it "
                               "away to start a new key") from None

    @classmethod
    def _create(cls, path: Path) -> Keyring | None:
        """A new keyring in `path`; None when another process made one first."""
        key = Key.new()
        ring = cls(path, key, {key.id: key})
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:   # a file where the folder goes: not another process's key
            raise KeyringError(f"cannot create the referee's key in {path.parent} "
                               f"({exc.strerror or exc})") from None
        try:
            ring._write(exclusive=True)
        except FileExistsError:
            return None
        except OSError as exc:
            raise KeyringError(f"cannot create the referee's key in {path.parent} "
                               f"({exc.strerror or exc})") from None
        return ring

    def _write(self, exclusive: bool = False) -> None:
        """Write to a private temporary file, then put it in place atomically.

        `exclusive` links it in only if no key file exists yet, so two
        processes starting at once end up sharing one key.
        """
        data = {"format": KEYRING_FORMAT, "current": self.current.id,
                "keys": [k.to_json() for k in self.keys.values()]}
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(data, indent=1) + "\n")
            if exclusive:
                os.link(temporary, self.path)
            else:
                os.replace(temporary, self.path)
        finally:
            temporary.unlink(missing_ok=True)

    def rotate(self) -> Key:
        """A new current key; the old ones stay, retired, to verify older records."""
        now = _now()
        self.keys = {k.id: k if k.retired else Key(k.id, k.secret, k.created, now)
                     for k in self.keys.values()}
        self.current = Key.new()
        self.keys[self.current.id] = self.current
        self._write()
        return self.current

    def exposed(self) -> bool:
        """Whether other users may read the key file."""
        return bool(self.path.stat().st_mode & 0o077)

    # -- signatures ----------------------------------------------------------------

    def sign(self, payload: dict[str, Any]) -> dict[str, Any]:
        """`payload` with a signature by the current key (any old one is replaced)."""
        body = unsigned(payload)
        return {**body, "signature": {"alg": ALGORITHM, "key": self.current.id,
                                      "value": self.current.mac(body)}}

    def signed_line(self, body: bytes) -> bytes:
        """The JSON of a payload given in canonical form (`canonical`, no signature),
        with its signature added as a last key: what `sign` gives, without parsing
        or encoding the payload again (a tournament signs game after game)."""
        key = self.current
        return b"%s,%s%s\"}}" % (body[:-1], key.signature_start, key.mac_of(body).encode())


def check_signature(payload: dict[str, Any], keyring: Keyring | None) -> Check:
    """What `payload`'s signature proves, given the keys held (None: none)."""
    signature = payload.get("signature")
    if signature is None:
        return Check.UNSIGNED
    if not isinstance(signature, dict) or signature.get("alg") != ALGORITHM \
            or not isinstance(signature.get("value"), str) \
            or not isinstance(signature.get("key"), str):
        return Check.BROKEN
    if keyring is None:
        return Check.NO_KEYRING
    key = keyring.keys.get(signature.get("key"))
    if key is None:
        return Check.UNKNOWN_KEY
    try:
        mac = key.mac(unsigned(payload))
    except ValueError:  # NaN or Infinity in it: nothing this referee wrote (`canonical`)
        return Check.BROKEN
    if not hmac.compare_digest(mac, signature["value"]):
        return Check.BROKEN
    return Check.VALID if key.retired is None else Check.VALID_RETIRED


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
