"""The kiosk's controller without Kivy: real engines, a real SQLite game log, the real word list."""

from __future__ import annotations

from pathlib import Path

import pytest
from plays import DEAR, MOOD, TOSS_MOVES

from games.transcript import replay_lines
from kiosk.gamelog.store import GameLog
from kiosk.play.session import Session

SCOWL = Path("/usr/share/dict/scowl")


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def session(log_path: Path) -> Session:
    return Session(GameLog(log_path), None, now=lambda: 1_800_000_000.0)


def authority():
    if not SCOWL.is_dir():
        pytest.skip("the SCOWL word list (apt package scowl) is not installed")
    from games.words import WordAuthority

    return WordAuthority.load()




def test_an_event_is_in_the_log_before_the_game_shows_it(session: Session, log_path: Path) -> None:
    assert session.new_game("upwords", ["Ann", "Bob"]).ok
    result = session.submit(MOOD)
    assert result.ok and "MOOD" in result.message
    with GameLog(log_path) as other:  # a second connection: what a restart would see
        events = other.events(session.game_id)
    assert [e["word"] for e in events] == ["MOOD"]
    assert events[0]["at"] == "2027-01-15T08:00:00+00:00"
    assert session.game.scores() == {"Ann": 8, "Bob": 0}


def test_an_illegal_event_is_refused_and_nothing_is_written(session: Session, log_path: Path) -> None:
    session.new_game("upwords", ["Ann", "Bob"])
    away = {
        "type": "play",
        "word": "AT",
        "tiles": [{"row": 0, "col": 0, "letter": "A"}, {"row": 0, "col": 1, "letter": "T"}],
    }
    result = session.submit(away)
    assert not result.ok
    assert (
        result.message
        == "The first word must cover at least one of the four centre squares (Upwords, rule 3 'First word')"
    )
    assert session.game.events == []
    with GameLog(log_path) as other:
        assert other.events(session.game_id) == []


def test_a_log_that_cannot_write_refuses_the_turn_and_keeps_the_game(session: Session) -> None:
    session.new_game("upwords", ["Ann", "Bob"])
    session.submit(MOOD)
    session.log.close()  # the real store now raises its own StoreError on every write
    result = session.submit(DEAR)
    assert not result.ok and "closed" in result.message
    assert [e["word"] for e in session.game.events] == ["MOOD"]
    assert session.game.scores() == {"Ann": 8, "Bob": 0}


def test_undo_drops_the_logged_row_then_the_event(session: Session, log_path: Path) -> None:
    session.new_game("upwords", ["Ann", "Bob"])
    session.submit(MOOD)
    session.submit(DEAR)
    result = session.undo()
    assert result.ok and "DEAR" in result.message
    with GameLog(log_path) as other:
        assert [e["word"] for e in other.events(session.game_id)] == ["MOOD"]
    assert session.game.to_move == "Bob"
    session.undo()
    assert not session.undo().ok  # nothing left: a plain refusal, no exception


def test_resume_rebuilds_the_game_in_progress_from_the_log(session: Session, log_path: Path) -> None:
    session.new_game("upwords", ["Ann", "Bob"])
    session.submit(MOOD)
    session.submit(DEAR)
    restarted = Session(GameLog(log_path), None)
    assert restarted.resume()
    assert restarted.game.board.text() == session.game.board.text()
    assert restarted.game.scores() == {"Ann": 8, "Bob": 8}
    assert restarted.game_id == session.game_id


def test_a_finished_game_is_recorded_when_the_table_leaves_it(session: Session) -> None:
    session.new_game("tosswords", ["Kim", "Lee"])
    for tiles, die, word in TOSS_MOVES:
        assert session.submit(
            {"type": "move", "tiles": list(tiles), "keys": list(tiles[:2]), "die": die, "word": word}
        ).ok
        if not session.game.is_over():
            assert session.submit({"type": "timeout"}).ok
    assert session.game.outcome().winners == ("Kim",)
    game_id = session.game_id
    assert session.in_progress() == game_id  # still challengeable on the end screen
    session.close_game()
    assert session.in_progress() is None
    summary = session.log.games(1)[0]
    assert summary.id == game_id and summary.winners == ("Kim",)


def test_the_exported_transcript_replays_to_the_same_scores(session: Session) -> None:
    session.new_game("upwords", ["Ann", "Bob"])
    session.submit(MOOD)
    session.submit(DEAR)
    replayed = replay_lines(session.log.export(session.game_id).splitlines())
    assert replayed.scores() == session.game.scores()


def test_a_challenge_carries_the_authoritys_ruling_into_the_log(log_path: Path) -> None:
    session = Session(GameLog(log_path), authority)
    session.new_game("tosswords", ["Kim", "Lee"])
    session.submit({"type": "move", "tiles": ["C", "T"], "keys": ["C", "T"], "die": 3, "word": "TRANCE"})
    ruling = session.rule()
    assert ruling is not None and ruling.legal and "3 letters between C and T" in ruling.reason
    result = session.challenge(ruling)
    assert result.ok
    event = session.log.events(session.game_id)[-1]
    assert event["type"] == "challenge" and event["ruling"]["legal"] is True
    assert session.game.scores()["Kim"] == 2  # a failed challenge leaves the tiles retired


def test_an_illegal_spelling_sends_the_tiles_back_from_the_first_error(log_path: Path) -> None:
    session = Session(GameLog(log_path), authority)
    session.new_game("word-on-the-street", ["Reds", "Blues"])
    session.submit({"type": "word", "word": "STRENGHTS"})
    ruling = session.rule("spelling")
    assert ruling is not None and not ruling.legal
    result = session.challenge(ruling, kind="spelling", first_error=6)
    assert result.ok
    positions = session.game.positions()
    assert positions["S"] == -1 and positions["H"] == 0  # S before the error stays, H goes back
    assert session.undo().ok and session.game.positions()["H"] == -1


def test_wordspiel_is_ruled_against_the_spiral_before_the_word(log_path: Path) -> None:
    session = Session(GameLog(log_path), authority)
    session.new_game("wordspiel", ["Ann", "Bob"])
    session.submit({"type": "start_round", "flipped": "F"})
    session.submit({"type": "word", "word": "FUN"})
    session.submit({"type": "word", "word": "UNITE"})
    ruling = session.rule()
    assert ruling is not None and ruling.legal, ruling


def test_no_word_list_means_rule_by_hand_with_a_plain_message(log_path: Path) -> None:
    def missing():
        raise FileNotFoundError("no word list in /nowhere")

    session = Session(GameLog(log_path), missing)
    session.new_game("wordspiel", ["Ann", "Bob"])
    session.submit({"type": "start_round", "flipped": "F"})
    session.submit({"type": "word", "word": "FUN"})
    assert session.rule() is None
    assert "rule by hand" in session.authority_problem()
    assert session.problems == ["The word list could not be loaded (No word list in /nowhere): rule by hand."]


def test_a_bad_game_setup_is_refused_in_plain_words(session: Session) -> None:
    result = session.new_game("word-on-the-street", ["Reds", "Blues", "Greens"])
    assert not result.ok and "2" in result.message
    assert session.game is None
    assert not session.new_game("chess", ["A", "B"]).ok


def test_a_new_game_keeps_an_unfinished_one_to_resume(session: Session) -> None:
    session.new_game("upwords", ["Ann", "Bob"])
    session.submit(MOOD)
    first = session.game_id
    assert session.new_game("wordspiel", ["Ann", "Bob"]).ok
    second = session.game_id
    summaries = {g.id: g.status for g in session.log.games(5)}
    assert summaries[first] == "playing"  # still unfinished: nothing is lost to a new game
    assert session.in_progress() == second
    listed = session.unfinished()
    assert [(g.id, g.game) for g, _ in listed] == [(second, "wordspiel"), (first, "upwords")]
    assert listed[1][1] == {"Ann": 8, "Bob": 0}
    session.leave()
    assert session.game is None
    assert session.resume(first) and session.game.scores() == {"Ann": 8, "Bob": 0}
    session.abandon_game(second)
    assert [g.id for g, _ in session.unfinished()] == [first]


def test_the_loaded_word_list_is_offered_only_once_it_has_loaded(log_path: Path) -> None:
    """The camera's street view asks for the words on the screen's thread: it must never wait
    for the word list to load."""
    session = Session(GameLog(log_path), authority)  # a loader, not yet called
    assert session.loaded_authority() is None
    assert session.warm_up()
    loaded = session.loaded_authority()
    assert loaded is not None and loaded is session.word_authority()
