"""Everything that runs another command: bash's builtins that change the line's own state (cd, eval, source),
wrappers (sudo, env, timeout, nohup, ...), shells and interpreters, find's actions and xargs, package runners
and environment wrappers (npx, uv run, conda run), make and Makefiles, package.json scripts, GNU parallel,
aliases, script(1), sourced files and code the line itself wrote. Each reads its own options, then hands the
command it runs back to the line's reader (`dispatch` is the one entry the reader calls).

It imports remote/, programs/ and reading/; nothing below imports it.
"""
