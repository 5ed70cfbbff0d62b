"""The files an everyday agent session finds or writes: logs, CSV tables, configs, JSON, small code files.

All drawn from one `random.Random`, so a seed names them; no dates, sizes or hashes that a machine would
print otherwise (a log's time stamps are fixed text in the file, the same on every machine).
"""

from __future__ import annotations

import json
import random

PROJECTS = ("inventory", "billing", "weather", "notes", "tracker", "shop", "gateway", "reports", "scheduler", "chat")
MODULES = ("utils", "models", "api", "cli", "config", "db", "parser", "client", "views", "tasks")
COMPONENTS = ("auth", "db", "cache", "api", "worker", "queue", "mailer", "billing")
LEVELS = ("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR")
MESSAGES = ("request served", "connection reset", "timeout after 30s", "cache miss", "retrying job",
            "user logged in", "disk almost full", "slow query", "token expired", "job finished")
PEOPLE = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy")
CITIES = ("Oslo", "Lima", "Pune", "Kyiv", "Doha", "Cork", "Nice", "Bern")
PRODUCTS = ("widget", "gadget", "bolt", "nut", "gear", "spring", "valve", "lamp")
SETTINGS = ("debug", "port", "host", "workers", "timeout", "log_level", "cache_size", "retries")


def log_lines(draw: random.Random, count: int) -> list[str]:
    """An application log: `HH:MM:SS LEVEL [component] message`, in time order."""
    seconds, lines = draw.randrange(8 * 3600, 9 * 3600), []
    for _ in range(count):
        seconds += draw.randrange(1, 90)
        clock = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        lines.append(f"{clock} {draw.choice(LEVELS)} [{draw.choice(COMPONENTS)}] {draw.choice(MESSAGES)}")
    return lines


def access_log(draw: random.Random, count: int) -> list[str]:
    """A web server's access log: `IP METHOD PATH STATUS`."""
    hosts = [f"10.0.{draw.randrange(4)}.{draw.randrange(1, 30)}" for _ in range(4)]
    paths = ("/", "/login", "/api/items", "/api/users", "/health", "/static/app.js")
    return [f"{draw.choice(hosts)} {draw.choice(('GET', 'GET', 'POST'))} {draw.choice(paths)} "
            f"{draw.choice((200, 200, 200, 304, 404, 500))}" for _ in range(count)]


def users_csv(draw: random.Random) -> list[str]:
    people = draw.sample(PEOPLE, draw.randint(4, 7))
    rows = [f"{index},{name},{draw.choice(CITIES)},{draw.randint(18, 70)}" for index, name in enumerate(people, 1)]
    return ["id,name,city,age", *rows]


def orders_csv(draw: random.Random, users: int) -> list[str]:
    rows = [f"{number},{draw.randint(1, users)},{draw.choice(PRODUCTS)},{draw.randint(1, 9)},{draw.randint(2, 99)}"
            for number in range(100, 100 + draw.randint(5, 10))]
    return ["order,user,product,qty,price", *rows]


def settings_ini(draw: random.Random) -> dict[str, str]:
    values = {"debug": draw.choice(("true", "false")), "port": str(draw.choice((8000, 8080, 5000, 3000))),
              "host": draw.choice(("localhost", "0.0.0.0", "127.0.0.1")), "workers": str(draw.randint(1, 8)),
              "timeout": str(draw.choice((10, 30, 60))), "log_level": draw.choice(("info", "debug", "warning")),
              "cache_size": str(draw.choice((64, 128, 256))), "retries": str(draw.randint(0, 5))}
    return {key: values[key] for key in draw.sample(SETTINGS, draw.randint(4, len(SETTINGS)))}


def json_document(draw: random.Random, project: str) -> str:
    data = {"name": project, "version": f"{draw.randint(0, 2)}.{draw.randint(0, 9)}.{draw.randint(0, 9)}",
            "private": draw.random() < 0.5, "dependencies": {name: f"^{draw.randint(1, 9)}.0.0" for name in
                                                             draw.sample(("requests", "flask", "numpy", "click",
                                                                          "pyyaml", "rich"), draw.randint(1, 4))},
            "authors": draw.sample(PEOPLE, draw.randint(1, 3))}
    return json.dumps(data, indent=2) + "\n"


def python_module(draw: random.Random, name: str) -> str:
    function = draw.choice(("load", "parse", "render", "total", "clean", "fetch"))
    return (f'"""{name.capitalize()} helpers."""\n\n\ndef {function}(items):\n'
            f'    # TODO: handle empty input\n    return [item for item in items if item]\n')
