"""What `git diff` prints of two trees (git.py): its patch (hunks), and --stat's table.

git's diff (xdiff) first trims the lines two files share at their start and at their end, then runs Myers' algorithm
on the rest, then slides each change group along lines equal to its own (with the indent heuristic choosing where).
The virtual git computes only the files where none of those choices exist (change_groups): after the trim, the lines
left on the two sides share no line (one change group), or every line left is one of a kind in both files and the
shared ones keep their order (the only longest common subsequence, which git's Myers, exact below 256 changes,
finds); and no group can slide (the line before it is not its last, the line after it not its first). Any other
edit is the model's. Groups fewer than 7 common lines apart share a hunk. A hunk shows 3 lines of context and, after
its `@@`, the nearest line above it in the old file that starts with a letter, `_` or `$` (xdiff's default function
name, cut to 80 bytes and stripped of trailing space): the virtual git refuses any attributes file, where a diff
driver could name another rule.

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


# A change: its first old line, how many it removes, its first new line, how many it adds.
Group = tuple[int, int, int, int]
_MOST_CHANGES = 200  # below xdiff's heuristics' cost (256): its Myers is exact


def change_groups(before: list[bytes], after: list[bytes]) -> list[Group]:
    """The change groups git's diff finds between these lines, or Refused where its algorithm would choose.

    After the common start and end are trimmed, either the two sides' middles share no line (one group), or each
    line of the middles is one of a kind in both files (so xdiff discards none it could match) and the lines they
    share come in the same order on both sides: then the longest common subsequence is those lines, the only one,
    which git's exact Myers finds, and the groups lie between them."""
    prefix = 0
    while prefix < min(len(before), len(after)) and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(before), len(after)) - prefix and before[-1 - suffix] == after[-1 - suffix]:
        suffix += 1
    removed, added = before[prefix:len(before) - suffix], after[prefix:len(after) - suffix]
    shared = set(removed) & set(added)
    anchors: list[tuple[int, int]] = []
    if shared:
        if any(before.count(line) > 1 or after.count(line) > 1 for line in (*removed, *added)) or \
                [line for line in removed if line in shared] != [line for line in added if line in shared] or \
                len(removed) + len(added) - 2 * len(shared) >= _MOST_CHANGES:
            raise Refused("`git diff` of an edit where git's diff algorithm chooses which lines to keep")
        anchors = [(prefix + removed.index(line), prefix + added.index(line)) for line in removed if line in shared]
    groups, old, new = [], prefix, prefix
    for old_end, new_end in [*anchors, (len(before) - suffix, len(after) - suffix)]:
        if old_end > old or new_end > new:
            groups.append((old, old_end - old, new, new_end - new))
        old, new = old_end + 1, new_end + 1
    for first_old, count_old, first_new, count_new in groups:
        for side, first, count in ((before, first_old, count_old), (after, first_new, count_new)):
            end = first + count
            if count and (first > 0 and side[first - 1] == side[end - 1] or
                          end < len(side) and side[end] == side[first]):
                raise Refused("`git diff` of a change that could slide along equal lines: git's indent heuristic "
                              "places it")
    return groups


def _hunk(before: list[bytes], after: list[bytes]) -> str:
    """The hunks: groups fewer than 2 x 3 common lines apart share one (xdiff's xdl_get_hunk)."""
    groups = change_groups(before, after)
    hunks: list[list[Group]] = []
    for group in groups:
        if hunks and group[0] - (hunks[-1][-1][0] + hunks[-1][-1][1]) <= 2 * _CONTEXT:
            hunks[-1].append(group)
        else:
            hunks.append([group])
    text = []
    for hunk in hunks:
        old_first, new_first = max(0, hunk[0][0] - _CONTEXT), max(0, hunk[0][2] - _CONTEXT)
        old_end = min(len(before), hunk[-1][0] + hunk[-1][1] + _CONTEXT)
        new_end = min(len(after), hunk[-1][2] + hunk[-1][3] + _CONTEXT)
        text.append(f"@@ -{_range(old_first, old_end - old_first)} +{_range(new_first, new_end - new_first)} @@"
                    f"{_function(before, old_first)}\n")
        new = new_first
        for first_old, count_old, first_new, count_new in hunk:
            shown = [(" ", line) for line in after[new:first_new]] + [
                ("-", line) for line in before[first_old:first_old + count_old]] + [
                ("+", line) for line in after[first_new:first_new + count_new]]
            text += [_shown_line(sign, line) for sign, line in shown]
            new = first_new + count_new
        text += [_shown_line(" ", line) for line in after[new:new_end]]
    return "".join(text)


def _shown_line(sign: str, line: bytes) -> str:
    return sign + _text(line) + ("" if line.endswith(b"\n") else "\n\\ No newline at end of file\n")


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
