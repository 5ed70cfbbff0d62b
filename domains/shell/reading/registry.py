"""What is known of each program name: the handlers that read a program's arguments, and the
families the launchers treat alike (read-only programs, shells, interpreters, privilege)."""

from __future__ import annotations

from collections.abc import Callable

from .call import Call

Handler = Callable[[Call], None]
HANDLERS: dict[str, Handler] = {}

# Programs that read, print or compute and change no file (their file-writing options are handled
# by the handlers below, not here).
READ_ONLY = frozenset("""
    cat tac nl head tail less more wc grep egrep fgrep rg ag ack ls dir vdir tree stat file du df echo printf pwd
    true false test [ [[ : which whereis type hash id whoami groups uname hostname date cal uptime ps pgrep pstree
    top htop free lsof printenv locale basename dirname realpath readlink cmp diff diff3 comm md5sum sha1sum sha256sum
    sha512sum b2sum cksum sum base32 base64 od xxd hexdump strings cut paste join fold fmt column colrm expand
    unexpand tr rev seq yes sleep jq yq man info help history alias unalias jobs fg bg wait read exit return shift
    set shopt trap ulimit umask getconf nproc lscpu lsblk ip ss netstat ping dig nslookup host whatis apropos look
    numfmt factor expr bc dc tput clear reset stty tty logname users who w last iconv nm objdump ldd size readelf
""".split())
# Programs whose handlers name every file they write, or make the rest opaque (awk's `print > f`, find's -exec):
# after one, a world forgets only what its semantics name. Other programs with a table (package managers,
# database clients, cloud and cluster tools) are read there for what they destroy, not for all they write.
WRITES_NAMED = frozenset("""
    rm rmdir unlink shred mkdir touch truncate tee dd sed gsed awk gawk mawk nawk sort uniq cp mv ln install chmod
    chown chgrp mktemp patch tar gtar bsdtar gzip gunzip bzip2 bunzip2 xz unxz zstd unzstd compress unzip curl wget
    http https xh xhs printenv date export declare typeset set alias unalias cd pushd popd git find xargs env timeout
    nice nohup command builtin exec time stdbuf make gmake
""".split())
# Interpreters whose inline code (`-c`, `-e`) is a program of its own: opaque, and it could do anything.
INTERPRETERS = {
    "python": ("c",), "python2": ("c",), "python3": ("c",), "pypy": ("c",), "pypy3": ("c",),
    "node": ("e", "p", "eval", "print"), "nodejs": ("e", "p", "eval", "print"), "deno": ("eval",),
    "bun": ("e", "eval", "p", "print"), "perl": ("e", "E"), "ruby": ("e",), "php": ("r",), "lua": ("e",),
    "Rscript": ("e",), "osascript": ("e",), "pwsh": ("c", "Command", "command"), "powershell": ("c", "Command"),
    "tclsh": (), "julia": ("e", "eval"),
    # Other interpreters' inline code: R(1) and luajit -e, jruby -e, QuickJS qjs -e/--eval, racket -e/--eval,
    # elixir -e/--eval, groovy -e, guile -c, sbcl --eval, gjs -c.
    "R": ("e",), "luajit": ("e",), "jruby": ("e",), "qjs": ("e", "eval"), "racket": ("e", "eval"),
    "elixir": ("e", "eval"), "groovy": ("e",), "guile": ("c",), "sbcl": ("eval",), "gjs": ("c",),
}
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox-sh", "fish", "csh", "tcsh"})
PRIVILEGE = frozenset({"sudo", "su", "doas", "pkexec", "runuser", "run0"})


def handles(*names: str) -> Callable[[Handler], Handler]:
    """Register a handler for these program names (a module of handlers is imported by the launchers)."""
    def register(handler: Handler) -> Handler:
        for name in names:
            HANDLERS[name] = handler
        return handler
    return register
