"""The ``tablekeeper`` command line: :mod:`kiosk.cli.main` is the entry point; every other
module here is one sub-command (``add_arguments(parser)`` and ``run(args) -> int``)."""
