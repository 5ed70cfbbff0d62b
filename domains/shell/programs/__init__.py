"""What each program family does to files and the machine, one module a family, each from its programs'
documentation: file programs, file tools, archives, git, the system, SQL and its bounds, secrets and what a
command reads, inline Python that only computes or reads, sed's scripts, GNU's usage errors, mistyped names.

It imports reading/ only. A program that runs another command is a launcher (launchers/); one whose effects land
on another machine, a cluster, a cloud or a database is remote/'s.
"""
