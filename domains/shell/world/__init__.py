"""A world's one record of knowledge and how a step teaches it: the record (exact and implied facts of files,
folders, the shell's folder and variables, repositories), the learning rules that apply a step's semantics,
screen or computed outcome to it, and the terminal screen a step leaves.

It imports programs/ and reading/, never the line's reader or the virtual shell: virtual/ computes from this
record, and the tools' world tracking (tools/worlds/) drives both.
"""
