"""The club server's side without a broker: rebuilding games from messages in any order,
the archive, the read-only page (real HTTP on 127.0.0.1), the settings and the command line.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from club_check import fetch

from games.registry import new_game
from kiosk.cli.main import main as cli_main
from kiosk.club import wire
from kiosk.club.publish.config import ClubConfigError, from_section, keep_private
from kiosk.club.server.archive import Archive, ArchiveError
from kiosk.club.server.board import Board
from kiosk.club.server.web import make_server

HEADER = new_game("word-on-the-street", ["Team A", "Team B"], {"tiles_to_win": 3}).header()
RULING = {"legal": False, "reason": "PURPEL is not spelt right", "rule": "Word on the Street, spelling"}


def _messages(events: list[dict[str, Any]], header: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    text = wire.header_message("t1", "k-1", "2026-11-24T19:00:00+00:00", json.dumps(header or HEADER))
    out = [wire.decode(text)]
    for seq, event in enumerate(events, start=1):
        out.append(wire.decode(wire.event_message(seq, seq, json.dumps(event))))
    return out


def test_messages_in_any_order_and_twice_give_the_game_once() -> None:
    events = [{"type": "word", "word": w} for w in ("PURPLE", "TRICK", "BLOCK", "CHARM")]
    messages = _messages(events)
    shuffled = messages + messages[1:3]
    random.Random(7).shuffle(shuffled)
    board = Board()
    accepted = [board.ingest("t1", "k-1", m) for m in shuffled]
    assert sum(accepted) == len(messages) and board.duplicates == 2
    game = new_game("word-on-the-street", ["Team A", "Team B"], {"tiles_to_win": 3})
    for event in events:
        game.apply(event)
    shown = board.snapshot()["tables"][0]["current"]
    assert shown["scores"] == game.scores() and shown["to_move"] == game.to_move
    assert shown["last_word"] == "CHARM" and shown["seq"] == 4 and shown["waiting_for"] is None


def test_a_gap_waits_and_undo_and_replacement_follow_the_table() -> None:
    board = Board()
    head, first, second = _messages([{"type": "word", "word": "PURPLE"}, {"type": "word", "word": "TRICK"}])
    board.ingest("t1", "k-1", head)
    board.ingest("t1", "k-1", second)
    assert board.snapshot()["tables"][0]["current"]["waiting_for"] == 1
    board.ingest("t1", "k-1", first)
    board.ingest("t1", "k-1", wire.decode(wire.undo_message(3, 1)))
    spelling = {"type": "challenge", "kind": "spelling", "ruling": RULING, "first_error": 3}
    board.ingest("t1", "k-1", wire.decode(wire.event_message(4, 2, json.dumps(spelling))))
    shown = board.snapshot()["tables"][0]["current"]
    assert shown["events"] == 2 and shown["last_word"] == "PURPLE"
    assert shown["ruling"]["verdict"] == "ILLEGAL" and "PURPEL" in shown["ruling"]["reason"]
    board.ingest("t1", "k-1", wire.decode(wire.abandoned_message(5)))
    assert board.snapshot()["tables"][0]["games"][0]["abandoned"]
    assert board.snapshot()["leaderboard"] == []  # an abandoned game counts for nothing


def test_an_event_the_rules_refuse_is_shown_as_a_problem() -> None:
    board = Board()
    for m in _messages([{"type": "word", "word": "PURPLE"}, {"type": "fly"}]):
        board.ingest("t1", "k-1", m)
    shown = board.snapshot()["tables"][0]["current"]
    assert "event 2 is refused" in shown["problem"] and shown["events"] == 1


def test_the_leaderboard_counts_finished_games_wins_and_best_turns() -> None:
    board = Board()
    words = ["PURPLE", "BLOCK", "TRICK", "BRICK", "PLUCK", "CLIMB", "DRINK", "STRONG", "GLOBE"]
    game = new_game("word-on-the-street", ["Team A", "Team B"], {"tiles_to_win": 3})
    events = []
    for word in words * 4:  # Team A plays words, Team B never finds one
        for event in ({"type": "word", "word": word}, {"type": "no_word"}):
            if not game.is_over():
                game.apply(event)
                events.append(event)
    assert game.is_over()
    for m in _messages(events):
        board.ingest("t1", "k-1", m)
    rows = {r["player"]: r for r in board.snapshot()["leaderboard"]}
    (winner,) = game.outcome().winners
    assert rows[winner]["wins"] == 1 and rows[winner]["games"] == 1
    assert sum(r["wins"] for r in rows.values()) == 1
    assert rows[winner]["best_turn"] == max(t.points for t in game.turns if t.player == winner)


def test_the_archive_keeps_each_message_once_and_belongs_to_one_club(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "club.sqlite3", "riverside")
    assert archive.add("t1", "k-1", 0, "{}") and not archive.add("t1", "k-1", 0, "{}")
    archive.close()
    with pytest.raises(ArchiveError, match="belongs to the club 'riverside'"):
        Archive(tmp_path / "club.sqlite3", "hillside")


@pytest.fixture
def page() -> Any:
    board = Board()
    evil = new_game("tosswords", ["<script>alert(1)</script>", "Bob"]).header()
    for m in _messages([], header=evil):
        board.ingest("t1", "k-1", m)
    server = make_server(("127.0.0.1", 0), board, "riverside")
    import threading

    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", board
    server.shutdown()
    server.server_close()


def test_the_page_escapes_what_the_tables_send(page: Any) -> None:
    base, _board = page
    status, body, headers = fetch(f"{base}/table/t1")
    assert status == 200 and b"<script>" not in body and b"&lt;script&gt;" in body
    assert "default-src 'none'" in headers["Content-Security-Policy"]


def test_only_get_and_head_are_answered(page: Any) -> None:
    base, _board = page
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "BREW"):
        status, _body, headers = fetch(f"{base}/", method=method)
        assert (status, headers.get("Allow")) == (405, "GET, HEAD"), method


def test_the_json_long_poll_answers_when_the_standings_change(page: Any) -> None:
    import threading

    base, board = page
    version = board.version
    timer = threading.Timer(0.3, lambda: board.ingest("t2", "k-2", _messages([], header=HEADER)[0]))
    timer.start()
    status, body, _ = fetch(f"{base}/standings.json?wait={version}")
    assert status == 200 and json.loads(body)["version"] > version
    assert [t["table"] for t in json.loads(body)["tables"]] == ["t1", "t2"]


def test_club_settings_are_checked_and_the_password_kept_private(tmp_path: Path) -> None:
    assert from_section({}) is None
    with pytest.raises(ClubConfigError, match="table name"):
        from_section({"host": "club.local", "club": "riverside", "table": "t/1"})
    with pytest.raises(ClubConfigError, match="no certificate"):
        from_section(
            {"host": "club.local", "club": "riverside", "table": "t1", "ca": str(tmp_path / "no.crt")}
        )
    ca = tmp_path / "ca.crt"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    config = from_section(
        {"host": "h", "club": "riverside", "table": "t1", "password": "hunter2", "ca": str(ca)}
    )
    assert config.tls and config.port == 8883 and "hunter2" not in repr(config) + config.describe()
    assert not from_section({"host": "h", "club": "c", "table": "t", "ca": str(ca), "tls": False}).tls
    settings = tmp_path / "tablekeeper.toml"
    settings.write_text('[club]\npassword = "hunter2"\n')
    os.chmod(settings, 0o644)
    note = keep_private(settings)
    assert "owner only" in note and "hunter2" not in note
    assert os.stat(settings).st_mode & 0o777 == 0o600
    assert keep_private(settings) == ""


def test_the_club_command_refuses_a_password_file_others_can_read(tmp_path: Path, capsys: Any) -> None:
    secret = tmp_path / "secret"
    secret.write_text("pw")
    os.chmod(secret, 0o644)
    code = cli_main(
        ["club", "--club", "riverside", "--password-file", str(secret), "--db", str(tmp_path / "c")]
    )
    assert code == 2 and "chmod 600" in capsys.readouterr().err
    assert cli_main(["club", "--club", "river/side"]) == 2
    assert cli_main(["club", "--club", "riverside", "--listen", "nowhere"]) == 2
