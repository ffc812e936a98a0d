"""``tablekeeper club``'s parts put together: archive, board, MQTT subscriber, web page.

At start every message in the archive is replayed into the board (so the page is right
before the broker answers), then the subscriber connects with a persistent session
(``clean_session=False``, a fixed client id, QoS 1): the broker keeps what arrives while
the club server is away and hands it over on reconnection. When the broker has no session
for it (first start, broker restarted) it subscribes, and the broker hands over every
retained message of the evening; the kiosks send again what a restarted broker forgot.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.club import wire
from kiosk.club.server.archive import Archive
from kiosk.club.server.board import Board

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerConfig:
    club: str
    db: Path
    broker: str = "127.0.0.1"
    port: int = 1883
    username: str = ""
    password: str = field(default="", repr=False)
    ca: str = ""
    tls: bool = False
    listen: tuple[str, int] = ("127.0.0.1", 8080)

    @property
    def client_id(self) -> str:
        return f"tablekeeper-club-server-{self.club}"


class ClubServer:
    """The club server. ``start()`` returns once the page is served and the client started."""

    def __init__(self, config: ServerConfig) -> None:
        wire.check_name("club", config.club)
        self.config = config
        self.archive = Archive(config.db, config.club)
        self.board = Board()
        self.rejected: list[str] = []
        self.received = 0
        self.connected = threading.Event()
        self._client: Any = None
        self._http: Any = None
        self._http_thread: threading.Thread | None = None

    # ------------------------------------------------------------------ life
    def start(self) -> ClubServer:
        for table, game, _seq, payload in self.archive.messages():
            with contextlib.suppress(wire.WireError):
                self.board.ingest(table, game, wire.decode(payload))
        self._start_http()
        self._start_mqtt()
        return self

    def _start_http(self) -> None:
        from kiosk.club.server.web import make_server

        self._http = make_server(self.config.listen, self.board, self.config.club)
        self._http_thread = threading.Thread(target=self._http.serve_forever, name="club-http", daemon=True)
        self._http_thread.start()

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host}:{port}"

    def _start_mqtt(self) -> None:
        import paho.mqtt.client as mqtt

        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=self.config.client_id,
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        if self.config.username:
            client.username_pw_set(self.config.username, self.config.password or None)
        if self.config.tls:
            client.tls_set(ca_certs=self.config.ca or None)
        client.reconnect_delay_set(min_delay=1, max_delay=10)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.connect_async(self.config.broker, self.config.port, keepalive=20)
        client.loop_start()
        self._client = client

    def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.disconnect()
            with contextlib.suppress(Exception):
                self._client.loop_stop()
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
        self.archive.close()

    # ------------------------------------------------------------------ MQTT (paho's thread)
    def _on_connect(self, client: Any, _u: Any, flags: Any, reason: Any, _p: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            log.error("the broker refused the club server: %s", reason)
            return
        if not getattr(flags, "session_present", False):
            # A new session (first start, or the broker restarted): subscribing hands us
            # every retained message, i.e. the whole evening; the archive drops repeats.
            client.subscribe([(topic, 1) for topic in wire.subscriptions(self.config.club)])
        self.connected.set()
        log.info("club server connected to %s:%s", self.config.broker, self.config.port)

    def _on_disconnect(self, *_args: Any) -> None:
        self.connected.clear()
        log.info("club server lost the broker; reconnecting")

    def _on_message(self, _c: Any, _u: Any, msg: Any) -> None:
        """Keep the message (committed before paho acknowledges it), then apply it."""
        if not msg.payload:
            return  # a retained message being cleared
        try:
            where = wire.parse_topic(msg.topic)
            data = wire.decode(msg.payload)
            if where.club != self.config.club or where.seq != data["seq"]:
                raise wire.WireError(f"a message on the wrong topic {msg.topic!r}")
            if where.seq == 0 and data.get("table") != where.table:
                raise wire.WireError(f"a header for table {data.get('table')!r} under {where.table!r}")
        except wire.WireError as exc:
            self._reject(f"skipped {msg.topic}: {exc}")
            return
        self.received += 1
        payload = msg.payload.decode("utf-8")
        try:
            if self.archive.add(where.table, where.game, data["seq"], payload):
                self.board.ingest(where.table, where.game, data)
            else:
                self.board.duplicates += 1
        except Exception as exc:  # one table's bad message must not stop the club's page
            log.exception("message %s could not be applied", msg.topic)
            self._reject(f"could not apply {msg.topic}: {exc}")

    def _reject(self, why: str) -> None:
        log.warning("%s", why)
        self.rejected = [*self.rejected[-49:], why]
