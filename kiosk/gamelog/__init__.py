"""The game log: one SQLite file, the one source of truth. Every event is committed
before the screen shows it (:mod:`~kiosk.gamelog.store`); a damaged log is kept aside and
what reads is salvaged (:mod:`~kiosk.gamelog.recover`); a card that cannot be written still
shows the game from a read-only copy (:mod:`~kiosk.gamelog.fallback`).
"""
