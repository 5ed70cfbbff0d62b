"""Code given inline to interpreters other than Python and the shells (`perl -e`, `ruby -e`, `node -e`, `deno
eval`, `bun -e`, `php -r`, `lua -e`, `Rscript -e`, `osascript -e`), read where its effect is literal.

Each language's row names, from its documentation, the calls that run a shell command given as a string
(perl's and ruby's `system`, node's `execSync`, php's `shell_exec`, lua's `os.execute`, R's `system`,
AppleScript's `do shell script`), the calls that delete a path (perl's `unlink` and File::Path's `rmtree`,
ruby's `FileUtils.rm_rf`, node's `fs.rmSync`, Deno's `Deno.removeSync`, php's `unlink`, lua's `os.remove`, R's
`unlink`), and the words of code that only computes and prints. A call whose arguments are string literals is
read as what it does: the command is read like the line's own, the path is deleted. What is left is proven
harmless only where every word of it is one of those that compute and print, no string hides code (`#{}`,
`${}`, backticks) and nothing loads other code; anything else stays what it was: code the guard does not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STRING = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""", re.DOTALL)
_INTERPOLATION = re.compile(r"#\{|\$\{|@\{|\{\$")


@dataclass(frozen=True)
class Language:
    """What is read of one language's inline code."""

    shell: tuple[str, ...]  # calls whose one string argument is a shell command (a dotted name matches its end)
    deletes: tuple[str, ...]  # calls whose first string argument is a path they delete
    recursive: tuple[str, ...]  # of those, the ones that delete a whole tree, or the argument that asks for it
    pure: frozenset[str]  # the words of code that only computes and prints
    variables: str = ""  # sigils that start a variable's name ($x, @a, %h)
    backticks_run: bool = False  # `...` runs a shell command (perl, ruby, php), rather than building a string
    modules: str = ""  # a pattern for loading a module that only names files and processes (its code is read)


_COMMON = frozenset("if else for while in do end return true false nil null undefined and or not function "
                    "local then elsif elseif unless let const var new typeof of my our say print printf".split())
LANGUAGES = {
    # perlfunc: system, exec, qx, readpipe; unlink, rmdir; File::Path's rmtree and remove_tree.
    "perl": Language(("system", "exec", "readpipe"), ("unlink", "rmdir", "rmtree", "remove_tree"),
                     ("rmtree", "remove_tree"),
                     _COMMON | frozenset("sprintf length uc lc ucfirst lcfirst join split reverse sort keys values "
                                         "scalar time localtime gmtime sqrt int abs chr ord substr index rindex "
                                         "defined exists sprintf last next foreach map grep wantarray".split()),
                     variables="$@%", backticks_run=True, modules=r"use\s+(File::Path|strict|warnings|utf8)[^;]*;"),
    # Kernel#system, #exec, #spawn, %x(); FileUtils.rm_rf/rm_r/rm/rm_f/remove_dir/remove_entry, File.delete.
    "ruby": Language(("system", "exec", "spawn"), ("rm_rf", "rm_r", "rm", "rm_f", "remove_dir", "remove_entry",
                                                    "remove_entry_secure", "rmtree", "delete", "unlink", "rmdir"),
                     ("rm_rf", "rm_r", "remove_dir", "remove_entry", "remove_entry_secure", "rmtree"),
                     _COMMON | frozenset("puts p pp inspect to_s to_i to_f length size each map select join upcase "
                                         "downcase sum min max sort reverse times Time now RUBY_VERSION "
                                         "RUBY_PLATFORM Integer Float String Array Hash Math sqrt round".split()),
                     variables="@$", backticks_run=True, modules=r"require\s*\(?\s*['\"](fileutils)['\"]\s*\)?;?"),
    # node's child_process.execSync/exec; fs.rmSync/rm/unlinkSync/unlink/rmdirSync/rmdir and fs.promises';
    # Deno.removeSync/remove; Bun.spawnSync takes an argv, not read here.
    "javascript": Language(("execSync", "exec"), ("rmSync", "rm", "unlinkSync", "unlink", "rmdirSync", "rmdir",
                                                  "removeSync", "remove"),
                           ("recursive",),
                           _COMMON | frozenset("console log error info warn JSON stringify parse Math max min floor "
                                               "ceil round abs sqrt random process version versions platform arch "
                                               "Date now toISOString toString length map filter reduce join split "
                                               "Object keys values entries Array from Number String parseInt "
                                               "parseFloat Deno Bun build os".split()),
                           modules=r"require\(\s*['\"](node:)?(fs|fs/promises|child_process)['\"]\s*\)"),
    # php.net: system, exec, shell_exec, passthru, popen, proc_open, backticks; unlink, rmdir.
    "php": Language(("system", "exec", "shell_exec", "passthru", "popen", "proc_open"), ("unlink", "rmdir"), (),
                    _COMMON | frozenset("echo sprintf phpversion PHP_VERSION PHP_EOL PHP_OS php_uname date time "
                                        "strlen strtoupper strtolower json_encode var_dump print_r implode explode "
                                        "count array range max min round floor intval str_repeat "
                                        "extension_loaded function_exists get_loaded_extensions".split()),
                    variables="$", backticks_run=True),
    # lua: os.execute, io.popen; os.remove.
    "lua": Language(("execute", "popen"), ("remove",), (),
                    _COMMON | frozenset("string format math floor max min os time date clock tostring tonumber "
                                        "pairs ipairs table concat _VERSION type".split())),
    # R: system, system2 (its command, the first argument, runs through the shell); unlink, file.remove.
    "r": Language(("system",), ("unlink", "file.remove"), ("recursive",),
                  _COMMON | frozenset("cat paste paste0 sum mean R version string Sys time Date c seq length nchar "
                                      "toupper tolower sprintf format round max min list head summary str names "
                                      "TRUE FALSE NULL sessionInfo".split())),
    # AppleScript: `do shell script "CMD"`; nothing else of it is read.
    "applescript": Language(("do shell script",), (), (), frozenset({"return"})),
}
_LANGUAGE_OF = {"perl": "perl", "ruby": "ruby", "jruby": "ruby", "node": "javascript", "nodejs": "javascript",
                "deno": "javascript", "bun": "javascript", "qjs": "javascript", "php": "php", "lua": "lua",
                "luajit": "lua", "Rscript": "r", "R": "r", "osascript": "applescript"}


@dataclass(frozen=True)
class Reading:
    """What inline code was read to do."""

    commands: tuple[str, ...] = ()  # shell commands it runs, spelled out
    deleted: tuple[tuple[str, bool], ...] = ()  # paths it deletes, each with whether the whole tree goes
    rest_harmless: bool = False  # what is left of it only computes and prints


def read_inline(program: str, code: str) -> Reading | None:
    """The reading of `code` given to `program`; None for a program whose language has no row here."""
    language = LANGUAGES.get(_LANGUAGE_OF.get(program, ""))
    if language is None:
        return None
    commands: list[str] = []
    deleted: list[tuple[str, bool]] = []
    left = re.sub(language.modules, " ", code) if language.modules else code
    if language.backticks_run:
        for match in re.finditer(r"`([^`$]*)`", left):
            commands.append(match.group(1))
        left = re.sub(r"`[^`$]*`", " ", left)
    for name in language.shell:
        left = _calls(left, name, lambda argument, _whole: commands.append(argument))
    for name in language.deletes:
        left = _calls(left, name, lambda argument, whole, name=name: deleted.append(
            (argument, name in language.recursive or _asks_recursion(whole, language.recursive))))
    return Reading(tuple(commands), tuple(deleted), _harmless(left, language))


def _asks_recursion(call: str, words: tuple[str, ...]) -> bool:
    return any(re.search(rf"\b{re.escape(word)}\b\s*[:=]\s*(true|TRUE|T\b|1)", call) for word in words)


def _calls(code: str, name: str, found) -> str:
    """`code` with each call of `name` whose first argument is a string literal taken out (handed to `found` with
    the whole call's text); calls with any other first argument stay, and keep the code unread."""
    pattern = re.compile(rf"(?<![\w$])(?:[\w$]+\.)*{re.escape(name)}\s*(\(\s*)?(?=[\"'])" if " " not in name else
                         rf"{re.escape(name)}\s+(?=[\"'])")
    out, at = [], 0
    for match in pattern.finditer(code):
        if match.start() < at:
            continue
        string = _STRING.match(code, match.end())
        if string is None or _INTERPOLATION.search(string.group(0)):
            continue
        end = _call_end(code, string.end()) if match.group(0).rstrip().endswith("(") else string.end()
        if end is None:
            continue
        found(_unquoted(string.group(0)), code[match.start():end])
        out.append(code[at:match.start()] + " ")
        at = end
    return "".join(out) + code[at:]


def _call_end(code: str, start: int) -> int | None:
    """Where the call whose first argument ends at `start` closes (after its `)`), strings skipped."""
    depth, index = 1, start
    while index < len(code):
        string = _STRING.match(code, index)
        if string is not None:
            index = string.end()
            continue
        if code[index] in "([{":
            depth += 1
        elif code[index] in ")]}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


def _unquoted(literal: str) -> str:
    body = literal[1:-1]
    return re.sub(r"\\(.)", r"\1", body) if literal[0] == '"' else body.replace("\\'", "'")


# A call the words do not name: a value called (`$f(...)`, `f()()`, `x[...](`) or a member named by a string
# (`[]["constructor"]`): what it runs is computed, so no word list can clear it.
_COMPUTED_CALL = re.compile(r"[\])]\s*\(|\[\s*[\"'`]")


def _harmless(code: str, language: Language) -> bool:
    """Every word of what is left computes or prints; no string hides code and nothing runs a shell."""
    if "`" in code or any(_INTERPOLATION.search(s.group(0)) for s in _STRING.finditer(code)):
        return False
    if _COMPUTED_CALL.search(code) or language.variables and re.search(
            rf"[{re.escape(language.variables)}][A-Za-z_]\w*\s*(\(|->|\[)", code):
        return False
    bare = _STRING.sub(" ", code)
    if language.variables:
        bare = re.sub(rf"[{re.escape(language.variables)}][A-Za-z_]\w*", " ", bare)
    bare = re.sub(r"\d+(\.\d+)?", " ", bare)
    return all(word in language.pure for word in re.findall(r"[A-Za-z_]\w*", bare))
