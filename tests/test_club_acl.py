"""The documented Mosquitto configuration (docs/club/): each table publishes only under its
own topic, a wrong password is refused, and no anonymous client gets in.

Real Mosquitto, real paho clients. MQTT 5 is used by the table here because its PUBACK
carries the broker's verdict ("Not authorized"); the club server's subscription shows
that the refused message never reached anyone.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from mosquitto_kit import DOCS, Broker
from paho.mqtt.reasoncodes import ReasonCode

CLUB = "riverside"


def _client(
    broker: Broker, user: str | None, password: str | None, v5: bool = False
) -> tuple[Any, dict[str, Any]]:
    seen: dict[str, Any] = {"messages": [], "acks": {}, "connected": threading.Event(), "reason": None}
    client = mqtt.Client(
        mqtt.CallbackAPIVersion.VERSION2,
        client_id=f"acl-test-{user}-{v5}",
        protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
    )
    if user is not None:
        client.username_pw_set(user, password)

    def on_connect(_c: Any, _u: Any, _f: Any, reason: ReasonCode, _p: Any = None) -> None:
        seen["reason"] = reason
        seen["connected"].set()

    client.on_connect = on_connect
    client.on_message = lambda _c, _u, msg: seen["messages"].append(msg.topic)
    client.on_publish = lambda _c, _u, mid, reason, _p=None: seen["acks"].__setitem__(mid, reason)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert seen["connected"].wait(10)
    return client, seen


def _wait(predicate: Any, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


@pytest.fixture
def broker(tmp_path: Path) -> Any:
    accounts = {"club-server": "pw-server", "table-1": "pw-1", "table-2": "pw-2"}
    with Broker(tmp_path / "broker", accounts) as running:
        yield running


def test_a_table_cannot_publish_under_another_tables_topic(broker: Broker) -> None:
    server, heard = _client(broker, "club-server", "pw-server")
    assert not heard["reason"].is_failure
    server.subscribe(f"tablekeeper/{CLUB}/#", qos=1)
    time.sleep(0.3)
    table, sent = _client(broker, "table-1", "pw-1", v5=True)
    try:
        own = table.publish(f"tablekeeper/{CLUB}/table-1/abc-1/1", b'{"seq": 1}', qos=1)
        forged = table.publish(f"tablekeeper/{CLUB}/table-2/abc-1/1", b'{"seq": 1}', qos=1)
        other_club = table.publish("tablekeeper/elsewhere/table-1/abc-1/1", b'{"seq": 1}', qos=1)
        assert _wait(lambda: len(sent["acks"]) == 3)
        assert not sent["acks"][own.mid].is_failure
        assert sent["acks"][forged.mid] == ReasonCode(mqtt.PacketTypes.PUBACK, "Not authorized")
        assert sent["acks"][other_club.mid].is_failure
        assert _wait(lambda: f"tablekeeper/{CLUB}/table-1/abc-1/1" in heard["messages"])
        time.sleep(0.3)
        assert heard["messages"] == [f"tablekeeper/{CLUB}/table-1/abc-1/1"]
    finally:
        table.loop_stop()
        server.loop_stop()


def test_a_table_reads_nothing_and_strangers_are_refused(broker: Broker) -> None:
    table, seen = _client(broker, "table-2", "pw-2")
    table.subscribe(f"tablekeeper/{CLUB}/#", qos=1)
    other, _ = _client(broker, "table-1", "pw-1")
    other.publish(f"tablekeeper/{CLUB}/table-1/abc-2/1", b'{"seq": 1}', qos=1).wait_for_publish(5)
    time.sleep(0.5)
    assert seen["messages"] == [], "a table's account must not read the club's messages"
    table.loop_stop()
    other.loop_stop()
    _, wrong = _client(broker, "table-1", "not-the-password")
    assert wrong["reason"].is_failure
    _, nobody = _client(broker, None, None)
    assert nobody["reason"].is_failure


def test_the_docs_show_the_configuration_the_tests_use() -> None:
    guide = (DOCS.parent / "club.md").read_text(encoding="utf-8")
    for name in ("mosquitto.conf", "tablekeeper.acl"):
        for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                assert line in guide, f"docs/club.md must show {name}'s line {line!r}"
