"""Reading a Makefile as GNU make reads it (the GNU make manual), for the recipe lines `make TARGET` runs,
never running it.

What is read: rules (`targets: prerequisites`, `;` recipes, `::` rules, order-only prerequisites after
`|`), recipe lines (those starting with the recipe prefix, a tab unless `.RECIPEPREFIX` says otherwise),
backslash-newline continuations, comments, variables (`=`, `:=`, `::=`, `:::=`, `?=`, `+=`, `define`,
with `override`, `export` and `private`), target-specific variables, `.DEFAULT_GOAL`, `.ONESHELL`, and
`include` of a file the workspace can read. In a recipe, `$(VAR)`, `${VAR}`, `$V`, `$$`, substitution
references (`$(VAR:.c=.o)`) and the automatic variables (`$@`, `$<`, `$^`, `$+`, `$?`, `$|`, and their
`D`/`F` forms) are expanded; a variable the Makefile never sets is the environment's, left for the shell
reading to see as the line's variable of that name.

A make function's value is a word the shell reading sees as unknown, so the program it reaches decides
(`$(shell CMD)` is the shell's `$(CMD)`, whose command is read); a prerequisite list that holds one may name
any target, so every target with a recipe is read. What is not followed, and named so (the guard then asks):
a variable the Makefile sets by a means the reading does not compute (`!=`, inside a conditional),
`include` of a file it cannot read or name, `$(eval ...)`, and a target made by a pattern rule (`%`). Both
branches of a conditional are read: a rule in either may be the one make uses.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

MAX_INCLUDES = 8
MAX_PREREQUISITE_DEPTH = 8
MAX_EXPANSION_DEPTH = 16
_ASSIGNMENT = re.compile(r"^([^\s:#=]+)\s*(::?:?=|\?=|\+=|!=|=)\s*(.*)$", re.DOTALL)
_CONDITIONAL = re.compile(r"^(ifeq|ifneq|ifdef|ifndef)\b")
# GNU make's built-in variables (manual, "Variables Used by Implicit Rules"); the flags variables are empty.
_BUILT_IN = {"AR": "ar", "AS": "as", "CC": "cc", "CXX": "g++", "CPP": "$(CC) -E", "FC": "f77", "LEX": "lex",
             "YACC": "yacc", "LINT": "lint", "MAKEINFO": "makeinfo", "TEX": "tex", "RM": "rm -f", "ARFLAGS": "rv",
             "MAKE": "make", "SHELL": "/bin/sh"}


@dataclass(frozen=True)
class Variable:
    value: str | None  # None: set by what the reading does not compute
    recursive: bool = True  # `=`: expanded where it is used


@dataclass
class Rule:
    prerequisites: list[str] = field(default_factory=list)
    recipe: list[str] = field(default_factory=list)
    variables: dict[str, Variable] = field(default_factory=dict)  # target-specific
    unread: list[str] = field(default_factory=list)  # why its prerequisites or recipe are not all known
    computed: bool = False  # a prerequisite is only known when make runs: it may be any target


@dataclass
class Makefile:
    rules: dict[str, Rule] = field(default_factory=dict)
    variables: dict[str, Variable] = field(default_factory=dict)
    command_line: dict[str, str | None] = field(default_factory=dict)  # `make VAR=value`: over the Makefile's
    first_target: str | None = None
    patterns: list[str] = field(default_factory=list)  # targets of pattern rules
    unread: list[str] = field(default_factory=list)  # what makes every target's reading uncertain
    recipe_prefix: str = "\t"

    @property
    def default_goal(self) -> str | None:
        goal = self.variables.get(".DEFAULT_GOAL")
        return goal.value.strip() if goal is not None and goal.value else self.first_target

    @property
    def one_shell(self) -> bool:
        return ".ONESHELL" in self.rules

    def lookup_for(self, target: str | None) -> Lookup:
        """How a reference is looked up in `target`'s recipe (None: while the Makefile is read)."""
        return _lookup(self, self.rules.get(target) if target else None, target)


@dataclass(frozen=True)
class Step:
    """One target's recipe, as shell code, in the order make runs them (prerequisites first)."""

    target: str
    lines: tuple[tuple[str, str], ...]  # (prefix characters `@-+`, the expanded shell code)
    unread: tuple[str, ...]  # why what this target runs is not all known


def read_makefile(text: str, include: Callable[[str], str | None],
                  command_line: dict[str, str | None] | None = None) -> Makefile:
    """The Makefile in `text`; `include(name)` gives an included file's text (None where it cannot)."""
    makefile = Makefile(command_line=dict(command_line or {}))
    _read(makefile, text, include, 0)
    return makefile


def _read(makefile: Makefile, text: str, include: Callable[[str], str | None], depth: int) -> None:
    lines = text.split("\n")
    targets: list[str] = []  # the rule recipe lines belong to
    conditional = 0  # inside a conditional: both branches are read
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.startswith(makefile.recipe_prefix) and targets:
            recipe = line[len(makefile.recipe_prefix):]
            while recipe.endswith("\\") and index < len(lines):  # the shell sees the backslash-newline
                following = lines[index]
                index += 1
                recipe += "\n" + (following[1:] if following.startswith(makefile.recipe_prefix) else following)
            for target in targets:
                makefile.rules[target].recipe.append(recipe)
            continue
        while line.endswith("\\") and index < len(lines):
            line = line[:-1] + " " + lines[index].lstrip()
            index += 1
        line = _without_comment(line).strip()
        if not line:
            continue
        word = line.split()[0]
        if word == "define":
            body: list[str] = []
            while index < len(lines) and lines[index].strip() != "endef":
                body.append(lines[index])
                index += 1
            index += 1
            name = line.split()[1] if len(line.split()) > 1 else ""
            _assign(makefile, f"{name} = x", conditional, value="\n".join(body))
            targets = []
            continue
        if _CONDITIONAL.match(line):
            conditional += 1
            continue
        if word == "else":
            continue
        if word == "endif":
            conditional = max(conditional - 1, 0)
            continue
        if word in ("include", "-include", "sinclude"):
            _include(makefile, line.split()[1:], include, depth)
            targets = []
            continue
        if word in ("export", "unexport", "override", "private", "vpath") and not _ASSIGNMENT.match(line):
            rest = line[len(word):].strip()
            if word in ("override", "private", "export") and _ASSIGNMENT.match(rest):
                _assign(makefile, rest, conditional)
            continue
        if _ASSIGNMENT.match(line):
            _assign(makefile, line, conditional)
            targets = []
            continue
        if line.startswith("$(eval") or line.startswith("${eval"):
            makefile.unread.append("the Makefile builds rules with $(eval ...), which the reading does not follow")
            continue
        targets = _rule(makefile, line)


def _without_comment(line: str) -> str:
    match = re.search(r"(?<!\\)#", line)
    return line[:match.start()] if match else line


def _assign(makefile: Makefile, line: str, conditional: int, value: str | None = None) -> None:
    match = _ASSIGNMENT.match(line)
    if match is None:
        return
    name, operator, given = match.group(1), match.group(2), match.group(3) if value is None else value
    if name in makefile.command_line:
        return  # a command-line value overrides the Makefile's (manual, "Overriding Variables")
    if name == ".RECIPEPREFIX":
        makefile.recipe_prefix = given[:1] or "\t"
        return
    old = makefile.variables.get(name)
    if conditional or operator == "!=":  # a condition the reading does not decide, or a shell command's output
        makefile.variables[name] = Variable(None)
    elif operator == "?=":
        if old is None:
            makefile.variables[name] = Variable(given)
    elif operator == "+=":
        if old is None:
            makefile.variables[name] = Variable(given)
        else:
            added = given if old.recursive else expand(given, makefile.lookup_for(None))[0]
            makefile.variables[name] = Variable(None if old.value is None else f"{old.value} {added}", old.recursive)
    elif operator == "=":
        makefile.variables[name] = Variable(given)
    else:  # :=, ::=, :::= expand now
        text, unread = expand(given, makefile.lookup_for(None))
        makefile.variables[name] = Variable(None if unread else text, recursive=operator == ":::=")


def _include(makefile: Makefile, names: list[str], include: Callable[[str], str | None], depth: int) -> None:
    for written in names:
        name, unread = expand(written, makefile.lookup_for(None))
        for file in name.split() if not unread else [written]:
            text = include(file) if not unread and depth < MAX_INCLUDES else None
            if text is None:
                makefile.unread.append(f"the Makefile includes {file}, which the reading cannot read")
            else:
                _read(makefile, text, include, depth + 1)


def _rule(makefile: Makefile, line: str) -> list[str]:
    """A rule line: its targets (those recipe lines that follow belong to)."""
    head, colon, tail = line.partition(":")
    if not colon:
        makefile.unread.append(f"a line the reading does not understand: {line[:60]}")
        return []
    tail = tail[1:] if tail.startswith(":") else tail  # `::` rules
    lookup = makefile.lookup_for(None)
    named, unread = expand(head, lookup)
    targets = named.split()
    if unread:
        makefile.unread.append(f"a rule's targets are not known ({head.strip()[:40]})")
        return []
    tail, semicolon, inline = tail.partition(";")
    assignment = _ASSIGNMENT.match(tail.strip())
    rules = [makefile.rules.setdefault(target, Rule()) for target in targets]
    if assignment and not semicolon:  # target-specific variable
        for rule in rules:
            text = assignment.group(3)
            if assignment.group(2) in (":=", "::="):
                expanded, unknown = expand(text, lookup)
                text = None if unknown else expanded
            rule.variables[assignment.group(1)] = Variable(text) if assignment.group(2) != "!=" else Variable(None)
        return []
    for target in targets:
        if "%" in target:
            makefile.patterns.append(target)
        elif makefile.first_target is None and not target.startswith("."):
            makefile.first_target = target
    if ":" in tail:  # static pattern rule: `objects: %.o: %.c`
        for rule in rules:
            rule.unread.append("its recipe comes from a static pattern rule, which the reading does not follow")
        tail = tail.split(":", 1)[1]
    prerequisites, unknown = expand(tail.replace("|", " "), lookup)
    for rule in rules:
        rule.prerequisites.extend(prerequisites.split())
        # A computed prerequisite (a function's value, the environment's variable) may name any target.
        rule.computed = rule.computed or any("$" in word and word != WILDCARD_RESULT for word in prerequisites.split())
        if unknown:
            rule.unread.append(f"its prerequisites are not known ({tail.strip()[:40]})")
        if semicolon:
            rule.recipe.append(inline.strip())
    return targets


# --- expansion ------------------------------------------------------------------------------------
Lookup = Callable[[str], "Variable | str | None"]


def expand(text: str, lookup: Lookup, depth: int = 0) -> tuple[str, list[str]]:
    """`text` with make's references expanded, and what could not be (a function, an unknown value). A variable
    nothing sets is left as the shell's variable of that name (the environment's, as in make)."""
    out: list[str] = []
    unread: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "$" or index + 1 >= len(text):
            out.append(char)
            index += 1
            continue
        following = text[index + 1]
        if following == "$":
            out.append("$")
            index += 2
            continue
        if following in "({":
            end = _closing(text, index + 1)
            if end is None:
                unread.append(f"an unclosed reference in {text[index:index + 40]}")
                break
            reference, index = text[index + 2:end], end + 1
        else:
            reference, index = following, index + 2
        value, why = _reference(reference, lookup, depth)
        out.append(value)
        unread.extend(why)
    return "".join(out), unread


def _closing(text: str, opening: int) -> int | None:
    pairs = {"(": ")", "{": "}"}
    stack = [pairs[text[opening]]]
    for index in range(opening + 1, len(text)):
        if text[index] in pairs:
            stack.append(pairs[text[index]])
        elif text[index] == stack[-1]:
            stack.pop()
            if not stack:
                return index
    return None


def _reference(reference: str, lookup: Lookup, depth: int) -> tuple[str, list[str]]:
    if depth > MAX_EXPANSION_DEPTH:
        return "", [f"$({reference}) refers to itself"]
    first = re.split(r"[\s,]", reference, maxsplit=1)[0]
    if re.search(r"[\s,]", reference) and ":" not in first and "=" not in reference.split(":")[0]:
        return _function(first, reference[len(first):].strip(), lookup, depth)
    name_text, _, substitution = reference.partition(":")
    name, unread = expand(name_text, lookup, depth + 1)
    if unread:
        return "", unread
    found = lookup(name)
    if found is None:  # nothing sets it: the environment's, which the shell reading sees as its own variable
        value = f"${{{name}}}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else ""
        return value, [] if value else [f"$({name}) is not known"]
    if isinstance(found, Variable):
        if found.value is None:
            return "", [f"$({name}) is set by what the reading does not compute"]
        text = found.value
        if found.recursive:
            text, unread = expand(text, lookup, depth + 1)
            if unread:
                return "", unread
    else:
        text = found
    if substitution and "=" in substitution:  # $(VAR:a=b): each word's ending a becomes b
        old, new = substitution.split("=", 1)
        if "%" in old:
            return "", [f"$({reference}) uses a pattern, which the reading does not compute"]
        text = " ".join(word[:-len(old)] + new if old and word.endswith(old) else word for word in text.split())
    return text, []


# What a make function gives, where the reading does not compute it: a word the shell reading sees as a value the
# line does not set, so the program it reaches decides (`rm -f $(wildcard *.o)` asks, `cc $(SRC)` does not).
FUNCTION_RESULT = "${MAKE_FUNCTION_RESULT}"
WILDCARD_RESULT = "${MAKE_WILDCARD_RESULT}"  # names files that exist, never a target that makes nothing


def _function(name: str, arguments: str, lookup: Lookup, depth: int) -> tuple[str, list[str]]:
    """A make function: `$(shell CMD)` is the shell's `$(CMD)`, whose command the shell reading reads; `$(eval)`
    writes rules the reading does not follow; any other gives a value the reading does not compute."""
    if name == "shell":
        command, unread = expand(arguments, lookup, depth + 1)
        return f"$({command})", unread
    if name == "eval":
        return "", ["$(eval ...) makes rules the reading does not follow"]
    return (WILDCARD_RESULT if name == "wildcard" else FUNCTION_RESULT), []


def _lookup(makefile: Makefile, rule: Rule | None, target: str | None) -> Lookup:
    automatic: dict[str, str] = {}
    if rule is not None and target is not None:
        prerequisites = rule.prerequisites
        automatic = {"@": target, "<": prerequisites[0] if prerequisites else "",
                     "^": " ".join(dict.fromkeys(prerequisites)), "+": " ".join(prerequisites),
                     "?": " ".join(dict.fromkeys(prerequisites)), "|": ""}
        for letter in "@<^+?":
            words = automatic[letter].split()
            automatic[letter + "D"] = " ".join(posixpath.dirname(word) or "." for word in words)
            automatic[letter + "F"] = " ".join(posixpath.basename(word) for word in words)

    def lookup(name: str) -> Variable | str | None:
        if name in automatic:
            return automatic[name]
        if name in makefile.command_line:
            given = makefile.command_line[name]
            return Variable(given, recursive=False)
        if rule is not None and name in rule.variables:
            return rule.variables[name]
        if name in makefile.variables:
            return makefile.variables[name]
        return _BUILT_IN.get(name)

    return lookup


# --- what a goal runs -------------------------------------------------------------------------------
def steps(makefile: Makefile, goal: str) -> list[Step]:
    """What `make GOAL` runs: each target's recipe, prerequisites first (each once), to a bounded depth."""
    found: list[Step] = []
    seen: set[str] = set()

    def visit(target: str, depth: int) -> None:
        if target in seen:
            return
        seen.add(target)
        rule = makefile.rules.get(target)
        if rule is None or not rule.recipe:
            if any(_matches(pattern, target) for pattern in makefile.patterns):
                found.append(Step(target, (), (f"{target} is made by a pattern rule, which the reading does not "
                                               "follow",)))
            if rule is None:
                return  # a file nothing makes: make only needs it to exist
        if depth >= MAX_PREREQUISITE_DEPTH:
            found.append(Step(target, (), (f"{target}'s prerequisites nest deeper than the reading follows",)))
            return
        for prerequisite in rule.prerequisites:
            visit(prerequisite, depth + 1)
        if rule.computed:  # its computed prerequisites may name any target with a recipe: each is read
            for other, candidate in list(makefile.rules.items()):
                if candidate.recipe and not other.startswith(".") and "%" not in other:
                    visit(other, depth + 1)
        lookup = _lookup(makefile, rule, target)
        lines: list[tuple[str, str]] = []
        unread = list(rule.unread)
        for recipe in rule.recipe:
            stripped = recipe.lstrip(" \t")
            prefix = re.match(r"[@+\-\s]*", stripped).group(0)  # type: ignore[union-attr]
            code, why = expand(stripped[len(prefix):], lookup)
            # A line that runs $(MAKE) runs even under -n, as a `+` line does (manual, "How the MAKE Variable Works").
            recursive = "+" if re.search(r"\$[({]MAKE[)}]", recipe) else ""
            lines.append(("".join(prefix.split()) + recursive, code))
            unread.extend(why)
        found.append(Step(target, tuple(lines), tuple(dict.fromkeys(unread))))

    visit(goal, 0)
    return found


def _matches(pattern: str, target: str) -> bool:
    before, _, after = pattern.partition("%")
    return target.startswith(before) and target.endswith(after) and len(target) > len(before) + len(after) - 1
