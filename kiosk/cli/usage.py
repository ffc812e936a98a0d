"""The error every command raises for a request it cannot carry out as asked.

:func:`kiosk.cli.main.main` turns it into one plain line on stderr and exit status 2, never
a traceback. Its own module so that every command (and the picture checks they share) can
raise it without importing the entry point that catches it.
"""

from __future__ import annotations


class UsageError(Exception):
    """Bad arguments or input: print the message and exit 2."""
