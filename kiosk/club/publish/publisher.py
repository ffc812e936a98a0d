"""The kiosk's MQTT client: sends the outbox to the club's broker, outbound only.

paho-mqtt 2.x, not aiomqtt: the kiosk is a Kivy app with no asyncio loop, and paho's own
network thread (``loop_start``) plus one worker thread of ours fit it without an event
loop; paho also reconnects by itself with a back-off. The kiosk never subscribes: no
message from the network can change a game.

Threads: paho's network thread only flags what happened (connected, a PUBACK for message
id M, disconnected) and wakes the worker; the worker alone touches the outbox (SQLite):
it plans new messages, publishes what is unacknowledged (at most ``window`` in flight)
and records acknowledgements. Each (re)connection resends everything unacknowledged;
the subscriber drops what it already has by ``seq``.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import queue
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kiosk.club.publish.config import ClubConfig
from kiosk.club.publish.outbox import Outbox
from kiosk.gamelog.contract import Log

log = logging.getLogger(__name__)


class Publisher:
    """Publish ``outbox`` to the broker in ``config``; :meth:`wake` after each log change."""

    def __init__(self, config: ClubConfig, outbox: Outbox, *, window: int = 100, poll: float = 1.0) -> None:
        import paho.mqtt.client as mqtt

        self.config = config
        self.outbox = outbox
        self.window = window
        self.poll = poll
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._acks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._connected = False
        self._fresh_connection = False
        self._session_lost = False
        self._inflight: dict[int, tuple[int, int]] = {}
        self._state = f"connecting to {config.host}:{config.port}"
        self._worker: threading.Thread | None = None
        #: Messages the broker acknowledged since start (for tests and the screen).
        self.acknowledged = 0
        self.connections = 0
        #: Connections whose resend the worker has planned (after a lost session: the rewind).
        self.connections_handled = 0
        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=config.client_id,
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        if config.username:
            client.username_pw_set(config.username, config.password or None)
        if config.tls:
            client.tls_set(ca_certs=config.ca or None)
        client.reconnect_delay_set(min_delay=1, max_delay=15)
        client.max_inflight_messages_set(window)
        client.max_queued_messages_set(0)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        self._client = client

    # ------------------------------------------------------------------ life
    def start(self) -> Publisher:
        self._client.connect_async(self.config.host, self.config.port, keepalive=20)
        self._client.loop_start()
        self._worker = threading.Thread(target=self._run, name="club-publisher", daemon=True)
        self._worker.start()
        return self

    def wake(self) -> None:
        """Something was written to the log: plan and send now rather than at the next poll."""
        self._wake.set()

    def close(self, timeout: float = 3.0) -> None:
        """Stop sending (what is unacknowledged stays in the outbox for the next start)."""
        self._stop.set()
        self._wake.set()
        if self._worker is not None:
            self._worker.join(timeout)
        with contextlib.suppress(Exception):
            self._client.disconnect()
        with contextlib.suppress(Exception):
            self._client.loop_stop()
        self.outbox.close()

    def status(self) -> str:
        """One line for the kiosk's club screen (never the password)."""
        try:
            waiting = self.outbox.counts()["unacknowledged"]
        except Exception:
            waiting = -1
        if self._connected:
            return (
                "connected: every event is at the club" if waiting == 0 else f"connected: sending {waiting}"
            )
        more = f"; {waiting} event(s) wait in the log" if waiting > 0 else ""
        return f"{self._state}{more}"

    @property
    def connected(self) -> bool:
        return self._connected

    # ------------------------------------------------------------------ paho's thread
    def _on_connect(self, _c: Any, _u: Any, flags: Any, reason: Any, _p: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            self._state = f"the broker refused this table ({reason})"
            log.warning("club broker refused the connection: %s", reason)
            return
        self.connections += 1
        self._session_lost = self._session_lost or not getattr(flags, "session_present", False)
        self._fresh_connection = True
        self._connected = True
        self._state = "connected"
        log.info("club broker %s:%s connected", self.config.host, self.config.port)
        self._wake.set()

    def _on_disconnect(self, _c: Any, _u: Any, _flags: Any, reason: Any, _p: Any = None) -> None:
        self._connected = False
        self._state = f"not connected to {self.config.host}:{self.config.port} ({reason}); retrying"
        log.info("club broker disconnected: %s", reason)

    def _on_publish(self, _c: Any, _u: Any, mid: int, _reason: Any = None, _p: Any = None) -> None:
        self._acks.put(mid)
        self._wake.set()

    # ------------------------------------------------------------------ the worker
    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.poll)
            self._wake.clear()
            try:
                self._step()
            except Exception:  # a locked or full disk: keep trying, the log keeps everything
                log.exception("club publisher step failed")
                self._stop.wait(self.poll)

    def _step(self) -> None:
        done: list[tuple[int, int]] = []
        while True:
            try:
                mid = self._acks.get_nowait()
            except queue.Empty:
                break
            key = self._inflight.pop(mid, None)
            if key is not None:
                done.append(key)
        self.outbox.acknowledge(done)
        self.acknowledged += len(done)
        if self._fresh_connection:
            self._fresh_connection = False
            self._inflight.clear()  # resend whatever is unacknowledged, under new message ids
            if self._session_lost:
                self._session_lost = False
                again = self.outbox.rewind()
                log.info("club broker lost this table's session: %d message(s) will be sent again", again)
            self.connections_handled += 1
        self.outbox.plan()
        if not self._connected:
            return
        busy = set(self._inflight.values())
        room = self.window - len(self._inflight)
        if room <= 0:
            return
        for message in self.outbox.pending(self.window + len(busy)):
            if room <= 0 or not self._connected:
                break
            if (message.game_id, message.seq) in busy:
                continue
            info = self._client.publish(message.topic, message.payload, qos=1, retain=message.retain)
            if info.rc != 0:  # not connected any more: the next connection resends it
                break
            self._inflight[info.mid] = (message.game_id, message.seq)
            room -= 1


class ClubLog:
    """The game log, waking the publisher after every change (everything else passes through).

    The seam between the session and club night: ``Session(ClubLog(store, publisher))``;
    the session and the store are unchanged and know nothing of MQTT. The writes are spelled
    out (each wakes the publisher once it is on disk); the reads reach the store unchanged.
    """

    def __init__(self, store: Log, publisher: Publisher) -> None:
        self._store = store
        self._publisher = publisher

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def start_game(self, header: Mapping[str, Any]) -> int:
        game_id = self._store.start_game(header)
        self._publisher.wake()
        return game_id

    def append(self, game_id: int, event: Mapping[str, Any]) -> int:
        number = self._store.append(game_id, event)
        self._publisher.wake()
        return number

    def drop_last(self, game_id: int) -> dict[str, Any] | None:
        dropped = self._store.drop_last(game_id)
        self._publisher.wake()
        return dropped

    def finish(self, game_id: int, outcome: Mapping[str, Any]) -> None:
        self._store.finish(game_id, outcome)
        self._publisher.wake()

    def abandon(self, game_id: int) -> None:
        self._store.abandon(game_id)
        self._publisher.wake()

    def close(self) -> None:
        self._publisher.close()
        self._store.close()


def start_club(section: Mapping[str, Any], store: Log) -> tuple[Publisher | None, str]:
    """The publisher for the ``[club]`` section, started; (None, "") when club night is off.

    Imports paho only when the club is configured: a kiosk without club settings opens
    no socket at all. A bad section is (None, a sentence for the banner).
    """
    from kiosk.club.publish.config import ClubConfigError, from_section

    try:
        config = from_section(dict(section))
    except ClubConfigError as exc:
        return None, f"Club night is off: {exc}"
    if config is None:
        return None, ""
    try:
        outbox = Outbox(Path(store.path), config.club, config.table)
        return Publisher(config, outbox).start(), ""
    except Exception as exc:
        log.exception("club publisher failed to start")
        if isinstance(exc, OSError) and exc.errno == errno.EAFNOSUPPORT:  # the unit's sandbox: no network
            return None, ("Club night is off: the kiosk's service may not use the network. "
                          "Fix: sudo /opt/tablekeeper/bin/tablekeeper club-night on, then restart the kiosk.")
        return None, f"Club night is off: the publisher could not start ({exc})"
