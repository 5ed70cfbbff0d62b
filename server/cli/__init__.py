"""The command line: the entry point, the argument table and the subcommands that run tools."""
