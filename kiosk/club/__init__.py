"""Club night: every table's kiosk publishes its game log to one MQTT broker, and
``tablekeeper club`` rebuilds every table's game and serves the live standings page.

Kiosk side: :mod:`kiosk.club.config` (the ``[club]`` settings), :mod:`kiosk.club.outbox`
(the log is the outbox), :mod:`kiosk.club.publisher` (the MQTT client thread).
Club side: :mod:`kiosk.club.archive` (what arrived, once), :mod:`kiosk.club.board` (every
table's game rebuilt through its engine), :mod:`kiosk.club.listener` (the subscriber),
:mod:`kiosk.club.web` and :mod:`kiosk.club.page` (the read-only standings page).
Both sides share :mod:`kiosk.club.wire`, the topics and the messages. See ``docs/club.md``.
"""
