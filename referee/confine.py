"""Kernel calls that confine the calling process: limits, prctl, capabilities, Landlock.

Each function acts on the process that calls it.  `referee/sandbox.py` calls
them in a freshly forked child just before it executes a bot, so that the bot
and everything it starts inherit them.  They need Linux (ctypes reaches the C
library); elsewhere the Linux-only ones do nothing, and `landlock_abi()` is 0.

Landlock (Linux 5.13+) is how a bot is fenced in without bubblewrap: the
process may read only the paths it is given, write only in its own directory,
and (depending on the kernel's Landlock version) neither connect over TCP,
nor signal, nor trace any process outside its fence.  Each bot gets its own
fence, so two bots cannot inspect each other either.
"""

from __future__ import annotations

import ctypes
import os
import resource
import stat
import struct
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

LINUX = sys.platform == "linux"
_libc = ctypes.CDLL(None, use_errno=True) if LINUX else None

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
_CAPABILITY_VERSION_3 = 0x20080522
_LAST_CAPABILITY = 63


def _prctl(option: int, value: int = 0, extra: int = 0) -> bool:
    if _libc is None:
        return False
    return _libc.prctl(option, ctypes.c_ulong(value), ctypes.c_ulong(extra), 0, 0) == 0


def die_with_parent(signal_number: int) -> None:
    """Receive `signal_number` when the parent dies (it is not inherited by children)."""
    _prctl(PR_SET_PDEATHSIG, signal_number)


def become_subreaper() -> None:
    """Adopt the orphans among this process's descendants (double forks included)."""
    _prctl(PR_SET_CHILD_SUBREAPER, 1)


def no_new_privileges() -> None:
    """No set-user-ID program or file capability can raise what this process may do."""
    _prctl(PR_SET_NO_NEW_PRIVS, 1)


def non_dumpable() -> None:
    """Only a process with CAP_SYS_PTRACE may read this one's memory, environment or fds."""
    _prctl(PR_SET_DUMPABLE, 0)


def conceal_arguments(options: Iterable[str]) -> None:
    """Overwrite with ``*`` the values of `options` (``--seed 5``, ``--seed=5``) in this
    process's command line as others read it (/proc/PID/cmdline, ps); sys.argv keeps them."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        start, end = int(fields[45]), int(fields[46])  # arg_start, arg_end
        with open("/proc/self/cmdline", "rb") as cmdline:
            shown = cmdline.read()
    except (OSError, ValueError, IndexError):
        return
    if _libc is None or end - start != len(shown) or ctypes.string_at(start, len(shown)) != shown:
        return  # the command line was moved or rewritten: leave it alone
    names = {option.encode() for option in options}
    offset, hide_next = start, False
    for word in shown.split(b"\0"):
        name, equals, _ = word.partition(b"=")
        cut = 0 if hide_next else len(name) + 1 if equals and name in names else len(word)
        if cut < len(word):
            ctypes.memset(offset + cut, ord("*"), len(word) - cut)
        hide_next = word in names
        offset += len(word) + 1


def drop_capabilities() -> None:
    """Give up every capability for good: what root keeps is its user id, not its powers."""
    if _libc is None or os.geteuid() != 0 and not _has_capabilities():
        return
    for capability in range(_LAST_CAPABILITY + 1):
        if not _prctl(PR_CAPBSET_DROP, capability):
            break  # past the kernel's last capability
    _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    header = ctypes.create_string_buffer(struct.pack("Ii", _CAPABILITY_VERSION_3, 0))
    empty = ctypes.create_string_buffer(24)  # effective, permitted, inheritable: two words each
    _libc.capset(header, empty)


def _has_capabilities() -> bool:
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return False
    return any(line.startswith("CapPrm:") and int(line.split()[1], 16)
               for line in status.splitlines())


def set_limits(limits: dict[int, int]) -> None:
    """Soft and hard `resource` limits, never above a hard limit already in force."""
    for which, value in limits.items():
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))


# -- Landlock -------------------------------------------------------------------

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_RULE_PATH_BENEATH = 1
_CREATE_RULESET_VERSION = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
TRUNCATE, IOCTL_DEV = 1 << 14, 1 << 15
_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
_FS_RIGHTS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1,
                     5: (1 << 16) - 1}
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1
READ = EXECUTE | READ_FILE | READ_DIR


@cache
def landlock_abi() -> int:
    """The kernel's Landlock version (0: none, or not enabled)."""
    if _libc is None:
        return 0
    version = _libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                            ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(0, version)


def landlock(readable: Iterable[str], writable: Iterable[str], devices: Iterable[str],
             *, network: bool) -> bool:
    """Fence this process in: read `readable`, read and write `writable`, use `devices`.

    With Landlock 4+ TCP is refused unless `network`; with 6+ the process may
    not signal processes outside its fence nor reach their abstract sockets
    (and from version 1 on it cannot trace them).  Returns False when the
    kernel has no Landlock (nothing is restricted then).
    """
    abi = landlock_abi()
    if abi == 0:
        return False
    handled_fs = _FS_RIGHTS_BY_ABI[min(abi, 5)]
    fields = [handled_fs]
    if abi >= 4:
        fields.append(0 if network else _NET_BIND_TCP | _NET_CONNECT_TCP)
    if abi >= 6:
        fields.append(_SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL)
    attr = ctypes.create_string_buffer(struct.pack(f"{len(fields)}Q", *fields))
    ruleset = _libc.syscall(_SYS_CREATE_RULESET, attr, ctypes.c_size_t(len(attr.raw)),
                            ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        for paths, rights in ((readable, READ), (writable, handled_fs),
                              (devices, READ_FILE | WRITE_FILE | IOCTL_DEV)):
            for path in paths:
                _allow(ruleset, path, rights & handled_fs)
        no_new_privileges()
        if _libc.syscall(_SYS_RESTRICT_SELF, ruleset, ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)
    return True


def _allow(ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # gone, or not ours to open: nothing to allow
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= _FILE_RIGHTS  # directory rights on a file are an error
        rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd))
        if _libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, rule, ctypes.c_uint32(0)):
            raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
    finally:
        os.close(fd)
