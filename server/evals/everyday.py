"""Everyday agent sessions, generated: what a coding agent types in a terminal on ordinary work.

A session is a project folder's starting files and the lines an agent types in order: it scaffolds a
project, edits configs, searches logs, wrangles CSV files, looks around, writes small shell logic, reads
JSON with python3 or jq, uses git, and mistypes or runs commands that fail along the way. The kinds of work,
names, contents and order are drawn from one seed. Written from what agents do, not from what the virtual
shell computes: the measure of how much of such work is computed (server/evals/closed_loop.py).

Every line ends by itself and prints nothing a machine would print otherwise (no dates, sizes, process ids,
or hashes of content the session did not write).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from . import everyday_content as content


@dataclass
class Session:
    seed: int
    task: str = ""
    files: dict[str, str] = field(default_factory=dict)  # path (under the project folder) -> text, at the start
    lines: list[str] = field(default_factory=list)


@dataclass
class _Work:
    """What an activity builds on: the session being written, and its draw."""

    draw: random.Random
    session: Session
    project: str

    def data_file(self, path: str, text: str) -> list[str]:
        """The file is there from the start (an existing project), or the agent writes it with a heredoc."""
        if self.draw.random() < 0.65:
            self.session.files[path] = text
            return []
        folder = path.rpartition("/")[0]
        return ([f"mkdir -p {folder}"] if folder else []) + [heredoc(path, text)]

    def some(self, lines: list[str], low: int, high: int | None = None) -> list[str]:
        return some(self.draw, lines, low, high)


def some(draw: random.Random, lines: list[str], low: int, high: int | None = None) -> list[str]:
    """Between `low` and `high` of `lines`, in their order (an agent does not run every check every time)."""
    count = draw.randint(min(low, len(lines)), min(high or len(lines), len(lines)))
    return [lines[index] for index in sorted(draw.sample(range(len(lines)), count))]


def heredoc(path: str, text: str, redirect: str = ">") -> str:
    return f"cat {redirect} {path} <<'EOF'\n{text.rstrip(chr(10))}\nEOF"


def _back(w: _Work, depth: int = 1) -> str:
    """How an agent returns to the project's folder after a `cd` into it."""
    return w.draw.choice(["cd " + "/".join([".."] * depth), "cd -", "cd ~/project"])


def scaffold(w: _Work) -> list[str]:
    d, name = w.draw, w.project
    module = d.choice(content.MODULES)
    lines = [d.choice([f"mkdir -p {name}/src/{name} {name}/tests {name}/docs",
                       f"mkdir {name} && mkdir -p {name}/src/{name} {name}/tests"]), f"cd {name}",
             heredoc("README.md", f"# {name.capitalize()}\n\nA small {name} service.\n\n## Usage\n\n    make run\n"),
             f"touch src/{name}/__init__.py tests/__init__.py",
             heredoc(f"src/{name}/{module}.py", content.python_module(d, module)),
             d.choice(["printf '%s\\n' flask requests > requirements.txt",
                       heredoc("requirements.txt", "flask>=3.0\nrequests\npytest\n")]),
             "echo '.venv/' > .gitignore", "echo '__pycache__/' >> .gitignore"]
    looks = [d.choice(["ls", "ls -a", "ls src", f"ls src/{name}"]), "find . -type f | sort", "find . -name '*.py'",
             "cat .gitignore", "cat README.md", f"wc -l src/{name}/*.py", "tree", "cp README.md{,.bak}",
             f"head -n 3 src/{name}/{module}.py", "ls -R", "grep -rn TODO src/", "cat requirements.txt"]
    return lines + w.some(looks, 2, 6) + [_back(w)]


def config(w: _Work) -> list[str]:
    d = w.draw
    settings = content.settings_ini(d)
    key = d.choice(sorted(settings))
    text = "# service settings\n[server]\n" + "".join(f"{k}={v}\n" for k, v in settings.items())
    name = d.choice(["settings.ini", "config.ini", "app.conf"])
    lines = w.data_file(name, text) + [f"cat {name}", f"grep -n {key} {name}", d.choice([f"grep '^{key}=' {name}",
                                                                                         f"grep -v '^#' {name}"])]
    edits = [f"sed -i 's/^{key}=.*/{key}=changed/' {name}", f"sed -i.bak 's/^{key}=/{key}_old=/' {name}",
             f"echo 'extra=1' >> {name}", f"printf '%s=%s\\n' mode prod >> {name}",
             f"sed -i '/^#/d' {name}", f"sed -n '2,4p' {name}", f"cp {name} {name}.orig"]
    checks = [f"cat {name}", f"diff {name}.bak {name}", "echo $?", f"grep -c = {name}", f"tail -n 2 {name}",
              f"head -3 {name}", "ls", "ls *.bak", f"diff {name}.orig {name}", f"rm {name}.bak"]
    env = ["echo 'LOG_FILE=app.log' >> .env",
           "printf 'SECRET_KEY=%s\\n' dev-only >> .env", "cat .env", "grep -c = .env", "cut -d= -f1 .env",
           "sed -i 's/^DEBUG=1/DEBUG=0/' .env", "grep DEBUG .env"]
    return lines + w.some(edits, 2, 4) + w.some(checks, 2, 5) + (
        [heredoc(".env", f"DATABASE_URL=sqlite:///{w.project}.db\nDEBUG=1\n"), *w.some(env, 2, 5)]
        if d.random() < 0.5 else [])


def logs(w: _Work) -> list[str]:
    d = w.draw
    app, access = content.log_lines(d, d.randint(12, 30)), content.access_log(d, d.randint(10, 24))
    component, message = d.choice(content.COMPONENTS), d.choice(content.MESSAGES).split()[0]
    lines = w.data_file("logs/app.log", "\n".join(app) + "\n")
    lines += w.data_file("logs/access.log", "\n".join(access) + "\n")
    searches = ["ls logs", "wc -l logs/app.log", "wc -l logs/*.log", "head -n 5 logs/app.log", "tail -n 3 logs/app.log",
                "tail -5 logs/access.log", "grep ERROR logs/app.log", "grep -c ERROR logs/app.log",
                "grep -E 'ERROR|WARN' logs/app.log", "grep -E 'ERROR|WARN' logs/app.log | head -n 3",
                f"grep -n '{message}' logs/app.log", f"grep -r '{message}' logs/", "grep -ri error logs | wc -l",
                f"grep -c '\\[{component}\\]' logs/app.log",
                "awk '{print $2}' logs/app.log | sort | uniq -c | sort -rn",
                "cut -d' ' -f3 logs/app.log | sort | uniq -c",
                "awk '{print $1}' logs/access.log | sort | uniq -c | sort -rn",
                "awk '{print $1}' logs/access.log | sort -u | wc -l", "grep ' 500$' logs/access.log | wc -l",
                "awk '$4 == 404' logs/access.log", "grep -v ' 200$' logs/access.log | cut -d' ' -f3 | sort | uniq -c",
                "grep -o '\\[[a-z]*\\]' logs/app.log | sort -u", "grep ERROR logs/app.log > errors.txt",
                "sort -k2 logs/app.log | head -n 4", "grep -l ERROR logs/*", "grep -h GET logs/* | wc -l",
                "grep -n ERROR logs/app.log | cut -d: -f1 | tail -1", "grep -w 'job' logs/app.log | wc -l"]
    return lines + w.some(searches, 5, 10)


def tables(w: _Work) -> list[str]:
    d = w.draw
    users = content.users_csv(d)
    orders = content.orders_csv(d, len(users) - 1)
    lines = w.data_file("data/users.csv", "\n".join(users) + "\n") + w.data_file("data/orders.csv",
                                                                                  "\n".join(orders) + "\n")
    work = ["head -3 data/users.csv", "wc -l data/*.csv", "cut -d, -f2 data/users.csv", "cut -d, -f2,3 data/users.csv",
            "tail -n +2 data/users.csv | sort -t, -k4 -n", "sort -t, -k3 data/users.csv",
            "column -t -s, data/users.csv",
            "awk -F, 'NR>1 {s += $4 * $5} END {print s}' data/orders.csv",
            "cut -d, -f3 data/orders.csv | tail -n +2 | sort | uniq -c | sort -rn",
            "awk -F, '$4 > 40 {print $2}' data/users.csv", "grep -c , data/orders.csv",
            "tail -n +2 data/users.csv | cut -d, -f1 | sort > ids.txt",
            "tail -n +2 data/orders.csv | cut -d, -f2 | sort -u > buyers.txt", "comm -23 ids.txt buyers.txt",
            "comm -12 ids.txt buyers.txt", "wc -l ids.txt buyers.txt",
            "cut -d, -f2 data/users.csv > names.txt", "cut -d, -f4 data/users.csv > ages.txt",
            "paste -d' ' names.txt ages.txt",
            "tail -n +2 data/users.csv | sort -t, -k1,1 > u.csv", "tail -n +2 data/orders.csv | sort -t, -k2,2 > o.csv",
            "join -t, -1 1 -2 2 u.csv o.csv", "sort -t, -k5 -nr data/orders.csv | head -n 3",
            "cut -d, -f3 data/users.csv | sort | uniq", "head -1 data/orders.csv | tr ',' '\\n'",
            "awk -F, 'NR>1 {print $3}' data/users.csv | sort | uniq -c"]
    return lines + w.some(work, 5, 11)


def inspect(w: _Work) -> list[str]:
    d = w.draw
    first, second = d.sample(content.PEOPLE, 2)
    text = "".join(f"{word}\n" for word in d.sample(content.PRODUCTS, 5))
    changed = text.replace(text.split()[1], text.split()[1].upper())
    lines = w.data_file("notes/a.txt", text) + w.data_file("notes/b.txt", changed) + w.data_file(
        f"notes/{first}.md", f"# Notes from {first}\n\nAsk {second} about the release.\n")
    looks = ["ls", "ls -a", "ls -1 notes", "ls notes", "ls -A", "find . -name '*.txt'", "find . -type d",
             "find notes -type f", "cat notes/a.txt", "head -n 2 notes/b.txt", "wc -l notes/a.txt", "wc notes/*.txt",
             "diff notes/a.txt notes/b.txt", "diff -u notes/a.txt notes/b.txt", "cmp notes/a.txt notes/b.txt",
             "md5sum notes/a.txt", "sha256sum notes/b.txt", f"cat notes/{first}.md", "file notes/a.txt",
             "cat -n notes/a.txt", "ls notes/*.md", "tac notes/a.txt", "sort notes/a.txt notes/b.txt | uniq -d",
             "stat -c %n notes/a.txt", "realpath notes/a.txt", "basename $PWD"]
    return lines + w.some(looks, 4, 9)


def logic(w: _Work) -> list[str]:
    d = w.draw
    count, name = d.randint(2, 5), d.choice(content.MODULES)
    ext = d.choice(["py", "sh", "md", "txt"])
    forms = [f"for i in $(seq 1 {count}); do echo \"item $i\"; done",
             f"for f in {name}.py {name}_test.py; do touch \"$f\"; done",
             "for f in *.py; do echo \"== $f\"; done",
             f"if [ -f {name}.py ]; then echo found; else echo missing; fi",
             "[ -d src ] && echo 'has src' || echo 'no src'",
             f"file={name}.{ext}; case \"${{file##*.}}\" in py) echo Python;; sh) echo Shell;; *) echo other;; esac",
             f"N={count}; echo $((N * 3 + 1))", f"echo $(( {count} * 60 ))",
             f"path=/home/dev/project/src/{name}.py; echo ${{path##*/}} ${{path%/*}} ${{path%.py}}",
             f"name={name}; [[ $name == *s ]] && echo plural || echo singular",
             "count=$(ls | wc -l); echo \"$count entries\"", "x=; echo \"${x:-default}\"",
             "false; echo $?", "test -e nothing.txt; echo $?", "true && echo ok", "ls nothing 2>/dev/null || echo none",
             "export APP_ENV=dev; echo $APP_ENV", "echo $APP_ENV",
             f"printf '%s\\n' {' '.join(d.sample(content.PEOPLE, 3))} > people.txt",
             "while read p; do echo \"hi $p\"; done < people.txt",
             "i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo $i",
             "mkdir -p build && cd build && pwd", "cd -", "echo \"$HOME\"", "echo ${#HOME}",
             "for n in 3 1 2; do echo $n; done | sort -n", "seq 5 | paste -sd+ | bc", "echo {1..4}",
             "[ -z \"$UNSET\" ] && echo empty", "echo $((7 / 2)) $((7 % 2))"]
    return w.some(forms, 4, 9) + ["cd ~/project"]


def python_json(w: _Work) -> list[str]:
    d = w.draw
    document = content.json_document(d, w.project)
    lines = w.data_file("package.json", document)
    reads = ["python3 -c 'import json; print(json.load(open(\"package.json\"))[\"name\"])'",
             "python3 -c \"import json; d = json.load(open('package.json')); print(len(d['dependencies']))\"",
             "python3 -c 'import json,sys; print(sorted(json.load(sys.stdin)))' < package.json",
             "python3 -m json.tool package.json | head -n 4", "jq -r .name package.json",
             "jq '.dependencies | keys' package.json",
             "jq .version package.json", "grep -n version package.json",
             "python3 --version > /dev/null && echo have-python",
             heredoc("check.py",
             "import json\n\nwith open('package.json') as f:\n    data = json.load(f)\nprint(data['version'])\n"),
             "python3 check.py", "python3 missing.py", "python3 -c 'print(6 * 7)'", "cat package.json"]
    return lines + w.some(reads, 3, 7)


def git(w: _Work) -> list[str]:
    steps = ["git init -q", "git config user.email dev@example.com", "git config user.name Dev",
             heredoc("notes.md", f"# {w.project}\n"), "git status --short", "git add .", "git status --short",
             "git commit -q -m 'Initial commit'", "echo 'more' >> notes.md", "git diff --stat", "git status --short",
             "git add -A && git commit -q -m 'Update notes'", "git log --oneline | wc -l", "ls -a"]
    return steps[:4] + w.some(steps[4:], 4)


def slips(w: _Work) -> list[str]:
    """Typos and commands that fail, as agents make them."""
    mistakes = ["sl", "gti status", "cta README.md", "grpe -n main *.py", "pyhton3 --version", "cat missing.txt",
                "cd nowhere", "ls no-such-dir", "mkdir logs && mkdir logs", "rmdir src", "rm notes",
                "head -n x README.md", "grep foo nofile.txt", "sort nosuch.csv", "cp nothing.txt else.txt",
                "touch a/b/c.txt", "mv missing.txt other.txt", "wc -l nosuch", "cd .. && cd project && pwd",
                "ls -z", "echo $?", "exit-now", "./run.sh", "make test", "tail -n 2 nofile"]
    return w.some(mistakes, 1, 3)


def moving(w: _Work) -> list[str]:
    d = w.draw
    folder = d.choice(["src", "lib", "pkg", "tmp"])
    return [f"mkdir -p {folder}/sub", f"cd {folder}", "pwd", "cd sub", "pwd", "cd -", "cd", "pwd", "cd -",
            d.choice(["cd ..", "cd ~/project", "cd $OLDPWD"]), "pwd"][: d.randint(5, 11)] + ["cd ~/project"]


ACTIVITIES: dict[str, Callable[[_Work], list[str]]] = {
    "scaffold a project": scaffold, "edit a config": config, "search logs": logs, "wrangle CSV data": tables,
    "look around a folder": inspect, "shell logic": logic, "read JSON": python_json, "use git": git,
    "move between folders": moving,
}


def session(seed: int) -> Session:
    """One session: two to four kinds of work, with slips between some of them."""
    draw = random.Random(seed)
    made = Session(seed)
    work = _Work(draw, made, draw.choice(content.PROJECTS))
    kinds = draw.sample(sorted(ACTIVITIES), draw.randint(2, 4))
    made.task = ", then ".join(kinds)
    for kind in kinds:
        made.lines += ACTIVITIES[kind](work)
        if draw.random() < 0.4:
            made.lines += slips(work)
    return made
