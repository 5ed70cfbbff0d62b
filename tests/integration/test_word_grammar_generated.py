"""The word reader (domains/shell/reading/words.py `expand`) against real bash, by generation: random words built
from literals, quotes, escapes, `$VAR`, `${VAR<operator>...}`, braces and globs, over values with and
without spaces and glob characters, expanded by `printf '<%s>\\n' WORDS` in a real `bash --noprofile --norc`
(LANG=C, in an empty folder, so a glob matches nothing and stays as written) and by the reader. Every word
the reader calls known (literal, or a glob) must be the words bash printed: the reader feeds the gate of
computed steps, the guard and the world's learning, and a wrong split or value names the wrong file.

AGENTWORLD_WORDS_SEED (default 2026; `random` draws one) and AGENTWORLD_WORDS_CASES (default 400).
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import subprocess

import pytest
from agentworld_mcp.domains.shell.reading.grammar import broken, parse_tree
from agentworld_mcp.domains.shell.reading.words import Scope, expand

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs a real bash")

VALUES = {"A": "x y", "B": "a.tar.gz", "C": "*.txt", "E": "", "P": "dir/sub/file.txt", "S": "  lead  trail ",
          "U": "Hello World", "N": "42"}
LITERALS = ("a", "b.c", "-x", "/", "%", "=", ":", "@", "+", "x", "1", ".")
QUOTED = ("'a b'", "'$A'", '"x y"', '"$A"', '"${B%.*}"', '"a$A"', "''", '""', '"$C"', '"${P##*/}"', "'*'", '"${A:-q}"',
          '"${E:-\'s\'}"', '"${#S}"', '"$S"')
ESCAPES = ("\\ ", "\\*", "\\$A", "\\\\", "\\'", "\\{a,b}")
BRACES = ("{a,b}", "{1..3}", "{x,}", "{a}b,c}", "{x}{a,b}", "x{a}b,{c,d}", "}", "{", "{1..a}", "{a..}b,c}", "{1..3}x,y}", "{.,.}", "{a.b}c,d}", "{,y}", "{a..c}", "{01..03}", "{5..1..2}", "{a,{b,c}}", "{$A,b}", "{a}", "{}",
          "{-1..1}", "{a..C}", "{1..a}", "{c..a}", "{x,y}{1,2}", "{'a,b'}", "{a,'b c'}")
GLOBS = ("*", "?", "[ab]", "*.txt", "x*")
PATTERNS = ("*.", ".*", "a", "*/", "/*", "x", "[a-c]", "?", '"."', "'*'", "t*", "\\*", "*", "", "[!a]", "l*d", "' '")
OPERANDS = ("d", "'q r'", '"$A"', "$B", "a b", "*", "", "$E", "x$A", "-")


def parameter(rng: random.Random) -> str:
    name = rng.choice(tuple(VALUES))
    form = rng.randrange(14)
    if form == 0:
        return f"${{{name}{rng.choice((':-', ':+', '-', '+', ':='))}{rng.choice(OPERANDS)}}}"
    if form == 1:
        return f"${{#{name}}}"
    if form in (2, 3):
        return f"${{{name}{rng.choice(('#', '##', '%', '%%'))}{rng.choice(PATTERNS)}}}"
    if form in (4, 5):
        replacement = rng.choice(("", "/X", "/", "/'a b'", "/$N", "/&", "/-"))
        return f"${{{name}{rng.choice(('/', '//', '/#', '/%'))}{rng.choice(PATTERNS) or 'a'}{replacement}}}"
    if form == 6:
        return f"${{{name}:{rng.choice(('0', '1', '2', ' -2', '9', ' -20'))}}}"
    if form == 7:
        return f"${{{name}:{rng.choice(('0', '1', '3', ' -3'))}:{rng.choice(('0', '1', '2', '5', '-1'))}}}"
    if form == 8:
        return f"${{{name}{rng.choice(('^^', ',,', '^', ','))}}}"
    if form == 9:
        return f"${name}"
    return f"${{{name}}}"


def arithmetic(rng: random.Random, depth: int = 0) -> str:
    """An integer expression: numbers, variables bare and with `$`, operators bash has and some it reads
    otherwise than C (octal `010`, `**`, assignments), parentheses."""
    if depth > 2 or rng.random() < 0.35:
        return rng.choice(("0", "1", "7", "-3", "42", "010", "0x1f", "N", "$N", "E", "$E", "B", "Z", "12345678901"))
    if rng.random() < 0.15:
        return f"{rng.choice(('-', '!', '+', '- '))}{arithmetic(rng, depth + 1)}"
    if rng.random() < 0.1:
        return f"( {arithmetic(rng, depth + 1)} )"
    operator = rng.choice(("+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "**", "<<", "&"))
    return f"{arithmetic(rng, depth + 1)} {operator} {arithmetic(rng, depth + 1)}"


def piece(rng: random.Random) -> str:
    pool = rng.choice((LITERALS, LITERALS, QUOTED, ESCAPES, BRACES, GLOBS, None, None, None, ()))
    if pool == ():
        expression = f"$(({arithmetic(rng)}))"
        return f'"{expression}"' if rng.random() < 0.3 else expression
    return parameter(rng) if pool is None else rng.choice(pool)


def word(rng: random.Random) -> str:
    text = "".join(piece(rng) for _ in range(rng.randint(1, 3)))
    return ("~" + rng.choice(("", "/x"))) + text if rng.random() < 0.05 else text


def assignments() -> str:
    return "; ".join(f"{name}={shlex.quote(value)}" for name, value in VALUES.items())


def bash_words(cases: list[str], folder: str, home: str) -> list[list[str] | None]:
    """What bash expands each case's words to (None where bash failed: a bad substitution)."""
    marker = "\x1e"
    script = "\n".join(f"printf '{marker}\\n'; ( {assignments()}; printf '<%s>\\n' START {words} ) 2>/dev/null "
                       f"|| printf 'FAILED\\n'" for words in cases)
    done = subprocess.run(["bash", "--noprofile", "--norc"], input=script.encode(), cwd=folder, capture_output=True,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C",
                               "LC_ALL": "C"}, timeout=120)
    found: list[list[str] | None] = []
    for chunk in done.stdout.decode("latin-1").split(marker + "\n")[1:]:
        if "FAILED" in chunk.splitlines()[-1:]:
            found.append(None)
            continue
        items = chunk.split(">\n<")
        items[0], items[-1] = items[0].removeprefix("<"), items[-1].removesuffix(">\n")
        found.append(items[1:])  # less START
    return found


def reader_words(words: str, folder: str, home: str) -> list[str] | None:
    """The reader's words, or None where it calls any of them unknown."""
    root = parse_tree(f"printf '<%s>\\n' START {words}")
    if broken(root):
        return None
    command = root.named_children[0]
    if command.type != "command" or len(root.named_children) != 1:
        return None
    scope = Scope(folder, home, folder, variables=dict(VALUES))
    values = []
    for child in command.named_children[3:]:
        values.extend(expand(child, scope, lambda _node, _scope: None))
    if any(not value.literal and not value.glob for value in values) or any(
            value.glob and value.text.startswith("/") for value in values):
        return None  # unknown, or a glob of the root's folders (the empty folder is where globs match nothing)
    return [value.text for value in values]


def test_reader_expands_words_as_bash_does(tmp_path):
    chosen = os.environ.get("AGENTWORLD_WORDS_SEED", "2026")
    seed = random.SystemRandom().randrange(2**32) if chosen == "random" else int(chosen)
    rng = random.Random(seed)
    cases = [" ".join(word(rng) for _ in range(rng.randint(1, 3)))
             for _ in range(int(os.environ.get("AGENTWORLD_WORDS_CASES", "400")))]
    folder, home = tmp_path / "empty", tmp_path / "home"
    folder.mkdir()
    home.mkdir()
    expected = bash_words(cases, str(folder), str(home))
    assert len(expected) == len(cases)
    known = 0
    differences = []
    for words, wanted in zip(cases, expected, strict=True):
        got = reader_words(words, str(folder), str(home))
        if got is None:
            continue
        known += 1
        if got != wanted:
            differences.append(f"{words}: reader {got!r}, bash {wanted!r}")
    print(f"seed {seed}: {len(cases)} cases, {known} read as known, {len(differences)} differences")
    assert not differences, f"seed {seed}:\n" + "\n".join(differences[:40])


def test_a_name_after_text_and_an_expansion_is_read_whole():
    """tree-sitter-bash splits `$D/$F.html` into `$D/$` and `F.html`; bash writes site/main.html."""
    from agentworld_mcp.domains.shell import analyze

    semantics = analyze("D=site; F=main; echo x > $D/$F.html", "/w", "/h")
    assert [effect.path for effect in semantics.effects] == ["/w/site/main.html"]
    assert reader_words("$D/$F.html ${D}-$F.x", "/w", "/h") is None  # D and F: not among VALUES
    assert reader_words("$B/$N.html $U-$N.x", "/w", "/h") == ["a.tar.gz/42.html", "Hello", "World-42.x"]
