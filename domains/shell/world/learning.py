"""How one step teaches a world's record (knowledge.py): its semantics, its screen, or its computed outcome.

Implied facts follow each step's own semantics (what the command does when it succeeds; the commands whose
error line the screen shows did not succeed) and what a real screen shows (a plain listing names what
exists). Exact facts change only by what is certain: a computed step's outcome replaces them; any other
step makes what it may have touched unknown (`rm a b` with `a` missing removes `b`, or not).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re

from tree_sitter import Node

from ..reading.effects import WRITE_KINDS, Effect, Opaque, Semantics
from ..reading.grammar import node_text, parse_tree
from .functions import top_level_definitions
from .knowledge import Knowledge, ancestors, under
from .moves import STACK_WORDS, Followed, follow
from ..reading.registry import INTERPRETERS, READ_ONLY, SHELLS, WRITES_NAMED
from ..programs.git_work_tree import ANYWHERE, NOTHING, PATHS, REPOSITORY_ONLY, work_tree_reach
from ..programs.typos import mistyped
from ..programs.python_writes import ASSIGNS_PYTHON
from ..programs.sed import SED_SCRIPT, sed_scripts
from .screen import prompt_folder
from ..programs.usage_errors import GNU_OPTIONS, Undecided, invalid_option

_ENTRY = re.compile(r"[^\s]+")
# Programs whose target may become a folder (a copied or moved tree, an unpacked archive, a link).
_MAY_MAKE_FOLDERS = frozenset({"cp", "mv", "rsync", "install", "ln", "tar", "unzip", "git", "scp", "7z"})
_CD = re.compile(r"(^|[\s;&|(])cd(\s|$)")
_BRANCHED_OR_REDIRECTED = re.compile(r"(^|[\s;&|(])(if|case|while|until|for|select)\s|[()<>]")
# A line that changes how later lines behave (options, functions, aliases, the search path, the umask, the
# locale, a sourced or evaluated script): the world's shell is then no longer the one the tests prove.
# Each is read at a command's start only: `find . -name x` or `grep alias f` change nothing.
_CHANGES_SHELL = re.compile(
    r"(?:^|[;&|(\n{]|\b(?:then|do|else))\s*(?:set\s+[-+]|shopt\b|umask\b|alias\b|unalias\b|enable\b|hash\b|"
    r"trap\b|source\b|\.\s|eval\b|exec\b|function\s|(?:(?:export|declare|typeset)\s+(?:-\w+\s+)?)?"
    r"(?:PATH|IFS|CDPATH|GLOBIGNORE|HOME|LC_\w+|LANG|LANGUAGE|POSIXLY_CORRECT|SHELLOPTS|BASHOPTS|TZ)\+?=|"
    r"unset\b[^;&|\n]*(?:\$|\b(?:PATH|IFS|CDPATH|GLOBIGNORE|HOME|LC_\w+|LANG|LANGUAGE|POSIXLY_CORRECT|TZ)\b))|"
    r"(?:^|[;&|(]\s*)[\w-]+\s*\(\)\s*[{(]")
_CHANGES_STATE = re.compile(r"\b(export|unset|declare|typeset|local|readonly|source|read|mapfile|readarray|eval|"
                            r"set|shopt|alias|cd|pushd|popd)\b|(^|[\s;&|(])\.\s|[A-Za-z_][A-Za-z0-9_]*\+?=")
# `unset NAME` unsets a function where no variable has the name; `declare -f` and the like act on functions
_UNSETS = re.compile(r"\bunset\b|\b(?:declare|typeset|readonly|export)\s+-\w*f")
# Redirections that cannot keep a command from running: into /dev/null, or one stream into the other.
_CANNOT_FAIL = re.compile(r"(?<![<>&\w])(?:[12]?>>?|&>>?)\s*/dev/null(?![\w/.-])|(?<![<>&\w])[12]?>&[12](?!\w)")
_ERRORS_HIDDEN = re.compile(r"2>|&>|>&")
_SHELL_ERROR = re.compile(r"(?<![\w./-])bash: ")  # an ambiguous or failed redirection: its command did not run


def learn_step(known: Knowledge, semantics: Semantics | None, observation: str, real: bool,
               exact: bool) -> Semantics | None:
    """One step whose screen is `observation` happened; returns its effects as they happened. `exact`: the
    step was not computed in a world that keeps exact facts, so what it may have touched becomes unknown (a
    computed step's exact facts come from its outcome instead)."""
    if semantics is None:
        return None
    failed = failed_commands(semantics, observation)
    after = _cwd_after(semantics, failed, known.cwd)
    if real:
        after = prompt_folder(observation, known.home) or after  # a real prompt that shows its folder is the truth
    if exact:
        # The exact facts first: where they are made unknown, they move down to implied facts (`forget_all`),
        # and this step's own implied facts must land on top of those, not under them.
        learn_uncomputed(known, semantics, known.cwd, after, observation, real=real)
        if known.cwd_known:
            after = known.cwd  # where the exact facts leave it (`cd gone` fails: moves.py)
    return imply(known, semantics, observation, real, failed, after)


def imply(known: Knowledge, semantics: Semantics | None, observation: str, real: bool,
          failed: list[int] | None = None, after: str | None = None) -> Semantics | None:
    """The step's implied facts, and where the shell stands after it; returns its effects as they happened.
    `failed`: the commands whose error line the screen shows, where the caller found them already."""
    if semantics is None:
        return None
    failed = failed_commands(semantics, observation) if failed is None else failed
    happened = semantics.without(*failed)
    _imply_effects(known, happened)
    if happened.opaque or any(effect.pattern or effect.where == "unknown" for effect in happened.files()):
        known.unsure()
    if real and not failed:
        _learn_from_screen(known, semantics, observation)
    after = after or _cwd_after(semantics, failed, known.cwd)
    if after != known.cwd:
        known.cwd = after
    return happened


def _cwd_after(semantics: Semantics, failed: list[int], cwd: str) -> str:
    """Where the shell stands after the step: where its `cd` went, unless a command of it failed."""
    return semantics.cwd_after if semantics.cwd_after and not failed else cwd


def _imply_effects(known: Knowledge, semantics: Semantics) -> None:
    for effect in semantics.effects:
        if not effect.path:
            continue
        if effect.pattern:
            if effect.kind in ("deleted", "moved-from", "git-clean", "git-discard"):
                known.forget_implied_matching(effect.path)
            continue
        if effect.kind in ("deleted", "moved-from"):
            known.mark(effect.path, "absent")
        elif effect.kind in ("git-clean", "git-discard", "modified") and effect.tree:
            known.forget_implied_under(posixpath.normpath(effect.path), contents_unknown=True)
        elif effect.kind == "created" and effect.program == "mkdir":
            if not effect.forced or known.exists(effect.path) is False:  # mkdir -p may meet a full folder
                known.listed.add(posixpath.normpath(effect.path))  # a new folder is empty: anything else is absent
            known.mark(effect.path, "dir")
        elif effect.kind in WRITE_KINDS:  # the path exists after any of these
            known.mark(effect.path, "exists" if effect.tree else "file")


def _learn_from_screen(known: Knowledge, semantics: Semantics, observation: str) -> None:
    """A plain `ls [DIR]` that printed names: those names exist."""
    if semantics.programs != ("ls",):
        return
    line = semantics.line.strip()
    words = line.split()
    if any(word.startswith("-") and set(word[1:]) - set("1aAFp") for word in words[1:]):
        return  # long listings, recursion, sorting by other keys: not read here
    operands = [word for word in words[1:] if not word.startswith("-")]
    if len(operands) > 1 or any(ch in line for ch in "*?[{$`|;&<>\"'\\"):
        return
    directory = posixpath.normpath(posixpath.join(semantics.cwd, operands[0])) if operands else semantics.cwd
    printed = _printed_lines(observation, line)
    if printed is None:
        return
    known.learn_listing(directory, (name for text in printed for name in _ENTRY.findall(text)))


def learn_uncomputed(known: Knowledge, semantics: Semantics | None, cwd_before: str, cwd: str, shown: str = "", *,
                     real: bool) -> None:
    """The exact facts after a step that was not computed, which left the shell in `cwd` (`shown`: its screen).

    A real step is evidence: what its semantics say it did holds, except what a command that may have done only
    part of its work, or none (`doubted_commands`), names: that becomes unknown. A predicted step is no evidence,
    its screen may be wrong: only what the exact facts and its commands' definitions make certain becomes exact
    (`_predicted_effect`), and where the shell stands becomes unknown when it may have moved elsewhere than the
    exact facts say it can (`_certain_cwd`)."""
    if semantics is None:
        return
    stood_known = known.cwd_known
    idle = _not_found(known, semantics) if stood_known else set()  # (its paths are read from where the shell is)
    semantics = semantics.without(*idle)
    known.last_status = None  # a screen does not say it exactly
    if _prints_version(semantics.line):
        return  # it writes nothing, moves nothing, sets nothing
    through_link = _through_links(known, semantics, cwd_before)  # (what may be a link before the step)
    cwd, misread, doubted, followed = _where_it_leaves_the_shell(known, semantics, cwd_before, cwd, shown, real)
    if misread:
        known.forget_all()  # its paths were read from a folder the shell may not have been in
        # and they may name other files than it touched (`rm -r build` elsewhere): each becomes unknown
        for effect in semantics.files():
            if effect.path and not effect.pattern and effect.where != "unknown":
                known.make_unknown(posixpath.normpath(effect.path))
    misused = set() if real else _misused_programs(semantics.line)
    for effect in semantics.without(*doubted).files() if not misread else ():
        if _forget_named_below(known, effect):
            continue
        if effect.kind == "deleted" and effect.program == "find" and effect.path:
            # What it matched below the folder it walks; the folder too, unless it is the shell's own
            path = posixpath.normpath(effect.path)
            if effect.tree and path != cwd_before:
                known.make_unknown(path)
            else:
                _forget_below(known, path)
        elif effect.path and not effect.pattern and effect.where != "unknown" and effect.maybe:
            known.forget_below_nearest(posixpath.normpath(effect.path))  # a loop may spell it otherwise each turn
        elif effect.path and not effect.pattern and effect.where != "unknown" and not real and \
                effect.program in misused:
            known.make_unknown(posixpath.normpath(effect.path))  # it may have stopped at an option it lacks
        elif effect.path and not effect.pattern and effect.where != "unknown":
            (_real_effect if real else _predicted_effect)(known, effect)
    # After what is certain: a command that may have run writes into what a certain one made (`mkdir d && cd d
    # && git init`: d is not known empty).
    _forget_what_it_may_have_touched(known, semantics, doubted, cwd_before, idle)
    if through_link:
        known.forget_all()  # it wrote where a link may point: anywhere
    known.links |= _made_links(known, semantics)
    defined, rest = top_level_definitions(semantics.line)
    known.functions = {**known.functions, **defined}  # defined whatever the step printed
    if (changed := _CHANGES_SHELL.search(rest)) is not None:
        known.shell_changed = known.shell_changed or changed.group(0).strip()
    _learn_function_calls(known, rest, real, semantics.functions)
    if _CHANGES_STATE.search(semantics.line):
        known.variables.clear()
        known.exported.clear()
    moves = sum(program in ("cd", "pushd", "popd") for program in semantics.programs)
    if known.cwd_known and cwd != cwd_before:
        # A real step may leave a folder the world only guessed; after several cds, OLDPWD is where the last left.
        known.oldpwd = cwd_before if stood_known and moves == 1 else None
        if known.status(cwd) != "present":
            known.add_folder(cwd, False)
        known.cwd = cwd
    elif moves:
        known.oldpwd = None  # a cd that failed leaves OLDPWD, one into the same folder sets it: which, is not known
    if followed is not None:  # the moves the exact facts decide (moves.py)
        known.oldpwd, known.dirstack = followed.oldpwd, followed.stack
    elif STACK_WORDS.search(semantics.line):
        known.dirstack = None


def _learn_function_calls(known: Knowledge, line: str, real: bool, followed: frozenset[str]) -> None:
    """A step the world did not compute that may call a function it keeps, or unset one: what the body may change
    becomes unknown: the files it names, as the line's semantics read them where they followed every call the line
    may make (`followed`), else every file; the variables where it may set one, where the shell stands where it may
    cd (a real prompt still says), and the shell itself where it may change that."""
    if not known.functions:
        return
    if _UNSETS.search(line) and _may_unset_function(known, line):
        known.shell_changed = known.shell_changed or "unset (of a function, perhaps)"
    named = {name for name in known.functions if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", line)}
    if not named:
        return
    # The bodies, each opened as a statement starts (a body may call the others)
    bodies = "\n".join(";" + source[source.index("{") + 1:] for source in known.functions.values())
    if not named <= followed or known.shell_changed:  # (a changed shell may hold other bodies: `source lib.sh`)
        known.forget_all()
    if (changed := _CHANGES_SHELL.search(bodies)) is not None:
        known.shell_changed = known.shell_changed or changed.group(0).strip()
    if _UNSETS.search(bodies):
        known.shell_changed = known.shell_changed or "unset (of a function, perhaps)"
    if _CHANGES_STATE.search(bodies):
        known.variables.clear()
        known.exported.clear()
    if STACK_WORDS.search(bodies):
        known.dirstack = None
    if not real and (_CD.search(bodies) or re.search(r"\b(?:pushd|popd)\b", bodies)):
        known.cwd_known, known.oldpwd = False, None


def _may_unset_function(known: Knowledge, line: str) -> bool:
    """Whether the line may remove a function the world keeps: bash(1)'s `unset -f NAME` does, `unset -v NAME`
    never, and `unset NAME` only where no variable has the name; a word the reader cannot spell may name any; and
    `declare -f` and the like (`_UNSETS`) may change one."""
    if re.search(r"\b(?:declare|typeset|readonly|export)\s+-\w*f", line):
        return True
    unsets = []
    pending = [parse_tree(line)]
    while pending:  # (the grammar reads `unset ...` as a node of its own, not a command)
        node = pending.pop()
        pending.extend(node.children)
        if node.type == "unset_command":
            unsets.append(("unset", [_word_text(node_text(child)) for child in node.named_children]))
    for name, words in [*_simple_commands(line), *unsets]:
        if name in ("command", "builtin") and words[:1] == ["unset"]:
            name, words = "unset", words[1:]
        if _word_text(name) == "*" or "unset" in words and name != "unset":
            return True  # a command the reader cannot spell, or one that may run unset (`eval unset f`)
        if name != "unset":
            continue
        options = [word for word in words if word.startswith("-") or word == "*"]
        named = [word for word in words if word not in options]
        if "*" in words or any(set(word[1:]) - {"f", "v"} for word in options if word != "*"):
            return True
        if not any("f" in word for word in options) and any("v" in word for word in options):
            continue  # variables only
        if any(word in known.functions for word in named):
            return True
    return False


def _where_it_leaves_the_shell(known: Knowledge, semantics: Semantics, cwd_before: str, cwd: str, shown: str,
                               real: bool) -> tuple[str, bool, list[int], Followed | None]:
    """Where the shell stands after the step, whether its paths may have been read from another folder than the
    one it ran in, the commands that may have done only part of their work, or none, and its moves where the
    exact facts decide them all (moves.py: its OLDPWD and directory stack too)."""
    doubted = doubted_commands(semantics, shown)
    stood_known = known.cwd_known  # (where it ran: a guess when not known, whatever the step does)
    if real:
        # What the exact facts decide holds for a real step too, where it went where they say (its stack, OLDPWD)
        followed = follow(known, semantics.line, cwd_before)
        followed = followed if followed is not None and followed.cwd == posixpath.normpath(cwd or cwd_before) \
            else None
        misread = (semantics.cwd_after or cwd_before) != cwd or bool(doubted and _CD.search(semantics.line))
        # Where the shell stood was a guess: its paths may be misread, and only a prompt that shows the folder
        # says where it stands now.
        misread = misread or not stood_known and _touches_files(semantics)
        known.cwd_known = known.cwd_known or prompt_folder(shown, known.home) is not None
        if cwd and cwd != known.cwd:
            known.cwd = posixpath.normpath(cwd)
        return known.cwd, misread, doubted, followed
    doubted = sorted({*doubted, *_unsure_redirections(known, semantics)})
    certain = _certain_cwd(known, semantics, cwd_before)
    followed = follow(known, semantics.line, cwd_before) if certain is None else None
    certain = certain or (followed.cwd if followed is not None else None)
    if certain is None:
        known.cwd_known, known.oldpwd = False, None  # the shell follows the prediction as an implied fact
    # Its paths were read from where the shell stood: a guess, when the world did not know that, or may now be
    # elsewhere than the step left it.
    # (A line moves.py follows may move otherwise than its semantics read it: `cd gone; rm f` removes ./f.)
    misread = (certain is None or not stood_known or followed is not None) and _touches_files(semantics)
    return certain or cwd_before, misread, doubted, followed


def _forget_what_it_may_have_touched(known: Knowledge, semantics: Semantics, doubted: list[int],
                                     cwd_before: str, idle: set[int]) -> None:
    """What the commands that may have done part of their work name, what the parts the line does not spell out
    may reach, and where its redirections write becomes unknown."""
    for effect in semantics.of_commands(*doubted).files():
        if _forget_named_below(known, effect):
            continue
        if not effect.path or effect.pattern or effect.where == "unknown":
            known.forget_all()
        elif effect.maybe:
            known.forget_below_nearest(posixpath.normpath(effect.path))  # a loop may spell it otherwise each turn
        else:
            known.make_unknown(posixpath.normpath(effect.path))
    for part in semantics.opaque:  # (a doubted command's too: it may have run)
        _forget_opaque(known, semantics, part)
    _forget_git_work_trees(known, semantics, cwd_before)
    semantics = semantics.without(*doubted)
    if any(e.pattern and not _named_deletion(known, e) or e.where == "unknown" or not e.path
           for e in semantics.files()):
        known.forget_all()
    if any(effect.kind == "permissions" for effect in semantics.effects) or "git" in semantics.programs and (
            not (verbs := _GIT_VERB.findall(semantics.line)) or set(verbs) - _GIT_READS):
        # git records a file's executable bit (the virtual git assumes none changed), and a git verb the world did
        # not compute may have changed the index, HEAD, the branch or the identity (`git rm --cached`, `branch -m`).
        known.repositories = {}
    if elsewhere := _GIT_CONFIG_ELSEWHERE.search(semantics.line):
        if elsewhere.group("where") == "--global":  # the user's settings, read by every git: ~/.gitconfig, or the
            for name in (".gitconfig", ".config/git/config"):  # XDG file where only that one is there (git-config(1))
                known.make_unknown(posixpath.join(known.home, name))
        else:
            known.forget_all()
    if any(program not in WRITES_NAMED | READ_ONLY | SHELLS | INTERPRETERS.keys() | semantics.functions and
           not mistyped(program) for index, program in enumerate(semantics.programs) if program and index not in idle):
        known.forget_all()  # a program read for what it destroys, not for all it writes (`npm ci`, `sqlite3 db`)
    targets, unbounded = _redirects_and_unbounded_words(semantics.line, cwd_before, semantics.functions)
    if unbounded:
        # What a glob gave a program (`uniq *.txt` writes its second match), or a sed script's `w` wrote,
        # is not known.
        known.forget_all()
    for path, plain in targets:
        if plain:
            known.make_unknown(path)  # written or not (a failed redirection writes nothing): unknown
        else:
            known.forget_below_nearest(path)  # a word the reader does not spell (`> out/$n` in a loop)


# After a git verb of programs/git_work_tree.py's REPOSITORY_ONLY, only `.git` is unknown. (A commit runs the
# repository's hooks; a fresh repository has none that run, and the world cannot see others.)
_GIT_ELSEWHERE = re.compile(r"\s(?:-C|-c|--git-dir|--work-tree)[\s=]")
_GIT_VERB = re.compile(r"\bgit\s+(?:-\S+\s+)*([\w-]+)")
_GIT_READS = frozenset({"status", "log", "diff", "show", "ls-files", "rev-parse", "blame", "grep", "help", "version",
                        "shortlog", "describe", "cat-file"})  # they change no record of the virtual git
# `git config` is read as a read of the repository (git.py); where it writes outside the repository it is not.
_GIT_CONFIG_ELSEWHERE = re.compile(r"\bgit\s+config\s(?:.*\s)?(?P<where>--global|--file|-f)\b")


def _forget_git_work_trees(known: Knowledge, semantics: Semantics, cwd_before: str) -> None:
    """What each git command of the line may have changed in its work tree (programs/git_work_tree.py) becomes
    unknown: the paths it names, else every file under the work tree's top. A git command read from a folder the
    world does not know for certain (a cd before it, a shell it runs in) may have changed any."""
    count = semantics.programs.count("git")
    if not count:
        return
    commands = [words for name, words in _simple_commands(semantics.line) if posixpath.basename(name) == "git"]
    certain = known.cwd_known and len(commands) == count and not any(
        program in ("cd", "pushd", "popd") for program in semantics.programs)
    for words in commands if certain else [["*"]] * count:
        reach = work_tree_reach(words)
        if reach.scope == NOTHING:
            continue
        if reach.scope == ANYWHERE:
            known.forget_all()
            return
        for path in (posixpath.normpath(posixpath.join(cwd_before, word)) for word in reach.paths) \
                if reach.scope == PATHS else (_work_tree_top(known, cwd_before),):
            if path is None:
                known.forget_all()
                return
            _forget_below(known, path) if path in known.folders else known.make_unknown(path)
        for folder in reach.emptied:
            known.make_unknown(posixpath.normpath(posixpath.join(cwd_before, folder)))


def _work_tree_top(known: Knowledge, start: str) -> str | None:
    """The work tree's top for git run in `start`: the nearest folder up whose `.git` the world knows is there,
    or, where one further down may hold a `.git` the world does not know of, the highest such (git takes the
    nearest; which that is, is not known). A repository above the folders the world keeps (its home, its
    workspace, /tmp) is none it could know of: None where `start` is outside them."""
    if not under(start, known.region):
        return None
    top = start
    for folder in (start, *ancestors(start)):
        if not under(folder, known.region):
            break
        status = known.status(posixpath.join(folder, ".git"))
        if status != "absent":
            top = folder
        if status == "present":
            break
    return top


def _through_links(known: Knowledge, semantics: Semantics, cwd: str) -> bool:
    """Whether the step may write through a link (`known.links`): at a path that may be one, or below a folder that
    may be one (a deletion, or a move away, below one too: `rm link/f` removes the file the link's folder holds)."""
    if not known.links:
        return False
    maybe = {link for link in known.links if known.status(link) != "absent"}
    written = [(posixpath.normpath(effect.path), effect.kind in WRITE_KINDS) for effect in semantics.files()
               if effect.path and not effect.pattern and effect.where != "unknown"]
    written += [(path, True) for path, _ in _redirects_and_unbounded_words(semantics.line, cwd)[0]]
    return any(under(path, maybe) if itself else any(under(posixpath.dirname(path), (link,)) for link in maybe)
               for path, itself in written)


def _made_links(known: Knowledge, semantics: Semantics) -> set[str]:
    """The paths the step may have made links: what `ln` made, and what a copy or a move of a path that may be a
    link (or lie below one) made."""
    carried = {effect.command for effect in semantics.effects if effect.kind == "moved-from" and effect.path and
               under(posixpath.normpath(effect.path), known.links)} | {
        requirement.command for requirement in semantics.requirements if requirement.program in ("cp", "mv") and
        under(posixpath.normpath(requirement.path), known.links)}
    return {posixpath.normpath(effect.path) for effect in semantics.effects if effect.path and not effect.pattern and
            effect.kind in WRITE_KINDS and (effect.program == "ln" or effect.command in carried)}


def _simple_commands(line: str) -> list[tuple[str, list[str]]]:
    """Each simple command of the line's syntax tree, in order: its name and its words, their quotes removed; a
    word that expands (a variable, a command's output, a glob) stands as '*', whatever it becomes."""
    found: list[tuple[str, list[str]]] = []
    pending = [parse_tree(line)]
    while pending:
        node = pending.pop()
        pending.extend(reversed(node.children))
        name = node.child_by_field_name("name") if node.type == "command" else None
        if name is not None:
            words = [node_text(child) for child in node.children_by_field_name("argument")]
            found.append((node_text(name), [_word_text(word) for word in words]))
    return found


def _word_text(word: str) -> str:
    """A word's text where it is its own (quotes removed), else '*'."""
    if len(word) > 1 and word[0] == word[-1] == "'":
        return word[1:-1]
    if len(word) > 1 and word[0] == word[-1] == '"' and not any(char in word for char in "$`\\"):
        return word[1:-1]
    return "*" if word.startswith("~") or any(char in word for char in "$`*?[{\\'\"") else word


def _not_found(known: Knowledge, semantics: Semantics) -> set[int]:
    """The commands that certainly do nothing, where no command before them may have made what they lack: one run
    by a path the world knows nothing is at (`./run.sh`: bash finds no such file and runs nothing), and a cp or mv
    whose every source the world knows is not there (GNU's cannot stat each one, and copies or moves none)."""
    return {index for index in range(len(semantics.programs)) if _first_to_touch(semantics, index) and (
        _run_by_absent_path(known, semantics, index) or _copies_nothing(known, semantics, index))}


def _first_to_touch(semantics: Semantics, index: int) -> bool:
    return not any(effect.command < index for effect in semantics.effects) and \
        not any(part.command < index for part in semantics.opaque)


def _run_by_absent_path(known: Knowledge, semantics: Semantics, index: int) -> bool:
    return any(requirement.command == index and "/" in requirement.operand and
               semantics.programs[index] == posixpath.basename(requirement.operand) and
               requirement.error == f"bash: {requirement.operand}: No such file or directory" and
               known.status(posixpath.normpath(requirement.path)) == "absent" for requirement in semantics.requirements)


def _copies_nothing(known: Knowledge, semantics: Semantics, index: int) -> bool:
    """A cp or mv whose sources (one requirement each, as many as the copies it makes) are all known absent, and
    whose every effect names its path plainly (no glob, no word the reader cannot spell: each source is counted)."""
    program = semantics.programs[index]
    if program not in ("cp", "mv"):
        return False
    sources = [requirement for requirement in semantics.requirements if requirement.command == index and
               requirement.error.startswith(f"{program}: cannot stat ")]
    effects = [effect for effect in semantics.effects if effect.command == index]
    made = [effect for effect in effects if effect.kind in ("created", "overwritten", "moved-to")]
    plain = all(effect.path and not effect.pattern and effect.where != "unknown" and not effect.maybe
                for effect in effects) and not any(part.command == index for part in semantics.opaque)
    return plain and bool(sources) and len(sources) == len(made) and all(
        known.status(posixpath.normpath(requirement.path)) == "absent" for requirement in sources)


def _forget_opaque(known: Knowledge, semantics: Semantics, part: Opaque) -> None:
    """What a part whose effects the line does not tell may have touched becomes unknown: everything, but for
    the program families whose documentation bounds it (`git add` writes the repository's folder only), and a
    Python run whose code the world knows (its bound: the files it names, its modules' caches)."""
    if part.bound is not None and not ASSIGNS_PYTHON.search(semantics.line):  # (`env PYTHONPATH=lib python3 f.py`)
        for path in part.bound:
            if not path.endswith("/"):
                known.make_unknown(path)
            elif path.rstrip("/") in known.folders:  # it may gain names: its known entries stay
                known.folders[path.rstrip("/")] = False
        return
    if _writes_nothing(semantics.programs[part.command] if part.command < len(semantics.programs) else ""):
        return  # it writes nothing, whatever its words hold (`cd -`, `cat $X`), or it is no program at all
    if part.what == "glob" and any(effect.command == part.command and _named_deletion(known, effect)
                                   for effect in semantics.files()):
        return  # what find gave it to delete, by name below a folder: its effect says (_forget_named_below)
    if part.what == "stdin-arguments" and semantics.programs[part.command] == "xargs" and \
            _writes_nothing(semantics.programs[part.command + 1] if part.command + 1 < len(semantics.programs) else ""):
        return  # `xargs grep x`: the command it runs (read next, with its parts) writes nothing, whatever it is given
    words = part.text.split()
    verb = words[1] if len(words) > 1 and words[0] == "git" else ""
    if verb in REPOSITORY_ONLY and not _GIT_ELSEWHERE.search(semantics.line):
        for folder in (semantics.cwd, *ancestors(semantics.cwd)):
            repository = posixpath.join(folder, ".git")
            if known.status(repository) == "present" and repository in known.folders:
                known.forget_contents(repository)  # still there, its content unknown
                return  # git works in the nearest repository
            if known.status(repository) == "unknown":
                known.make_unknown(repository)
        return
    known.forget_all()


def _real_effect(known: Knowledge, effect: Effect) -> None:
    """What a real step's command did, as its semantics say."""
    path = posixpath.normpath(effect.path)
    if effect.kind in ("deleted", "moved-from"):
        known.forget_under(path)
    elif effect.kind == "created" and effect.program == "mkdir":
        status = known.status(path)
        if not effect.forced and known.status(posixpath.dirname(path)) != "present":
            known.make_unknown(path)  # without -p it needs its parent: made or not, unknown
        elif status != "present":  # a new folder is empty; `mkdir -p` may have met a full one
            known.add_folder(path, not effect.forced or status == "absent")
    elif effect.kind == "permissions":
        return
    elif effect.kind == "moved-to" or effect.program in _MAY_MAKE_FOLDERS:
        known.make_unknown(path)  # a file or a folder, the semantics do not say: unknown
    elif effect.tree:
        known.forget_under(path)
        known.add_folder(path, False)
    else:  # written: most likely a file now, but a failed write leaves no trace to tell
        known.make_unknown(path)


def _predicted_effect(known: Knowledge, effect: Effect) -> None:
    """What a predicted step's command did, where the exact facts and the program's definition decide it
    whatever the model said: `rm` of a file (or, with -r, of anything) leaves nothing; `rm` of a folder without
    -r and `rmdir` of a folder with entries fail; `mkdir` where nothing is, in a folder that is there, makes an
    empty folder; a folder or file already there stays. Anything else it names becomes unknown."""
    path = posixpath.normpath(effect.path)
    status, is_folder = known.status(path), path in known.folders
    if effect.kind == "permissions" or effect.kind == "deleted" and effect.program in ("rm", "unlink") and \
            is_folder and not effect.tree:
        return  # a mode changes no content; `rm d` refuses a folder
    if effect.kind == "deleted" and effect.program in ("rm", "unlink") and (effect.tree or status != "unknown"):
        known.forget_under(path)
    elif effect.kind == "deleted" and effect.program == "rmdir" and (status == "absent" or is_folder and _empty(
            known, path)):
        known.forget_under(path)
    elif effect.kind == "deleted" and effect.program == "rmdir" and status == "present":
        return  # a file, or a folder with entries: rmdir refuses it
    elif effect.kind == "created" and effect.program in ("mkdir", "touch") and status == "present":
        return  # there already: `mkdir -p` leaves it, `mkdir` refuses; `touch` changes its times alone
    elif effect.kind == "created" and effect.program == "touch" and status == "absent" and \
            posixpath.dirname(path) in known.folders:
        known.files[path] = b""
    elif effect.kind == "created" and effect.program == "mkdir" and status == "absent" and (
            posixpath.dirname(path) in known.folders or effect.forced and _nearest_known(known, path) in known.folders):
        known.add_folder(path, True)
    elif not (effect.kind == "moved-from" and status == "absent"):
        known.make_unknown(path)


def _misused_programs(line: str) -> set[str]:
    """Programs of the line given an option GNU's may not have (`rm -1z f`, `rm --bogus f`): GNU's then stops
    before it acts, so what a predicted step of theirs did is not decided by their definition
    (programs/usage_errors.py)."""
    found: set[str] = set()
    pending = [parse_tree(line)]
    while pending:
        node = pending.pop()
        pending.extend(node.children)
        name = node.child_by_field_name("name") if node.type == "command" else None
        if name is None:
            continue
        words = [node_text(child).strip("'\"") for child in node.children_by_field_name("argument")]
        try:  # (a long option too: GNU's may not have it either)
            misused = invalid_option(node_text(name), words) is not None or node_text(name) in GNU_OPTIONS and any(
                word.startswith("--") and word != "--" for word in words)
        except Undecided:
            misused = True
        if misused:
            found.add(node_text(name))
    return found


# What find acts on by name at any depth below a folder (launchers/dispatch.py `_below`): `/top/**/name`.
_NAMED_BELOW = re.compile(r"(?P<top>/[^*?\[]*?)/\*\*/(?P<name>[^/]+)")


def _named_deletion(known: Knowledge, effect: Effect) -> tuple[str, str] | None:
    """The top and the name of a deletion of what is so named below a folder (`/top/**/name`, find's by -name),
    where no link the world knows of lies at, above or below the top (find would follow none, but a start that is
    a link, or one below it, leads elsewhere). A creation or a move by such a pattern makes names nobody knew."""
    match = _NAMED_BELOW.fullmatch(effect.path) if effect.pattern and effect.kind == "deleted" else None
    if match is None:
        return None
    top = posixpath.normpath(match.group("top"))
    if any(under(link, (top,)) or under(top, (link,)) for link in known.links):
        return None
    return top, match.group("name")


def _forget_named_below(known: Knowledge, effect: Effect) -> bool:
    """Every path the world knows below the top of a named deletion (`_named_deletion`) whose own name matches
    becomes unknown (with what lies below it); True where the effect is one. What the world does not know of was
    unknown already."""
    named = _named_deletion(known, effect)
    if named is None:
        return False
    top, name = named
    forgotten: list[str] = []
    for path in sorted({*known.files, *known.folders, *known.maybe_there}, key=len):
        if path != top and under(path, (top,)) and not under(path, forgotten) and \
                fnmatch.fnmatchcase(posixpath.basename(path), name):
            known.make_unknown(path)
            forgotten.append(path)
    return True


def _forget_below(known: Knowledge, path: str) -> None:
    """What lies below `path` becomes unknown; the folder itself stays where the world knows it."""
    if path in known.folders:
        known.forget_contents(path)
    else:
        known.make_unknown(path)


def _empty(known: Knowledge, folder: str) -> bool:
    """A folder whose listing is complete and holds nothing."""
    return known.folders.get(folder, False) and not any(
        posixpath.dirname(path) == folder for path in (*known.files, *known.folders))


def _nearest_known(known: Knowledge, path: str) -> str:
    """The nearest folder or file above `path` that the exact facts name ('/' at last)."""
    return next((ancestor for ancestor in ancestors(path) if ancestor in known.folders or ancestor in known.files),
                "/")


def _touches_files(semantics: Semantics) -> bool:
    """Whether a line names files it changes, or has a part that may change files it does not name: a line read
    from a folder the shell may not stand in then misreads what it touches (`cd -; rm a`), unlike `cd -; ls`."""
    return bool(semantics.files()) or any(not _writes_nothing(semantics.programs[part.command] if part.command < len(
        semantics.programs) else "") for part in semantics.opaque)


# The words that make a program print its version and exit, from each program's documentation (GNU's coding
# standards for `--version`; `python -V`, `node -v`, `npm -v`, `go version`, `cargo -V` and the like).
_VERSION_WORDS = {"--version": frozenset({
    "python", "python3", "node", "npm", "npx", "yarn", "pnpm", "deno", "bun", "go", "cargo", "rustc", "rustup", "pip",
    "pip3", "uv", "poetry", "gcc", "g++", "clang", "make", "cmake", "java", "javac", "ruby", "perl", "php", "bash",
    "git", "docker", "tsc", "gem", "bundle", "dotnet", "swift", "kotlin", "ghc", "lua", "terraform"}),
    "-V": frozenset({"python", "python3", "cargo", "rustc", "pip", "pip3", "uv"}),
    "-v": frozenset({"node", "npm", "npx", "yarn", "pnpm"}),
    "version": frozenset({"go", "cargo", "poetry", "dotnet", "terraform"})}
_PLAIN_LINE = re.compile(r"\s*(?P<program>[\w.+-]+)\s+(?P<word>[\w-]+)\s*")


def _prints_version(line: str) -> bool:
    """The whole line is one program asked for its version (`node -v`): it prints and writes nothing."""
    match = _PLAIN_LINE.fullmatch(line)
    return match is not None and match.group("program") in _VERSION_WORDS.get(match.group("word"), ())


def _writes_nothing(program: str) -> bool:
    """A program that writes no file whatever it is given, or a slip of one that bash does not find."""
    return program in READ_ONLY or program in ("cd", "pushd", "popd") or mistyped(program) is not None


def _unsure_redirections(known: Knowledge, semantics: Semantics) -> set[int]:
    """The commands of a predicted step that may not have run because a redirection of theirs may fail: bash
    opens `< FILE` and `> PATH` before it starts the command, so a command runs only if each file it reads is a
    known file, and each path it writes is in a known folder and is no folder itself."""
    unsure = set()
    outputs = [effect for effect in semantics.effects if effect.program == "bash" and effect.path]
    for effect in outputs:
        if posixpath.dirname(effect.path) not in known.folders or effect.path in known.folders:
            unsure.add(effect.command)
    for requirement in semantics.requirements:
        if requirement.program == "bash" and not any(
                effect.command == requirement.command and posixpath.dirname(effect.path) == requirement.path
                for effect in outputs) and requirement.path not in known.files:
            unsure.add(requirement.command)  # `< FILE`
    return unsure


def _certain_cwd(known: Knowledge, semantics: Semantics, cwd_before: str) -> str | None:
    """Where a predicted step leaves the shell when the exact facts decide it: where it was, for a line with no
    cd; the folder of its one cd, when that cd runs whatever came before it and goes into a folder the world
    knows is there. None otherwise (a cd that may fail, `cd -`, pushd and popd, a cd in a subshell)."""
    if not known.cwd_known:
        return None
    moves = [index for index, program in enumerate(semantics.programs) if program in ("cd", "pushd", "popd")]
    after = semantics.cwd_after or cwd_before
    if not moves:
        return cwd_before if after == cwd_before else None
    index = moves[0]
    if _BRANCHED_OR_REDIRECTED.search(_CANNOT_FAIL.sub(" ", semantics.line)):
        return None  # a cd inside an if, case, loop or subshell, or one whose redirection may fail first
    if len(moves) == 1 and semantics.programs[index] == "cd" and semantics.cwd_after and \
            not semantics.depends_on.get(index) and "||" not in semantics.line and \
            not any(part.command == index for part in semantics.opaque) and after in known.folders:
        return after
    return None


def failed_commands(semantics: Semantics, observation: str) -> list[int]:
    """The simple commands whose own error line (for a missing operand) the screen shows."""
    shown = observation.splitlines()
    return sorted({r.command for r in semantics.requirements if any(r.error in line for line in shown)})


def doubted_commands(semantics: Semantics, observation: str) -> list[int]:
    """The simple commands that may have done only part of their work, or none: those `failed_commands`
    finds, those whose program printed an error line of its own (`rm: cannot remove 'd': Is a directory`),
    those that run only if another succeeded or failed or inside a branch (`if`, `case`), and all of them where
    errors were sent away."""
    commands = {effect.command for effect in semantics.effects}
    if _ERRORS_HIDDEN.search(semantics.line) or "||" in semantics.line or _SHELL_ERROR.search(observation):
        return sorted(commands)  # an error sent away, or a command run only if another failed: any may not have run
    # Not anchored to a line's start: output without a final newline runs into the error line on a screen.
    complaining = {effect.command for effect in semantics.effects if effect.program and re.search(
        rf"(?<![\w./-]){re.escape(effect.program)}: ", observation)}
    conditional = {command for command in commands if semantics.depends_on.get(command)} | {
        effect.command for effect in semantics.effects if effect.maybe}  # inside an if or case: may not have run
    return sorted(complaining | conditional | set(failed_commands(semantics, observation)))


def _printed_lines(observation: str, command: str) -> list[str] | None:
    lines = observation.splitlines()
    echoed = [index for index, text in enumerate(lines) if text.rstrip().endswith(command)]
    if not echoed:
        return None
    after = lines[echoed[-1] + 1:]
    while after and re.search(r"[$#]\s*$", after[-1]):
        after.pop()  # the next prompt
    if any("exit code" in text or "No such file" in text or "cannot access" in text for text in after):
        return None
    return after


_PLAIN_WORD = re.compile(r"[\w./+-]+")  # a word that is its own text: no expansion, quote or brace


_LOOP_LIST = "for … in"  # (no program's name)
_ASSIGNED = "NAME=…"  # a value or an array's words stored in a variable: a glob there names files, writes none


def _redirects_and_unbounded_words(line: str, cwd: str, followed: frozenset[str] = frozenset()
                                   ) -> tuple[list[tuple[str, bool]], bool]:
    """Read from the line's syntax tree: the files it redirects output into (any command's, builtins' too; with
    whether the word is plain text, its own spelling), and
    whether a word reaches files the line does not name (a glob, or a sed script beyond p, d, q, =, s and y:
    `w`, `r` and `e` reach files that are not operands). A glob given to a function whose body the semantics
    followed (`followed`) is bounded there: the body's commands read it as a word they cannot spell."""
    targets, unbounded = [], False
    pending: list[tuple[Node, str]] = [(parse_tree(line), "")]  # a node, and the program of the command it is in
    while pending:
        node, program = pending.pop()
        if node.type == "command" and (named := node.child_by_field_name("name")) is not None:
            program = node_text(named)
        if node.type == "variable_assignment":
            program = _ASSIGNED
        if node.type == "for_statement":
            # A loop's list: the names a glob there matches go to the body's commands alone, which are read apart
            # (a `$f` they are given is a word the reader does not spell).
            pending.extend((child, _LOOP_LIST if node.field_name_for_child(index) == "value" else program)
                           for index, child in enumerate(node.children) if child.is_named)
            continue
        pending.extend((child, program) for child in node.named_children)
        # A glob given to a program that writes nothing reaches nothing it could change (`wc -l src/*.py`).
        unbounded = unbounded or (node.type == "word" and program not in (_LOOP_LIST, _ASSIGNED) and
                                  not _writes_nothing(program) and
                                  program not in followed and any(char in node_text(node) for char in "*?["))
        if node.type == "file_redirect" and (destination := node.child_by_field_name("destination")) is not None:
            operator = "".join(node_text(child) for child in node.children if not child.is_named)
            word = node_text(destination).strip("'\"")
            if ">" in operator and word and not word.startswith(("$", "/dev/")) and not word.isdigit():
                targets.append((posixpath.normpath(posixpath.join(cwd, word)), _PLAIN_WORD.fullmatch(word) is not None))
        name = node.child_by_field_name("name") if node.type == "command" else None
        if name is not None and node_text(name) == "sed":
            words = [node_text(child).strip("'\"") for child in node.children_by_field_name("argument")]
            unbounded = unbounded or any(not SED_SCRIPT.fullmatch(script) for script in sed_scripts(words))
    return targets, unbounded
