"""Reading a line's text: the bash grammar, a word's value, parameter and arithmetic expansion, a program's
options (and a wrapper's, up to the command it runs), one simple command being read (`Call`), where the line
runs, what the line itself writes, and the typed values every reading ends in (effects, unknown parts, what
must exist).

The ground floor of domains/shell: it imports no other folder of it. What a particular program does lives in
programs/, launchers/ and remote/, which register their readers in `registry.HANDLERS`.
"""
