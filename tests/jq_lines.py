"""Generated JSON documents and jq lines: the input of the differential proof of jq
(tests/integration/test_computed_families_generated.py). Documents hold objects, arrays, strings with escapes and
non-ASCII text, integers, negative numbers, floats written many ways, nulls, booleans and nesting, pretty or on one
line, and now and then one that is no JSON at all; filters are drawn from a small grammar (paths, keys, length,
type, `|` and `,`) with the near misses just outside it (other functions, slices, `?`, keywords as fields, options
not listed)."""

from __future__ import annotations

import json
import random
import shlex

from .shell_lines import Scenario

KEYS = ("name", "version", "a", "b", "deps", "list", "n", "x y", "é", "if", "_k", "B2", "")
STRINGS = ('"x"', '"1.0.0"', '""', '"a\\"b"', '"back\\\\slash"', '"tab\\there"', '"line\\nbreak"', '"\\u0001"',
           '"caf\u00e9"', '"\\u00e9"', '"\\/"', '"\U0001f600"', '"\\ud83d\\ude00"', '"\\ud800"', '"\\u007f"',
           '"' + "long " * 6 + '"', '"' + "\u00e9" * 14 + '"', '"<&>\'"', '"\\r\\f\\b"')
INTEGERS = ("0", "1", "-3", "42", "100", "-0", "123456789012345", "1234567890123456", "12345678901234567890",
            "9007199254740993")
FLOATS = ("1.5", "-2.25", "0.1", "3.14159", "1.0", "1e3", "1E2", "0.00001", "0.0001", "1.10", "123456789.125",
          "2.5e-3", "0.30000000000000004", "1e400", "-0.0", "100.0")
BROKEN = ('{"a": 1,}', '[1, 2', '{"a": 1}\n{"b": 2}\n', "", "\n", "nul", "{'a': 1}", '{"a": NaN}', '{"a":1,"a":2}',
          '{"a" 1}')


def value(rng: random.Random, depth: int = 0) -> object:
    """A JSON value as nested Python lists, dicts and raw literals (str: written as it stands)."""
    kind = rng.random() if depth < 4 else rng.random() * 0.7
    if kind < 0.25:
        return rng.choice(STRINGS)
    if kind < 0.4:
        return rng.choice(INTEGERS[:5]) if rng.random() < 0.8 else rng.choice(INTEGERS)
    if kind < 0.5:
        return rng.choice(FLOATS[:4]) if rng.random() < 0.6 else rng.choice(FLOATS)
    if kind < 0.6:
        return rng.choice(("null", "true", "false"))
    if kind < 0.75:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(KEYS): value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def written(item: object, indent: int | None, level: int = 0) -> str:
    """The value as a JSON text, pretty (indent) or on one line, its literals as they stand."""
    if isinstance(item, str):
        return item
    pad, inner = ("", "") if indent is None else ("\n" + " " * indent * level, "\n" + " " * indent * (level + 1))
    separator = "," if indent is None else ","
    if isinstance(item, list):
        if not item:
            return "[]"
        return "[" + separator.join(inner + written(part, indent, level + 1) for part in item) + pad + "]"
    assert isinstance(item, dict)
    if not item:
        return "{}"
    colon = ":" if indent is None else ": "
    return "{" + separator.join(inner + json.dumps(key) + colon + written(part, indent, level + 1)
                                for key, part in item.items()) + pad + "}"


def document(rng: random.Random) -> bytes:
    if rng.random() < 0.1:
        return rng.choice(BROKEN).encode()
    top: object = {rng.choice(KEYS): value(rng, 1) for _ in range(rng.randint(1, 6))} if rng.random() < 0.75 \
        else value(rng)
    text = written(top, rng.choice((None, 2, 2, 4)))
    return (text + ("\n" if rng.random() < 0.85 else "")).encode()


FUNCTIONS = ("keys", "length", "type", "keys_unsorted", "keys[]", "keys[0]")
NEAR_FUNCTIONS = ("to_entries", "sort", "add", "map(.a)", "has(\"a\")", "first", ".[-1]", ".[1:2]", ".a?", "..",
                  ".a.[0]", ".if", ".end", "env.HOME", "$ENV", ".[\"name\"]", "tostring", "not", "empty", ".[]?",
                  "length > 1", "@csv", "select(.a)", ".a // 1", "\"x\"", "1", ".a-b", "keys | .[0]")


def path(rng: random.Random) -> str:
    steps = []
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        step = rng.random()
        if step < 0.6:
            steps.append("." + rng.choice(("name", "version", "a", "b", "deps", "list", "n", "_k", "B2", "x")))
        elif step < 0.8:
            steps.append(f"[{rng.choice((0, 1, 2, 5, 10))}]")
        else:
            steps.append("[]")
    text = "".join(steps)
    return "." + text if not text or text.startswith("[") else text


def term(rng: random.Random) -> str:
    chosen = rng.random()
    if chosen < 0.6:
        return path(rng)
    if chosen < 0.88:
        return rng.choice(FUNCTIONS)
    return rng.choice(NEAR_FUNCTIONS)


def jq_filter(rng: random.Random) -> str:
    terms = [term(rng)]
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        terms.append(rng.choice((" | ", "|", ", ", ",")) + term(rng))
    return "".join(terms)


OPTIONS = ("", "", "", "-r ", "-c ", "-r ", "-S ", "-rc ", "-cr ", "-j ", "-c -S ")
NEAR_OPTIONS = ("-e ", "-a ", "--tab ", "-M ", "-C ", "--raw-output ", "-n ", "-s ", "--indent 1 ", "-- ")
READERS = ("head -n 3", "wc -l", "sort", "tr -d '\"'")
NAMES = ("package.json", "data.json", "a.json", "my file.json")


def options(rng: random.Random) -> str:
    return rng.choice(OPTIONS) if rng.random() < 0.8 else rng.choice(NEAR_OPTIONS)


def jq_line(rng: random.Random, present: list[str]) -> str:
    target = shlex.quote(rng.choice(present)) if present and rng.random() < 0.8 else rng.choice(
        ("missing.json", "d", "notes.txt", "package.json package.json", "-", ""))
    line = f"jq {options(rng)}{shlex.quote(jq_filter(rng))} {target}".rstrip()
    shape = rng.random()
    target = target or "missing.json"  # a redirection needs a word
    if shape < 0.1:
        return f"cat {target} | jq {shlex.quote(jq_filter(rng))}"
    if shape < 0.15:
        return f"jq {shlex.quote(jq_filter(rng))} < {target}"
    if shape < 0.3:
        return f"{line} | {rng.choice(READERS)}"
    if shape < 0.35:
        return f"{line} > out.json; cat out.json"
    if shape < 0.4:
        return f"jq {options(rng)}.{rng.choice(KEYS[:4])} {target}"  # unquoted, as agents type it
    return line


def jq_scenario(seed: int) -> Scenario:
    rng = random.Random(seed)
    made = Scenario(seed)
    for name in rng.sample(NAMES, rng.randint(1, len(NAMES))):
        made.files[name] = document(rng)
    made.files["notes.txt"] = b"not json\n"
    made.folders = ["d"]
    present = [name for name in made.files if name.endswith(".json")]
    made.lines = [jq_line(rng, present) for _ in range(rng.randint(2, 6))]
    return made
