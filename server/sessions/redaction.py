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
_VALUE = r"(?:\"(?P<dq>[^\"\n]*)\"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s\"',;}&]+))"
_SECRET_PLACES = [re.compile(pattern, re.IGNORECASE) for pattern in (
    rf"[\"']{_NAME}[\"']\s*:\s*{_VALUE}",  # "api_key": "...", as JSON and YAML write it
    rf"\b{_NAME}\s*[=:]\s*{_VALUE}",  # DB_PASSWORD=..., password: ...
    rf"(?<![\w-])--?{_NAME}(?:=|\s+){_VALUE}",  # --token ..., --password=...
    rf"\b(?:proxy-)?authorization\s*[:=]\s*\"?(?:bearer|basic|token|digest)\s+{_VALUE}",  # Authorization: Bearer ...
)]
_TOKEN_CHARS = re.compile(r"[A-Za-z0-9_\-./+=]")
_CANDIDATE = re.compile(r"[A-Za-z0-9_\-]{16,}|(?i:passw|secret|token|api.?key|auth|credential|private)")
_PLACEHOLDER = re.compile(r"^(?:\$\{?\w+\}?|<[^>]*>|\{\{[^}]*\}\}|\*+|x+|\.\.\.|null|none|true|false|)$", re.IGNORECASE)


class Redactor:
    """`redact(text)` returns the text with each secret replaced by MARKER, and how many it replaced."""

    _lock = threading.Lock()

    def __init__(self) -> None:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin
        from detect_secrets.settings import get_plugins, get_settings

        with self._lock:
            settings = get_settings()
            settings.configure_plugins([{"name": plugin.__name__}
                                        for plugin in get_mapping_from_secret_type_to_class().values()
                                        if not issubclass(plugin, HighEntropyStringsPlugin)])
            # A transcript is no source file: no file-type checks, no verification calls, no opt-out
            # pragma, and no "looks like an id" pass (it drops `..._ID=AKIA...`'s secret beside it).
            settings.disable_filters("detect_secrets.filters.common.is_invalid_file",
                                     "detect_secrets.filters.common.is_ignored_due_to_verification_policies",
                                     "detect_secrets.filters.allowlist.is_line_allowlisted",
                                     "detect_secrets.filters.heuristic.is_likely_id_string")
            self._plugins = list(get_plugins())

    def redact(self, text: str) -> tuple[str, int]:
        text, count = _PRIVATE_KEY.subn(lambda key: f"{key[1]}{MARKER}{key[2]}", text)
        lines = []
        for line in text.split("\n"):
            found = self._secrets(line) if _CANDIDATE.search(line) else set()
            for secret in sorted(found, key=len, reverse=True):  # longest first: a shorter one may be inside it
                if secret in line:
                    count += 1
                    line = line.replace(secret, MARKER)
            lines.append(line)
        return "\n".join(lines), count

    def _secrets(self, line: str) -> set[str]:
        found = {value for pattern in _SECRET_PLACES for match in pattern.finditer(line)
                 if (value := match["dq"] or match["sq"] or match["bare"] or "") and not _PLACEHOLDER.match(value)}
        with self._lock:
            for plugin in self._plugins:
                for secret in plugin.analyze_line(filename="transcript", line=line, line_number=0):
                    value = _whole_token(line, str(secret.secret_value or ""))
                    if value and not _filtered(plugin, line, value):
                        found.add(value)
        # A key's BEGIN line is no secret: its block is redacted whole, above.
        return {value for value in found if MARKER not in value and "PRIVATE KEY" not in value}


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
