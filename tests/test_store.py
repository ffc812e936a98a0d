"""The game log on real SQLite files: the contract the kiosk relies on."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
import storekit

from games.transcript import replay_lines
from kiosk.gamelog.schema import SCHEMA_VERSION
from kiosk.gamelog.store import GameLog, GameSummary, StoreError


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    storekit.register(monkeypatch)
    with GameLog(tmp_path / "data" / "games.sqlite3") as store:
        yield store


def test_a_new_log_is_created_with_its_folder_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "games.sqlite3"
    with GameLog(path) as store:
        assert store.problems == [] and store.integrity() == "ok"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    conn.close()


def test_append_events_and_read_them_back_in_order(log: GameLog) -> None:
    gid = log.start_game(storekit.header())
    assert [log.append(gid, {"type": "add", "n": n}) for n in (3, 1, 4)] == [1, 2, 3]
    assert log.events(gid) == [{"type": "add", "n": 3}, {"type": "add", "n": 1}, {"type": "add", "n": 4}]
    assert log.header(gid) == storekit.header()


def test_each_append_is_committed_before_it_returns(log: GameLog) -> None:
    gid = log.start_game(storekit.header())
    log.append(gid, {"type": "add", "n": 2, "note": "é ✓"})
    # A second, independent connection sees it at once: nothing waits in a transaction.
    other = sqlite3.connect(log.path)
    rows = other.execute("SELECT body FROM events").fetchall()
    assert rows == [('{"type": "add", "n": 2, "note": "é ✓"}',)]
    other.close()
    assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL on the kiosk's connection
    assert not log._db.in_transaction


def test_drop_last_is_undo_and_numbers_continue(log: GameLog) -> None:
    gid = log.start_game(storekit.header())
    assert log.drop_last(gid) is None
    log.append(gid, {"type": "add", "n": 1})
    log.append(gid, {"type": "add", "n": 2})
    assert log.drop_last(gid) == {"type": "add", "n": 2}
    assert log.append(gid, {"type": "add", "n": 5}) == 2
    assert log.events(gid) == [{"type": "add", "n": 1}, {"type": "add", "n": 5}]


def test_rebuild_replays_through_the_engine(log: GameLog) -> None:
    gid = log.start_game(storekit.header(["Ann", "Bob", "Cy"], target=100))
    for n in (5, 7, 2, 9):
        log.append(gid, {"type": "add", "n": n})
    game = log.rebuild(gid)
    assert game.scores() == {"Ann": 14, "Bob": 7, "Cy": 2}
    assert game.to_move == "Bob" and game.events == log.events(gid)


def test_rebuild_names_the_event_the_engine_refuses(log: GameLog) -> None:
    gid = log.start_game(storekit.header())
    log.append(gid, {"type": "add"})
    log.append(gid, {"type": "jump"})
    with pytest.raises(StoreError, match=r"event 2 \(jump\) is refused") as err:
        log.rebuild(gid)
    assert err.value.kind == "replay"


def test_rebuild_of_an_unknown_game_says_so(log: GameLog) -> None:
    gid = log.start_game({"game": "chess", "players": ["A", "B"]})
    with pytest.raises(StoreError, match="unknown game 'chess'"):
        log.rebuild(gid)


def test_export_is_a_transcript_that_replay_reads(log: GameLog) -> None:
    gid = log.start_game(storekit.header(target=6))
    for n in (3, 1, 4):
        log.append(gid, {"type": "add", "n": n, "at": "2026-11-21T23:00:00+00:00"})
    text = log.export(gid)
    lines = text.splitlines()
    assert json.loads(lines[0]) == storekit.header(target=6) and len(lines) == 4
    game = replay_lines(text.splitlines())
    assert game.scores() == {"Ann": 7, "Bob": 1} and game.is_over()


def test_game_in_progress_is_the_newest_open_game(log: GameLog) -> None:
    assert log.game_in_progress() is None
    first = log.start_game(storekit.header())
    second = log.start_game(storekit.header(["Cy", "Di"]))
    assert log.game_in_progress() == second
    log.abandon(second)
    assert log.game_in_progress() == first
    log.finish(first, {"winners": ["Ann"], "termination": "reached the target"})
    assert log.game_in_progress() is None


def test_appending_to_an_abandoned_or_missing_game_is_refused(log: GameLog) -> None:
    gid = log.start_game(storekit.header())
    log.abandon(gid)
    with pytest.raises(StoreError, match="abandoned"):
        log.append(gid, {"type": "add"})
    with pytest.raises(StoreError, match="no game 99") as err:
        log.events(99)
    assert err.value.kind == "no-such-game"
    with pytest.raises(StoreError, match="no game 99") as err:
        log.append(99, {"type": "add"})
    assert err.value.kind == "no-such-game" and not log._db.in_transaction


@pytest.mark.parametrize(
    "event",
    [{"n": 1}, {"type": 3}, "add", {"type": "add", "x": object()}, {"type": "add", "x": float("nan")}],
)
def test_bad_events_are_refused_and_nothing_is_written(log: GameLog, event: object) -> None:
    gid = log.start_game(storekit.header())
    log.append(gid, {"type": "add"})
    with pytest.raises(StoreError) as err:
        log.append(gid, event)  # type: ignore[arg-type]
    assert err.value.kind == "bad-input" and "nothing was saved" in str(err.value)
    assert log.events(gid) == [{"type": "add"}]


def test_bad_headers_are_refused(log: GameLog) -> None:
    for bad in ({"players": ["A"]}, {"game": "counting"}, {"game": "counting", "players": "AB"}):
        with pytest.raises(StoreError, match="header"):
            log.start_game(bad)
    assert log.games() == []


def test_finish_keeps_scores_wins_and_best_turns(log: GameLog) -> None:
    g1 = log.start_game(storekit.header(["Ann", "Bob"], target=10))
    for n in (4, 9, 6):  # Ann 4, Bob 9, Ann 10: Ann wins
        log.append(g1, {"type": "add", "n": n})
    game = log.rebuild(g1)
    log.finish(g1, game.outcome())
    g2 = log.start_game(storekit.header(["Bob", "Cy"], target=5))
    for n in (5,):
        log.append(g2, {"type": "add", "n": n})
    log.finish(g2, {"winners": ["Bob"], "termination": "reached the target"})
    log.start_game(storekit.header(["Ann", "Di"]))  # in progress: not in the stats
    assert log.player_stats() == {
        "Ann": {"games": 1, "wins": 1, "best_turn": 6},
        "Bob": {"games": 2, "wins": 1, "best_turn": 9},
        "Cy": {"games": 1, "wins": 0, "best_turn": None},
    }
    assert log.outcome(g1) == {"winners": ["Ann"], "termination": "reached the target"}


def test_undo_past_the_end_reopens_the_game(log: GameLog) -> None:
    gid = log.start_game(storekit.header(target=3))
    log.append(gid, {"type": "add", "n": 3})
    log.finish(gid, {"winners": ["Ann"], "termination": "reached the target"})
    assert log.game_in_progress() is None and log.player_stats()["Ann"]["wins"] == 1
    log.drop_last(gid)
    assert log.game_in_progress() == gid and log.outcome(gid) is None
    assert log.player_stats() == {}


def test_games_lists_newest_first_with_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    storekit.register(monkeypatch)
    stamps = iter(datetime(2026, 11, 21, 20, m, tzinfo=UTC) for m in range(60))
    with GameLog(tmp_path / "g.sqlite3", clock=lambda: next(stamps)) as log:
        a = log.start_game(storekit.header(["Ann", "Bob"]))
        log.append(a, {"type": "add"})
        log.finish(a, {"winners": ["Ann", "Bob"], "termination": "a tie"})
        b = log.start_game(storekit.header(["Cy", "Di"]))
        c = log.start_game(storekit.header(["Ed", "Flo"]))
        log.abandon(c)
        assert log.games(2) == [
            GameSummary(c, "counting", ("Ed", "Flo"), "2026-11-21T20:03:00+00:00", 0, "abandoned",
                        "2026-11-21T20:04:00+00:00"),
            GameSummary(b, "counting", ("Cy", "Di"), "2026-11-21T20:02:00+00:00", 0, "playing"),
        ]
        done = log.games()[-1]
        assert done.status == "finished" and done.winners == ("Ann", "Bob") and done.events == 1


def test_recent_players_newest_first_without_repeats(log: GameLog) -> None:
    log.start_game(storekit.header(["Ann", "Bob"]))
    log.start_game(storekit.header(["Cy", "Ann"]))
    log.start_game(storekit.header(["Di", "Ed"]))
    assert log.recent_players() == ["Di", "Ed", "Cy", "Ann", "Bob"]
    assert log.recent_players(2) == ["Di", "Ed"]


def test_reopening_resumes_the_game_in_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    storekit.register(monkeypatch)
    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        gid = log.start_game(storekit.header(target=50))
        for n in range(1, 8):
            log.append(gid, {"type": "add", "n": n})
    with GameLog(path) as log:
        assert log.game_in_progress() == gid
        assert log.rebuild(gid).scores() == {"Ann": 16, "Bob": 12}


def test_close_twice_and_use_after_close(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "g.sqlite3")
    log.close()
    log.close()
    with pytest.raises(StoreError, match="closed"):
        log.games()


def test_a_log_from_a_newer_tablekeeper_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    GameLog(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer tablekeeper") as err:
        GameLog(path)
    assert err.value.kind == "newer" and path.exists()


def test_the_log_works_from_another_thread(log: GameLog) -> None:
    import threading

    gid = log.start_game(storekit.header(target=1000))
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for _ in range(20):
                log.append(gid, {"type": "add"})
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(log.events(gid)) == 60


# ------------------------------------------------------------------ with the real engines
TRANSCRIPTS = sorted((Path(__file__).parent / "transcripts").glob("*.jsonl"))


@pytest.mark.skipif(not TRANSCRIPTS, reason="no transcripts in tests/transcripts yet")
@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=lambda p: p.stem)
def test_every_worked_example_round_trips_through_the_log(tmp_path: Path, transcript: Path) -> None:
    """Each rule-sheet example, stored event by event, rebuilds to the same game and exports the same."""
    from games.rulings import IllegalEvent

    text = transcript.read_text(encoding="utf-8")
    lines = [x for x in text.splitlines() if x.strip() and not x.startswith("#")]
    header, *events = (json.loads(x) for x in lines)
    with GameLog(tmp_path / "games.sqlite3") as log:
        gid = log.start_game(header)
        reference = log.rebuild(gid)  # the engine itself decides which events a game accepts
        for event in events:
            try:
                reference.apply(event)
            except IllegalEvent:
                break  # some examples end in a refused event; the kiosk would not store it
            log.append(gid, event)
        game = log.rebuild(gid)
        assert game.events == reference.events and game.scores() == reference.scores()
        assert replay_lines(log.export(gid).splitlines()).scores() == reference.scores()
        if game.is_over():
            log.finish(gid, game.outcome())
            stats = log.player_stats()
            winners = set(game.outcome().winners)
            assert {n for n, s in stats.items() if s["wins"]} == winners
            best: dict[str, int] = {}
            for turn in game.turns:
                if turn.points >= 0:
                    best[turn.player] = max(best.get(turn.player, 0), turn.points)
            assert {n: s["best_turn"] for n, s in stats.items() if n in best} == best


@pytest.mark.skipif(not (Path(__file__).parent / "transcripts" / "upwords-figures.jsonl").exists(),
                    reason="the Upwords figures transcript is not there yet")
def test_a_real_upwords_game_to_the_end_gives_the_statistics(tmp_path: Path) -> None:
    text = (Path(__file__).parent / "transcripts" / "upwords-figures.jsonl").read_text(encoding="utf-8")
    header, *events = (json.loads(x) for x in text.splitlines() if x.strip() and not x.startswith("#"))
    with GameLog(tmp_path / "games.sqlite3") as log:
        gid = log.start_game(header)
        for event in [*events, {"type": "pass"}, {"type": "pass"}]:
            log.append(gid, event)
        game = log.rebuild(gid)
        assert game.is_over()
        log.finish(gid, game.outcome())
        winner = game.outcome().winners[0]
        stats = log.player_stats()
        assert stats[winner]["wins"] == 1 and sum(s["wins"] for s in stats.values()) == 1
        for player in game.players:
            points = [t.points for t in game.turns if t.player == player and t.points >= 0]
            assert stats[player]["best_turn"] == (max(points) if points else None)
        assert log.games()[0].status == "finished" and log.games()[0].winners == (winner,)
        assert log.game_in_progress() is None


def test_a_read_only_copy_shows_the_game_and_refuses_every_write(log: GameLog) -> None:
    """kiosk.gamelog.fallback opens a copy of a log on a read-only or full card this way: the game
    in progress is shown, and nothing new is accepted that a restart would lose."""
    from kiosk.play.session import Session

    game_id = log.start_game(storekit.header())
    log.append(game_id, {"type": "add", "n": 3})
    log.refuse_writes = "Not kept: the data folder is read-only."
    writes = (lambda: log.append(game_id, {"type": "add", "n": 1}), lambda: log.drop_last(game_id),
              lambda: log.start_game(storekit.header()), lambda: log.abandon(game_id))
    for write in writes:
        with pytest.raises(StoreError, match="read-only") as caught:
            write()
        assert caught.value.kind == "unwritable"
    assert log.events(game_id) == [{"type": "add", "n": 3}]
    session = Session(log)
    session.resume()
    assert session.game is not None and len(session.game.events) == 1  # the game is shown
    result = session.submit({"type": "add", "n": 1})
    assert not result.ok and "read-only" in result.message
    assert len(session.game.events) == 1 and log.events(game_id) == [{"type": "add", "n": 3}]
