"""The verbs CLIs share: those that destroy or take away what they name, and those that only read.

Gathered from the destructive subcommands that cloud CLIs, cluster and database tools, package registries
and backup tools document, and the read verbs they share. A word CLIs use as often for a noun group
(`logs delete`, `history clear`) is not a read verb.
"""

# Verbs that destroy what they name, and verbs that take away access or detach it; both are asked about.
DESTROYS = frozenset("""
    delete del destroy drop purge remove rm rmi rmdir rb terminate prune wipe erase truncate flush uninstall
    unpublish reset nuke obliterate expunge shred zap forget discard deprovision decommission undeploy teardown
""".split())
REVOKES = frozenset("revoke disable detach deregister unregister deactivate disassociate".split())
# Verbs that only read; a word CLIs use as often for a noun group (`logs delete`, `history clear`) is not here.
READS = frozenset("""
    get list ls show describe view cat read inspect search find plan diff explain help whoami print check validate
    lint verify watch tail count audit ping preview render export dump version status top completion outdated
""".split())
