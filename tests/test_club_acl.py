"""The documented Mosquitto configuration (docs/club/): each table publishes only under its
own topic, a wrong password is refused, and no anonymous client gets in.

Real Mosquitto, real paho clients. MQTT 5 is used by the table here because its PUBACK
carries the broker's verdict ("Not authorized"); the club server's subscription shows
that the refused message never reached anyone.

"Nothing arrived" is only worth asserting once something sent after it has arrived: the
broker sends a client's packets in the order it handled them, one connection at a time, so
a marker sent after the forbidden message (or an acknowledgement the broker sends after it)
arriving means the forbidden message would already have arrived.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from mosquitto_kit import DOCS, Broker
from paho.mqtt.reasoncodes import ReasonCode
from waiting import wait_for

CLUB = "riverside"


def _client(
    broker: Broker, user: str | None, password: str | None, v5: bool = False
) -> tuple[Any, dict[str, Any]]:
    seen: dict[str, Any] = {"messages": [], "acks": {}, "connected": threading.Event(), "reason": None,
                            "subscribed": {}}
    client = mqtt.Client(
        mqtt.CallbackAPIVersion.VERSION2,
        client_id=f"acl-test-{user}-{v5}",
        protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
    )
    if user is not None:
        client.username_pw_set(user, password)
    # Mosquitto 2.0 closes an MQTT 5 connection after refusing one of its messages: reconnect at
    # once (paho waits 1 s by default), and send again what was not acknowledged.
    client.reconnect_delay_set(min_delay=0.05, max_delay=1)  # type: ignore[arg-type]

    def on_connect(_c: Any, _u: Any, _f: Any, reason: ReasonCode, _p: Any = None) -> None:
        seen["reason"] = reason
        seen["connected"].set()

    client.on_connect = on_connect
    client.on_message = lambda _c, _u, msg: seen["messages"].append(msg.topic)
    client.on_publish = lambda _c, _u, mid, reason, _p=None: seen["acks"].__setitem__(mid, reason)
    client.on_subscribe = lambda _c, _u, mid, reasons, _p=None: seen["subscribed"].__setitem__(mid, reasons)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert seen["connected"].wait(10)
    return client, seen


def _subscribe(client: Any, seen: dict[str, Any], topic: str) -> list[ReasonCode]:
    """Subscribe and wait for the broker's SUBACK: from then on the subscription is in force."""
    _, mid = client.subscribe(topic, qos=1)
    return wait_for(lambda: seen["subscribed"].get(mid), f"the SUBACK for {topic}", timeout=10)


def _close(*clients: Any) -> None:
    """Disconnect first: paho's network thread then ends at once, not at its next 1 s wake-up."""
    for client in clients:
        client.disconnect()
        client.loop_stop()


@pytest.fixture
def broker(tmp_path: Path) -> Any:
    accounts = {"club-server": "pw-server", "table-1": "pw-1", "table-2": "pw-2"}
    with Broker(tmp_path / "broker", accounts) as running:
        yield running


def test_a_table_cannot_publish_under_another_tables_topic(broker: Broker) -> None:
    server, heard = _client(broker, "club-server", "pw-server")
    assert not heard["reason"].is_failure
    assert not any(code.is_failure for code in _subscribe(server, heard, f"tablekeeper/{CLUB}/#"))
    table, sent = _client(broker, "table-1", "pw-1", v5=True)
    try:
        own = table.publish(f"tablekeeper/{CLUB}/table-1/abc-1/1", b'{"seq": 1}', qos=1)
        forged = table.publish(f"tablekeeper/{CLUB}/table-2/abc-1/1", b'{"seq": 1}', qos=1)
        other_club = table.publish("tablekeeper/elsewhere/table-1/abc-1/1", b'{"seq": 1}', qos=1)
        marker = table.publish(f"tablekeeper/{CLUB}/table-1/abc-1/2", b'{"seq": 2}', qos=1)  # sent after them
        wait_for(lambda: len(sent["acks"]) == 4, lambda: f"4 PUBACKs (got {sent['acks']})")
        assert not sent["acks"][own.mid].is_failure and not sent["acks"][marker.mid].is_failure
        assert sent["acks"][forged.mid] == ReasonCode(mqtt.PacketTypes.PUBACK, "Not authorized")
        assert sent["acks"][other_club.mid].is_failure
        wait_for(lambda: f"tablekeeper/{CLUB}/table-1/abc-1/2" in heard["messages"],
                 lambda: f"the marker at the club server (it heard {heard['messages']})")
        # QoS 1 is "at least once": a message sent again after a reconnection may come twice
        assert set(heard["messages"]) == {f"tablekeeper/{CLUB}/table-1/abc-1/{seq}" for seq in (1, 2)}
    finally:
        _close(table, server)


def test_a_table_reads_nothing_and_strangers_are_refused(broker: Broker) -> None:
    table, seen = _client(broker, "table-2", "pw-2")
    _subscribe(table, seen, f"tablekeeper/{CLUB}/#")  # refused or not, it is in place once answered
    other, _ = _client(broker, "table-1", "pw-1")
    # The broker routes a QoS 1 message to its readers before it acknowledges it to the sender ...
    other.publish(f"tablekeeper/{CLUB}/table-1/abc-2/1", b'{"seq": 1}', qos=1).wait_for_publish(5)
    # ... so the reader's own PUBACK, sent to it after that, arrives after anything routed to it
    # (its own message, under the topic it asked to read, is a second chance to see one).
    marker = table.publish(f"tablekeeper/{CLUB}/table-2/abc-2/1", b'{"seq": 1}', qos=1)
    marker.wait_for_publish(5)
    assert marker.is_published()
    assert seen["messages"] == [], "a table's account must not read the club's messages"
    _close(table, other)
    refused, wrong = _client(broker, "table-1", "not-the-password")
    assert wrong["reason"].is_failure
    stranger, nobody = _client(broker, None, None)
    assert nobody["reason"].is_failure
    _close(refused, stranger)


def test_the_docs_show_the_configuration_the_tests_use() -> None:
    guide = (DOCS.parent / "club.md").read_text(encoding="utf-8")
    for name in ("mosquitto.conf", "tablekeeper.acl"):
        for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                assert line in guide, f"docs/club.md must show {name}'s line {line!r}"
