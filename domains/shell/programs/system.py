"""Programs that change the system rather than files: one table, by what they change.

Each entry is a program, what it changes, and the forms its manual documents as only reading or
listing (which change nothing and pass). Sources: the man pages of crontab, at, systemctl,
service, launchctl, mount, mkfs, fdisk, parted, useradd, passwd, iptables, nft, ufw, modprobe,
sysctl, shutdown, hostnamectl, timedatectl, ip, date, kill and killall5. A change of this kind is a `system-change`
effect, which the presets' `no-system-change` rule reads; what it changes is its target.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..reading.call import Call
from ..reading.effects import Effect
from ..reading.registry import handles


@dataclass(frozen=True)
class SystemProgram:
    changes: str  # what it changes, for the reason the agent reads
    reads_only: Callable[[list[str]], bool] = lambda args: False  # the documented forms that change nothing


def _first_in(*verbs: str) -> Callable[[list[str]], bool]:
    """A subcommand tool: the forms whose first operand is one of `verbs` (or that have none) only read."""
    def reads(args: list[str]) -> bool:
        operands = [arg for arg in args if not arg.startswith("-")]
        return not operands or operands[0] in verbs
    return reads


def _flags(*listing: str, bare: bool = True) -> Callable[[list[str]], bool]:
    """An option tool: run bare (when `bare`), or with one of the listing options, it only reads."""
    def reads(args: list[str]) -> bool:
        return (bare and not args) or any(arg in listing or arg.split("=")[0] in listing for arg in args)
    return reads


_SYSTEMCTL_READS = ("status", "show", "cat", "list-units", "list-unit-files", "list-timers", "list-sockets",
                    "list-dependencies", "list-jobs", "list-machines", "is-active", "is-enabled", "is-failed",
                    "is-system-running", "get-default", "help", "show-environment")
SCHEDULING = "scheduled jobs"
SERVICES = "system services"
DISKS = "filesystems and partitions"
USERS = "users, groups and passwords"
FIREWALL = "the firewall"
KERNEL = "kernel modules and settings"
POWER = "the machine's power state"
NETWORK = "network configuration"
CLOCK = "the system clock or host identity"

SYSTEM_PROGRAMS: dict[str, SystemProgram] = {
    "crontab": SystemProgram(SCHEDULING, _flags("-l", bare=False)),
    "at": SystemProgram(SCHEDULING, _flags("-l", "-c")), "batch": SystemProgram(SCHEDULING),
    "atrm": SystemProgram(SCHEDULING),
    "systemctl": SystemProgram(SERVICES, _first_in(*_SYSTEMCTL_READS)),
    "service": SystemProgram(SERVICES, lambda args: not args or "--status-all" in args or args[-1] == "status"),
    "launchctl": SystemProgram(SERVICES, _first_in("list", "print", "print-disabled", "blame", "help", "version")),
    "update-rc.d": SystemProgram(SERVICES), "chkconfig": SystemProgram(SERVICES, _flags("--list")),
    "rc-update": SystemProgram(SERVICES, _first_in("show")), "rc-service": SystemProgram(SERVICES),
    "mount": SystemProgram(DISKS, _flags("-l", "--show-labels", "-V", "--version", "-h", "--help")),
    "umount": SystemProgram(DISKS), "swapon": SystemProgram(DISKS, _flags("-s", "--show", "--summary")),
    "swapoff": SystemProgram(DISKS), "mkswap": SystemProgram(DISKS), "mke2fs": SystemProgram(DISKS),
    "fdisk": SystemProgram(DISKS, _flags("-l", "--list")), "sfdisk": SystemProgram(DISKS, _flags("-l", "--list", "-d")),
    "gdisk": SystemProgram(DISKS, _flags("-l")), "sgdisk": SystemProgram(DISKS, _flags("-p", "--print")),
    "parted": SystemProgram(DISKS, _flags("-l", "--list")), "wipefs": SystemProgram(DISKS, _flags("-n", "--no-act")),
    "tune2fs": SystemProgram(DISKS, _flags("-l")), "resize2fs": SystemProgram(DISKS),
    "cryptsetup": SystemProgram(DISKS, _first_in("status", "luksDump", "isLuks")), "losetup": SystemProgram(DISKS, _flags("-l", "-a")),
    "pvcreate": SystemProgram(DISKS), "vgcreate": SystemProgram(DISKS), "lvcreate": SystemProgram(DISKS),
    "pvremove": SystemProgram(DISKS), "vgremove": SystemProgram(DISKS), "lvremove": SystemProgram(DISKS),
    "lvresize": SystemProgram(DISKS), "diskutil": SystemProgram(DISKS, _first_in("list", "info")),
    "useradd": SystemProgram(USERS), "userdel": SystemProgram(USERS), "usermod": SystemProgram(USERS),
    "adduser": SystemProgram(USERS), "deluser": SystemProgram(USERS), "groupadd": SystemProgram(USERS),
    "groupdel": SystemProgram(USERS), "groupmod": SystemProgram(USERS), "gpasswd": SystemProgram(USERS),
    "passwd": SystemProgram(USERS, _flags("-S", "--status", bare=False)), "chpasswd": SystemProgram(USERS),
    "chsh": SystemProgram(USERS, _flags("-l", "--list-shells", bare=False)), "chfn": SystemProgram(USERS),
    "chage": SystemProgram(USERS, _flags("-l", "--list", bare=False)), "visudo": SystemProgram(USERS, _flags("-c", "--check")),
    "dscl": SystemProgram(USERS, _first_in(".", "-read", "-list")),
    "iptables": SystemProgram(FIREWALL, _flags("-L", "--list", "-S", "--list-rules", "-h", "--help", bare=False)),
    "ip6tables": SystemProgram(FIREWALL, _flags("-L", "--list", "-S", "--list-rules", bare=False)),
    "iptables-restore": SystemProgram(FIREWALL, _flags("-t", "--test", bare=False)),
    "nft": SystemProgram(FIREWALL, _first_in("list", "describe")),
    "ufw": SystemProgram(FIREWALL, _first_in("status", "show", "version", "app")),
    "firewall-cmd": SystemProgram(FIREWALL, lambda args: all(a.startswith(("--list", "--get", "--query", "--state",
                                                                            "--info", "--zone")) for a in args)),
    "pfctl": SystemProgram(FIREWALL, _flags("-s", "-sr", "-sa", "-si", bare=False)),
    "modprobe": SystemProgram(KERNEL, _flags("-n", "--dry-run", "-c", "--showconfig", "-D", "--show-depends", bare=False)),
    "insmod": SystemProgram(KERNEL), "rmmod": SystemProgram(KERNEL), "depmod": SystemProgram(KERNEL),
    "kextload": SystemProgram(KERNEL), "kextunload": SystemProgram(KERNEL),
    "sysctl": SystemProgram(KERNEL, lambda args: not any(a in ("-w", "--write", "-p", "--load", "--system") or "=" in a
                                                          for a in args)),
    "setenforce": SystemProgram(KERNEL), "kexec": SystemProgram(POWER),
    "shutdown": SystemProgram(POWER), "reboot": SystemProgram(POWER), "poweroff": SystemProgram(POWER),
    "halt": SystemProgram(POWER), "telinit": SystemProgram(POWER), "init": SystemProgram(POWER),
    "pmset": SystemProgram(POWER, _flags("-g")), "rtcwake": SystemProgram(POWER),
    "hostnamectl": SystemProgram(CLOCK, _first_in("status")), "timedatectl": SystemProgram(CLOCK, _first_in(
        "status", "show", "list-timezones", "timesync-status", "show-timesync")),
    "localectl": SystemProgram(CLOCK, _first_in("status", "list-locales", "list-keymaps")),
    "hwclock": SystemProgram(CLOCK, _flags("-r", "--show", "--get", bare=True)),
    "scutil": SystemProgram(CLOCK, _flags("--get", "--dns", "--proxy", "--nwi")),
    "route": SystemProgram(NETWORK, lambda args: not args or args[0] in ("-n", "print", "get", "show")),
    "ifconfig": SystemProgram(NETWORK, lambda args: len([a for a in args if not a.startswith("-")]) <= 1),
    "nmcli": SystemProgram(NETWORK, lambda args: "show" in args or "status" in args or "list" in args or not args),
}
# Subcommand tools that also read, which the analyzer knows as read-only: only these forms change the system.
_IP_CHANGES = re.compile(r"^(add|del|delete|change|replace|set|flush|append|prepend|up|down)$")
_DATE_SETS = ("-s", "--set")


def _system(call: Call) -> None:
    entry = SYSTEM_PROGRAMS[call.program]
    if not entry.reads_only([arg.text for arg in call.args]):
        _changes(call, entry.changes)


def _changes(call: Call, what: str) -> None:
    _system_effect(call, f"{call.program} changes {what}")


def _system_effect(call: Call, target: str) -> None:
    call.reader.add_effect(Effect("system-change", "", "unknown", target=target, program=call.program,
                                  command=call.index))


@handles("ip")
def _ip(call: Call) -> None:
    if any(_IP_CHANGES.match(arg.text) for arg in call.args[1:]):
        _changes(call, NETWORK)


@handles("date")
def _date(call: Call) -> None:
    if any(arg.text in _DATE_SETS or arg.text.startswith("--set=") for arg in call.args):
        _changes(call, CLOCK)


_SIGNAL_NAMES = {"1": "HUP", "2": "INT", "3": "QUIT", "9": "KILL", "15": "TERM"}  # signal(7)


@handles("kill")
def _kill(call: Call) -> None:
    """kill(1) and bash's kill builtin: `kill [-s SIG | -n NUM | -SIG] [--] PID...`. The first argument, when it
    begins with `-`, is the signal, so `kill -1 1234` sends SIGHUP to 1234; after it (or after `--`) `-1` is a
    process: every one the user may signal. PID 1 is init: signalling it stops the machine (or the container)."""
    args = [arg.text for arg in call.args]
    if not args or args[0] in ("-l", "-L", "--list", "--table") or args[0].startswith("--list="):
        return
    signal = "TERM"
    if args[0] in ("-s", "-n", "--signal") and len(args) > 1:
        signal, args = args[1], args[2:]
    elif args[0].startswith("--signal="):
        signal, args = args[0].partition("=")[2], args[1:]
    elif args[0].startswith("-") and args[0] != "--":
        signal, args = args[0][1:], args[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    signal = signal.upper().removeprefix("SIG")
    if signal == "0":
        return  # signal 0 only checks that the process exists
    named = "SIG" + _SIGNAL_NAMES.get(signal, signal) if not signal.isdigit() or signal in _SIGNAL_NAMES \
        else f"signal {signal}"
    if "-1" in args:
        _system_effect(call, f"kill sends {named} to every process the user can signal")
    elif "1" in args:
        _system_effect(call, f"kill sends {named} to process 1 (init): the machine or container stops")


@handles("killall5")
def _killall5(call: Call) -> None:
    """killall5(8): signals every process but the kernel's and its own session's."""
    _system_effect(call, "killall5 signals every process outside its own session")


@handles("mkfs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat", "mkfs.fat",
         "mkfs.ntfs", "mkfs.exfat", "mkdosfs", "newfs")
def _mkfs(call: Call) -> None:
    _changes(call, DISKS)


for _name in SYSTEM_PROGRAMS:
    handles(_name)(_system)
