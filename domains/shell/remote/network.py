"""The network: what curl, wget, scp, rsync, ssh and nc download, upload and write (their manuals).
An upload names the local file it sends; a remote path is a host, never a local effect."""

from __future__ import annotations

import re

from ..reading.call import Call, no_file
from ..reading.options import Parsed, Spec, parse
from ..reading.registry import handles
from ..reading.words import Value
from .elsewhere import run_there, ssh_command
from .http_items import httpie_items
from .requests import Request, judge


@handles("rsync")
def _rsync(call: Call) -> None:
    p = parse(call.args, Spec(short_values="eBfT", longs=(
        "rsh=", "exclude=", "include=", "exclude-from=", "include-from=", "filter=", "files-from=", "delete",
        "delete-before", "delete-during", "delete-after", "delete-excluded", "remove-source-files", "backup",
        "backup-dir=", "suffix=", "chmod=", "chown=", "temp-dir=", "compare-dest=", "link-dest=", "copy-dest=",
        "rsync-path=", "password-file=", "port=", "timeout=", "max-size=", "min-size=", "bwlimit=", "log-file=",
        "partial-dir=", "out-format=", "dry-run", "archive", "recursive", "verbose", "compress", "progress")))
    if p.has("n", "dry-run") or len(p.operands) < 2:
        return
    *sources, target = p.operands
    remote = re.compile(r"^([^/:]+@)?[\w.-]+:|^rsync://")
    for source in sources:
        if remote.match(source.text):
            call.network("download", source.text)
        elif remote.match(target.text):
            call.network("upload", target.text, source)
        if p.has("remove-source-files") and not remote.match(source.text):
            call.effect("deleted", source, tree=True)
    if not remote.match(target.text):
        call.write(target, "overwritten", tree=True)
        if p.has("delete", "delete-before", "delete-during", "delete-after", "delete-excluded"):
            call.effect("deleted", target, tree=True, pattern=True)


@handles("curl")
def _curl(call: Call) -> None:
    p = parse(call.args, Spec(short_values="odFTuHXAeErbcCKmwxyYzQtU", longs=(
        "output=", "data=", "data-binary=", "data-raw=", "data-ascii=", "data-urlencode=", "form=", "form-string=",
        "upload-file=", "user=", "header=", "request=", "user-agent=", "referer=", "cookie=", "cookie-jar=",
        "config=", "max-time=", "connect-timeout=", "proxy=", "url=", "remote-name", "remote-name-all", "json=",
        "output-dir=", "write-out=", "retry=", "dump-header=", "trace=", "trace-ascii=", "location", "silent",
        "show-error", "fail", "insecure", "include", "head", "get", "compressed", "create-dirs")))
    urls = [arg.text for arg in p.operands] + [value for value in p.flags.get("url", [])]
    host = _host(urls[0]) if urls else ""
    data = [value for name in _CURL_DATA for value in p.flags.get(name, [])]
    forms = [*p.flags.get("F", []), *p.flags.get("form", [])]
    sent = [*data, *forms]
    files = [value.split("@", 1)[1].split(";")[0] for value in sent if "@" in value and not value.startswith("@-")]
    files += [value for value in (*p.flags.get("T", []), *p.flags.get("upload-file", [])) if value != "-"]
    for name in files:
        call.network("upload", host, call.literal(name))
    if sent and not files:
        call.network("upload", host)
    call.network("download", host)
    fields = dict(value.split("=", 1) for value in forms if "=" in value and "@" not in value.split("=", 1)[1][:1])
    headers = (*p.flags.get("H", []), *p.flags.get("header", []))
    for url in urls:
        judge(call, Request("curl", _curl_method(p, bool(data), bool(forms)), url, tuple(data), fields, headers))
    for output in (*p.flags.get("o", []), *p.flags.get("output", [])):
        if output != "-":
            call.write(call.literal(output), "overwritten")
    if p.has("O", "remote-name", "remote-name-all"):
        for url in urls:
            name = url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
            if name:
                call.write(call.literal(name), "overwritten")
    for jar in (*p.flags.get("c", []), *p.flags.get("cookie-jar", []), *p.flags.get("D", []), *p.flags.get("dump-header", [])):
        if jar != "-":
            call.write(call.literal(jar), "overwritten")


@handles("wget")
def _wget(call: Call) -> None:
    p = parse(call.args, Spec(short_values="OoaPTtUeBiDAR", longs=(
        "output-document=", "output-file=", "append-output=", "directory-prefix=", "post-file=", "post-data=",
        "body-file=", "body-data=", "method=", "header=", "user-agent=", "input-file=", "tries=", "timeout=",
        "recursive", "mirror", "quiet", "no-verbose", "continue", "spider", "no-clobber")))
    host = _host(p.operands[0].text) if p.operands else ""
    for name in (*p.flags.get("post-file", []), *p.flags.get("body-file", [])):
        call.network("upload", host, call.literal(name))
    if p.has("post-data", "body-data"):
        call.network("upload", host)
    call.network("download", host)
    method = _given_method(p.word("method")) if p.has("method") else \
        "POST" if p.has("post-data", "post-file") else "GET"
    bodies = (*p.flags.get("post-data", []), *p.flags.get("body-data", []))
    for url in p.operands:
        judge(call, Request("wget", method, url.text, bodies, headers=tuple(p.flags.get("header", []))))
    if p.has("spider"):
        return
    document = p.value("O", "output-document")
    prefix = p.value("P", "directory-prefix") or "."
    if document is not None:
        if document != "-":
            call.write(call.literal(document), "overwritten")
    elif p.has("r", "recursive", "m", "mirror"):
        call.write(call.literal(prefix), "overwritten", tree=True, pattern=True)
    else:
        for url in p.operands:
            name = url.text.split("?")[0].rstrip("/").rsplit("/", 1)[-1] or "index.html"
            call.write(call.joined(call.literal(prefix), call.literal(name)), "created")


@handles("scp", "sftp")
def _scp(call: Call) -> None:
    p = parse(call.args, Spec(short_values="cFiJlopPSDX"))
    if len(p.operands) < 2:
        call.network("upload", p.operands[0].text if p.operands else "")
        return
    *sources, target = p.operands
    remote = re.compile(r"^([^/:]+@)?[\w.-]+:")
    for source in sources:
        if remote.match(target.text) and not remote.match(source.text):
            call.network("upload", target.text, source)
        elif remote.match(source.text):
            call.network("download", source.text)
    if not remote.match(target.text):
        call.write(target, "overwritten", tree=p.has("r"))


@handles("ssh", "nc", "ncat", "netcat", "socat", "telnet", "ftp")
def _remote(call: Call) -> None:
    p = parse(call.args, Spec(short_values="bcDEeFIiJLlmOopQRSWwps", permute=False))
    host = p.rest[0].text if p.rest else ""
    sent = call.stdin.path
    call.network("upload", host, sent if sent is not None and not no_file(sent.text) else None)
    if call.program == "ssh" and (there := ssh_command(call)) is not None:
        run_there(call, there)


# HTTPie (`http`, `https`) and xh (`xh`, `xhs`): `PROGRAM [OPTIONS] [METHOD] URL [ITEM ...]`; the method is
# the first operand when it is all letters, else GET (POST where data items are given).
_HTTPIE = Spec(short_values="aAopP", longs=("auth=", "auth-type=", "output=", "session=", "session-read-only=",
                                            "print=", "pretty=", "style=", "format-options=", "verify=", "cert=",
                                            "cert-key=", "proxy=", "timeout=", "max-redirects=", "raw=", "bearer=",
                                            "ssl=", "ciphers=", "default-scheme=", "unsorted", "offline"))


@handles("http", "https", "xh", "xhs")
def _httpie(call: Call) -> None:
    p = parse(call.args, _HTTPIE)
    if p.has("offline") or not p.operands:  # --offline builds the request and prints it: nothing is sent
        return
    given = p.operands[0] if re.fullmatch(r"[A-Za-z]+", p.operands[0].text) and len(p.operands) > 1 else None
    url = p.operands[1 if given else 0].text
    host = _host(url if "://" in url or not url.startswith(":") else "localhost" + url)  # `:8000/x` is localhost
    call.network("download", host)
    items = httpie_items([arg.text for arg in p.operands[2 if given else 1:]])
    bodies = tuple(p.flags.get("raw", []))
    method = _given_method(given) if given else "POST" if items.data or bodies else "GET"
    query = "&".join(f"{key}={value}" for key, value in items.query)
    judge(call, Request(call.program, method, url + ("&" if "?" in url else "?") + query if query else url, bodies,
                        items.fields, items.headers))


# curl's options that send data, which make its request a POST (curl(1): -d, --json).
_CURL_DATA = ("d", "data", "data-binary", "data-raw", "data-ascii", "data-urlencode", "json")


def _curl_method(p: Parsed, data: bool, form: bool) -> str:
    """The method curl sends (curl(1)): -X/--request, else HEAD for -I, GET for -G, POST where data or a form is
    sent, PUT for -T (an HTTP upload), else GET."""
    if p.has("X", "request"):
        return _given_method(p.word("X", "request"))
    if p.has("I", "head"):
        return "HEAD"
    if p.has("G", "get"):
        return "GET"
    if data or form:
        return "POST"
    return "PUT" if p.has("T", "upload-file") else "GET"


def _given_method(word: Value | None) -> str:
    """A method spelled on the line, upper case; '' where the line does not set it (`-X "$METHOD"`)."""
    return word.text.upper() if word is not None and word.literal else ""


def _host(url: str) -> str:
    match = re.match(r"^(?:[a-z][\w+.-]*://)?(?:[^@/]*@)?([^/:?#]+)", url)
    return match.group(1) if match else url
