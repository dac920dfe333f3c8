"""The command modules: each holds its commands on its own `COMMANDS` group, which cli.py adds to
`campaign`; they share commands/plumbing.py and commands/parsing.py and never import cli.py."""
