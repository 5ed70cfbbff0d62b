"""What `git diff` prints of two trees (git.py): its patch (hunks), and --stat's table.

git's diff (xdiff) first trims the lines two files share at their start and at their end, then runs Myers' algorithm
on the rest, then slides each change group along lines equal to its own (with the indent heuristic choosing where).
The virtual git computes only the files where none of those choices exist: after the trim, the lines left on the
two sides share no line (one change group: all old lines removed, all new ones added), and that group cannot slide
(the line before it is not its last, the line after it not its first). Any other edit is the model's. A hunk shows 3
lines of context and, after its `@@`, the nearest line above it in the old file that starts with a letter, `_` or
`$` (xdiff's default function name, cut to 80 bytes and stripped of trailing space): the virtual git refuses any
attributes file, where a diff driver could name another rule.

Blob ids are sha1("blob <size>\\0" + content), shown to 7 hex digits: git lengthens an abbreviation that another
object in the repository shares; the virtual git refuses where two blobs it knows share one, and holds the chance
that a tree or commit it cannot know (their ids hold dates) shares one, about one in 2**28 each, as none.
"""

from __future__ import annotations

import hashlib

from .git_tree import Refused, Tree

_CONTEXT = 3
_FUNCNAME_BYTES = 80  # xdiff's buffer for a hunk's function name
_BINARY_PEEK = 8000  # git reads a file holding a NUL byte in its first 8000 bytes as binary
_NULL = "0" * 7
_STAT_MOST = 20  # diff --stat: more changes per file than this may scale the graph to the terminal's width
_STAT_NAME = 30  # ... and a longer name may be shortened with "..."

Pair = tuple[str, bytes | None, bytes | None]  # path, old content, new content (None: no file on that side)


def blob_id(content: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def lines(content: bytes) -> list[bytes]:
    """A file's lines as git's diff reads them: each with its newline, the last one perhaps without."""
    parts = content.split(b"\n")
    return [part + b"\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def patch(pairs: list[Pair], known: set[bytes]) -> str:
    """`git diff`'s patch of these changed files (in git's order: by path). `known`: every blob content the
    repository is known to hold, whose ids the abbreviations must not share."""
    ids = {blob_id(content) for content in known}
    if len({identity[:7] for identity in ids}) != len(ids) or _NULL in {identity[:7] for identity in ids}:
        raise Refused("two blobs of the repository share 7 hex digits: git lengthens their abbreviation")
    return "".join(_file_patch(path, old, new) for path, old, new in pairs)


def _file_patch(path: str, old: bytes | None, new: bytes | None) -> str:
    for content in (old, new):
        if content is not None and b"\0" in content[:_BINARY_PEEK]:
            raise Refused("`git diff` of a binary file")
    spaced = "\t" if " " in path else ""  # git ends the ---/+++ lines of a name holding a space with a tab
    head = [f"diff --git a/{path} b/{path}"]
    if old is None:
        head += ["new file mode 100644", f"index {_NULL}..{blob_id(new or b'')[:7]}"]
    elif new is None:
        head += ["deleted file mode 100644", f"index {blob_id(old)[:7]}..{_NULL}"]
    else:
        head += [f"index {blob_id(old)[:7]}..{blob_id(new)[:7]} 100644"]
    if not (old or new):  # an empty file added or removed: no hunk
        return "\n".join(head) + "\n"
    head += [f"--- a/{path}{spaced}" if old is not None else "--- /dev/null",
             f"+++ b/{path}{spaced}" if new is not None else "+++ /dev/null"]
    return "\n".join(head) + "\n" + _hunk(lines(old or b""), lines(new or b""))


def change_group(before: list[bytes], after: list[bytes]) -> tuple[int, int, int]:
    """The one change group git's diff finds between these lines: (its start, how many old lines it removes, how
    many new ones it adds), or Refused where git's algorithm would choose among several."""
    prefix = 0
    while prefix < min(len(before), len(after)) and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(before), len(after)) - prefix and before[-1 - suffix] == after[-1 - suffix]:
        suffix += 1
    removed, added = before[prefix:len(before) - suffix], after[prefix:len(after) - suffix]
    if set(removed) & set(added):
        raise Refused("`git diff` of an edit in several places: git's diff algorithm chooses its hunks")
    for side, group in ((before, removed), (after, added)):
        end = prefix + len(group)
        if group and (prefix > 0 and side[prefix - 1] == side[end - 1] or
                      end < len(side) and side[end] == side[prefix]):
            raise Refused("`git diff` of a change that could slide along equal lines: git's indent heuristic places it")
    return prefix, len(removed), len(added)


def _hunk(before: list[bytes], after: list[bytes]) -> str:
    start, removed, added = change_group(before, after)
    first = max(0, start - _CONTEXT)
    trailing = min(_CONTEXT, len(before) - start - removed)
    old_count, new_count = start - first + removed + trailing, start - first + added + trailing
    header = f"@@ -{_range(first, old_count)} +{_range(first, new_count)} @@{_function(before, first)}\n"
    shown = [(" ", line) for line in before[first:start]] + [("-", line) for line in before[start:start + removed]]
    shown += [("+", line) for line in after[start:start + added]]
    shown += [(" ", line) for line in before[start + removed:start + removed + trailing]]
    return header + "".join(sign + _text(line) + ("" if line.endswith(b"\n") else "\n\\ No newline at end of file\n")
                            for sign, line in shown)


def _range(first: int, count: int) -> str:
    """A hunk's side as xdiff writes it: the first line (the one before, where it holds none) and a count not 1."""
    return f"{first + 1 if count else first}" + ("" if count == 1 else f",{count}")


def _function(before: list[bytes], first: int) -> str:
    """xdiff's default function name: the nearest old line above the hunk starting with a letter, `_` or `$`."""
    for line in reversed(before[:first]):
        if line[:1].isalpha() or line[:1] in (b"_", b"$"):
            name = line[:_FUNCNAME_BYTES].rstrip(b" \t\n\v\f\r")
            return " " + _text(name) if name else ""
    return ""


def _text(line: bytes) -> str:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("`git diff` of bytes that are not UTF-8") from None
    if any(character in text for character in "\r\x1b") or any(ord(c) < 32 and c not in "\t\n" for c in text):
        raise Refused("`git diff` of control characters")
    return text


def stat(pairs: list[Pair]) -> str:
    """`git diff --stat`'s table, where each file only gained or lost lines at its end."""
    rows = []
    for path, old, new in pairs:
        if old is None and not new or new is None and not old:
            raise Refused("`git diff --stat` of an empty file added or removed")
        before, after = lines(old or b""), lines(new or b"")
        if after[:len(before)] == before:
            counts = (len(after) - len(before), 0)
        elif before[:len(after)] == after:
            counts = (0, len(before) - len(after))
        else:
            raise Refused("`git diff` --stat of an edit other than lines added or removed at the end: git's "
                          "diff algorithm decides the counts")
        if sum(counts) == 0 or sum(counts) > _STAT_MOST or len(path) > _STAT_NAME:
            raise Refused("`git diff` --stat of a long name or many changes: git scales its graph")
        rows.append((path, counts))
    if not rows:
        return ""
    width = max(len(path) for path, _ in rows)
    digits = max(len(str(sum(counts))) for _, counts in rows)
    table = [f" {path.ljust(width)} | {str(sum(counts)).rjust(digits)} {'+' * counts[0]}{'-' * counts[1]}\n"
             for path, counts in rows]
    added, removed = (sum(counts[i] for _, counts in rows) for i in (0, 1))
    summary = f" {len(rows)} file{'s' * (len(rows) != 1)} changed"
    summary += f", {added} insertion{'s' * (added != 1)}(+)" if added else ""
    summary += f", {removed} deletion{'s' * (removed != 1)}(-)" if removed else ""
    return "".join(table) + summary + "\n"


def changes(old: Tree, new: Tree, top: tuple[str, ...] = ()) -> list[Pair]:
    """The files that differ between two trees, by path (git's order), within the pathspecs' `top`s (all where
    none)."""
    pairs = []
    for path in sorted({*old, *new}):
        if top and not any(not spec or path == spec or path.startswith(spec + "/") for spec in top):
            continue
        before, after = old.get(path, b"") if path in old else None, new.get(path, b"") if path in new else None
        if path in old and before is None or path in new and after is None:
            raise Refused("`git diff` of a file whose content the world does not know")
        if before != after:
            pairs.append((path, before, after))
    return pairs
