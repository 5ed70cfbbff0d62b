"""Reading a whole command line with tree-sitter-bash: lists, pipelines, subshells, redirections,
control flow, functions and substitutions, down to simple commands that the programs/, remote/ and
launchers/ folders interpret. The working directory follows `cd`, variables follow literal assignments, and each
simple command remembers which earlier ones must succeed before it runs (`a && b`).
"""

from __future__ import annotations

import contextlib
import posixpath
from dataclasses import replace

from tree_sitter import Node

from .launchers.aliases import alias_named, with_alias
from .reading.call import Call, FileContents, KeptFunctions, PathState, ShellHistory, Stdin, no_file
from .reading.effects import MADE_BY_LINE, Effect, Opaque, OpaqueWhat, Requirement, Semantics
from .reading.grammar import broken, node_text, parse_tree
from .reading.lookup import looked_up_program
from .programs.reads import note_reads
from .programs.secrets import secret_kind
from .launchers.sourced import sourced_variables
from .reading.words import Scope, Value, expand, printed_by
from .reading.written import WrittenFiles, output_files, output_of, tee_files

MAX_DEPTH = 8  # nested `sh -c`, `eval` and functions: deeper is opaque
MAX_LOOP_VALUES = 8  # a `for` loop is read once per value up to this many
# Simple commands read per line, aliases', functions' and loops' repeats included: nesting multiplies them
# (five calls a level, eight levels: 390,625) past a host's hook timeout. The guard's tests' lines read at most
# 7. Measured through the hook: 500 commands that each delete a tree are decided in about 0.35 s, 1000 in 1 s
# (the rules' cost grows faster than the effects'), 500 psql -c with SQL in about 0.6 s.
MAX_COMMANDS = 500


class Reader:
    def __init__(self, state: PathState | None):
        self.state = state
        self.effects: list[Effect] = []
        self.opaque: list[Opaque] = []
        self.requirements: list[Requirement] = []
        self.programs: list[str] = []
        self.reads: dict[int, list[str]] = {}  # command -> the files whose content it reads (programs/reads.py)
        self.depends_on: dict[int, frozenset[int]] = {}
        self.functions: dict[str, Node] = {}
        self.followed: set[str] = set()  # the functions called whose bodies were read
        # `alias name=value` earlier in the line (launchers/aliases.py); None: a value the line does not set
        self.aliases: dict[str, str | None] = {}
        self.written = WrittenFiles()  # what the line writes into files, for a later command that runs or reads them
        self.depth = 0
        self.commands_read = 0  # simple commands read so far, against MAX_COMMANDS
        self._after: frozenset[int] = frozenset()
        self._maybe = 0  # inside a branch the text does not decide

    def add_effect(self, effect: Effect) -> None:
        self.written.changed(effect)
        if self._maybe:
            effect = replace(effect, maybe=True)
        if effect.kind == "deleted" and effect.tree and not effect.target and self._made_here(effect):
            effect = replace(effect, target=MADE_BY_LINE)
        if effect not in self.effects:
            self.effects.append(effect)

    def _made_here(self, deletion: Effect) -> bool:
        """Whether an earlier command of this line made the folder a tree deletion removes (`mkdir -p out`, or the
        one `mktemp -d` names) and moved nothing into it: then the folder holds only what the line put there."""
        def made(effect: Effect) -> bool:
            if effect.kind != "created" or effect.command >= deletion.command:
                return False
            return effect.path == deletion.path or (  # mktemp's random part: its X's stand for any letters
                effect.program == "mktemp" and effect.pattern and effect.path.replace("?", "X") == deletion.path)
        moved_in = any(effect.kind == "moved-to" and (effect.path + "/").startswith(deletion.path.rstrip("/") + "/")
                       for effect in self.effects)
        return not deletion.pattern and deletion.where != "unknown" and not moved_in and any(map(made, self.effects))

    def add_effect_exec_download(self, call: Call, host: str) -> None:
        """A shell or interpreter that runs what a downloader prints."""
        self.add_effect(Effect("exec-download", "", "unknown", target=host, program=call.program, command=call.index))

    def semantics(self, line: str, start: Scope, end: Scope) -> Semantics:
        return Semantics(line, start.cwd, start.workspace, tuple(self.effects), tuple(self.opaque),
                         tuple(self.requirements), tuple(self.programs), end.cwd if end.cwd_known else "",
                         dict(self.depends_on), frozenset(self.followed))

    # --- statements --------------------------------------------------------------------------
    def run_code(self, code: str, scope: Scope, index: int | None = None, stdin: Stdin | None = None) -> None:
        if self.depth >= MAX_DEPTH:
            self._opaque_at(index, "code", code, "shell code nested too deep to read", risky=True)
            return
        self.depth += 1
        try:
            self.statement(parse_tree(code), scope, stdin or Stdin())
        finally:
            self.depth -= 1

    def statement(self, node: Node, scope: Scope, stdin: Stdin, redirects: tuple[Node, ...] = ()) -> list[int]:
        """Read one statement; returns the indices of the simple commands whose status it ends with."""
        kind = node.type
        if kind == "command":
            return self.command(node, scope, stdin, redirects)
        if kind == "redirected_statement":
            body = node.child_by_field_name("body")
            own = tuple(child for child in node.children if child.type.endswith("_redirect") or child.type == "ERROR")
            if body is None:
                self.redirects(own, scope, None)
                return []
            ends = self.statement(body, scope, self._stdin(own, scope, stdin), (*redirects, *own))
            # `cat <<EOF | tee f`: the grammar keeps what follows the heredoc's start inside it.
            for after in (c for r in own if r.type == "heredoc_redirect" for c in r.named_children
                          if c.type in ("pipeline", "list", "command", "redirected_statement")):
                ends = self.continuation(after, scope, ends, redirects)
            return ends
        if kind == "list":
            return self.command_list(node, scope, stdin, redirects)
        if kind == "pipeline":
            return self.pipeline(node, scope, stdin, redirects)
        if kind in ("subshell",):
            inner = scope.copy()
            return self.sequence(node.named_children, inner, stdin, redirects)
        if kind == "variable_assignment":
            self.assign(node, scope)
            self.redirects(redirects, scope, None)  # `X=1 > f` still opens f
            return []
        if kind == "variable_assignments":
            for child in node.named_children:
                self.assign(child, scope)
            self.redirects(redirects, scope, None)
            return []
        if kind == "declaration_command":
            assignments = [child for child in node.named_children if child.type == "variable_assignment"]
            for child in assignments:
                self.assign(child, scope)
            if assignments or not node.children:
                self.redirects(redirects, scope, None)  # `export X=1 2> f` still opens f
                return []
            # `export -p`, `declare -x`: no assignment, so a command of its own (it may print the variables)
            words = [Value(node_text(node.children[0]))] + [
                value for child in node.named_children for value in expand(child, scope, self._substitution)]
            return [self.run_words(words, scope, None, stdin, node_text(node), redirects)]
        if kind == "function_definition":
            name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
            if name is not None and body is not None:
                self.functions[node_text(name)] = body
            return []
        if kind == "for_statement":
            return self.for_loop(node, scope, stdin, redirects)
        if kind in ("if_statement", "elif_clause"):
            condition = [child for child in node.children if node.field_name_for_child(node.children.index(child)) == "condition"]
            ends = self.sequence(condition, scope, stdin, redirects)
            rest = [child for child in node.named_children if child not in condition and child.type not in ("elif_clause", "else_clause")]
            with self.conditional():
                with self.after_success(ends):
                    self.sequence(rest, scope, stdin, redirects)
                for child in node.named_children:
                    if child.type in ("elif_clause", "else_clause"):
                        self.statement(child, scope, stdin, redirects)
            return ends
        if kind in ("while_statement", "until_statement", "case_item", "c_style_for_statement"):
            with self.conditional():
                return self.sequence(node.named_children, scope, stdin, redirects)
        if kind in ("comment", "heredoc_body", "heredoc_start", "heredoc_end", "test_operator", "file_descriptor"):
            return []
        if kind in ("word", "string", "raw_string", "concatenation", "simple_expansion", "expansion", "number"):
            expand(node, scope, self._substitution)  # a for or case value: its substitutions still run
            return []
        if kind.endswith("_redirect"):
            self.redirects((node,), scope, None)
            return []
        if kind in ("command_substitution", "process_substitution"):
            self._substitution(node, scope)
            return []
        # Compound statements (program, {...}, while, case, test, negation, loops' bodies): read every part.
        return self.sequence(node.named_children, scope, stdin, redirects)

    def sequence(self, nodes, scope: Scope, stdin: Stdin, redirects: tuple[Node, ...]) -> list[int]:
        ends: list[int] = []
        for child in nodes:
            found = self.statement(child, scope, stdin, redirects)
            ends = found or ends
        return ends

    def command_list(self, node: Node, scope: Scope, stdin: Stdin, redirects: tuple[Node, ...]) -> list[int]:
        parts = node.children
        before = scope.copy()
        left_ends = self.statement(parts[0], scope, stdin, redirects)
        operator = node_text(parts[1]) if len(parts) > 1 else ""
        if len(parts) < 3:
            return left_ends
        if operator == "&&":
            with self.after_success(left_ends):
                right = self.statement(parts[2], scope, stdin, redirects)
        else:  # `a || b`: b runs only when a failed, so a's cd did not happen; whether it runs, the text does not say
            with self.conditional():
                right = self.statement(parts[2], before, stdin, redirects)
        return right or left_ends

    @contextlib.contextmanager
    def after_success(self, ends):
        """Commands read inside run only once these succeeded (`a && b`, an if's condition)."""
        outer = self._after
        self._after = outer | frozenset(ends)
        try:
            yield
        finally:
            self._after = outer

    @contextlib.contextmanager
    def conditional(self):
        """Effects read inside run only if a condition the text does not decide holds (`||`, if, case, loops)."""
        self._maybe += 1
        try:
            yield
        finally:
            self._maybe -= 1

    def continuation(self, node: Node, scope: Scope, before: list[int], redirects: tuple[Node, ...]) -> list[int]:
        """What follows a heredoc's start on its line: `| next` reads the command's output, `&& next` waits for it."""
        operator = node_text(node.children[0]) if node.children else ""
        program = self.programs[before[-1]] if before else ""
        if node.type == "pipeline" and operator == "|":
            return self.pipeline(node, scope.copy(), Stdin("pipe", from_program=program), redirects)
        with self.after_success(before if operator == "&&" else ()):
            ends = self.sequence(node.named_children, scope, Stdin(), redirects)
        return ends or before

    def pipeline(self, node: Node, scope: Scope, stdin: Stdin, redirects: tuple[Node, ...]) -> list[int]:
        stages = [child for child in node.named_children]
        feed = stdin
        ends: list[int] = []
        for position, stage in enumerate(stages):
            last = position == len(stages) - 1
            first = len(self.programs)
            # Each stage is a subshell; redirections written after the pipeline belong to its last stage.
            ends = self.statement(stage, scope.copy(), feed, redirects if last else ())
            program = self.programs[ends[-1]] if ends else ""
            download = next((e.target for e in self.effects if ends and e.command == ends[-1] and e.kind == "download"), "")
            # What a stage read may flow on through every later stage (base64, grep and tr pass content along).
            carries = (*feed.carries, *self.read_since(first))
            # A literal echo or printf feeds known text (`echo 'DROP TABLE t' | psql` reads as SQL).
            printed = printed_by(stage, scope) if stage.type == "command" else None
            feed = Stdin("pipe", text=printed, from_program=program, from_download=download, carries=carries)
        return ends

    def read_since(self, first: int) -> tuple[str, ...]:
        """The files read by the commands from index `first` on."""
        return tuple(path for index in range(first, len(self.programs)) for path in self.reads.get(index, ()))

    def for_loop(self, node: Node, scope: Scope, stdin: Stdin, redirects: tuple[Node, ...]) -> list[int]:
        variable = node.child_by_field_name("variable")
        values: list[Value] = []
        body = node.child_by_field_name("body")
        for index, child in enumerate(node.children):
            if node.field_name_for_child(index) == "value":
                values.extend(expand(child, scope, self._substitution))
        name = node_text(variable) if variable is not None else ""
        if body is None:
            return []
        if not values and any(node_text(child) == "in" for child in node.children):
            return []  # `for v in ; do`, or words that expand to none: the body never runs
        if not values or len(values) > MAX_LOOP_VALUES or any(not v.literal and not v.glob for v in values):
            scope.variables[name] = None
            with self.conditional():  # `for v; do` walks the script's arguments: none, or many
                return self.statement(body, scope, stdin, redirects)
        ends: list[int] = []
        for value in values:
            scope.variables[name] = value.text if value.literal else None
            if value.glob:  # the loop variable holds each match: a path under the glob's folder
                ends = self._loop_glob(name, value, body, scope, stdin, redirects)
            else:
                ends = self.statement(body, scope, stdin, redirects)
        return ends

    def _loop_glob(self, name, value, body, scope, stdin, redirects):
        scope.variables[name] = None
        marker = len(self.effects)
        ends = self.statement(body, scope, stdin, redirects)
        # Effects on the variable alone stand for the glob's matches.
        for position in range(marker, len(self.effects)):
            effect = self.effects[position]
            if effect.where == "unknown":
                path, where = scope.path(value)
                self.effects[position] = replace(effect, path=path, where=where, pattern=True)
        return ends

    # --- simple commands ---------------------------------------------------------------------
    def command(self, node: Node, scope: Scope, stdin: Stdin, redirects: tuple[Node, ...]) -> list[int]:
        self.commands_read += 1
        if self.commands_read > MAX_COMMANDS:
            return self._past_budget(node)
        name_node = node.child_by_field_name("name")
        if name_node is not None and (alias := alias_named(name_node, self.aliases)) is not None:
            return self._aliased(node, name_node, self.aliases[alias], scope, stdin, redirects)
        env = scope.copy()
        for child in node.children:
            if child.type == "variable_assignment":  # `X=1 cmd`: for cmd's environment, not this line's words
                if name_node is None:
                    self.assign(child, scope)
                else:
                    self.assign(child, env)
        words: list[Value] = []
        own: tuple[Node, ...] = ()
        first = len(self.programs)  # substitutions in the words run first: what they read is in the arguments
        for index, child in enumerate(node.children):
            field = node.field_name_for_child(index)
            if field in ("name", "argument"):
                words.extend(expand(child, scope, self._substitution))
            elif child.type.endswith("_redirect"):
                own = (*own, child)
        redirects = (*redirects, *own)
        stdin = self._stdin(own, scope, stdin)
        if not words:
            self.redirects(redirects, scope, None)
            return []
        if name_node is not None and not words[0].literal and (looked_up := looked_up_program(name_node)):
            words[0] = Value(looked_up)  # `"$(command -v kubectl)" delete ...` runs the program it names
        if substituted := self.read_since(first):
            stdin = replace(stdin, carries=(*stdin.carries, *substituted))
        secrets = sourced_variables(node, scope, posixpath.basename(words[0].text))
        if secrets:  # a value from a sourced secret file flows in, like a substitution's (a network program sends it)
            stdin = replace(stdin, carries=(*stdin.carries, *scope.sourced))
        index = self.run_words(words, scope, None, stdin, node_text(node), redirects)
        self._wrote(node, words, scope, stdin, redirects, index)
        for path in scope.sourced if secrets else ():
            self.reads.setdefault(index, []).append(path)  # a pipe carries it on
            self.add_effect(Effect("secret-read", path, scope.where(path), program=self.programs[index], command=index,
                                   target=f"{secret_kind(path)}, through ${', $'.join(secrets)}"))
        return [index]

    def _past_budget(self, node: Node) -> list[int]:
        """The rest of a line that expands past MAX_COMMANDS: one risky unknown part, the commands in it unread."""
        if self.commands_read > MAX_COMMANDS + 1:
            return []
        return self._unread_command("code", node_text(node), "the line expands to more commands than the guard reads "
                                    f"({MAX_COMMANDS}): what the rest runs is unknown")

    def _unread_command(self, what: OpaqueWhat, text: str, reason: str) -> list[int]:
        """A simple command the reader does not read: it counts as a command, and is one risky unknown part."""
        index = len(self.programs)
        self.programs.append("")
        self.depends_on[index] = self._after
        self._opaque_at(index, what, text, reason, risky=True)
        return [index]

    def _aliased(self, node: Node, name: Node, alias: str | None, scope: Scope, stdin: Stdin,
                 redirects: tuple[Node, ...]) -> list[int]:
        """A command whose first word is an alias: its value replaces the word, and the text is read again (bash(1),
        ALIASES). The alias is not expanded again inside its own value, as bash does not."""
        program = node_text(name)
        if alias is None or self.depth >= MAX_DEPTH:
            return self._unread_command("program", node_text(node), f"{program} is an alias whose value the line does "
                                        "not set, or one nested too deep: what runs is unknown")
        del self.aliases[program]
        self.depth += 1
        try:
            return self.statement(parse_tree(with_alias(node, name, alias, self.aliases)), scope, stdin,
                                  redirects)
        finally:
            self.aliases[program] = alias
            self.depth -= 1

    def _wrote(self, node: Node, words: list[Value], scope: Scope, stdin: Stdin, redirects: tuple[Node, ...],
               index: int) -> None:
        """Text a command writes into files that the line spells out (a here-document through cat or tee, a literal
        echo or printf): a later command of the line that runs or reads the file sees it (reading/written.py)."""
        program = self.programs[index]
        printed = None if self._maybe or program in self.functions else output_of(program, words[1:], stdin.text)
        if printed is None:
            return
        targets = output_files(node, redirects, scope)
        if program == "tee":
            files, append = tee_files(words[1:])
            targets += [(file, append) for file in files]
        for value, append in targets:
            if value.literal and (scope.cwd_known or value.text.startswith("/")) and not no_file(value.text):
                self.written.settle(scope.path(value)[0], printed, append, index, self._text_on_disk)

    def _text_on_disk(self, path: str) -> str | None:
        if isinstance(self.state, FileContents):
            text = self.state.text_of(path)
            if text is not None:
                return text
        return "" if self.state is not None and self.state.exists(path) is False else None

    def run_words(self, words: list[Value], scope: Scope, parent: int | None, stdin: Stdin, text: str,
                  redirects: tuple[Node, ...] = ()) -> int:
        from .launchers.dispatch import dispatch  # launchers run commands through this reader

        index = len(self.programs)
        program_value = words[0]
        program = posixpath.basename(program_value.text) if program_value.literal else ""
        self.programs.append(program)
        self.depends_on[index] = self._after | (frozenset({parent}) if parent is not None else frozenset())
        self.redirects(redirects, scope, index)
        call = Call(program, words[1:], scope, index, stdin, self, text)
        if not program_value.literal:
            call.opaque("program", program_value.text, f"the program is {program_value.text}, which the line does not "
                        "set: what runs is unknown", risky=True)
            return index
        if program in self.followed and program not in self.functions or program in self.functions and \
                self.depth >= MAX_DEPTH:
            # A function calling itself (its body is being read), or calls nested too deep: what the further calls do
            # is not read, and nothing may take the name for a program either
            call.opaque("function", program, f"{program} calls itself, or calls nest too deep: what it does beyond "
                        "the first reading is unknown", risky=True)
            return index
        if program in self.functions and self.depth < MAX_DEPTH:
            self.depth += 1
            body = self.functions.pop(program)  # a function calling itself is read once
            self.followed.add(program)
            try:
                self.statement(body, scope, stdin)
            finally:
                self.functions[program] = body
                self.depth -= 1
            return index
        dispatch(call, program_value)
        self._sent_onwards(call)
        return index

    def _sent_onwards(self, call: Call) -> None:
        """A network program sends what flows into it: a pipe's, a redirect's or a substitution's files."""
        if not any(e.command == call.index and e.kind in ("upload", "download") for e in self.effects):
            return
        host = next((e.target for e in self.effects if e.command == call.index and e.target), "")
        flowing = list(call.stdin.carries)
        if call.stdin.path is not None and (call.stdin.path.literal or call.stdin.path.glob):
            flowing.append(call.scope.path(call.stdin.path)[0])
        for path in dict.fromkeys(flowing):
            if no_file(path):
                continue  # `< /dev/null` sends nothing from disk
            self.add_effect(Effect("upload", path, call.scope.where(path), target=host, program=call.program,
                                   command=call.index))

    def assign(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None:
            return
        if value is None:
            scope.variables[node_text(name)] = ""
            return
        values = expand(value, scope, self._substitution, split=False)
        scope.variables[node_text(name)] = values[0].text if len(values) == 1 and values[0].literal else None

    # --- redirections ------------------------------------------------------------------------
    def redirects(self, nodes: tuple[Node, ...], scope: Scope, index: int | None) -> None:
        for node in nodes:
            if node.type != "file_redirect":
                if node.type == "heredoc_redirect":  # `cat <<EOF > f`: the file redirect sits inside
                    self.redirects(tuple(c for c in node.children if c.type == "file_redirect"), scope, index)
                continue
            operators = [node_text(child) for child in node.children if not child.is_named or child.type == "ERROR"]
            operator = "".join(operators).replace(" ", "")
            destination = node.child_by_field_name("destination")
            if destination is None:
                destinations = [c for c in node.named_children if c.type not in ("file_descriptor", "ERROR")]
                destination = destinations[-1] if destinations else None
            if destination is None or (destination.type == "number" and operator in (">&", "<&")):
                continue  # 2>&1: a descriptor, not a file
            value = expand(destination, scope, self._substitution, split=False)[0]
            if operator in (">&", "<&") and value.text == "-":
                continue
            call = Call("bash", [], scope, index if index is not None else max(len(self.programs) - 1, 0),
                        Stdin(), self, node_text(node))
            if value.literal and no_file(value.text):
                continue
            if operator in (">", ">|", "&>", ">&", ">>", "&>>"):
                call.write(value, "appended" if operator.endswith(">>") else "overwritten")
                call.need_parent(value, "bash: {}: No such file or directory")
            elif operator == "<>":
                descriptor = next((node_text(c) for c in node.children if c.type == "file_descriptor"), "0")
                if call.exists(value) is not True:
                    call.effect("created", value)
                if descriptor in ("1", "2"):  # output written into it, from its start, without truncating
                    call.effect("modified", value)
            elif operator == "<":
                call.need(value, "bash: {}: No such file or directory")
                note_reads(call, [value])

    def _stdin(self, redirects: tuple[Node, ...], scope: Scope, inherited: Stdin) -> Stdin:
        for node in reversed(redirects):
            if node.type == "heredoc_redirect":
                body = next((c for c in node.children if c.type == "heredoc_body"), None)
                quoted = any(c.type == "heredoc_start" and node_text(c)[:1] in "'\"\\" for c in node.children)
                literal = body is not None and (quoted or all(c.type == "heredoc_content" for c in body.named_children))
                text = node_text(body) if body is not None else ""
                return Stdin("text", text=text if literal else None)
            if node.type == "herestring_redirect":
                values = [expand(c, scope, self._substitution, split=False)[0] for c in node.named_children]
                return Stdin("text", text=values[0].text if values and values[0].literal else None)
            if node.type == "file_redirect":
                operator = "".join(node_text(c) for c in node.children if not c.is_named)
                destination = node.child_by_field_name("destination")
                if operator == "<" and destination is not None:
                    return Stdin("file", path=expand(destination, scope, self._substitution, split=False)[0])
        return inherited

    def _substitution(self, node: Node, scope: Scope) -> None:
        with self.after_success(()):  # a substitution runs before its command, on no condition of its own
            self.sequence(node.named_children, scope.copy(), Stdin(), ())

    def _opaque_at(self, index: int | None, what, text: str, reason: str, risky: bool = False) -> None:
        position = index if index is not None else max(len(self.programs) - 1, 0)
        self.opaque.append(Opaque(what, text[:200], reason, risky, position))



def analyze(line: str, cwd: str, home: str = "", workspace: str = "", state: PathState | None = None) -> Semantics:
    """The effects of `line` when run in `cwd`, read from the text alone; never raises, never runs it."""
    cwd = posixpath.normpath(cwd or "/")
    scope = Scope(cwd, posixpath.normpath(home) if home else "/root" if cwd == "/root" else _home_of(cwd),
                  posixpath.normpath(workspace or cwd))
    if isinstance(state, ShellHistory):
        scope.oldpwd = state.previous_folder
    start = scope.copy()
    reader = Reader(state)
    try:
        if isinstance(state, KeptFunctions):  # the shell's functions, defined before the line as it was
            for definition in state.functions.values():
                reader.statement(parse_tree(definition), scope.copy(), Stdin())
        root = parse_tree(line)
        if broken(root):
            reader.opaque.append(Opaque("unparsable", line[:200], "the line does not parse as bash (a missing quote, "
                                        "word or command): what runs is unknown", True))
        reader.statement(root, scope, Stdin())
    except RecursionError:
        reader.opaque.append(Opaque("unparsable", line[:200], "the line nests too deeply to read", True))
    except Exception as exc:  # noqa: BLE001 - a reader's bug must make the guard ask, never crash it open
        reader.opaque.append(Opaque("unparsable", line[:200], f"the guard could not read this line: "
                                    f"{type(exc).__name__}", True))
    return reader.semantics(line, start, scope)


def _home_of(cwd: str) -> str:
    parts = cwd.split("/")
    return "/".join(parts[:3]) if len(parts) >= 3 and parts[1] == "home" else "/root"
