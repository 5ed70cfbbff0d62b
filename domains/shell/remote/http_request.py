"""An HTTP request found in data rather than on a command line: an MCP tool's `{"method": "DELETE", "url": ...}`,
or one text `DELETE https://api.example.com/v1/users/7`. Recognising it is this module's; judging it is the one
rule every client's request goes through (remote/requests.py), so a method beside a URL in a tool's arguments
means what it means to curl.
"""

from __future__ import annotations

import re

from ..reading.effects import Effect
from .requests import Request, judged

# IANA's HTTP Method Registry, and the cache servers' PURGE and BAN: the words a request's method field holds.
_REGISTERED = frozenset({
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "QUERY", "ACL",
    "BASELINE-CONTROL", "BIND", "CHECKIN", "CHECKOUT", "COPY", "LABEL", "LINK", "LOCK", "MERGE", "MKACTIVITY",
    "MKCALENDAR", "MKCOL", "MKREDIRECTREF", "MKWORKSPACE", "MOVE", "ORDERPATCH", "PROPFIND", "PROPPATCH", "REBIND",
    "REPORT", "SEARCH", "UNBIND", "UNCHECKOUT", "UNLINK", "UNLOCK", "UPDATE", "UPDATEREDIRECTREF", "VERSION-CONTROL",
    "PURGE", "BAN"})
# RFC 9110's own methods, which clients also take in lower case (`requests.request("delete", ...)`).
_CORE = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"})
_URL = re.compile(r"(?:[a-z][\w+.-]*://[^\s]+|/[^\s]*)")
_ONE_TEXT = re.compile(r"\s*([A-Z][A-Z-]{2,16})\s+((?:[a-z][\w+.-]*://|/)\S*)\s*$")


def is_url(text: str) -> bool:
    return _URL.fullmatch(text.strip()) is not None and len(text.strip()) > 1


def method_and_url(text: str) -> tuple[str, str] | None:
    """`DELETE https://h/x` or `DELETE /v1/x` as (method, url)."""
    match = _ONE_TEXT.match(text)
    return (match.group(1), match.group(2)) if match and is_method(match.group(1)) else None


def is_method(text: str) -> bool:
    """An HTTP method as a request's method field holds it: a registered method in capitals, or one of RFC 9110's
    own in any case (`delete`, `Delete`); a word such as `copy` or `update` beside a URL is no method."""
    word = text.strip()
    return word in _REGISTERED or word.upper() in _CORE  # clients upper-case a core method's name: `Delete` is DELETE


def request_effects(method: str, url: str, program: str, bodies: tuple[str, ...] = (),
                    headers: tuple[str, ...] = ()) -> list[Effect]:
    """What a request with `method` to `url` (with the `bodies` and `Name: value` `headers` beside them) destroys
    or may change there (none where it only reads)."""
    return judged(Request(program, method.strip().upper(), url, bodies, headers=headers), program)[0]
