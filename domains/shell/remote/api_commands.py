"""CLIs' generic API commands: a request to the service's API with a method the user picks, read as any HTTP
request is (remote/requests.py), from each command's documentation:

- `gh api` (cli.github.com/manual/gh_api) and `glab api` (docs.gitlab.com/cli/api): -X/--method, GET by default
  and POST once -f/--raw-field, -F/--field or --input add parameters; the endpoint `graphql` takes the GraphQL
  document in the `query` field.
- `az rest` (learn.microsoft.com/cli/azure/reference-index#az-rest): -m/--method (default get), -u/--url/--uri,
  -b/--body.
- `cf curl` (the cf CLI's `cf curl --help`): -X, GET by default and POST where -d gives data.
- `databricks api <get|post|put|patch|delete|head> PATH` (docs.databricks.com/dev-tools/cli): --json body.
- `auth0 api [method] <url-path>` (auth0.github.io/auth0-cli/auth0_api.html): GET without data, POST with -d/--data.
- `oci raw-request` (docs.oracle.com, oci-cli raw-request): --http-method, --target-uri, --request-body.
- `netlify api <operation>` (cli.netlify.com/commands/api): the API operation's name is the verb (`deleteSite`).

Programs with a table hand their command to `reads_api` (remote/tables.py's RemoteProgram.requests); programs
without one are read here before the conventions are (remote/conventions.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from ..reading.call import Call
from ..reading.options import Parsed, Spec, parse
from ..reading.words import Value
from .requests import Request, judge
from .tables import Command


@dataclass(frozen=True)
class ApiCommand:
    words: tuple[str, ...]  # the command words that start it: ("api",), ("operator", "api")
    service: str  # what a path reaches, for the reason
    values: tuple[str, ...]  # every option that takes a value, with its dashes
    method: tuple[str, ...] = ()  # the options that set the method
    fields: tuple[str, ...] = ()  # key=value parameters, which make a request without a method a POST
    bodies: tuple[str, ...] = ()  # a raw body (its text, or @file / file:// for a file's)
    urls: tuple[str, ...] = ()  # options that give the URL; else the operand after the command words
    method_operand: bool = False  # the first operand is the method where it names one (`databricks api delete`)
    operation: bool = False  # the operand names an API operation, not a path


_HTTP_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})
_GH = ApiCommand(("api",), "GitHub's API", ("-X", "--method", "-f", "--raw-field", "-F", "--field", "-H", "--header",
                                            "--input", "-q", "--jq", "-t", "--template", "--hostname", "-p",
                                            "--preview", "--cache", "-R", "--repo"),
                 method=("-X", "--method"), fields=("-f", "--raw-field", "-F", "--field"), bodies=("--input",))
API_COMMANDS: dict[str, ApiCommand] = {
    "gh": _GH,
    "glab": ApiCommand(("api",), "GitLab's API", _GH.values, _GH.method, _GH.fields, _GH.bodies),
    "az": ApiCommand(("rest",), "Azure's API", ("-m", "--method", "-u", "--url", "--uri", "-b", "--body", "--headers",
                                                "--resource", "--uri-parameters", "--url-parameters", "--output-file",
                                                "-o", "--output", "--query", "--subscription"),
                     method=("-m", "--method"), bodies=("-b", "--body"), urls=("-u", "--url", "--uri")),
    "cf": ApiCommand(("curl",), "the targeted Cloud Foundry API", ("-X", "-H", "-d", "--output"), method=("-X",),
                     bodies=("-d",)),
    "databricks": ApiCommand(("api",), "the Databricks workspace's API", ("--json", "-p", "--profile", "-o", "--output",
                                                                          "-t", "--target", "--log-file", "--log-level",
                                                                          "--log-format"),
                             bodies=("--json",), method_operand=True),
    "auth0": ApiCommand(("api",), "the Auth0 tenant's Management API", ("-d", "--data", "-q", "--query", "--tenant"),
                        bodies=("-d", "--data"), method_operand=True),
    "oci": ApiCommand(("raw-request",), "Oracle Cloud's API", ("--http-method", "--target-uri", "--request-body",
                                                               "--request-headers", "--profile", "--config-file",
                                                               "--region", "--auth", "--endpoint"),
                      method=("--http-method",), bodies=("--request-body",), urls=("--target-uri",)),
    "netlify": ApiCommand(("api",), "Netlify's API", ("-d", "--data", "--auth", "--filter"), bodies=("-d", "--data"),
                          operation=True),
}


def reads_api(program: str) -> Callable[[Call, Command], bool]:
    """A tabled program's hook: read its generic API command; True where the call is one."""
    api = API_COMMANDS[program]
    return lambda call, command: command.words[:len(api.words)] == list(api.words) and read_api(call, api)


def read_untabled(call: Call, words: list[str]) -> bool | None:
    """A program with no table whose command words start its API command: None where they do not, else whether
    the request only reads."""
    api = API_COMMANDS.get(call.program)
    if api is None or words[:len(api.words)] != list(api.words):
        return None
    return read_api(call, api)


def read_api(call: Call, api: ApiCommand) -> bool:
    """Read the request the API command sends; True where it only reads."""
    texts = [arg.text for arg in call.args]
    start = next((at for at, text in enumerate(texts) if text == api.words[-1]), len(texts)) + 1
    taking = Spec.taking(frozenset(api.values))
    p = parse(call.args[start:], Spec(taking.short_values, taking.longs))  # options may follow the endpoint
    operands = [arg.text for arg in p.operands]
    given = _words(p, api.method)
    fields = _fields(_values(p, api.fields))
    bodies = tuple(_body(text) for text in _values(p, api.bodies))
    if given:
        method = given[-1].text.upper() if given[-1].literal else ""  # '': the line does not set it
    elif api.method_operand and operands and operands[0].lower() in _HTTP_METHODS:
        method, operands = operands[0].upper(), operands[1:]
    else:  # parameters or a body, even a file's, make it a POST
        method = "POST" if _values(p, api.fields) or bodies or api.operation else "GET"
    url = next(iter(_values(p, api.urls)), operands[0] if operands else "")
    if api.operation:
        return judge(call, Request(f"{call.program} {' '.join(api.words)}", method, "", bodies, fields,
                                   service=api.service, operation=url))
    full = url.startswith(("http://", "https://"))
    return judge(call, Request(f"{call.program} {' '.join(api.words)}", method, url, bodies, fields,
                               tuple(_values(p, ("-H", "--header", "--headers"))), service="" if full else api.service))


def _values(p: Parsed, options: tuple[str, ...]) -> list[str]:
    return [value for option in options for value in p.flags.get(option.lstrip("-"), [])]


def _words(p: Parsed, options: tuple[str, ...]) -> list[Value]:
    return [word for option in options for word in p.words.get(option.lstrip("-"), [])]


def _fields(pairs: list[str]) -> dict[str, object]:
    """`key=value` parameters as the JSON object they build (gh's -F converts true/false/null and numbers)."""
    fields: dict[str, object] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if eq and not value.startswith("@"):
            fields[key] = value
    return fields


def _body(text: str) -> str:
    """A body given inline; a file's (`@file`, `file://`) is not on the line."""
    if text.startswith(("@", "file://")):
        return "@"
    try:
        return json.dumps(json.loads(text))
    except ValueError:
        return text
