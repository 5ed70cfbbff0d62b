"""Secrets out of real sessions before anything is stored: each becomes a marker, the line keeps its shape.

Known token formats come from detect-secrets (Yelp, Apache-2.0): its pattern plugins (AWS, GitHub,
GitLab, Slack, Stripe, OpenAI, JWT, npm, PyPI, Twilio, SendGrid, Azure, basic-auth URLs, ...) and its
keyword plugin. Measured on its 1.5.0, three gaps are closed here:
- A plugin may match only part of a token (GitHub's finds `ghp`, OpenAI's and Stripe's stop early,
  JWT's drops the signature), so each match is widened to the whole token around it.
- Secrets in *secret places* are redacted whatever they look like: the value assigned to a name that
  looks secret (`DB_PASSWORD=...`, `"api_key": "..."`, `--token ...`) and the credential in an
  `Authorization` or `X-Api-Key` header. Its high-entropy plugins are not run on whole lines: there
  they flag every git SHA and checksum, which are the very outputs a world model must learn.
- A private key's whole block, not only its BEGIN line, also inside JSON strings (literal `\\n`).

detect-secrets keeps its settings in process-wide state, so every scan holds one lock.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

MARKER = "[REDACTED]"

# A key's block, to its END line, or to the end of the text when a cut observation lost that line.
_PRIVATE_KEY = re.compile(r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----).*?(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
                          re.DOTALL)
# A name that looks secret: one of these words, ending the name or a part of it (`DB_PASSWORD`,
# `apiKey`, `x-auth-token`), never a longer word (`author`, `tokenizer`, `secretary`).
_NAME = (r"[A-Za-z0-9_.-]*?(?:passw(?:or)?d|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|"
         r"private[_-]?key|credentials?|auth)(?![a-z])[A-Za-z0-9_.-]*")
_VALUE = r"(?:\"(?P<dq>(?:[^\"\\\n]|\\.)*)\"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s\"',;}&]+))"
_SECRET_PLACES = [re.compile(pattern, re.IGNORECASE) for pattern in (
    rf"[\"']{_NAME}[\"']\s*:\s*{_VALUE}",  # "api_key": "...", as JSON and YAML write it
    rf"\b{_NAME}\s*[=:]\s*{_VALUE}",  # DB_PASSWORD=..., password: ...
    rf"(?<![\w-])--?{_NAME}(?:=|\s+){_VALUE}",  # --token ..., --password=...
    # Authorization: Bearer ..., also as a JSON key ("Authorization": "Bearer ...")
    rf"\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token|digest)\s+{_VALUE}",
    rf"\b(?:set-)?cookie[\"']?\s*:\s*[\"']?[\w.-]+={_VALUE}",  # Cookie: session=...
    rf"(?<![\w-])(?:-u|--user)\s+[\"']?[^\s:\"']+:{_VALUE}",  # curl -u user:password
)]
_SECRET_NAME = re.compile(_NAME, re.IGNORECASE)
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')  # in valid JSON, every string literal
_COLON = re.compile(r"\s*:\s*")
_SHORTEST = 4  # a value shorter than this (`"token_count": 5`, `"secret_name": "db"`) is no secret
_REMEMBERED = 8  # a secret this long is also redacted wherever it appears again; a shorter one could be a word
_TOKEN_CHARS = re.compile(r"[A-Za-z0-9_\-./+=]")
_CUT_TOKEN = re.compile(r"([A-Za-z0-9_\-+/=.]{8,})(\n\[\.\.\. cut\])\Z")  # host_actions.py's cut mark
# A line that could hold a secret: a long token, or a word of a secret place. Others are not scanned.
_CANDIDATE = re.compile(r"[A-Za-z0-9_\-]{16,}|(?i:passw|pwd|secret|token|api.?key|auth|credential|private|cookie|"
                        r"--user|-u\s)")
_PLACEHOLDER = re.compile(r"^(?:\$\{?\w+\}?|<[^>]*>|\{\{[^}]*\}\}|\*+|x+|\.\.\.|null|none|true|false|)$", re.IGNORECASE)


class Redactor:
    """`redact(text)` returns the text with each secret replaced by MARKER, and how many it replaced.
    One Redactor per import: it remembers what it found, for the texts that follow."""

    _lock = threading.Lock()

    def __init__(self) -> None:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin
        from detect_secrets.settings import get_plugins, get_settings

        with self._lock:
            settings = get_settings()
            plugins: list[type] = list(get_mapping_from_secret_type_to_class().values())
            settings.configure_plugins([{"name": plugin.__name__} for plugin in plugins
                                        if not issubclass(plugin, HighEntropyStringsPlugin)])
            # A transcript is no source file: no file-type checks, no verification calls, no opt-out
            # pragma, and no "looks like an id" pass (it drops `..._ID=AKIA...`'s secret beside it).
            settings.disable_filters("detect_secrets.filters.common.is_invalid_file",
                                     "detect_secrets.filters.common.is_ignored_due_to_verification_policies",
                                     "detect_secrets.filters.allowlist.is_line_allowlisted",
                                     "detect_secrets.filters.heuristic.is_likely_id_string")
            self._plugins = list(get_plugins())
        self._known: set[str] = set()  # secrets found so far, redacted wherever they appear again
        self._known_pattern: re.Pattern[str] | None = None  # all of them, longest first

    def redact(self, text: str) -> tuple[str, int]:
        return self._redact_json(text) if _is_json(text) else self._redact_text(text)

    def _redact_json(self, text: str) -> tuple[str, int]:
        """JSON (a file write, a tool call, keystrokes), string by string with escapes undone, so a file's
        lines are lines and an escaped quote is never eaten; every byte outside a changed string stays.
        A value is read after its key: `"Authorization": "Bearer ..."` is a header, `"api_key": "..."` a secret."""
        pieces, count, done = [], 0, 0
        key: tuple[str, int] | None = None  # the last key read, and where it ended
        for literal in _JSON_STRING.finditer(text):
            value = json.loads(literal[0])
            is_key = _COLON.match(text, literal.end()) is not None
            of = key[0] if key is not None and not is_key and _COLON.fullmatch(text, key[1], literal.start()) else None
            cleaned, found = self._redact_string(value, of)
            if found:
                pieces += [text[done:literal.start()], json.dumps(cleaned, ensure_ascii=False)]
                done, count = literal.end(), count + found
            key = (value, literal.end()) if is_key else None
        return "".join(pieces) + text[done:], count

    def _redact_string(self, value: str, key: str | None) -> tuple[str, int]:
        if key is not None and _SECRET_NAME.fullmatch(key) and _secret_like(value):
            self._remember(value)
            return MARKER, 1
        prefix = f"{key}: " if key is not None else ""
        cleaned, count = self._redact_text(prefix + value)
        return (cleaned[len(prefix):], count) if cleaned.startswith(prefix) else self._redact_text(value)

    def _remember(self, secret: str) -> None:
        if len(secret) >= _REMEMBERED and secret not in self._known:
            self._known.add(secret)
            alternatives = "|".join(re.escape(known) for known in sorted(self._known, key=len, reverse=True))
            self._known_pattern = re.compile(rf"(?<![A-Za-z0-9_\-])(?:{alternatives})(?![A-Za-z0-9_\-])")

    def _redact_text(self, text: str) -> tuple[str, int]:
        text, count = _PRIVATE_KEY.subn(lambda key: f"{key[1]}{MARKER}{key[2]}", text)
        # An observation cut short may end inside a token that no detector knows at half length.
        text, cut = _CUT_TOKEN.subn(lambda end: f"{MARKER}{end[2]}", text)
        count += cut
        lines = []
        for line in text.split("\n"):
            spans = _merged(self._secrets(line)) if _CANDIDATE.search(line) else []
            for start, end in reversed(spans):  # only where each secret was found: the same text elsewhere stays
                self._remember(line[start:end])
                line = line[:start] + MARKER + line[end:]
            count += len(spans)
            lines.append(line)
        text = "\n".join(lines)
        # A secret seen once (`export DB_PASSWORD=...`) is redacted wherever it shows again, in this text
        # and every later one (`echo $DB_PASSWORD` prints it bare).
        if self._known_pattern is not None:
            text, again = self._known_pattern.subn(MARKER, text)
            count += again
        return text, count

    def _secrets(self, line: str) -> list[tuple[int, int]]:
        """Where the secrets on this line are, as (start, end)."""
        spans = []
        for pattern in _SECRET_PLACES:
            for match in pattern.finditer(line):
                group = next(name for name in ("dq", "sq", "bare") if match[name] is not None)
                value = match[group]
                if _secret_like(value):
                    spans.append(match.span(group))
        with self._lock:
            for plugin in self._plugins:
                for secret in plugin.analyze_line(filename="transcript", line=line, line_number=0):
                    value = _whole_token(line, str(secret.secret_value or ""))
                    # A key's BEGIN line is no secret: its block is redacted whole, in redact().
                    if len(value) < _SHORTEST or MARKER in value or "PRIVATE KEY" in value or _filtered(plugin, line, value):
                        continue
                    # Everywhere on the line it stands as a whole token, never inside a longer word.
                    whole = rf"(?<![A-Za-z0-9_\-]){re.escape(value)}(?![A-Za-z0-9_\-])"
                    spans += [found.span() for found in re.finditer(whole, line)]
        return spans


def _secret_like(value: str) -> bool:
    return len(value) >= _SHORTEST and not value.isdigit() and not _PLACEHOLDER.match(value)


def _is_json(text: str) -> bool:
    """An action or result that is JSON (`{...}`, `[...]`) or a tool's name and JSON (`write_file {...}`)."""
    head, _, rest = text.partition(" ") if text[:1] not in "{[" else ("", "", text)
    if rest[:1] not in ("{", "[") or (head and not head.isidentifier()):
        return False
    try:
        json.loads(rest)
    except (ValueError, RecursionError):  # not JSON, or nested past what the parser follows: read as text
        return False
    return True


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _whole_token(line: str, value: str) -> str:
    """The token a plugin's match lies in, widened over token characters on both sides."""
    start = line.find(value)
    if start < 0 or not value:
        return value
    end = start + len(value)
    while start > 0 and _TOKEN_CHARS.match(line[start - 1]) and line[start - 1] not in "=/.":
        start -= 1
    while end < len(line) and _TOKEN_CHARS.match(line[end]):
        end += 1
    return line[start:end].rstrip(".")


def _filtered(plugin: Any, line: str, value: str) -> bool:
    """detect-secrets' own false-positive filters (templates, sequences, UUIDs, `$VAR`)."""
    from detect_secrets.core.scan import _is_filtered_out

    return _is_filtered_out(required_filter_parameters=["secret"], filename="transcript", secret=value,
                            plugin=plugin, line=line)
