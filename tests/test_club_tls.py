"""Club night over TLS: a kiosk given the club's CA certificate connects with TLS (on by
default when a CA is given) and publishes; a kiosk trusting another CA is refused and
keeps every event in its log. Real Mosquitto with a TLS listener, certificates made by
openssl for the test.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from mosquitto_kit import Broker, free_port
from waiting import wait_for

from kiosk.club.publish.config import from_section
from kiosk.club.publish.outbox import Outbox
from kiosk.club.publish.publisher import ClubLog, Publisher
from kiosk.club.server.service import ClubServer, ServerConfig
from kiosk.gamelog.store import GameLog
from kiosk.play.session import Session

MOVE = {"type": "move", "tiles": ["C", "T"], "keys": ["C", "T"], "die": 3, "word": "TRANCE"}

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")


def _ca(folder: Path, name: str) -> tuple[Path, Path]:
    key, cert = folder / f"{name}.key", folder / f"{name}.crt"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def _broker_cert(folder: Path, ca: Path, ca_key: Path) -> tuple[Path, Path]:
    key, csr, cert = folder / "broker.key", folder / "broker.csr", folder / "broker.crt"
    ext = folder / "san.ext"
    ext.write_text("subjectAltName = IP:127.0.0.1\n")
    subprocess.run(
        ["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", str(key),
         "-out", str(csr)],
        check=True, capture_output=True,
    )  # fmt: skip
    subprocess.run(
        ["openssl", "x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
         "-days", "2", "-extfile", str(ext), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def _kiosk(folder: Path, name: str, port: int, ca: Path) -> tuple[GameLog, Publisher, Session]:
    config = from_section(
        {"host": "127.0.0.1", "port": port, "club": "riverside", "table": name, "ca": str(ca)}
    )
    assert config is not None and config.tls
    path = folder / f"{name}.sqlite3"
    store = GameLog(path)
    publisher = Publisher(config, Outbox(path, "riverside", name)).start()
    return store, publisher, Session(ClubLog(store, publisher))


def test_a_kiosk_with_the_clubs_ca_publishes_over_tls_and_a_stranger_is_refused(tmp_path: Path) -> None:
    ca, ca_key = _ca(tmp_path, "club-ca")
    other_ca, _ = _ca(tmp_path, "other-ca")
    cert, key = _broker_cert(tmp_path, ca, ca_key)
    broker = Broker(tmp_path / "broker", tls=(ca, cert, key)).start()
    server = ClubServer(
        ServerConfig(club="riverside", db=tmp_path / "club.sqlite3", port=broker.port, ca=str(ca), tls=True,
                     listen=("127.0.0.1", free_port()))
    ).start()  # fmt: skip
    good = _kiosk(tmp_path, "t1", broker.port, ca)
    bad = _kiosk(tmp_path, "t2", broker.port, other_ca)
    try:
        for _store, _publisher, session in (good, bad):
            assert session.new_game("tosswords", ["Ann", "Bob"]).ok
            assert session.submit(MOVE).ok

        def good_game_in() -> bool:
            shown = {t["table"]: t["current"] for t in server.board.snapshot()["tables"]}
            return "t1" in shown and shown["t1"]["events"] == 1

        wait_for(good_game_in, "the good kiosk's move at the club server", timeout=15, every=0.1)
        # the stranger has tried and been refused: it does not trust the broker's certificate
        log = broker.folder / "mosquitto.log"
        wait_for(lambda: "alert unknown ca" in log.read_text(), "the stranger's refused TLS handshake",
                 timeout=15, every=0.1)
        tables = {t["table"]: t["current"] for t in server.board.snapshot()["tables"]}
        assert list(tables) == ["t1"]
        assert tables["t1"]["scores"] == {"Ann": 2, "Bob": 0}
        assert good[1].connected and not bad[1].connected
        assert "event(s) wait in the log" in bad[1].status()
        assert bad[1].outbox.counts()["unacknowledged"] == 2  # kept for when the right CA is set
    finally:
        for store, publisher, _session in (good, bad):
            publisher.close()
            store.close()
        server.close()
        broker.stop()
