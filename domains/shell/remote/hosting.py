"""Hosting CLIs: GitHub's gh (cli.github.com/manual), Heroku (devcenter.heroku.com CLI commands),
Vercel (vercel.com/docs/cli) and Netlify (cli.netlify.com). What they delete lives on the service:
a repository, a release, a database, a deployment, a secret's value."""

from __future__ import annotations

from .api_commands import reads_api
from .elsewhere import heroku_run, launcher
from .tables import Form, RemoteProgram, register

GH = RemoteProgram(
    "a GitHub account's repositories and their data",
    (Form((r"repo|release|secret|variable|label|cache|run|gist|ssh-key|gpg-key|codespace|project|issue|ruleset",
           r"delete(-asset)?|remove"),
          "deletes it on GitHub, which keeps no copy (an organization owner alone may restore a deleted "
          "repository, within 90 days)"),),
    frozenset({"-R", "--repo", "--hostname", "-X", "--method"}),
    requests=reads_api("gh"),
)
HEROKU = RemoteProgram(
    "a Heroku account's apps and add-ons",
    (Form((r"(apps|addons|spaces|pipelines):destroy|apps:delete|destroy",), "deletes the app or add-on and its data"),
     Form(("pg:reset",), "drops every table of the database"),
     Form((r"pg:backups:(delete|destroy)",), "deletes the backup"),
     Form(("config:unset",), "removes the config vars; their values cannot be read back")),
    frozenset({"-a", "--app", "-r", "--remote"}),
    runs_elsewhere=launcher(heroku_run),
)
VERCEL = RemoteProgram(
    "a Vercel account's projects and deployments",
    (Form(("remove|rm",), "removes the deployments or project"),
     Form((r"projects?|domains?|env|dns|alias(es)?|certs|secrets|blob", "rm|remove|del"),
          "removes it; Vercel keeps no copy")),
    frozenset({"-t", "--token", "-S", "--scope", "-A", "--local-config", "-Q", "--global-config", "--cwd"}),
)
NETLIFY = RemoteProgram(
    "a Netlify account's sites",
    (Form((r"sites:delete|env:unset|blobs:delete",), "deletes it on Netlify, which keeps no copy"),),
    frozenset({"--auth", "--site", "--filter"}),
    requests=reads_api("netlify"),
)

register({"gh": GH, "heroku": HEROKU, "vercel": VERCEL, "netlify": NETLIFY})
