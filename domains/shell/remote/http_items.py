"""HTTPie's and xh's request items (httpie.io/docs/cli/request-items): `Header:Value`, `param==value` (the query
string), `field=value` (a string in the JSON or form body), `field:=json` (a raw JSON value), and `field@file`,
`field=@file`, `field:=@file` (a file's content). The separator that comes first in the item decides; a
backslash escapes one (`a\\:b=c` is the field `a:b`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

_ITEM = re.compile(r"^((?:\\.|[^:=@\\])*)(:=@|==|=@|:=|=|@|:)(.*)$", re.DOTALL)


@dataclass
class Items:
    fields: dict[str, object] = field(default_factory=dict)  # the body's fields spelled on the line
    headers: tuple[str, ...] = ()
    query: list[tuple[str, str]] = field(default_factory=list)
    data: bool = False  # any body item (a field or a file): HTTPie then sends POST where no method is given


def httpie_items(texts: list[str]) -> Items:
    items = Items()
    headers: list[str] = []
    for text in texts:
        match = _ITEM.match(text)
        if match is None:
            continue
        key, separator, value = re.sub(r"\\(.)", r"\1", match.group(1)), match.group(2), match.group(3)
        if separator == ":":
            headers.append(f"{key}:{value}")
        elif separator == "==":
            items.query.append((key, value))
        elif separator == "=":
            items.fields[key] = value
            items.data = True
        elif separator == ":=":
            try:
                items.fields[key] = json.loads(value)
            except ValueError:
                items.fields[key] = value
            items.data = True
        else:
            items.data = True  # a file's content: not on the line
    items.headers = tuple(headers)
    return items
