"""GNU parallel (parallel(1)): a command run once per combination of its input sources' values.

Its options come first (it stops reading options at the command); the command is the words before the
first `:::`, `:::+`, `::::` or `::::+` (or one quoted string of them), and it runs in a shell. Input
sources: the words after `:::` (literal values the line shows), and files after `::::` or `-a` and
standard input (values the line does not show). Sources combine every value with every other; `:::+` and
`::::+` pair a source with the one before it. In the command `{}` is the value and `{1}`, `{2}` the value
of each source (with `{.}`, `{/}`, `{//}`, `{/.}` its forms); a command with none gets the values appended.
With no command, each value is itself the command. `--dry-run` prints the commands and runs none.
Each command is read like the line's own, up to MAX_JOBS of them; past that, each source's value is one
value the line does not show.
"""

from __future__ import annotations

import itertools
import posixpath
import re
import shlex

from ..reading.call import Call
from ..reading.options import Spec, parse
from ..reading.registry import handles
from ..reading.words import Scope, Value

MAX_JOBS = 16
_SPEC = Spec(short_values="aCdEIjLnNPsS", short_optional="eil", longs=(
    "arg-file=", "arg-file-sep=", "arg-sep=", "basefile=", "bf=", "block=", "block-size=", "colsep=", "delimiter=",
    "env=", "eof?", "halt=", "halt-on-error=", "header=", "jobs=", "joblog=", "load=", "max-args=", "max-chars=",
    "max-lines?", "max-procs=", "memfree=", "nice=", "profile=", "recend=", "recstart=", "replace?", "results=",
    "res=", "retries=", "return=", "sshlogin=", "sshloginfile=", "slf=", "tagstring=", "ctagstring=", "tmpdir=",
    "timeout=", "trc=", "workdir=", "wd=", "delay=", "ssh=", "id=", "rpl=", "limit=", "termseq=", "filter=",
    "group-by=", "compress-program=", "decompress-program=", "sshdelay=", "template=", "tmpl=", "sqlmaster=",
    "sqlworker=", "sqlandworker=", "seqreplace=", "plus", "tag", "dry-run", "pipe", "pipepart", "semaphore", "fg",
    "bg", "keep-order", "ungroup", "line-buffer", "group", "verbose", "null", "no-run-if-empty", "quote", "xargs",
    "progress", "bar", "eta", "will-cite", "shuf", "citation", "version", "help", "cleanup", "files", "transfer",
    "trim=", "tty", "shellquote", "no-notice", "nonall", "onall", "keep-order"), permute=False)
_REPLACEMENT = re.compile(r"\{(\d*)(\.|/|//|/\.)?\}")
_GROUPING = ("m", "X", "xargs", "n", "N", "max-args", "L", "l", "max-lines", "max-chars", "s")


@handles("parallel")
def _parallel(call: Call) -> None:
    p = parse(call.args, _SPEC)
    if p.has("dry-run", "version", "help", "citation", "number-of-cpus"):
        return
    values_sep, files_sep = p.value("arg-sep") or ":::", p.value("arg-file-sep") or "::::"
    words = list(p.rest)
    end = next((i for i, w in enumerate(words) if w.text in (values_sep, values_sep + "+", files_sep, files_sep + "+")),
               len(words))
    command, sources = words[:end], _sources(call, words[end:], values_sep, files_sep, p.flags.get("a", []) +
                                             p.flags.get("arg-file", []))
    if not sources:  # the values are standard input's lines
        lines = call.stdin.text.splitlines() if call.stdin.text is not None else None
        sources = [[Value(line) for line in lines] if lines is not None else [_unseen("standard input")]]
    jobs = _jobs(sources, grouped=p.has(*_GROUPING))
    for job in jobs:
        _run(call, command, job, quoted=p.has("q", "quote"))


def _sources(call: Call, words: list[Value], values_sep: str, files_sep: str, arg_files: list[str]) -> list[list[Value]]:
    """Each input source's values, paired sources (`:::+`) zipped into the one before."""
    sources: list[list[Value]] = [[_unseen(f"the file {name}")] for name in arg_files]
    linked: list[bool] = [False] * len(sources)
    index = 0
    while index < len(words):
        separator = words[index].text
        end = next((i for i in range(index + 1, len(words)) if words[i].text in
                    (values_sep, values_sep + "+", files_sep, files_sep + "+")), len(words))
        given = words[index + 1:end]
        if separator.startswith(files_sep):
            sources.extend([[_unseen(f"the file {file.text}")] for file in given] or [[_unseen("a file")]])
            linked.extend([separator.endswith("+")] + [False] * (max(len(given), 1) - 1))
        else:
            sources.append(given)
            linked.append(separator.endswith("+"))
        index = end
    combined: list[list[Value]] = []
    for source, link in zip(sources, linked):
        if link and combined:  # paired with the source before: the n-th value with the n-th
            combined[-1] = [Value(f"{a.text}\0{b.text}", a.literal and b.literal) for a, b in zip(combined[-1], source)]
        else:
            combined.append(source)
    return combined


Job = list[list[Value]]  # for each input source, the values one command gets from it


def _jobs(sources: list[list[Value]], grouped: bool) -> list[Job]:
    """The commands' values. Options that give a command several values (-m, -X, -n, -N, -L) are read as one
    command given all of them: the same programs on the same arguments."""
    if grouped:
        return [[[part for value in source for part in _split_pair(value)] for source in sources]]
    count = 1
    for source in sources:
        count *= max(len(source), 1)
    if count > MAX_JOBS:  # one command standing for all: each source's value unknown
        return [[[_unseen("one of many values")] for _ in sources]]
    return [[[part] for value in combination for part in _split_pair(value)]
            for combination in itertools.product(*sources)]


def _split_pair(value: Value) -> list[Value]:
    return [Value(part, value.literal) for part in value.text.split("\0")] if "\0" in value.text else [value]


def _run(call: Call, command: list[Value], job: Job, quoted: bool) -> None:
    if not command:  # each value is a command of its own
        for value in (value for values in job for value in values):
            if value.literal:
                call.run_script(value.text)
            else:
                call.opaque("code", call.text, f"parallel runs commands read from {value.unknown}", risky=True)
        return
    scope = call.scope.copy()
    text = " ".join(shlex.quote(word.text) if quoted and word.literal else word.text for word in command)

    def replaced(match: re.Match[str]) -> str:
        position = int(match.group(1)) - 1 if match.group(1) else None
        sources = job if position is None else job[position:position + 1]
        values = [value for source in sources for value in source]
        return " ".join(_shell_word(value, match.group(2) or "", scope) for value in values) if sources else \
            match.group(0)

    shown = _REPLACEMENT.sub(replaced, text)
    if shown == text:  # no replacement string: the values are appended
        shown = " ".join([text, *(_shell_word(value, "", scope) for source in job for value in source)])
    call.run_script(shown, scope=scope)


def _shell_word(value: Value, form: str, scope: Scope) -> str:
    """A value as parallel puts it into the command (quoted), or a variable holding what the line does not set."""
    if value.glob and not form:
        return value.text  # the names it matches, as the line's shell gave them
    if not value.literal:
        name = f"parallel_value_{len(scope.variables)}"
        scope.variables[name] = None
        return f'"${{{name}}}"'
    text = value.text
    if form in ("/", "/."):
        text = posixpath.basename(text)
    elif form == "//":
        text = posixpath.dirname(text)
    if form in (".", "/."):
        text = posixpath.splitext(text)[0]
    return shlex.quote(text)


def _unseen(where: str) -> Value:
    return Value(f"<{where}>", literal=False, unknown=f"values from {where}")
