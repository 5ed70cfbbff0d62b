"""A real GNU bash beside the virtual shell: one `bash --noprofile --norc` per scenario (LANG=C), and the
check that what the virtual shell knows of the files is what lies on disk."""

from __future__ import annotations

import os
import re
import select
import subprocess
from pathlib import Path

from agentworld_mcp.domains.shell.virtual.shell import VirtualShell

from .shell_lines import Scenario

_SCRIPT_LINE = re.compile(r"^bash: line \d+: ", re.MULTILINE)


class RealBash:
    """One `bash --noprofile --norc` for a scenario: each line's stdout, stderr and exit status."""

    _END = "\x1e\x1fEND\x1e"

    def __init__(self, cwd: Path, home: Path):
        # No system git configuration: the virtual git's assumption (domains/shell/virtual/git.py).
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C", "LC_ALL": "C",
               "GIT_CONFIG_NOSYSTEM": "1"}
        self.process = subprocess.Popen(["bash", "--noprofile", "--norc"], cwd=cwd, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def run(self, line: str, keep_status: bool = False) -> tuple[str, str, int]:
        assert self.process.stdin is not None
        end = self._END
        # Its standard input is no terminal's: a program that would wait for typing reads nothing instead
        # of the lines that follow (the virtual shell refuses such a line; bash must not hang on it).
        # `$?` at the line's start is the status of the line before, as at a terminal (not the marker's printf's).
        # (`keep_status`: a look that is no line of the session's; it reads the status as $__status and keeps it.)
        save = "__status=${__rc:-0}; " if keep_status else ""
        self.process.stdin.write(f"{save}(exit ${{__rc:-0}})\n{{ {line}\n}} < /dev/null\n__rc=$?; "
                                 f"printf '{end}%d\\n' $__rc; printf '{end}\\n' >&2\n".encode())
        self.process.stdin.flush()
        out = self._until(self.process.stdout, end)
        err = self._until(self.process.stderr, end)
        stdout, _, code = out.rpartition(end)
        # What a terminal shows: an interactive bash names no line in its own errors ("bash: cd: x: ...").
        return stdout, _SCRIPT_LINE.sub("bash: ", err[: err.rindex(end)]), int(code)

    @staticmethod
    def _until(stream, end: str) -> str:
        data = b""
        while not data.endswith(b"\n") or end.encode() not in data:
            if not select.select([stream], [], [], 10)[0]:
                raise TimeoutError(f"bash printed no end marker within 10 s (so far {data[-200:]!r})")
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                break
            data += chunk
        return data.decode("utf-8", "replace").rstrip("\n") if data.endswith(b"\n") else data.decode()

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def real_cwd(real: RealBash) -> str:
    """Where the real shell stands; the status of the line before is kept for the next line's `$?`."""
    return real.run('pwd; (exit "$__status")', keep_status=True)[0].strip()


def check_files(shell: VirtualShell, root: Path, line: str) -> None:
    """What the virtual shell knows is what is on disk: contents, folders, complete listings, known absences."""
    known = shell.knowledge
    for path, content in known.files.items():
        if path.startswith(str(root)):
            assert os.path.isfile(path), (line, path)
            if content is not None:
                assert Path(path).read_bytes() == content, (line, path)
    for path, complete in known.folders.items():
        if path.startswith(str(root)):
            assert os.path.isdir(path), (line, path)
            if complete:  # every entry known, but the names a step may have made (there or not)
                listed = {os.path.join(path, name) for name in os.listdir(path)}
                knew = {p for p in (*known.files, *known.folders) if os.path.dirname(p) == path}
                assert listed - known.maybe_there == knew, (line, path)
    for path in known.absent:  # (the system's git settings the virtual git assumes absent: GIT_CONFIG_NOSYSTEM)
        if path.startswith(str(root)):
            assert not os.path.lexists(path), (line, path)


def laid_out(made: Scenario, root: Path, bare_home: bool = False) -> tuple[Path, Path, VirtualShell]:
    """The scenario's folder on disk at ROOT/home/dev/project, its home, and a virtual shell that knows it in full
    (`bare_home`: and knows the home holds nothing but the project, so no git configuration)."""
    home = root / "home" / "dev"
    project = home / "project"
    project.mkdir(parents=True)
    for folder in made.folders:
        (project / folder).mkdir(parents=True, exist_ok=True)
    for name, content in made.files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_bytes(content)
    folders = {dirpath: True for dirpath, _, _ in os.walk(project)}
    shell = VirtualShell.starting(str(project), str(home), {str(project / n): c for n, c in made.files.items()},
                                  folders, complete=True)
    if bare_home:
        shell.knowledge.folders[str(home)] = True
    return home, project, shell
