"""An HTTP request given as a method and a URL (an MCP tool's `{"method": "DELETE", "url": ...}`, or one text
`DELETE https://api.example.com/v1/users/7`): what the method does to the target resource (RFC 9110 §9.3).

GET, HEAD, OPTIONS, TRACE and CONNECT are safe methods; POST and PATCH act as the resource defines and are not read
as a loss (as remote/network.py reads curl's). DELETE removes the target resource, PUT replaces its state, and
WebDAV's MOVE and COPY (RFC 4918 §9.8, §9.9) overwrite the destination unless `Overwrite: F`: a loss there. The
other methods IANA registers (PROPPATCH, UNBIND, ...) and the cache servers' PURGE and BAN change what the server
defines: unknown. A loopback host is no exemption: the service there may hold data.
"""

from __future__ import annotations

import re

from ..reading.effects import Effect

_SAFE = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "CONNECT", "POST", "PATCH", "QUERY", "PROPFIND", "SEARCH",
                   "REPORT", "MKCOL", "MKCALENDAR", "MKWORKSPACE", "MKACTIVITY", "LOCK", "UNLOCK"})
_LOSES = {"DELETE": "removes the target resource (RFC 9110 §9.3.5)",
          "PUT": "replaces the target resource's state with the request's content (RFC 9110 §9.3.4)",
          "MOVE": "moves the resource over its destination (RFC 4918 §9.9)",
          "COPY": "copies over its destination (RFC 4918 §9.8)"}
# The rest of IANA's HTTP Method Registry, and the cache servers' PURGE and BAN: what they change is the server's.
_OTHER = frozenset({"ACL", "BASELINE-CONTROL", "BIND", "CHECKIN", "CHECKOUT", "LABEL", "LINK", "MERGE",
                    "MKREDIRECTREF", "ORDERPATCH", "PROPPATCH", "REBIND", "UNBIND", "UNCHECKOUT", "UNLINK", "UPDATE",
                    "UPDATEREDIRECTREF", "VERSION-CONTROL", "PURGE", "BAN"})
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
    own in lower case too (`delete`); a word such as `copy` or `update` beside a URL is no method."""
    word = text.strip()
    return word in _SAFE or word in _LOSES or word in _OTHER or word.upper() in _CORE and word in (word.lower(),
                                                                                                   word.upper())


def request_effects(method: str, url: str, program: str) -> list[Effect]:
    """What a request with `method` to `url` loses there."""
    method = method.strip().upper()
    shown = f"{method} {url}"[:160]
    if method in _SAFE:
        return []
    if method in _LOSES:
        return [Effect("remote-destruction", "", "unknown", target=shown,
                       fact=f"{method} {_LOSES[method]}; the server keeps no copy of the old state unless it was "
                            "built to", program=program)]
    return [Effect("remote-destruction", "", "unknown", target=shown,
                   fact=f"{method} changes what the server defines, which the request does not say", program=program,
                   loss="unknown")]
