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
from typing import NamedTuple

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


def landlock(readable: Iterable[tuple[str, int]], writable: Iterable[str],
             devices: Iterable[str], *, network: bool) -> bool:
    """Fence this process in: read `readable`, read and write `writable`, use `devices`.

    `readable` pairs a path with the read rights it gets, for itself and all
    below it: READ, or READ_DIR alone for a folder that holds something
    hidden (its names may be listed, its files stay closed).

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
        rules = [*((path, rights & READ) for path, rights in readable),
                 *((path, handled_fs) for path in writable),
                 *((path, READ_FILE | WRITE_FILE | IOCTL_DEV) for path in devices)]
        for path, rights in rules:
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
        if not rights:
            return  # a rule that allows nothing is an error too
        rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd))
        if _libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, rule, ctypes.c_uint32(0)):
            raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
    finally:
        os.close(fd)


# -- seccomp: no sockets ----------------------------------------------------------------
#
# Landlock fences TCP only: a bot could still send UDP (to the internet, or to
# another bot on 127.0.0.1), open raw, netlink or other sockets, or reach a Unix
# socket by its path (another bot's, found in /proc/net/unix, or a daemon's).  A
# classic-BPF seccomp filter makes socket() fail for every family; socketpair(),
# which connects a process with itself or its children only, still works (asyncio
# and multiprocessing use it).  It sees only registers, so it must name each way
# into socket() of each ABI the kernel runs: the native call, x86_64's x32
# numbers, the 32-bit compat ABI (and i386's socketcall(SYS_SOCKET, ...)), and
# io_uring, which opens sockets without a syscall.

_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_LD_W_ABS, _JEQ_K, _RET_K = 0x20, 0x15, 0x06
_RET_ALLOW, _RET_KILL_PROCESS = 0x7FFF0000, 0x80000000
_RET_EACCES = 0x00050000 | 13  # SECCOMP_RET_ERRNO | EACCES: what Landlock answers too
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (args[0]'s low half: LE)
_SYS_SOCKET = 1
_X32 = 0x40000000
_IO_URING_SETUP = 425  # the same number in every ABI below


class _Abi(NamedTuple):
    """One ABI's AUDIT_ARCH value and the calls of it that the filter must know."""

    arch: int
    socket: tuple[int, ...]  # socket(): refused
    socketcall: tuple[int, ...]  # socketcall(): refused for SYS_SOCKET
    refused: tuple[int, ...]  # refused whole


_ABIS_BY_MACHINE = {
    "x86_64": (_Abi(0xC000003E, (41, _X32 | 41), (), (_IO_URING_SETUP, _X32 | _IO_URING_SETUP)),
               _Abi(0x40000003, (359,), (102,), (_IO_URING_SETUP,))),  # i386
    "aarch64": (_Abi(0xC00000B7, (198,), (), (_IO_URING_SETUP,)),
                _Abi(0x40000028, (281,), (102,), (_IO_URING_SETUP,))),  # 32-bit ARM
}


def socket_filter_machine() -> str | None:
    """This machine's name if the socket filter knows its syscalls, else None."""
    machine = os.uname().machine if LINUX else ""
    machine = "aarch64" if machine == "arm64" else machine
    known = machine in _ABIS_BY_MACHINE and sys.byteorder == "little"
    return machine if known and struct.calcsize("P") == 8 else None


def no_sockets() -> bool:
    """From now on socket() fails with EACCES for every family (socketpair() works),
    and io_uring cannot be set up.  False, and nothing done, where the filter does not
    know the machine's syscalls (or the kernel refuses it)."""
    code = socket_filter_code()
    if code is None or _libc is None:
        return False
    return _load_filter(code)


def _load_filter(code: bytes) -> bool:
    """Load a seccomp filter (an array of `struct sock_filter`) on this process."""
    program = ctypes.create_string_buffer(code)
    fprog = struct.pack("@HP", len(code) // 8, ctypes.addressof(program))  # struct sock_fprog
    no_new_privileges()  # lets a process without CAP_SYS_ADMIN install a filter
    return _prctl_pointer(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.create_string_buffer(fprog))


def socket_filter_code() -> bytes | None:
    """`no_sockets`'s filter as the array of `struct sock_filter` it loads (what
    bwrap's --seccomp reads), or None where it does not know the machine's calls."""
    machine = socket_filter_machine()
    if machine is None:
        return None
    return _filter_code(_ABIS_BY_MACHINE[machine])


def _filter_code(abis: Iterable[_Abi]) -> bytes:
    return b"".join(struct.pack("=HBBI", *op) for op in _socket_program(abis))


def _prctl_pointer(option: int, value: int, buffer: ctypes.Array[ctypes.c_char]) -> bool:
    return _libc.prctl(option, ctypes.c_ulong(value), buffer, 0, 0) == 0


def _socket_program(abis: Iterable[_Abi]) -> list[tuple[int, int, int, int]]:
    """The filter's instructions (code, jump if true, jump if false, k).  A process of an
    ABI not in `abis` (none should run here) is killed rather than let through."""
    abis = list(abis)
    dispatch = [(_LD_W_ABS, 0, 0, _ARCH)]
    bodies = [_abi_body(abi) for abi in abis]
    # each jeq jumps over the jeqs after it, the kill, and the bodies before its own
    for index, abi in enumerate(abis):
        skip = len(abis) - index + sum(len(body) for body in bodies[:index])
        dispatch.append((_JEQ_K, skip, 0, abi.arch))
    dispatch.append((_RET_K, 0, 0, _RET_KILL_PROCESS))
    return dispatch + [op for body in bodies for op in body]


def _abi_body(abi: _Abi) -> list[tuple[int, int, int, int]]:
    """Load the call number; send socket() and the refused calls to EACCES, socketcall()
    to the call check, and allow the rest."""
    tests = ([(nr, "refuse") for nr in (*abi.socket, *abi.refused)]
             + [(nr, "socketcall") for nr in abi.socketcall])
    tail = {"allow": 0, "refuse": 1, "socketcall": 2}  # places after the tests
    body = [(_LD_W_ABS, 0, 0, _NR)]
    for index, (number, target) in enumerate(tests):
        body.append((_JEQ_K, len(tests) - index - 1 + tail[target], 0, number))
    return body + [  # BPF jumps only forward: each check has its own two exits
        (_RET_K, 0, 0, _RET_ALLOW),
        (_RET_K, 0, 0, _RET_EACCES),
    ] + ([
        (_LD_W_ABS, 0, 0, _ARG0),  # socketcall(call, args)
        (_JEQ_K, 0, 1, _SYS_SOCKET),
        (_RET_K, 0, 0, _RET_EACCES),
        (_RET_K, 0, 0, _RET_ALLOW),
    ] if abi.socketcall else [])


# -- seccomp: no IPC shared by the user's processes --------------------------------------
#
# System V message queues, semaphores and shared memory, POSIX message queues and
# the user's keyrings are named by numbers and words, not paths: Landlock does not
# fence them.  Under none a bot reaches those of every process of its user: two
# bots (or a process that plays a seed and the one that plays it again, seats
# swapped) pass each other what they saw, and what a bot leaves there (memory
# included) outlives it and the referee.  Under bwrap its IPC and user namespaces
# keep them its own.  The calls below are refused whole; i386's ipc() is System V's.

_IPC_CALLS = {  # per ABI: the System V calls, mq_open and mq_unlink, the keyring calls
    "x86_64": (29, 30, 31, 64, 65, 66, 67, 68, 69, 70, 71, 220, 240, 241, 248, 249, 250),
    "i386": (117, 393, 394, 395, 396, 397, 398, 399, 400, 401, 402, 420, 277, 278,
             286, 287, 288),
    "aarch64": (*range(186, 198), 180, 181, 217, 218, 219),
    "arm": (*range(298, 309), 312, 420, 274, 275, 309, 310, 311),
}
_IPC_ABIS_BY_MACHINE = {
    "x86_64": (_Abi(0xC000003E, (), (), (*_IPC_CALLS["x86_64"],
                                         *(_X32 | nr for nr in _IPC_CALLS["x86_64"]))),
               _Abi(0x40000003, (), (), _IPC_CALLS["i386"])),
    "aarch64": (_Abi(0xC00000B7, (), (), _IPC_CALLS["aarch64"]),
                _Abi(0x40000028, (), (), _IPC_CALLS["arm"])),
}


def no_shared_ipc() -> bool:
    """From now on System V IPC, POSIX message queues and keyrings fail with EACCES.
    False, and nothing done, where the filter does not know the machine's calls."""
    machine = socket_filter_machine()
    if machine is None or _libc is None:
        return False
    return _load_filter(_filter_code(_IPC_ABIS_BY_MACHINE[machine]))
