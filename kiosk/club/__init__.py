"""Club night: every table's kiosk publishes its game log to one MQTT broker, and
``tablekeeper club`` rebuilds every table's game and serves the live standings page.

Kiosk side: :mod:`kiosk.club.publish.config` (the ``[club]`` settings), :mod:`kiosk.club.publish.outbox`
(the log is the outbox), :mod:`kiosk.club.publish.publisher` (the MQTT client thread).
Club side: :mod:`kiosk.club.server.archive` (what arrived, once), :mod:`kiosk.club.server.board` (every
table's game rebuilt through its engine), :mod:`kiosk.club.server.service` (the
subscriber and the parts put together),
:mod:`kiosk.club.server.web` and :mod:`kiosk.club.server.page` (the read-only standings page).
Both sides share :mod:`kiosk.club.wire`, the topics and the messages. See ``docs/club.md``.
"""
