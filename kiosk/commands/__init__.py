"""One module per ``tablekeeper`` sub-command: ``add_arguments(parser)`` and ``run(args) -> int``."""
