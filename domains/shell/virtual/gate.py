"""Which command lines the virtual shell may compute, read from the line's syntax tree alone.

A line passes when every part is a construct the virtual shell runs as bash does (lists, pipelines,
plain file redirections, quoting, variables the world set), every program and option is on the
allowlist, and every variable it reads is one the world knows. What passes also yields the paths
the line names: the shell later checks that what the world does not know of them cannot change the
result. Nothing is run here.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from tree_sitter import Node

from ..reading.grammar import broken, node_text, parse_tree
from ..reading.words import Scope, Value, expand
from . import argument_checks, constructs, directory_stack, git_cli, jq, loop_globs, shell_state
from . import listings
from .allowlist import (
    MAX_OPERANDS,
    OUTPUT_OPTIONS,
    PROGRAMS,
    SHELL_STATE,
    operands,
    option_problem,
    parsed_options,
    reads_terminal,
    used_forms,
)
from .refusal import NotComputable
from .text_tools import needs_known_content, value_problem
from ..programs.usage_errors import Undecided, invalid_option

_STRUCTURE = {"program", "list", "pipeline", "command", "redirected_statement", "variable_assignment",
              "variable_assignments", "declaration_command", "comment"}
_WORD_PARTS = {"word", "string", "raw_string", "concatenation", "simple_expansion", "expansion", "number",
               "string_content", "command_name", "variable_name", "brace_expression", "regex",
               "special_variable_name", "arithmetic_expansion"}
_REDIRECTS = {">", ">>", "<", ">&"}
_FEEDS = ("<", "<<")  # redirections that give a command its standard input
# Error output sent to a file: what a program printed there is not checked against the forms of GNU's messages
# proven so far (shell.py), and a program that failed on one operand may have done less than GNU's. (Sent to
# /dev/null, the messages are checked on a run of the line that shows them: Reading.hidden.)
_HIDES_ERRORS = {"&>", "2>", "2>>", "2>&", "&>>"}
_PRINT_ONLY = frozenset({"echo", "printf", "export", "true", "false", "pwd"})  # their words are never files
_STATUS_READERS = frozenset({"echo", "printf"})  # may print `$?` once a command of the line has run
_FILE_CHANGERS = frozenset({"rm", "rmdir", "mv", "cp", "mkdir", "touch"})
_QUIET = frozenset({*_FILE_CHANGERS, "true", "false", "export", "test", "["})  # they print nothing on stdout
OPENS_ALL_FIRST = frozenset({"cmp", "sort", "comm", "join"})  # each stops at the first file it cannot open
MAX_PATH = 1024  # longer words are no file a line names


@dataclass
class Reading:
    """What a line that may be computed names: paths (absolute), glob folders, whether it moves the shell."""

    paths: set[str] = field(default_factory=set)
    written: set[str] = field(default_factory=set)  # paths only redirected into (`> f`): a shell writes files there
    outputs: set[str] = field(default_factory=set)  # every path output is redirected into (`> f`, `>> f`)
    operands: set[str] = field(default_factory=set)  # paths given to programs as words (not redirections)
    several: bool = False  # a program is given more than one operand (one may fail while the others go on)
    typed: set[str] = field(default_factory=set)  # the words naming paths, as typed (GNU's messages print them)
    merges: bool = False  # a `>&` sends one output stream into the other: a message may flow on as data
    piped: bool = False  # a pipeline's stages run at once: the order of their messages is a race
    missing_programs: set[str] = field(default_factory=set)  # programs named by a path: the world must know none
    # Redirections that discard error output (`2>/dev/null`, `&>/dev/null`): (start, end, what leaves the line
    # as it is but shows the errors). shell.py runs that line too, to check the hidden messages as shown ones.
    hidden: list[tuple[int, int, str]] = field(default_factory=list)
    commands: int = 0  # the simple commands read so far
    printers: int = 0  # those that may print on stdout
    # `ls -a`: its operands, whether it recurses, and which command it is (shell.py adds `.` and `..`).
    dots: tuple[tuple[str, ...], bool, int] | None = None
    usage_errors: set[str] = field(default_factory=set)  # programs given an option GNU's do not have (`ls -z`)
    joined: list[str] = field(default_factory=list)  # join's two file words (gnu_messages.join_wording)
    glob_folders: set[str] = field(default_factory=set)
    cwds: list[str] = field(default_factory=list)  # where the line starts, then each folder it may cd to
    forms: set[str] = field(default_factory=set)  # the allowlist entries it uses: "sort", "sort -r"
    ran: bool = False  # a statement of the line has run: `$?` is its status, not the previous line's
    status_before: bool = False  # the world knows the status of the line before (`$?` at this line's start)
    oldpwd_unset: bool = False  # the world knows no cd ever moved the shell: `cd -` fails, "OLDPWD not set"
    facts: listings.Facts = field(default_factory=listings.Facts)  # what shell.py checks for listings, comparisons
    stage: listings.Stage | None = None  # the command last read: program, arguments, where its output goes
    # (path, what the world must know of it for the result to be GNU's: "sorted", "base64", "no folder"), checked
    # by the shell on the world's record before the line runs.
    content_checks: set[tuple[str, str]] = field(default_factory=set)
    listing: loop_globs.Listing | None = None  # a folder's names, where the world knows them all
    content: Callable[[str], bytes | None] | None = None  # a file's bytes, where the world knows them exactly
    feeding: str | None = None  # the file `< FILE` gives the loop being read (`while read ...; done < FILE`)
    # The shell's own state (shell_state.py): the functions the world keeps, those the line defines (name -> the
    # definition as typed), the functions being read (a call inside one is read as its body), whether it calls one.
    functions: dict[str, str] = field(default_factory=dict)
    defines: dict[str, str] = field(default_factory=dict)
    calling: tuple[str, ...] = ()
    locals: list[dict[str, object]] = field(default_factory=list)  # each call's locals: their values before
    calls: bool = False
    sources: bool = False  # it sources a file the world knows (`. env.sh`): what that file runs is read with the line
    # The directory stack (directory_stack.py): as the world keeps it (None unknown), as the gate follows it through
    # the line, whether a pushd or popd ran (OLDPWD is then not bash's), and the folders pushd was given.
    stack_before: tuple[str, ...] = ()
    oldpwd_before: str | None = None  # OLDPWD as the line finds it ("" unset, None unknown)
    stack: list[str] | None = field(default_factory=list)
    stacked: bool = False
    pushed: set[str] = field(default_factory=set)

    @property
    def moves(self) -> bool:
        return len(self.cwds) > 1


def read_line(line: str, cwd: str, home: str, variables: dict[str, str], oldpwd: str | None = None,
              status_known: bool = False, listing: loop_globs.Listing | None = None,
              content: Callable[[str], bytes | None] | None = None, cwd_known: bool = True,
              functions: dict[str, str] | None = None, stack: tuple[str, ...] | None = ()) -> Reading:
    """The paths `line` names, or NotComputable when any part of it falls outside what is proven.
    `status_known`: the world knows the exit status of the line before (`$?` at this line's start);
    `listing`: a folder's entry names where the world knows them all (a for loop's glob expands to them);
    `content`: a file's bytes where the world knows them, b"" where it knows there is none (a `while read` loop
    reads them); `cwd_known` False: `cwd` stands in for a folder the world does not know (`$PWD` is then unknown);
    `functions`: the functions the world keeps (name -> definition), whose calls are read as their bodies;
    `stack`: pushd's directory stack below its top (None: unknown)."""
    if not line.strip() or "\0" in line:
        raise NotComputable("not one command line")
    root = parse_tree(line)
    if broken(root):
        raise NotComputable("the line does not parse as bash")
    if not _newlines_proven(root):
        raise NotComputable("not one command line: newlines other than between commands or in a here document")
    scope = Scope(cwd, home, cwd, variables={name: value for name, value in variables.items()},
                  cwd_known=cwd_known, oldpwd=oldpwd or None)
    scope.variables.setdefault("HOME", home)
    reading = Reading(cwds=[posixpath.normpath(cwd)], status_before=status_known, listing=listing,
                      content=content, oldpwd_unset=oldpwd == "", functions=dict(functions or {}),
                      stack_before=stack or (), stack=None if stack is None else list(stack), oldpwd_before=oldpwd)
    _statement(root, scope, reading, in_pipeline=False, fed=False)
    try:
        listings.check_line(reading.facts, reading.forms, reading.outputs)
    except listings.Refusal as refusal:
        raise NotComputable(str(refusal)) from None
    if reading.usage_errors & reading.forms:
        raise NotComputable("a program both given an option it does not have and run: the virtual shell runs the "
                            "one as a builtin of GNU's words, the other as its own")
    if reading.dots and reading.dots[2] != reading.commands:
        raise NotComputable("ls -a before other commands: its . and .. are added to the line's own output")
    if reading.moves and reading.glob_folders:
        raise NotComputable("a glob and a cd in one line: which folder it lists depends on the cd")
    return reading


def _newlines_proven(root: Node) -> bool:
    """Newlines only between the line's commands or inside a here document's body."""
    source = root.text or b""
    allowed: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "heredoc_redirect":
            allowed.append((node.start_byte, node.end_byte + 1))
        if node.type == "compound_statement" and node.parent is not None and \
                node.parent.type == "function_definition":
            # Between the statements of a function's body a newline ends a statement, as `;` does.
            inner = [(child.start_byte, child.end_byte) for child in node.named_children]
            allowed += [(at, at + 1) for at in range(node.start_byte, node.end_byte) if source[at] == 10 and
                        not any(start <= at < end for start, end in inner)]
        stack.extend(node.children)
    spans = [(child.start_byte, child.end_byte) for child in root.children if child.is_named]
    body = source.rstrip(b"\n")
    return all(any(start <= at < end for start, end in allowed) or not any(start <= at < end for start, end in spans)
               for at, byte in enumerate(body) if byte == 10)


def _statement(node: Node, scope: Scope, reading: Reading, in_pipeline: bool, fed: bool) -> None:
    """`fed`: a pipe or `<` gives the statement its standard input (else it is the terminal's)."""
    kind = node.type
    if kind in constructs.COMPOUND:
        inner = scope.copy() if in_pipeline else scope  # a pipeline's stage is a subshell
        body = constructs.Body(lambda child, where: _unit(child, where, reading, in_pipeline, fed),
                               lambda word, where: _values(word, where),
                               lambda value, where: _name(value, where, reading),
                               reading.forms.add, lambda: reading.ran,
                               lambda word, values, where: _loop_glob(word, values, where, reading),
                               lambda: _feed(reading))
        constructs.compound(node, inner, body)
        return
    if kind == "function_definition":
        _define(node, reading, in_pipeline)
        return
    if kind == "unset_command" and not in_pipeline:
        for name in shell_state.unset_names(node, {*reading.functions, *reading.defines}):
            if constructs.shell_variable(name):
                raise NotComputable(f"unset {name}: it changes how the shell finds programs, splits words or sorts")
            scope.variables[name] = ""  # every expansion the reader follows reads an unset variable as empty
        reading.forms.add("unset")
        return
    if kind not in _STRUCTURE:
        raise NotComputable(f"a {kind.replace('_', ' ')} ({node_text(node)[:40]!r})")
    if kind == "command":
        _command(node, scope, reading, in_pipeline, fed)
        return
    if kind == "list":
        operators = [node_text(child) for child in node.children if not child.is_named]
        if any(op not in ("&&", "||", ";") for op in operators):
            raise NotComputable(f"the operator {operators[0]!r}")
    if kind == "pipeline":
        if any(node_text(child) not in ("|",) for child in node.children if not child.is_named):
            raise NotComputable("a pipe other than |")
        stages = [child for child in node.named_children if child.type != "comment"]
        reading.piped = True
        flowing = ""  # what the previous stage pipes on: lines in directory order, diff's hunks
        for position, stage in enumerate(stages):
            reading.stage = None
            _statement(stage, scope, reading, True, fed or position > 0)
            if reading.stage is not None:
                flowing = _follow(flowing, reading.stage, position == len(stages) - 1, reading)
        return
    if kind == "redirected_statement":
        redirects = [child for child in node.named_children if child.type.endswith("_redirect")]
        fed = fed or any(_operator(child) in _FEEDS for child in redirects)
        if node.named_children and node.named_children[0].type == "while_statement":
            _while_fed(node.named_children[0], redirects, scope, reading, in_pipeline)
            for child in redirects:
                _redirect(child, scope, reading)
            return
    if kind == "program":
        separators = [node_text(child) for child in node.children if not child.is_named]
        if any(sep not in (";", "\n") for sep in separators):
            raise NotComputable(f"the operator {separators[0]!r}")
    if kind == "declaration_command":
        keyword = node_text(node.children[0]) if node.children else ""
        assignments = node.named_children
        if keyword == "local" and reading.locals:
            shell_state.declare_local(assignments, scope, reading.locals[-1], _assign)
            reading.forms.add("local")
            return
        if keyword != "export" or in_pipeline or not assignments or \
                any(child.type != "variable_assignment" for child in assignments):
            raise NotComputable(f"the declaration {node_text(node)[:40]!r}")
        for assignment in assignments:
            _assign(assignment, scope)
        reading.forms.add("export")
        return
    if kind in ("variable_assignment", "variable_assignments"):
        if in_pipeline:
            raise NotComputable("an assignment inside a pipeline")
        for assignment in [node] if kind == "variable_assignment" else node.named_children:
            _assign(assignment, scope)
        return
    for child in node.named_children:
        if child.type.endswith("_redirect"):
            _redirect(child, scope, reading)
        elif child.type != "comment" and kind in ("program", "list") and child.type not in ("program", "list"):
            _unit(child, scope, reading, in_pipeline, fed)
        elif child.type != "comment":
            _statement(child, scope, reading, in_pipeline, fed)


def _unit(node: Node, scope: Scope, reading: Reading, in_pipeline: bool, fed: bool) -> None:
    """One pipeline or command of a list: a file it redirects output into may not be one its programs are
    given, nor above or below one (`cat f | sort > f` empties f before cat reads it; GNU refuses `cat g >> g`;
    `tee f >> f` races; `mkdir d/e > d` meets the file the redirection made)."""
    outputs, operands = reading.outputs, reading.operands
    reading.outputs, reading.operands = set(), set()
    _statement(node, scope, reading, in_pipeline, fed)
    reading.ran = True
    if any(output == operand or operand.startswith(output + "/") or output.startswith(operand + "/")
           for output in reading.outputs for operand in reading.operands) or any(
            posixpath.dirname(path) in reading.glob_folders for path in reading.outputs):
        raise NotComputable("a file both given to a program and redirected into: GNU's programs refuse or race")
    reading.outputs |= outputs
    reading.operands |= operands


def _command(node: Node, scope: Scope, reading: Reading, in_pipeline: bool, fed: bool) -> None:
    words: list[Value] = []
    if not reading.oldpwd_before and reading.moves and not _after_all_succeeded(node):
        # A cd before it may have failed and left OLDPWD unknown, or unset (bashkit's $OLDPWD unset is its folder)
        scope.oldpwd = None
    parent = node.parent
    redirects = [child for child in node.children if child.type.endswith("_redirect")] + (
        [child for child in parent.named_children if child.type.endswith("_redirect")]
        if parent is not None and parent.type == "redirected_statement" else [])
    redirected_in = any(_operator(child) in _FEEDS for child in redirects)
    named = node.child_by_field_name("name")
    status = "0" if (reading.ran or reading.status_before and not in_pipeline) and named is not None and \
        node_text(named) in _STATUS_READERS else None
    for index, child in enumerate(node.children):
        field_name = node.field_name_for_child(index)
        if child.type == "variable_assignment":
            raise NotComputable("an assignment before a command")
        if child.type.endswith("_redirect"):
            fed = fed or _operator(child) in _FEEDS
            _redirect(child, scope, reading)
        elif field_name in ("name", "argument"):
            scope.status = status  # `$?` stands for a number here: echo and printf print it, name no file
            try:
                words.extend(_values(child, scope))
            finally:
                scope.status = None
    if not words:
        raise NotComputable("a command without a program")
    program = words[0].text
    reading.commands += 1
    quiet = program in _QUIET or program == "cd" and [value.text for value in words[1:]] != ["-"]
    reading.printers += not quiet and not (program == "ls" and any(
        value.text.startswith("-") and not value.text.startswith("--") and "a" in value.text for value in words[1:]))
    if words[0].literal and "/" in program and program not in PROGRAMS:
        _missing_program(words, scope, reading)
        return
    if words[0].literal and program in {**reading.functions, **reading.defines}:
        _call(program, words[1:], scope, reading, in_pipeline, fed)
        return
    if words[0].literal and program in ("source", ".") and len(words) == 2:
        _source(words[1], scope, reading, in_pipeline, fed)
        return
    if words[0].literal and program == "set" and not in_pipeline and \
            (change := shell_state.option_change([value.text for value in words[1:]])) is not None:
        reading.forms.add(f"set -o {change[0]}")
        return
    if words[0].literal and program in directory_stack.BUILTINS:
        if in_pipeline:
            raise NotComputable(f"{program} inside a pipeline")
        directory_stack.read(program, words[1:], scope, reading, lambda value: _name(value, scope, reading))
        return
    if not words[0].literal or program not in PROGRAMS:
        raise NotComputable(f"{program or 'the program'} is not among the programs proven to run as in GNU")
    if program in SHELL_STATE and in_pipeline:
        raise NotComputable(f"{program} inside a pipeline")
    if _usage_error(program, words[1:], reading):
        return
    backup = ""
    if program == "sed":
        words, backup = argument_checks.sed_backup(words)
    redirected = any(not _opens_nothing_here(child) for child in redirects)
    argument_checks.check_divergent_forms(program, words[1:], redirected)
    arguments = [value.text for value in words[1:]]
    if program == "git":
        reading.forms |= git_cli.read(arguments).forms
    problem = option_problem(program, arguments) or value_problem(program, arguments)
    if problem:
        raise NotComputable(problem)
    outputs = [node_text(child.child_by_field_name("destination") or child) for child in redirects
               if _operator(child) in (">", ">>")]
    reading.stage = (program, arguments, "file" if any(out != "/dev/null" for out in outputs) else
                     "null" if outputs else "screen")
    if program == "cmp" and outputs:
        raise NotComputable("cmp with its output redirected: GNU's cmp then leaves the line out of its EOF message")
    if not in_pipeline:
        _follow("", reading.stage, True, reading)
    _check_listing(program, words[1:], scope, reading)
    if program == "ls" and "a" in listings.letters(arguments):
        _implied_dots(node, words[1:], reading)
    reading.forms |= used_forms(program, arguments) | ({"sed -iSUFFIX"} if backup else set())
    if program == "jq":
        reading.forms |= jq.forms(operands(program, arguments)[0])
    if not fed and reads_terminal(program, arguments):
        raise NotComputable(f"{program} reads the terminal here: what is typed next decides")
    if len(operands(program, arguments)) > MAX_OPERANDS.get(program, len(arguments)):
        raise NotComputable(f"{program} with that many operands is not proven")
    if program == "seq":
        argument_checks.check_sequence(arguments)
    if program == "cd":
        _cd(arguments, scope, reading, _after_all_succeeded(node))
    if program == "export" and (not arguments or any("=" not in word for word in arguments)):
        raise NotComputable("export without a value the line sets")
    if program == "export":
        for word in arguments:
            name, _, assigned = word.partition("=")
            if constructs.shell_variable(name):
                raise NotComputable(f"{name} changes how the shell finds programs, splits words or sorts")
            scope.variables[name] = assigned
    if program in _FILE_CHANGERS and any(posixpath.basename(word.rstrip("/")) in (".", "..") or word in ("/", "")
                                         for word in arguments):
        raise NotComputable(f"{program} on . or ..: GNU refuses it in words of its own")
    if program in ("cp", "mv"):
        argument_checks.check_copy(words[1:], scope)
    if program == "sed":
        argument_checks.check_sed_scripts(words[1:])
    checked = needs_known_content(program, arguments)
    if checked and any(value.glob for value in words[1:]):
        raise NotComputable(f"{program} over a glob: what the world must know of each operand is decided when it runs")
    for path_word, check in checked:
        if path_word == "-":
            raise NotComputable(f"{program} reading its standard input: the world cannot check what it reads")
        for cwd in reading.cwds:  # a cd before it may have failed: each folder it may stand in
            reading.content_checks.add((posixpath.normpath(posixpath.join(cwd, path_word)), check))
    if program in _PRINT_ONLY:
        for value in words[1:]:
            if value.glob:
                _name(value, scope, reading)  # `echo *` lists a folder: the world must know it in full
    if program == "wc" and redirected_in and not operands(program, arguments):
        raise NotComputable("wc reading a file on its standard input: GNU sizes its columns from the file")
    if program not in _PRINT_ONLY:
        if any(not value.text for value in words[1:]):
            raise NotComputable(f"{program} given an empty word: quoted it is an operand, unquoted none")
        for value in argument_checks.file_words(program, words[1:]):
            if path := _name(value, scope, reading):
                reading.operands.add(path)
            if backup and (copy := _name(replace(value, text=value.text + backup), scope, reading)):
                reading.outputs.add(copy)  # sed -i.bak keeps each file's old content beside it
        for letter, written in parsed_options(program, arguments):
            if letter in OUTPUT_OPTIONS.get(program, "") and written:
                if path := _name(Value(written), scope, reading):
                    reading.outputs.add(path)
        # The files it reads (grep's pattern, sed's script are none): cmp, sort, comm, join open them all before they
        # print and stop at the first they cannot open, as GNU's do; cp and mv of one source go on with none.
        given = argument_checks.file_words(program, words[1:])
        if program == "join":
            reading.joined = [value.text for value in given]
        # ls of one glob: its matches are there (no error), or bash gives it the pattern alone.
        lone_glob = program == "ls" and len(given) == 1
        # (jq reads one file: its first word is its filter.)
        opens_one_by_one = program not in OPENS_ALL_FIRST and program != "jq"
        reading.several = reading.several or len(given) > (2 if program in ("cp", "mv") else 1) and \
            opens_one_by_one or any(value.glob for value in words[1:]) and not lone_glob


def _usage_error(program: str, values: list[Value], reading: Reading) -> bool:
    """Whether GNU's `program` stops at an option it does not have (programs/usage_errors.py): then it reads and
    writes nothing, and shell.py runs it as a builtin that prints GNU's words."""
    try:
        letter = invalid_option(program, [value.text for value in values])
    except Undecided as undecided:
        raise NotComputable(str(undecided)) from None
    if letter is None:
        return False
    if any(value.glob for value in values):
        raise NotComputable(f"{program} -{letter} with a glob: a name it matches may be an option GNU reads first")
    reading.usage_errors.add(program)
    reading.stage = ("", [], "screen")  # it prints nothing on stdout
    return True


def _implied_dots(node: Node, values: list[Value], reading: Reading) -> None:
    """`ls -a`: the virtual shell lists as -A does, and shell.py adds `.` and `..` to its stdout
    (dot_entries.py). That stdout must be ls's alone: the line's last command, on the screen, after commands that
    print nothing, outside any construct or redirection."""
    given = listings.letters([value.text for value in values])
    if "A" in given:
        raise NotComputable("ls with both -a and -A: the last one given decides in GNU")
    if any(value.glob for value in values):
        raise NotComputable("ls -a of a glob: which operands it gets is decided when it runs")
    parent = node.parent
    while parent is not None:
        if parent.type not in ("program", "list"):
            raise NotComputable("ls -a inside a pipeline, a construct or a redirection: its . and .. are added to "
                                "the line's own output")
        parent = parent.parent
    if reading.printers or reading.dots:
        raise NotComputable("ls -a after commands that may print: its . and .. are added to the line's own output")
    if any(child.type.endswith("_redirect") for child in node.children):
        raise NotComputable("ls -a with a redirection: its . and .. are added to the line's own output")
    if "d" not in given:  # -d lists the folders themselves: no entries of theirs
        reading.dots = (tuple(operands("ls", [value.text for value in values])), "R" in given, reading.commands)


def _missing_program(words: list[Value], scope: Scope, reading: Reading) -> None:
    """A program named by a path (`./run.sh`): bash runs the file there, searching no PATH. Computed only where
    the world knows nothing is there (shell.py checks): then bash says so and runs nothing, whatever the words."""
    if not _name(words[0], scope, reading):
        raise NotComputable(f"{words[0].text}: a program named by no path the world can know")
    for cwd in reading.cwds:
        reading.missing_programs.add(posixpath.normpath(posixpath.join(cwd, words[0].text)))
    reading.stage = ("", [], "screen")  # it prints nothing on stdout


def _while_fed(loop: Node, redirects: list[Node], scope: Scope, reading: Reading, in_pipeline: bool) -> None:
    """A while loop with redirections: a `< FILE` is what its `read` reads; the body's programs get no input
    of their own (one reading the loop's input would take lines from `read`: refused as reading the terminal)."""
    feeds = [child for child in redirects if _operator(child) in _FEEDS]
    destination = feeds[0].child_by_field_name("destination") if len(feeds) == 1 and feeds[0].type == \
        "file_redirect" and _operator(feeds[0]) == "<" else None
    values = _values(destination, scope) if destination is not None else []
    before = reading.feeding
    reading.feeding = posixpath.normpath(posixpath.join(scope.cwd, values[0].text)) \
        if len(values) == 1 and values[0].literal and not reading.ran else None
    feeding, named = reading.feeding, set(reading.paths) | set(reading.glob_folders)
    try:
        _statement(loop, scope, reading, in_pipeline, fed=False)
    finally:
        reading.feeding = before
    if feeding and (feeding in reading.paths - named or posixpath.dirname(feeding) in reading.glob_folders):
        raise NotComputable("a read loop whose body names the file it reads: bash reads on from the open file")


def _feed(reading: Reading) -> bytes:
    content = reading.content(reading.feeding) if reading.feeding and reading.content else None
    if content is None:
        raise NotComputable("a read loop not fed by `< FILE` of a file the world knows, first in its line")
    return content


def _loop_glob(node: Node, values: list[Value], scope: Scope, reading: Reading) -> list[Value]:
    """`for f in *.py`: the names bash loops over, from the world's complete listing, when the glob is typed
    unquoted and nothing of the line ran before the loop (it might have changed the folder)."""
    if len(values) != 1 or node.type != "word" or node_text(node) != values[0].text or reading.ran:
        raise NotComputable("a for loop over a glob: which files it visits is decided when it runs")
    folder, words = loop_globs.expand(values[0].text, scope.cwd, reading.listing)
    reading.glob_folders.add(folder)
    return [Value(word) for word in words]


def _cd(arguments: list[str], scope: Scope, reading: Reading, chained: bool = False) -> None:
    """`cd DIR`, `cd` (the home) and `cd -` (the folder before, which it prints: only where the world's record
    holds it, or knows it unset; after a cd of the line, OLDPWD as the line found it is a folder it may enter too,
    where each cd before it failed, unless it runs only where all before it succeeded (`chained`); never after pushd
    or popd, whose OLDPWD bashkit leaves otherwise)."""
    if len(arguments) > 1:
        raise NotComputable("cd with more than one folder")
    target = arguments[0] if arguments else scope.home
    if target == "-":
        if not reading.moves and reading.oldpwd_unset:
            return  # it fails where it stands
        if reading.stacked or not scope.oldpwd or reading.moves and reading.oldpwd_before is None and not chained:
            raise NotComputable("cd - where the folder before is not known")
        if reading.moves and reading.oldpwd_before and not chained:  # where each cd before it failed
            reading.cwds.append(posixpath.normpath(reading.oldpwd_before))
        target = scope.oldpwd
    if not target:
        raise NotComputable("cd to an empty word")
    # The cd may fail: later relative paths are named from both folders.
    scope.oldpwd = scope.cwd
    scope.cwd = posixpath.normpath(posixpath.join(scope.cwd, target))
    reading.cwds.append(scope.cwd)


def _after_all_succeeded(node: Node) -> bool:
    """Whether a command runs only where every command before it in the line succeeded: the line begins with a
    chain of `&&` that holds it, outside any construct (`cd d && ls && cd -`)."""
    parent = node.parent
    while parent is not None and parent.type == "redirected_statement":
        node, parent = parent, parent.parent
    while parent is not None and parent.type == "list":
        if any(not child.is_named and node_text(child) != "&&" for child in parent.children):
            return False
        node, parent = parent, parent.parent
    return parent is not None and parent.type == "program" and bool(parent.named_children) and \
        parent.named_children[0] == node and node.type == "list"


def _define(node: Node, reading: Reading, in_pipeline: bool) -> None:
    """A function definition: kept as typed (shell.py records it where the run defined it); its body runs only when
    called, and is read then."""
    if in_pipeline or node.parent is None or node.parent.type != "program":
        raise NotComputable("a function defined inside a pipeline, a construct or a list: whether it is defined, the "
                            "gate would not know")
    name, source = shell_state.definition(node)
    if name in reading.defines or name in PROGRAMS or name in ("set", "declare", "unset", "local", "return"):
        raise NotComputable(f"a function {name} defined twice in a line, or named as a program the gate reads")
    reading.defines[name] = source
    reading.forms.add("function")


def _call(name: str, arguments: list[Value], scope: Scope, reading: Reading, in_pipeline: bool, fed: bool) -> None:
    """A call of a function the world keeps or the line defines: its body is read where the call stands (a
    function runs in the caller's shell: what it assigns or where it cds stays). Its arguments are words only;
    the body reads them as `$1`, `$#` ... (reading/words.py)."""
    if in_pipeline:
        raise NotComputable("a function called inside a pipeline: its stages' order of output is not proven")
    if name in reading.calling or len(reading.calling) >= shell_state.MAX_DEPTH:
        raise NotComputable("a function calling itself, or calls nested too deep")
    if any(value.glob for value in arguments):
        raise NotComputable("a function given a glob")
    body = shell_state.body_of(reading.defines.get(name) or reading.functions[name])
    hidden, calling, positional = len(reading.hidden), reading.calling, scope.positional
    reading.calling, reading.calls = (*calling, name), True
    scope.positional = tuple(value.text for value in arguments)
    reading.locals.append({})
    try:
        _statement(body, scope, reading, in_pipeline, fed)
    finally:
        reading.calling, scope.positional = calling, positional
        shell_state.restore_locals(reading.locals.pop(), scope)
    if len(reading.hidden) != hidden:
        raise NotComputable("a function whose body hides error output: its redirections lie outside the line")


def _source(word: Value, scope: Scope, reading: Reading, in_pipeline: bool, fed: bool) -> None:
    """`source FILE` (or `. FILE`) of a file the world knows exactly, as the line's first command (what the world
    knows of it is what it holds before the line): its statements are read as the line's own, where it stands."""
    if in_pipeline or reading.commands != 1 or reading.outputs or reading.moves or reading.calling or \
            reading.sources or "/" not in word.text and not word.text.startswith("."):
        raise NotComputable("source other than first in the line, once, of a file named by a path (bash searches "
                            "PATH for a bare name)")
    path = _name(word, scope, reading)
    content = reading.content(path) if reading.content is not None and path else None
    if not content:
        raise NotComputable("source of a file whose content the world does not know, or that is not there")
    try:
        text = content.decode("ascii")
    except UnicodeDecodeError:
        raise NotComputable("source of a file of other than plain text") from None
    root = parse_tree(text)
    if broken(root) or not _newlines_proven(root):
        raise NotComputable("a sourced file that does not read as lines of commands the gate proves")
    hidden, reading.sources = len(reading.hidden), True
    _statement(root, scope, reading, in_pipeline, fed)
    if len(reading.hidden) != hidden:
        raise NotComputable("a sourced file that hides error output: its redirections lie outside the line")


def _follow(flowing: str, stage: listings.Stage, last: bool, reading: Reading) -> str:
    try:
        return listings.follow(flowing, stage, last, reading.facts)
    except listings.Refusal as refusal:
        raise NotComputable(str(refusal)) from None


def _check_listing(program: str, values: list[Value], scope: Scope, reading: Reading) -> None:
    """ls, find, grep -r, diff, cmp, realpath and readlink: the forms the virtual shell renders unlike GNU, the
    working folder they list when they name none, and the facts shell.py must find in the world for them."""
    arguments = [value.text for value in values]
    try:
        listings.check_command(program, arguments, any(value.glob for value in values))
    except listings.Refusal as refusal:
        raise NotComputable(str(refusal)) from None
    if program in ("ls", "find", "grep") and listings.implies_cwd(program, arguments):
        reading.operands.add(_name(Value("."), scope, reading))
    named = [posixpath.normpath(posixpath.join(scope.cwd, word)) for word in operands(program, arguments)]
    facts = reading.facts
    if program in ("diff", "cmp"):
        facts.compared |= set(named)
    if program == "diff":
        facts.diffed |= set(named)
    if program in ("realpath", "readlink") and not set(listings.letters(arguments)) & {"m"}:
        for word in operands(program, arguments):
            facts.resolved |= listings.resolved_folders(word, scope.cwd)
    if program in ("ls", "find"):
        for word in operands(program, arguments) if program == "ls" else listings.find_paths(arguments):
            if word.endswith("/"):
                facts.resolved |= {posixpath.normpath(posixpath.join(scope.cwd, word))}
            facts.not_files |= listings.resolved_folders(word, scope.cwd) - {posixpath.normpath(scope.cwd)}
    if program == "find" or program == "grep":
        searched = [value for value in argument_checks.file_words(program, values) if not value.text.startswith("-")]
        if program == "find" and not searched:
            searched = [Value(".")]
        tops = {posixpath.normpath(posixpath.join(scope.cwd, value.text)) for value in searched if not value.glob}
        if program == "find":
            facts.listed |= tops
        else:
            facts.searched |= tops
        if program == "grep" and any(word.startswith(("--include", "--exclude")) for word in arguments):
            _check_chosen_files(arguments, searched, tops, facts)
        facts.searched_in |= {posixpath.normpath(posixpath.join(scope.cwd, posixpath.dirname(value.known_prefix)))
                              for value in searched if value.glob}


def _check_chosen_files(arguments: list[str], searched: list[Value], tops: set[str], facts: listings.Facts) -> None:
    """grep's --include and --exclude choose among the files a command line names too, --exclude-dir among its
    folders (grep(1)), where the virtual shell chooses only below them: proven where the line names folders the
    world knows, and for --exclude-dir the working folder alone."""
    if any(value.glob for value in searched):
        raise NotComputable("grep --include or --exclude over a glob: it may name files, which GNU chooses among")
    if any(word.startswith("--exclude-dir") for word in arguments) and any(value.text != "." for value in searched):
        raise NotComputable("grep --exclude-dir naming a folder other than .: GNU may skip the folder named itself")
    facts.resolved |= tops


def _opens_nothing_here(node: Node) -> bool:
    """A redirection whose target does not depend on the folder it is opened in: /dev/null, or one stream into the
    other (`cd - > /dev/null 2>&1` leaves the same wherever bash opens it)."""
    destination = node.child_by_field_name("destination")
    text = node_text(destination) if destination is not None else ""
    return node.type == "file_redirect" and (text == "/dev/null" or _operator(node) in (">&", "2>&", "1>&") and
                                             text in ("1", "2"))


def _operator(node: Node) -> str:
    """A redirection's operator with its descriptor: `>`, `2>`, `<`, `>&` ..."""
    return "".join(node_text(child) for child in node.children if not child.is_named or
                   child.type == "file_descriptor").replace(" ", "")


def _assign(node: Node, scope: Scope) -> None:
    name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
    if name is None or name.type != "variable_name":
        raise NotComputable(f"the assignment {node_text(node)[:40]!r}")
    if constructs.shell_variable(node_text(name)):
        raise NotComputable(f"{node_text(name)} changes how the shell finds programs, splits words or sorts")
    values = _values(value, scope) if value is not None else [Value("")]
    if len(values) != 1 or values[0].glob:
        raise NotComputable(f"the assignment {node_text(node)[:40]!r}")
    scope.variables[node_text(name)] = values[0].text


def _redirect(node: Node, scope: Scope, reading: Reading) -> None:
    if node.type == "heredoc_redirect":
        for inside in constructs.heredoc(node, scope):
            _redirect(inside, scope, reading)
        return
    if node.type != "file_redirect":
        raise NotComputable(f"a {node.type.replace('_', ' ')}")
    operator = _operator(node)
    destination = node.child_by_field_name("destination")
    if operator in _HIDES_ERRORS and operator != "2>&" and destination is not None and \
            node_text(destination) == "/dev/null":
        reading.hidden.append((node.start_byte, node.end_byte, ">/dev/null" if operator.startswith("&") else ""))
        return
    if operator in _HIDES_ERRORS:
        raise NotComputable(f"the redirection {node_text(node)!r}: its error messages would not be checked")
    if destination is None or operator not in _REDIRECTS:
        raise NotComputable(f"the redirection {node_text(node)!r}")
    if operator == ">&" and node_text(destination) in ("1", "2"):
        reading.merges = True
        return  # 2>&1, >&2: a descriptor, not a file
    if operator == ">&":
        raise NotComputable(f"the redirection {node_text(node)!r}")
    values = _values(destination, scope)
    if len(values) != 1 or values[0].glob:
        raise NotComputable("a redirection to several words")
    if values[0].text == "/dev/null":
        return
    path = _name(values[0], scope, reading)
    if operator in (">", "&>", "2>") and path:
        reading.written.add(path)
    if operator in (">", ">>") and path:
        reading.outputs.add(path)
    if operator == "<" and path:
        reading.operands.add(path)  # `tr a b < f > f`: bash empties f before tr reads it


def _values(node: Node, scope: Scope) -> list[Value]:
    _check_parts(node)
    _check_splitting(node, scope)
    values = expand(node, scope, lambda _node, _scope: None)
    for value in values:
        if not value.literal and not value.glob:
            raise NotComputable(f"{value.unknown or value.text} holds a value the world does not know")
    return values


def _check_splitting(node: Node, scope: Scope) -> None:
    """An unquoted expansion whose value holds spaces or glob characters is split and globbed by bash: refused."""
    pending = [node]
    while pending:
        part = pending.pop()
        if part.type == "string":
            continue  # inside double quotes: one word, no globbing
        if part.type in ("simple_expansion", "expansion", "arithmetic_expansion"):
            values = [value for value in expand(part, scope.copy(), lambda _node, _scope: None)
                      if value.literal or value.glob]  # an unknown one is refused with its own reason
            if len(values) > 1 or any(any(char in value.text for char in " \t\n*?[") for value in values):
                raise NotComputable(f"{node_text(part)[:40]} unquoted holds spaces or glob characters: word "
                                    "splitting is not proven")
            continue
        pending.extend(part.named_children)


def _check_parts(node: Node) -> None:
    if node.type not in _WORD_PARTS and node.is_named:
        raise NotComputable(f"a {node.type.replace('_', ' ')} ({node_text(node)[:40]!r})")
    if node.type == "word" and ("?" in node_text(node) or "[" in node_text(node)):
        raise NotComputable(f"? or [ in {node_text(node)[:40]!r}: expansions the tests do not prove")
    if node.type == "arithmetic_expansion":
        return  # the reader evaluates it, or leaves it unknown (and the gate refuses it)
    for child in node.named_children:
        _check_parts(child)


def _name(value: Value, scope: Scope, reading: Reading) -> str:
    """Note a word as a path the line may touch; returns it absolute ('' for a glob or no path at all)."""
    if value.glob:
        folder = posixpath.dirname(value.known_prefix)
        if any(ch in folder for ch in "*?[") or "**" in value.text:
            raise NotComputable(f"the glob {value.text!r}")
        reading.glob_folders.add(posixpath.normpath(posixpath.join(scope.cwd, folder)))
        return ""
    text = value.text
    if not text or len(text) > MAX_PATH or text.startswith("-") and len(text) > 1:
        return ""
    parts = text.split("/")
    if any(part == ".." and parts[index - 1] not in ("", ".", "..") for index, part in enumerate(parts) if index):
        raise NotComputable(f"{text}: the virtual shell drops `name/..` by its letters; GNU fails where name is no "
                            "folder")
    reading.typed.add(text)
    for cwd in reading.cwds:
        reading.paths.add(posixpath.normpath(posixpath.join(cwd, text)))
    return posixpath.normpath(posixpath.join(scope.cwd, text))
