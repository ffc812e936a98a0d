"""Club night: how many events one club server sustains with 40 tables, and how long an
event takes from a kiosk's log to the standings page.

Why it matters: on club night one machine (a laptop, or a Pi 5) follows every table. It
must keep up with forty tables at once, and a player who looks at the page on a phone
right after a word must see it.

Workload: 40 tables play random legal games of all five games through ``Session`` (the
test generators of ``tests/club_tables.py``), 60 events each, planned into their outboxes
(the messages the kiosks publish). Then:

1. *Server work in one process* (no network): each message archived (SQLite), applied to
   its table's game and the standings rebuilt — alone, and with the whole club page
   rendered after every event (a browser refreshing after each one: the worst case).
   Baseline, same run, same events: the engines alone replaying every table's log.
2. *Through a real Mosquitto* (skipped without it): 40 paho clients publish all messages
   at once to the broker; the club server (``tablekeeper club``, its own process) takes
   them; the clock stops when its page shows every table's last event.
3. *Latency*: one event appended by a kiosk (``Session.submit`` returned, the event is in
   the log) until the club server's page (``/standings.json``, long poll) shows it; idle,
   then with the 40 tables together appending 20 events a second (about 15 times a real
   club's pace). Median and p99.

Pi 5 estimate. The ratio measured here is the server's cost per event over the engines'
replay cost per event, both pure Python on the same events. The Pi 5 figures are this
machine's divided by the slow-down :mod:`bench.pi5` measures in the same run (this machine's
``sysbench cpu --threads=1`` over a published Pi 5 figure for the same command: a CPU-bound
proxy, not a measurement on a Pi). ``PI5_FACTOR=N`` in the environment overrides it, e.g.
with the ratio of ``python -m bench replay`` run on a Pi 5 and here.

Run: ``python -m bench club``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from club_tables import play_events  # noqa: E402
from mosquitto_kit import MOSQUITTO, Broker, free_port  # noqa: E402

from bench import pi5  # noqa: E402
from games.transcript import loads  # noqa: E402
from kiosk.club import wire  # noqa: E402
from kiosk.club.publish.outbox import Message, Outbox  # noqa: E402
from kiosk.club.server import page  # noqa: E402
from kiosk.club.server.archive import Archive  # noqa: E402
from kiosk.club.server.board import Board  # noqa: E402
from kiosk.gamelog.store import GameLog  # noqa: E402
from kiosk.play.session import Session  # noqa: E402

TABLES = 40
EVENTS = 60
SEED = 20261124
SAMPLES = 120
LOAD = 20.0  # events per second across the 40 tables during the loaded latency run
PI5_FACTOR = float(os.environ.get("PI5_FACTOR") or pi5.slowdown() or 3.0)
NAMES = [f"t{n:02d}" for n in range(1, TABLES + 1)]


def _quick(store: GameLog) -> GameLog:
    store._db.execute("PRAGMA synchronous = OFF")  # generating the workload, not measuring it
    return store


def generate(folder: Path) -> dict[str, list[Message]]:
    """Each table's outbox after EVENTS events: the messages its kiosk publishes."""
    out: dict[str, list[Message]] = {}
    for n, name in enumerate(NAMES):
        path = folder / f"{name}.sqlite3"
        store = _quick(GameLog(path))
        box = Outbox(path, "bench", name)  # switched on before the first game: every game is published
        box._conn.execute("PRAGMA synchronous = OFF")
        play_events(Session(store), random.Random(f"{SEED}-{n}"), EVENTS, name)
        box.plan()
        out[name] = box.pending(100_000)
        box.close()
        store.close()
    return out


def interleave(messages: dict[str, list[Message]]) -> list[tuple[str, Message]]:
    """The tables' messages as they would arrive together: round robin across tables."""
    queues = {name: list(ms) for name, ms in messages.items()}
    order: list[tuple[str, Message]] = []
    while any(queues.values()):
        for name, queue in queues.items():
            if queue:
                order.append((name, queue.pop(0)))
    return order


def server_work(order: list[tuple[str, Message]], folder: Path, render: bool) -> float:
    """Seconds for one club server to archive, apply and (optionally) render every message."""
    archive = Archive(folder / f"club-{render}-{time.monotonic_ns()}.sqlite3", "bench")
    board = Board()
    start = time.perf_counter()
    for table, message in order:
        where = wire.parse_topic(message.topic)
        if archive.add(table, where.game, message.seq, message.payload):
            board.ingest(table, where.game, wire.decode(message.payload))
        snapshot = board.snapshot()
        if render:
            page.club_page(snapshot, "bench")
    elapsed = time.perf_counter() - start
    archive.close()
    return elapsed


def replay_work(folder: Path) -> tuple[float, int]:
    """Seconds for the engines alone to replay every table's games; and how many events."""
    transcripts = []
    for name in NAMES:
        with GameLog(folder / f"{name}.sqlite3") as store:
            transcripts += [store.export(g.id) for g in store.games(10_000)]
    start = time.perf_counter()
    events = sum(len(loads(text).events) for text in transcripts)
    return time.perf_counter() - start, events


def _get(url: str, timeout: float = 30.0) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return json.loads(answer.read())


def _server(folder: Path, port: int) -> tuple[subprocess.Popen[str], str]:
    http = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli.main", "club", "--club", "bench", "--port", str(port),
         "--listen", f"127.0.0.1:{http}", "--db", str(folder / f"club-{http}.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )  # fmt: skip
    assert process.stdout is not None and "standings at" in process.stdout.readline()
    return process, f"http://127.0.0.1:{http}"


def through_broker(messages: dict[str, list[Message]], folder: Path, port: int) -> float:
    """Seconds from the first publish until the club page shows every table's last message."""
    import paho.mqtt.client as mqtt

    server, base = _server(folder, port)
    want: dict[str, int] = {}
    for ms in messages.values():
        for m in ms:
            key = wire.parse_topic(m.topic).game
            want[key] = max(want.get(key, 0), m.seq)
    clients = []
    try:
        for name in NAMES:
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-{name}")
            client.max_inflight_messages_set(100)
            client.connect("127.0.0.1", port)
            client.loop_start()
            clients.append((name, client))
        time.sleep(0.5)
        start = time.perf_counter()
        for name, client in clients:
            for m in messages[name]:
                client.publish(m.topic, m.payload, qos=1, retain=True)
        version = 0
        deadline = start + 120
        while time.perf_counter() < deadline:
            snap = _get(f"{base}/standings.json?wait={version}")
            version = snap["version"]
            shown = {g["key"]: g["seq"] for table in snap["tables"] for g in table["games"]}
            if all(shown.get(key) == last for key, last in want.items()):
                return time.perf_counter() - start
        raise RuntimeError("the club server did not show every message within 120 s")
    finally:
        for _name, client in clients:
            client.loop_stop()
            client.disconnect()
        server.terminate()
        server.wait(10)


def latency(folder: Path, port: int, load: float) -> list[float]:
    """Milliseconds from ``Session.submit`` returning to the page showing the event."""
    from kiosk.club.publish.config import ClubConfig
    from kiosk.club.publish.publisher import ClubLog, Publisher

    server, base = _server(folder, port)
    tables = []
    stop = threading.Event()
    try:
        for name in NAMES:
            path = folder / f"live-{load}-{name}.sqlite3"
            store = GameLog(path)
            config = ClubConfig(host="127.0.0.1", port=port, club="bench", table=name)
            publisher = Publisher(config, Outbox(path, "bench", name)).start()
            session = Session(ClubLog(store, publisher))
            assert session.new_game("word-on-the-street", ["Team A", "Team B"], {"tiles_to_win": 17}).ok
            tables.append((name, store, publisher, session))
        lock = threading.Lock()

        def background() -> None:
            rng = random.Random(1)
            while not stop.wait(1.0 / load):
                _name, _store, _pub, session = rng.choice(tables[1:])
                with lock:
                    session.submit({"type": "no_word"})

        if load:
            threading.Thread(target=background, daemon=True).start()
        name, _store, _publisher, session = tables[0]
        samples = []
        time.sleep(1.0)
        for _ in range(SAMPLES):
            with lock:
                assert session.submit({"type": "no_word"}).ok
                t0 = time.perf_counter()
                count = len(session.game.events)
            version = 0
            while True:
                snap = _get(f"{base}/standings.json?table={name}&wait={version}")
                version = snap["version"]
                current = snap["tables"][0]["current"] if snap["tables"] else None
                if current and current["events"] >= count:
                    samples.append((time.perf_counter() - t0) * 1000)
                    break
            time.sleep(0.02)
        return samples
    finally:
        stop.set()
        for _n, store, publisher, _s in tables:
            publisher.close()
            store.close()
        server.terminate()
        server.wait(10)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> None:
    with tempfile.TemporaryDirectory(dir=Path.home()) as tmp:  # a real disk, not a tmpfs
        folder = Path(tmp)
        t0 = time.perf_counter()
        messages = generate(folder)
        order = interleave(messages)
        events = sum(1 for _t, m in order if m.seq > 0)
        print(f"workload: {TABLES} tables, {len(order)} messages ({events} events), "
              f"generated in {time.perf_counter() - t0:.1f} s")  # fmt: skip
        plain = statistics.median(server_work(order, folder, render=False) for _ in range(3))
        rendered = statistics.median(server_work(order, folder, render=True) for _ in range(3))
        base = [replay_work(folder) for _ in range(3)]
        replay_s, replayed = statistics.median(b[0] for b in base), base[0][1]
        per_event = {
            "archive + rebuild + standings": plain / len(order),
            "the same + page render per event": rendered / len(order),
            "baseline: engines replay alone": replay_s / replayed,
        }
        print(f"\n{'server work (one process, medians of 3)':<44}{'us/event':>10}{'events/s':>11}{'ratio':>8}"
              f"{'Pi 5 est. ev/s':>16}")  # fmt: skip
        for label, cost in per_event.items():
            ratio = cost / per_event["baseline: engines replay alone"]
            print(
                f"{label:<44}{cost * 1e6:>10.0f}{1 / cost:>11.0f}{ratio:>7.1f}x{1 / cost / PI5_FACTOR:>16.0f}"
            )
        if MOSQUITTO is None:
            print("\nmosquitto is not installed: the broker and latency figures are skipped")
            return
        runs = []
        for run in range(3):  # a fresh broker each time: no retained messages from the run before
            with Broker(folder / f"broker-{run}") as broker:
                runs.append(through_broker(messages, folder, broker.port))
        seconds = statistics.median(runs)
        with Broker(folder / "broker") as broker:
            print(f"\nthrough Mosquitto, 40 publishers at once: {len(order)} messages in {seconds:.2f} s "
                  f"(median of 3) = {len(order) / seconds:.0f} events/s sustained; "
                  f"Pi 5 estimate {len(order) / seconds / PI5_FACTOR:.0f} events/s")  # fmt: skip
            print(
                f"\n{'latency: kiosk log -> standings page':<44}{'median ms':>10}{'p99 ms':>9}{'samples':>9}"
            )
            for load in (0.0, LOAD):
                samples = latency(folder, broker.port, load)
                label = "idle" if not load else f"40 tables appending {load:.0f} events/s"
                print(f"{label:<44}{statistics.median(samples):>10.1f}{p99(samples):>9.1f}{len(samples):>9}")
        basis = ("set in the environment" if os.environ.get("PI5_FACTOR") else pi5.BASIS
                 if shutil.which("sysbench") else "assumed: install sysbench to measure it")
        print(f"\nPi 5 estimate = this machine / {PI5_FACTOR:.2f} ({basis})")  # fmt: skip


if __name__ == "__main__":
    main()
