"""awk programs the virtual shell may run: a small grammar of its own over the subset proven to print what this
machine's awk (Debian's mawk 1.3.4) prints, where the virtual shell's awk is gawk-like. Nothing is run here.

What the differential tests found between the two, and what keeps each difference out:
- Numbers: mawk prints an integer of 2**31 or more as `%.6g` (2.14748e+09), gawk in full; mawk reads `0x10`,
  `inf`, `nan` (and `INFO`) in a field as numbers, gawk as 0; `010` in the program is 8 to gawk. So values
  are bounded by the input (`value_cap`): an assignment reads no other variable, a product multiplies input
  values and constants only, a quotient divides by a whole number, there is no `^`; constants are small
  decimal integers; and a program that reads the input's text as numbers needs the world to know that text
  (`content_problem`: small plain numbers, and every field it compares present). Fractions print alike
  (`%.6g`, and printf's `%.Nf`).
- Regular expressions: mawk refuses empty alternatives and leading quantifiers the other accepts; classes,
  intervals and escapes other than of a metacharacter are not proven. Only literal `/re/` of basic ERE.
- substr from a start below 1 (mawk counts on, gawk clips), `\\q`-style escapes (mawk keeps the backslash),
  printf with too few arguments (mawk prints part), `for (k in a)` (the order of the keys differs: only
  where the output's order cannot show, as listings.py rules for directory order).
- Error messages all differ: the virtual shell's never pass allowlist.PROVEN_ERRORS.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .allowlist import operands, parsed_options


class AwkRefusal(Exception):
    """The awk program, or an option of the line, lies outside the proven subset."""


@dataclass
class Reading:
    """What the world must know for the program's result to be mawk's."""

    numbers: bool = False  # it computes numbers: the inputs' sizes bound the values
    fields_as_numbers: bool = False  # it reads the input's text as numbers: that text must be plain numbers
    sizes: bool = False  # lengths, NF or index computed with: values grow with the lines' lengths
    largest_constant: int = 1
    leaves: int = 0  # numeric terms and increments of the program (each may add a value per record)
    degree: int = 1  # the most input values a product multiplies together
    unordered: bool = False  # for (k in a): lines in an order mawk chooses
    input_read: bool = False  # a rule other than BEGIN: awk reads its files (END sees the last record)
    files: int = 0
    compared_field: int = 0  # the highest $N compared as a number: mawk compares a field beyond NF as a string
    separator: str = ""  # -F's, as awk reads it ("" for blanks)
    names_file: bool = False  # a main rule reads FILENAME


MAX_LEAVES = 8
MAX_DEGREE = 3
MAX_FILES_WITH_NUMBERS = 4
MAX_LINES = 1000  # per input of a program that does arithmetic
_VALUE_LIMIT = 2**31 - 1  # mawk prints integers beyond it as %.6g
_SPECIAL_READ = frozenset({"NR", "NF", "FNR"})
_RESERVED = frozenset({
    "BEGIN", "END", "print", "printf", "next", "if", "else", "for", "in", "while", "do", "getline", "function", "func",
    "return", "exit", "delete", "break", "continue", "nextfile", "system", "close", "fflush", "sub", "gsub", "match",
    "split", "sprintf", "srand", "rand", "int", "sin", "cos", "atan2", "exp", "log", "sqrt", "length", "substr",
    "tolower", "toupper", "index", "NR", "NF", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP", "RSTART",
    "RLENGTH", "CONVFMT", "OFMT", "ENVIRON", "ARGC", "ARGV"})
_FUNCTIONS = {"length": (0, 1), "substr": (2, 3), "tolower": (1, 1), "toupper": (1, 1), "index": (2, 2),
              "int": (1, 1)}
_TOKEN = re.compile(r"""
    (?P<space>[ \t]+)
  | (?P<number>(?:\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)(?![A-Za-z0-9_.]))
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\+\+|--|\+=|-=|\*=|/=|%=|\^=|==|!=|<=|>=|&&|\|\||!~|[-+*/%^!<>|?:~=$(){}\[\];,/])
""", re.VERBOSE)
_STRING_ESCAPES = re.compile(r'\\[nt\\"]')
# ERE: ordinary characters, `.`, anchors, groups, `* + ?`, brackets of plain characters and ranges, and escaped
# metacharacters.
_ORDINARY = re.compile(r"[^.\[\]()*+?{}|^$\\/]")
_ESCAPABLE = ".[]()*+?{}|^$\\/"
_RANGE = re.compile(r"[a-z]-[a-z]|[A-Z]-[A-Z]|[0-9]-[0-9]")
_PRINTF_CONVERSION = re.compile(r"%(?:%|-?0?\d{0,2}[sdi]|-?\d{0,2}\.\d{1,2}s|-?0?\d{0,2}(?:\.\d)?f)")
_SEPARATORS = re.compile(r"[,:;|=/_.@#%-]|\\t|[,:;=_ /-]{2,3}| ")
_ASSIGNED_VALUE = re.compile(r"-?[1-9]\d{0,5}|0|[A-Za-z_][A-Za-z0-9_]{0,30}")
_NUMERIC_WORD = re.compile(r"(?i)[+-]?(?:inf|nan)")


def read(arguments: list[str]) -> Reading:
    """The awk command's arguments (after `awk`): its -F and -v values and its program, or AwkRefusal."""
    given = operands("awk", arguments)
    if not given:
        raise AwkRefusal("awk without a program: mawk prints its usage")
    if any("=" in word for word in given[1:]):
        raise AwkRefusal("an operand NAME=value: awk assigns it between files")
    constants = [1]
    separator = ""
    outside: set[str] = set()  # -v names: whole numbers (a word is 0)
    for letter, value in parsed_options("awk", arguments):
        if letter == "F" and not (value and _SEPARATORS.fullmatch(value)):
            raise AwkRefusal(f"the field separator {value!r}: only a plain character or a short plain string")
        if letter == "F" and value:
            separator = "" if value == " " else "\t" if value == "\\t" else value
        if letter == "v":
            name, glued, text = (value or "").partition("=")
            if not glued or not re.fullmatch(r"[a-z_][a-zA-Z0-9_]*", name) or name in _RESERVED or \
                    not _ASSIGNED_VALUE.fullmatch(text) or _NUMERIC_WORD.match(text):
                raise AwkRefusal(f"-v {value!r}: only a lowercase name given a small integer or a plain word")
            if text.lstrip("-").isdigit():
                constants.append(abs(int(text)))
            outside.add(name)
    reading = _Parser(_tokens(given[0]), outside).program()
    reading.largest_constant = max(reading.largest_constant, *constants)
    reading.files = len(given) - 1
    if reading.names_file and (not reading.files or "-" in given[1:]):
        raise AwkRefusal("FILENAME of the standard input: awks name it otherwise")
    reading.separator = separator
    if reading.numbers and reading.files > MAX_FILES_WITH_NUMBERS:
        raise AwkRefusal("arithmetic over that many files is not bounded here")
    if reading.largest_constant > value_cap(reading):
        raise AwkRefusal("a constant large enough for awk's values to reach 2**31")
    return reading


def value_cap(reading: Reading) -> int:
    """The largest number, line length and constant under which no value reaches 2**31: each record adds at most
    `leaves` terms to a variable (no assignment reads another), a value sums at most `leaves` of those, over at
    most MAX_LINES records a file (twice, for BEGIN, END and a for-in's keys); a product multiplies no variable
    or record count, and a quotient's divisor is a whole number (its value no larger than the dividend's)."""
    leaves = max(reading.leaves, 1)
    base = _VALUE_LIMIT // (leaves * leaves * max(reading.files, 1) * MAX_LINES * 2)
    cap = int(base ** (1 / reading.degree))  # a product of `degree` values, each at most the cap
    while cap ** reading.degree > base:
        cap -= 1
    return cap


def content_check(reading: Reading) -> str | None:
    """What text_tools.needs_known_content asks of each input, "awk FIELDS SIZES CAP COMPARED SEPARATOR" (see
    content_problem), or None when the program's values do not depend on what the input holds."""
    if not (reading.numbers or reading.fields_as_numbers) or not reading.input_read:
        return None
    cap = value_cap(reading) if reading.numbers else 0
    separator = reading.separator.encode().hex() or "-"
    return f"awk {int(reading.fields_as_numbers)} {int(reading.sizes)} {cap} {reading.compared_field} {separator}"


_NUMBER_TEXT = re.compile(rb"\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?")
_NOT_PLAIN_NUMBER = re.compile(rb"(?i)0x|inf|nan")


def content_problem(check: str, content: bytes) -> str | None:
    """Why an input fails an awk check (see value_cap), or None: its numbers read alike in mawk and gawk, and
    no value the program makes of them reaches 2**31, where mawk prints integers as %.6g."""
    _, as_numbers, sizes, cap, compared, separator = check.split()
    if as_numbers == "1" and _NOT_PLAIN_NUMBER.search(content):
        return "its input holds hex, inf or nan, which mawk reads as numbers and the virtual shell as 0"
    lines = content.split(b"\n")
    records = lines[:-1] if content.endswith(b"\n") else lines if content else []
    split = bytes.fromhex(separator) if separator != "-" else None
    if any(len(record.split(split) if record else []) < int(compared) for record in records):
        return "a record without the field it compares: mawk compares it as a string, the virtual shell as 0"
    largest = max([float(text) for text in _NUMBER_TEXT.findall(content)] + [0.0]) if as_numbers == "1" else 0.0
    longest = max(len(line) for line in lines) if sizes == "1" else 0
    if int(cap) and (len(lines) > MAX_LINES or max(largest, longest) > int(cap)):
        return "its input is large enough for awk's values to reach 2**31, where mawk prints them otherwise"
    return None


def _tokens(text: str) -> list[tuple[str, str]]:
    """The program's tokens as (kind, text); regex literals where an operand may start."""
    found: list[tuple[str, str]] = []
    position = 0
    while position < len(text):
        if text[position] == "/" and _regex_may_start(found):
            end = _regex_end(text, position + 1)
            _check_regex(text[position + 1:end])
            found.append(("regex", text[position + 1:end]))
            position = end + 1
            continue
        match = _TOKEN.match(text, position)
        if not match:
            raise AwkRefusal(f"awk program text {text[position:position + 10]!r} is outside the proven subset")
        kind = match.lastgroup or ""
        if kind != "space":
            found.append((kind, match.group()))
        position = match.end()
    return found


def _regex_may_start(found: list[tuple[str, str]]) -> bool:
    if not found:
        return True
    kind, text = found[-1]
    return kind == "op" and text not in (")", "]", "$", "++", "--")


def _regex_end(text: str, start: int) -> int:
    position = start
    while position < len(text):
        if text[position] == "\\":
            position += 2
            continue
        if text[position] == "/":
            return position
        position += 1
    raise AwkRefusal("a regular expression without its closing /")


def _check_regex(pattern: str) -> None:
    """Basic ERE only: no empty alternative or group, no quantifier without an atom, no intervals or classes."""
    problem = f"the regular expression /{pattern}/: only basic ERE (no classes, intervals, empty parts) is proven"
    position, depth = 0, 0
    atoms = 0  # atoms in the current branch
    previous = ""  # "atom" | "quantifier" | "" (start of a branch)
    while position < len(pattern):
        char = pattern[position]
        if char == "\\":
            if position + 1 >= len(pattern) or pattern[position + 1] not in _ESCAPABLE:
                raise AwkRefusal(problem)
            position, previous = position + 2, "atom"
        elif char in "*+?":
            if previous != "atom":
                raise AwkRefusal(problem)
            position, previous = position + 1, "quantifier"
        elif char == "|":
            if not atoms:
                raise AwkRefusal(problem)
            position, previous, atoms = position + 1, "", -1
        elif char == "(":
            depth += 1
            position, previous, atoms = position + 1, "", -1
        elif char == ")":
            if depth == 0 or previous == "" or atoms < 0 and previous != "atom":
                raise AwkRefusal(problem)
            depth -= 1
            position, previous = position + 1, "atom"
        elif char == "[":
            position, previous = _bracket_end(pattern, position + 1, problem), "atom"
        elif char == "^":
            if previous != "" or atoms > 0 or depth:
                raise AwkRefusal(problem)
            position += 1
            atoms = max(atoms, 0)
            continue
        elif char == "$":
            if depth or position + 1 < len(pattern) and pattern[position + 1] != "|":
                raise AwkRefusal(problem)
            position, previous = position + 1, "atom"
        elif char == "." or _ORDINARY.fullmatch(char):
            position, previous = position + 1, "atom"
        else:
            raise AwkRefusal(problem)
        atoms = max(atoms, 0) + (previous == "atom")
    if depth or not atoms:  # (an empty // too)
        raise AwkRefusal(problem)


def _bracket_end(pattern: str, start: int, problem: str) -> int:
    """Past a bracket expression of plain characters and a-z, A-Z, 0-9 ranges; `]` first and `-` at an end are
    literal."""
    position = start + (pattern[start:start + 1] == "^")
    body_start = position
    if pattern[position:position + 1] == "]":
        position += 1
    while position < len(pattern) and pattern[position] != "]":
        char = pattern[position]
        if char in "[\\" or char == "-" and position != body_start and pattern[position + 1:position + 2] != "]":
            raise AwkRefusal(problem)  # (a `-` neither first nor last nor in a range: awks read it otherwise)
        if position + 2 < len(pattern) and pattern[position + 1] == "-" and pattern[position + 2] != "]":
            if not _RANGE.fullmatch(pattern[position:position + 3]) or char > pattern[position + 2]:
                raise AwkRefusal(problem)
            position += 3
            continue
        position += 1
    if position >= len(pattern) or position == body_start:
        raise AwkRefusal(problem)
    return position + 1


@dataclass
class _Expression:
    kind: str  # "num" | "str" | "strnum" (a field's or a variable's text: a number where it looks like one)
    name: str = ""  # the variable (or array) it reads
    constant: int | None = None
    field: int | None = None  # $N's N (-1: an index computed when it runs)
    degree: int = 1  # how many input values it multiplies
    grows: bool = False  # it reads a variable or a record count: up to the records times a value
    whole: bool = False  # a whole number, never a fraction of 1: a divisor that cannot grow a quotient
    bare_not: bool = False  # `!x` unparenthesized: awks bind an operator after it differently


@dataclass
class _Parser:
    tokens: list[tuple[str, str]]
    outside: set[str] = field(default_factory=set)
    at: int = 0
    reading: Reading = field(default_factory=Reading)
    scalars: set[str] = field(default_factory=set)
    arrays: set[str] = field(default_factory=set)
    assigned_kinds: dict[str, set[str]] = field(default_factory=dict)
    read_as_numbers: set[str] = field(default_factory=set)
    compared_names: set[str] = field(default_factory=set)
    divisor_names: set[str] = field(default_factory=set)
    computed_names: set[str] = field(default_factory=set)
    variables_read: int = 0
    in_print: int = 0  # inside print's arguments, outside parentheses: `>` and `<` would redirect
    loop: tuple[str, str] | None = None  # inside `for (key in array)`: its key and array
    keys: set[str] = field(default_factory=set)
    section: str = ""  # BEGIN | END | main

    # --- the program ---------------------------------------------------------------------------------------
    def program(self) -> Reading:
        if not self.tokens:
            raise AwkRefusal("an empty awk program")
        items = 0
        while self.at < len(self.tokens):
            if not self._take("op", ";"):
                self._item()
                items += 1
        if not items:
            raise AwkRefusal("an awk program of no rule")
        if self.scalars & self.arrays:
            raise AwkRefusal("a name used as a variable and as an array")
        if self.reading.leaves > MAX_LEAVES:
            raise AwkRefusal("an awk program with that many numeric terms is not bounded here")
        for name in self.outside:
            self.assigned_kinds.setdefault(name, set()).add("count")
        if any(self.assigned_kinds.get(name, set()) - {"count"} for name in self.divisor_names):
            raise AwkRefusal("a divisor that may be a fraction: the quotient may outgrow what the input bounds")
        if any(self.assigned_kinds.get(name, set()) & {"str", "key"} for name in self.computed_names):
            raise AwkRefusal("a variable holding text the program made (or a key) computed with as a number")
        if any(self.assigned_kinds.get(name, set()) - {"num", "count"} for name in self.compared_names):
            raise AwkRefusal("a variable holding text (a field's, a key) compared as a number")
        if any(self.assigned_kinds.get(name, set()) - {"num", "count"} for name in self.read_as_numbers):
            self.reading.fields_as_numbers = True  # a variable holding a field's text, read as a number
        return self.reading

    def _item(self) -> None:
        if self._take("name", "BEGIN") or self._take("name", "END"):
            self.section = self.tokens[self.at - 1][1]
            self.reading.input_read = self.reading.input_read or self.section == "END"  # END's $0 is the last record
            self._block()
            return
        self.section = "main"
        self.reading.input_read = True
        if not self._peek("op", "{"):
            self._as_condition(self._expression())
            if self._peek("op", ","):
                raise AwkRefusal("a range pattern")
            if not self._peek("op", "{"):
                if self.at < len(self.tokens) and not self._peek("op", ";"):
                    raise AwkRefusal("a pattern followed by more than its action: awks join them otherwise")
                return
        self._block()

    def _block(self) -> None:
        self._expect("op", "{")
        while not self._take("op", "}"):
            if self.at >= len(self.tokens):
                raise AwkRefusal("a block without its closing }")
            if not self._take("op", ";"):
                self._statement()
                if not (self._peek("op", ";") or self._peek("op", "}")):
                    raise AwkRefusal("statements not separated by ;")

    def _statement(self) -> None:
        if self._peek("op", "{"):
            self._block()
        elif self._take("name", "print"):
            self._print()
        elif self._take("name", "printf"):
            self._printf()
        elif self._take("name", "next"):
            if self.section != "main" or self.loop:
                raise AwkRefusal("next in BEGIN or END")
        elif self._take("name", "if"):
            self._expect("op", "(")
            self._as_condition(self._expression())
            self._expect("op", ")")
            self._statement()
            if self._peek("op", ";") and self.tokens[self.at + 1:self.at + 2] == [("name", "else")]:
                self.at += 1
            if self._take("name", "else"):
                self._statement()
        elif self._take("name", "for"):
            self._for_in()
        else:
            self._assignment()

    def _print(self) -> None:
        if not (self._peek("op", ";") or self._peek("op", "}")):
            self._arguments()
        if self._peek("op", ">") or self._peek("op", "|") or self._peek("op", "<"):
            raise AwkRefusal("print into a file or a command")

    def _arguments(self) -> list[_Expression]:
        self.in_print += 1
        given = [self._expression()]
        while self._take("op", ","):
            given.append(self._expression())
        self.in_print -= 1
        return given

    def _printf(self) -> None:
        kind, text = self._next()
        if kind != "string":
            raise AwkRefusal("printf with a format other than a string constant")
        body = text[1:-1]
        if "\\" in _STRING_ESCAPES.sub("", body):
            raise AwkRefusal("an escape other than \\n \\t \\\\ \\\" in a string")
        if "%" in _PRINTF_CONVERSION.sub("", body):
            raise AwkRefusal("a printf conversion other than %s %d %i %f %% with a width")
        wanted = [conversion for conversion in _PRINTF_CONVERSION.findall(body) if conversion != "%%"]
        given = self._arguments() if self._take("op", ",") else []
        if len(given) != len(wanted):
            raise AwkRefusal("printf with other than one argument per conversion (mawk prints part of too few)")
        for conversion, argument in zip(wanted, given):
            if conversion[-1] in "dif":
                self._as_number(argument)  # mawk's %d of a value beyond its integers is unproven: bounded too
        if self._peek("op", ">") or self._peek("op", "|") or self._peek("op", "<"):
            raise AwkRefusal("printf into a file or a command")

    def _for_in(self) -> None:
        """for (key in array) with a body that only prints key and array[key]: the keys come in an order of each
        awk's own, so nothing may depend on it but the order of whole lines (listings.follow)."""
        self._expect("op", "(")
        key = self._name()
        self._expect("name", "in")
        array = self._name()
        self._expect("op", ")")
        if self.loop or key in self.keys or key in self.assigned_kinds or key in self.scalars:
            raise AwkRefusal("for (k in a) nested, or over a key variable used elsewhere")
        self.scalars.add(key)
        self.keys.add(key)
        self.assigned_kinds[key] = {"key"}  # text: compared as a number, the awks differ
        self.arrays.add(array)
        self.reading.unordered = True
        self.loop = (key, array)
        self._statement()
        self.loop = None

    def _assignment(self) -> None:
        """name = e, name += e, name -= e, name++, ++name (and the same of name[e]): the right side reads no
        variable, so no value grows by more than the terms of the program per record."""
        if self.loop:
            raise AwkRefusal("an assignment in a for-in loop: what it leaves depends on the keys' order")
        if self._take("op", "++") or self._take("op", "--"):
            self._counted(self._lvalue())
            return
        name = self._lvalue()
        if self._take("op", "++") or self._take("op", "--"):
            self._counted(name)
            return
        kind, operator = self._next()
        if kind != "op" or operator not in ("=", "+=", "-="):
            raise AwkRefusal(f"the statement part {operator!r}")
        self.variables_read = 0
        value = self._expression()
        if self.variables_read:
            raise AwkRefusal("an assignment that reads a variable: values may grow faster than the input")
        if operator != "=":
            self._as_number(value)
        self.assigned_kinds.setdefault(name, set()).add(value.kind if operator == "=" else "num")

    def _counted(self, name: str) -> None:
        self.assigned_kinds.setdefault(name, set()).add("count")  # a whole number
        self.reading.numbers = True
        self.reading.leaves += 1

    def _lvalue(self) -> str:
        name = self._name()
        if name in self.keys:
            raise AwkRefusal("a for-in key assigned")
        if self._take("op", "["):
            self._expression()
            self._expect("op", "]")
            self.arrays.add(name)
        else:
            self.scalars.add(name)
        return name

    # --- expressions, lowest precedence first ------------------------------------------------------------------
    def _expression(self) -> _Expression:
        left = self._and()
        while self._take("op", "||"):
            self._as_condition(left)
            self._as_condition(self._and())
            left = _Expression("num")
        return left

    def _and(self) -> _Expression:
        left = self._match()
        while self._take("op", "&&"):
            self._as_condition(left)
            self._as_condition(self._match())
            left = _Expression("num")
        return left

    def _match(self) -> _Expression:
        left = self._comparison()
        if self._take("op", "~") or self._take("op", "!~"):
            _no_bare_not(left)
            kind, _ = self._next()
            if kind != "regex":
                raise AwkRefusal("a match against other than a /regex/ constant")
            return _Expression("num")
        return left

    def _comparison(self) -> _Expression:
        left = self._concatenation()
        relations = ("==", "!=", "<=", ">=") + (() if self.in_print else ("<", ">"))
        if not any(self._peek("op", relation) for relation in relations):
            return left
        _no_bare_not(left)
        self.at += 1
        right = self._concatenation()
        if "str" not in (left.kind, right.kind):  # against a string constant the comparison is of strings
            for side in (left, right):
                self._compared_as_number(side)
        if self._peek("op") and self.tokens[self.at][1] in ("==", "!=", "<=", ">=", "<", ">"):
            raise AwkRefusal("chained comparisons")
        return _Expression("num")

    def _concatenation(self) -> _Expression:
        left = self._additive()
        while self._starts_operand():
            _no_bare_not(left)
            self._additive()
            left = _Expression("str")
        return left

    def _starts_operand(self) -> bool:
        if self.at >= len(self.tokens):
            return False
        kind, text = self.tokens[self.at]
        if kind in ("number", "string"):
            return True
        if kind == "name":
            return text not in ("in", "else", "BEGIN", "END", "print", "printf", "next", "if", "for")
        return kind == "op" and text in ("$", "(")  # (after an operand, `!x` is no operand to gawk)

    def _additive(self) -> _Expression:
        left = self._remainder()
        while self._peek("op", "+") or self._peek("op", "-"):
            _no_bare_not(left)
            self.at += 1
            right = self._remainder()
            self._as_number(left)
            self._as_number(right)
            left = _Expression("num", degree=max(left.degree, right.degree), grows=left.grows or right.grows)
        return left

    def _remainder(self) -> _Expression:
        """`*`, `/`, `%`: a product of input values and constants only (no variable, no record count: their
        products outgrow the input's bound), a quotient by a whole number, a remainder no larger than its
        dividend."""
        left = self._unary()
        while self._peek("op") and self.tokens[self.at][1] in ("*", "/", "%"):
            operator = self._next()[1]
            _no_bare_not(left)
            right = self._unary()
            self._as_number(left)
            self._as_number(right)
            if operator == "*" and (left.grows or right.grows):
                raise AwkRefusal("a product of a variable or a record count: values may grow past the input's bound")
            if operator == "/" and not right.whole:
                raise AwkRefusal("a quotient by other than a whole number: it may outgrow the dividend")
            if operator == "/" and right.name:
                self.divisor_names.add(right.name)
            degree = left.degree + right.degree if operator == "*" else left.degree
            if degree > MAX_DEGREE:
                raise AwkRefusal("a product of that many values")
            self.reading.degree = max(self.reading.degree, degree)
            left = _Expression("num", degree=degree, grows=left.grows or right.grows)
        if self._peek("op") and self.tokens[self.at][1] in ("^", "*=", "/=", "%=", "^=", "?", ":"):
            raise AwkRefusal(f"the operator {self.tokens[self.at][1]!r}: its values are not proven alike")
        return left

    def _unary(self) -> _Expression:
        if self._take("op", "!"):
            self._as_condition(self._unary())
            return _Expression("num", bare_not=True)
        if self._take("op", "-") or self._take("op", "+"):
            value = self._unary()
            self._as_number(value)
            return _Expression("num", degree=value.degree, grows=value.grows)
        if self._peek("op", "++") or self._peek("op", "--"):
            raise AwkRefusal("an increment inside an expression")
        value = self._primary()
        if self._peek("op", "++") or self._peek("op", "--"):
            raise AwkRefusal("an increment inside an expression")
        return value

    def _primary(self) -> _Expression:
        kind, text = self._next()
        if kind == "number":
            if not re.fullmatch(r"0|[1-9]\d{0,5}", text):
                raise AwkRefusal(f"the number {text}: only small decimal integers")
            self.reading.largest_constant = max(self.reading.largest_constant, int(text))
            return _Expression("num", constant=int(text), whole=int(text) >= 1)
        if kind == "string":
            if "\\" in _STRING_ESCAPES.sub("", text[1:-1]):
                raise AwkRefusal("an escape other than \\n \\t \\\\ \\\" in a string")
            return _Expression("str")
        if kind == "regex":
            return _Expression("num")  # $0 ~ /re/
        if (kind, text) == ("op", "$"):
            return self._field()
        if (kind, text) == ("op", "("):
            inside, self.in_print = self.in_print, 0
            value = self._expression()
            self.in_print = inside
            self._expect("op", ")")
            return _Expression(value.kind, value.name, value.constant, value.field, value.degree, value.grows,
                               value.whole)
        if kind == "name":
            return self._named(text)
        raise AwkRefusal(f"awk program text {text!r} where a value belongs")

    def _field(self) -> _Expression:
        kind, text = self._next()
        if kind == "number" and re.fullmatch(r"0|[1-9]\d{0,2}", text):
            return _Expression("strnum", field=int(text))
        if (kind, text) == ("name", "NF"):
            return _Expression("strnum", field=-1)
        if (kind, text) == ("op", "("):
            index = self._expression()
            self._as_number(index)
            self._expect("op", ")")
            return _Expression("strnum", field=-1 if index.constant is None else index.constant)
        raise AwkRefusal(f"the field ${text}")

    def _named(self, name: str) -> _Expression:
        if name in _FUNCTIONS:
            return self._call(name)
        if name in _SPECIAL_READ:
            self.reading.sizes = self.reading.sizes or name == "NF"
            return _Expression("num", grows=name != "NF", whole=True)  # (0 as a divisor: an error, refused)
        if name == "FILENAME" and self.section == "main":
            self.reading.names_file = True  # the operand as typed: a file awk reads (not the standard input)
            return _Expression("str")
        if name in _RESERVED:
            raise AwkRefusal(f"{name}: outside the proven subset of awk")
        if self._peek("op", "("):
            raise AwkRefusal(f"{name}(: a call of a function the program does not define, or a concatenation")
        self.variables_read += 1
        if name in self.keys and (self.loop is None or self.loop[0] != name):
            raise AwkRefusal("a for-in key read outside its loop: it holds the key mawk gave last")
        if self._take("op", "["):
            if self.loop and not (self._take("name", self.loop[0]) and self._peek("op", "]")
                                  and name == self.loop[1]):
                raise AwkRefusal("an element other than array[key] read in a for-in loop: it may add a key")
            if not self.loop:
                self._expression()
            self._expect("op", "]")
            self.arrays.add(name)
        else:
            self.scalars.add(name)
        return _Expression("strnum", name=name, grows=True, whole=True)  # (whole: checked once all is read)

    def _call(self, name: str) -> _Expression:
        least, most = _FUNCTIONS[name]
        if name == "length" and not self._peek("op", "("):
            if self._starts_operand():
                raise AwkRefusal("length followed by an operand: awks read it differently")
            self.reading.sizes = True
            return _Expression("num", whole=True)
        self._expect("op", "(")
        arguments: list[_Expression] = []
        if not self._peek("op", ")"):
            arguments.append(self._expression())
            while self._take("op", ","):
                arguments.append(self._expression())
        self._expect("op", ")")
        if not least <= len(arguments) <= most:
            raise AwkRefusal(f"{name} with {len(arguments)} arguments")
        if name == "substr":
            # mawk counts on from a start below 1 where gawk clips: a start and length read from the input could
            # be anything, so both are constants, the start from 1.
            if any(argument.constant is None for argument in arguments[1:]) or (arguments[1].constant or 0) < 1:
                raise AwkRefusal("substr with other than constant bounds from 1")
            return _Expression("str")
        if name in ("length", "index"):
            self.reading.sizes = True
            return _Expression("num", whole=True)
        if name == "int":
            self._as_number(arguments[0])
            return _Expression("num", degree=arguments[0].degree, grows=arguments[0].grows)
        return _Expression("str")

    # --- uses ------------------------------------------------------------------------------------------------
    def _as_number(self, value: _Expression) -> None:
        """A term of arithmetic: it makes a value. Text the program made (`$2 $2`, "99999999999") would be a number
        as large as its digits, past what the input bounds."""
        if value.kind == "str":
            raise AwkRefusal("text the program made, computed with as a number")
        if value.name:
            self.computed_names.add(value.name)
        self.reading.numbers = True
        self.reading.leaves += 1
        self._read_as_number(value)

    def _compared_as_number(self, value: _Expression) -> None:
        """mawk compares a field beyond NF (and so a variable or a key that may hold one, or any field in BEGIN
        or END) as a string, the virtual shell as 0: only a field of a constant index, which shell.py finds in
        every record."""
        self._read_as_number(value)
        if value.field is not None and (value.field < 0 or self.section != "main"):
            raise AwkRefusal("a field of a computed index, or in BEGIN or END, compared as a number")
        if value.field is not None:
            self.reading.compared_field = max(self.reading.compared_field, value.field)
        if value.kind == "strnum" and value.name:
            self.compared_names.add(value.name)

    def _read_as_number(self, value: _Expression) -> None:
        """Compared or printed as a number: text read from the input (a field, or made of one) must be a plain
        number, which shell.py checks."""
        if value.name:
            self.read_as_numbers.add(value.name)
        elif value.kind != "num":
            self.reading.fields_as_numbers = True

    def _as_condition(self, value: _Expression) -> None:
        """A pattern or operand of && || !: a field's or variable's text is true as a number where it looks like
        one (`0x0` is 0 to mawk)."""
        if value.kind == "strnum":
            self._read_as_number(value)

    # --- tokens ----------------------------------------------------------------------------------------------
    def _peek(self, kind: str, text: str | None = None) -> bool:
        if self.at >= len(self.tokens):
            return False
        found = self.tokens[self.at]
        return found[0] == kind and (text is None or found[1] == text)

    def _take(self, kind: str, text: str) -> bool:
        if self._peek(kind, text):
            self.at += 1
            return True
        return False

    def _next(self) -> tuple[str, str]:
        if self.at >= len(self.tokens):
            raise AwkRefusal("an awk program that ends early")
        self.at += 1
        return self.tokens[self.at - 1]

    def _expect(self, kind: str, text: str) -> None:
        if not self._take(kind, text):
            raise AwkRefusal(f"awk program text where {text!r} belongs")

    def _name(self) -> str:
        kind, text = self._next()
        if kind != "name" or text in _RESERVED:
            raise AwkRefusal(f"{text!r} where a variable's name belongs")
        return text


def _no_bare_not(value: _Expression) -> None:
    if value.bare_not:
        raise AwkRefusal("an operator after an unparenthesized !x: awks bind it differently")
