"""Cypher read by its clauses (Neo4j Cypher Manual, "Clauses"): which text is a Cypher query, and what of a graph's
data it removes or overwrites.

A text is Cypher when its first clause is one only Cypher has, with the pattern or words its grammar requires
(`MATCH (`, `MATCH p = (`, `OPTIONAL MATCH`, `MERGE (`, `UNWIND ... AS x`, `FOREACH (`, `LOAD CSV`) or when CREATE, WITH, RETURN or CALL open it and a node pattern `(n:Label {...})` or a
relationship `-[r]->` follows; a SQL statement (`CREATE TABLE`) has neither.

The write clauses that lose what was there: DELETE and DETACH DELETE (nodes and relationships), SET (properties and
labels it overwrites; `ON CREATE SET` only fills a node MERGE has just made) and REMOVE; the schema commands DROP
INDEX, DROP CONSTRAINT and DROP DATABASE. CREATE and MERGE make things and lose nothing. A CALL of a procedure
outside the read-only catalogue procedures (`db.labels()`, `db.schema.visualization()`, `dbms.components()`, ...)
does what the procedure does, which the text does not say: unknown. The guard does not bound a MATCH the way it
bounds a SQL WHERE (programs/sql_bounds.py), so every removing write is a question.
"""

from __future__ import annotations

import re

from ..reading.effects import Effect
from .sql_effects import NO_COPY

# Strings, quoted names and comments carry no clauses.
_INERT = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.DOTALL)
_ONLY_CYPHER = re.compile(r"\s*(optional\s+match\s*[(\w]|match\s*(\(|\w+\s*=\s*\()|merge\s*\(|"
                          r"unwind\s+\S[^;]*?\sas\s+\w|foreach\s*\(|load\s+csv\s)", re.IGNORECASE | re.DOTALL)
_OPENS = re.compile(r"\s*(create|with|return|call|drop\s+(index|constraint|database))\b", re.IGNORECASE)
_PATTERN = re.compile(r"\(\s*(?:\w+\s*)?(?::\s*\w+\s*)*(?:\{[^}]*\}\s*)?\)\s*(-|<-|$|\s)|-\s*\[[^\]]*\]\s*-")
_WORD = re.compile(r"(?<![.:$\w])([A-Za-z_]+)\b")
_REMOVES = {"delete": "DELETE", "remove": "REMOVE", "set": "SET"}
_READ_PROCEDURES = re.compile(r"(db\.(labels|relationshipTypes|propertyKeys|indexes|constraints|info|ping|schema\.\w+)"
                              r"|dbms\.(components|procedures|functions|showCurrentUser|listConfig))\s*\(",
                              re.IGNORECASE)
_CALL = re.compile(r"\bcall\s+([\w.]+)\s*\(", re.IGNORECASE)
_SHOWN = 80


def is_cypher(text: str) -> bool:
    bare = _INERT.sub("''", text)
    if _ONLY_CYPHER.match(bare):
        return True
    return bool(_OPENS.match(bare)) and (bool(_PATTERN.search(bare)) or re.match(r"\s*(drop|call)\b", bare, re.I)
                                         is not None and not re.match(r"\s*drop\s+index\s+\w+\s+on\b", bare, re.I))


def cypher_effects(text: str, holds: str, program: str) -> list[Effect]:
    """The removing writes of a Cypher query `text` on what holds `holds`, as `program`'s effects; [] for a read
    or a creation."""
    bare = _INERT.sub("''", text)
    words = [match.group(1).lower() for match in _WORD.finditer(bare)]
    shown = " ".join(text.split())[:_SHOWN]
    clauses: list[str] = []
    for at, word in enumerate(words):
        if word in _REMOVES and not (word == "set" and words[max(0, at - 2):at] == ["on", "create"]):
            clauses.append("DETACH DELETE" if word == "delete" and at and words[at - 1] == "detach"
                           else _REMOVES[word])
        elif word == "drop" and at + 1 < len(words) and words[at + 1] in ("index", "constraint", "database"):
            clauses.append(f"DROP {words[at + 1].upper()}")
    effects = [Effect("remote-destruction", "", "unknown", target=f"{clause} in {shown}"[:160],
                      fact=f"removes or overwrites {holds}; {NO_COPY}", program=program)
               for clause in dict.fromkeys(clauses)]
    for call in _CALL.finditer(bare):
        if not _READ_PROCEDURES.match(bare, call.start(1)):
            effects.append(Effect("remote-destruction", "", "unknown", target=f"CALL {call.group(1)}",
                                  fact=f"the procedure {call.group(1)} does what its code does, which the query does "
                                       f"not show; it may change {holds}", program=program, loss="unknown"))
    return effects
