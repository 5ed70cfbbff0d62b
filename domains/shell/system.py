"""Programs that change the system rather than files: one table, by what they change.

Each entry is a program, what it changes, and the forms its manual documents as only reading or
listing (which change nothing and pass). Sources: the man pages of crontab, at, systemctl,
service, launchctl, mount, mkfs, fdisk, parted, useradd, passwd, iptables, nft, ufw, modprobe,
sysctl, shutdown, hostnamectl, timedatectl, ip and date. A change of this kind is a `system-change`
effect, which the presets' `no-system-change` rule reads; what it changes is its target.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .call import Call
from .effects import Effect
from .registry import handles


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
    call.reader.add_effect(Effect("system-change", "", "unknown", target=f"{call.program} changes {what}",
                                  program=call.program, command=call.index))


@handles("ip")
def _ip(call: Call) -> None:
    if any(_IP_CHANGES.match(arg.text) for arg in call.args[1:]):
        _changes(call, NETWORK)


@handles("date")
def _date(call: Call) -> None:
    if any(arg.text in _DATE_SETS or arg.text.startswith("--set=") for arg in call.args):
        _changes(call, CLOCK)


@handles("mkfs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat", "mkfs.fat",
         "mkfs.ntfs", "mkfs.exfat", "mkdosfs", "newfs")
def _mkfs(call: Call) -> None:
    _changes(call, DISKS)


for _name in SYSTEM_PROGRAMS:
    handles(_name)(_system)
