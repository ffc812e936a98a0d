"""One module per ``tablekeeper`` sub-command, each with ``add_arguments(parser)`` and ``run(args) -> int``."""
