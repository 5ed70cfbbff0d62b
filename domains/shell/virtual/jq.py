"""jq: the filters and documents whose output the virtual shell's jq (it reports jq-1.8) prints exactly as
Debian's jq 1.6 does, proven by tests/integration/test_computed_families_generated.py against the real one.

Filters: paths (`.`, `.name`, `.a.b`, `.[0]`, `.[]`, `.a[]`), `keys`, `keys_unsorted`, `length` and `type`,
joined by `|` and `,`. Documents: one JSON value whose numbers and strings both print alike. What differs:
- numbers: jq 1.6 prints a float that is whole as an integer (`1.0`, `1e3` -> `1`, `1000`), the virtual shell
  keeps `1.0`, `1000.0`; jq 1.6 keeps 17 significant digits (`12345678901234567` -> `12345678901234568`) and
  writes small ones `1e-05` where the virtual shell writes `0.00001`, `1e-6`; so only integers of up to 15
  digits and decimals without exponent, trailing zero or more than 15 digits, from 0.0001 up, are proven;
- errors: `keys` of a non-object says "has no keys" in jq 1.6, "Cannot iterate over" in the virtual shell;
  `length` of a boolean words it otherwise; parse errors differ wholly (words and exit status 4 against 5):
  a run of a filter with `keys` or `length` that prints an error is the model's, and so is a document that is
  not valid JSON;
- a lone surrogate escape (`"\\ud800"`) is a parse error in both but worded otherwise: refused (a pair is fine);
- jq 1.6 reads `.if`, `.then` ... (keywords) as a syntax error, 1.7 on as a field: refused.
Nothing is run here.
"""

from __future__ import annotations

import json
import re

# Words of jq 1.6's grammar that are no field name after a dot there.
_KEYWORDS = frozenset({"def", "as", "if", "then", "elif", "else", "end", "reduce", "foreach", "try", "catch", "label",
                       "import", "include", "and", "or", "not", "__loc__"})
_FUNCTIONS = ("keys_unsorted", "keys", "length", "type")
FAILING_UNLIKE_GNU = frozenset({"jq keys", "jq keys_unsorted", "jq length"})  # their errors read otherwise in jq 1.6
_INDEX = r"\[(?:0|[1-9][0-9]?)?\]"  # [N] (N < 100) or []
_STEP = rf"(?:\.[A-Za-z_][A-Za-z0-9_]*|{_INDEX})"
# A path (`.`, or a dot and steps: `.a.b[0]`, `.[]`) or a function with indexes after it (`keys[]`).
_TERM = re.compile(rf"\.|\.(?:[A-Za-z_][A-Za-z0-9_]*|{_INDEX})(?:{_STEP})*|(?:{'|'.join(_FUNCTIONS)})(?:{_INDEX})*")
_SEPARATOR = re.compile(r"\s*[|,]\s*")
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]{0,14})")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]*[1-9]")
MAX_DEPTH = 32


def filter_problem(text: str) -> str | None:
    """Why this filter is not among those proven, or None."""
    parts = _SEPARATOR.split(text.strip())
    for part in parts:
        if not _TERM.fullmatch(part):
            return f"the jq filter {text[:40]!r}: only paths, keys, length and type joined by | and , are proven"
        if any(name in _KEYWORDS for name in re.findall(r"\.([A-Za-z_][A-Za-z0-9_]*)", part)):
            return "a field named as a jq 1.6 keyword: jq 1.6 reads it as a syntax error"
    return None


def forms(text: str) -> set[str]:
    """The functions a (proven) filter calls, as forms: "jq keys", "jq length" ..."""
    called = re.findall(r"(?<![.\w])(keys_unsorted|keys|length|type)\b", text)
    return {f"jq {name}" for name in called}


def document_problem(content: bytes) -> str | None:
    """Why jq 1.6 may print this document's values otherwise than the virtual shell, or None."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return "a JSON document that is not UTF-8"
    try:
        value = json.loads(text, parse_int=_integer, parse_float=_decimal, parse_constant=_constant,
                           object_pairs_hook=_object)
    except ValueError as error:
        return f"not one JSON document jq 1.6 prints alike ({str(error)[:60]}): its errors are worded otherwise"
    except RecursionError:
        return "a JSON document nested too deep"
    if _depth(value) > MAX_DEPTH:
        return "a JSON document nested too deep"
    try:  # a lone surrogate escape (`"\\ud800"`) reads as a lone surrogate, which UTF-8 cannot hold
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return "a JSON document with a lone surrogate escape: an error both refuse, worded otherwise"
    return None


def _integer(text: str) -> int:
    if not _INTEGER.fullmatch(text) or text == "-0":
        raise ValueError(f"the integer {text[:20]}: jq 1.6 keeps 17 significant digits")
    return int(text)


def _decimal(text: str) -> float:
    digits = text.lstrip("-").replace(".", "").lstrip("0")
    if not _DECIMAL.fullmatch(text) or len(digits) > 15 or abs(float(text)) < 0.0001:
        raise ValueError(f"the number {text[:20]}: jq 1.6 writes such floats otherwise")
    return float(text)


def _constant(text: str) -> float:
    raise ValueError(f"{text} is no JSON")


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError("an object with a key twice")
    return dict(pairs)


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(item) for item in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(item) for item in value), default=0)
    return 0
