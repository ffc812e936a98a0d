"""Upwords rule 5 'Plurals' at the kiosk: the word authority's parts of speech (WordNet)
tell a plural (MOOD + S) from a new word that ends in S (HI + S = HIS, PANT + S = PANTS).

Real engine, real SQLite log, real SCOWL and WordNet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.lexicon import DEFAULT_DICT_DIR
from games.word_sources import DEFAULT_WORDNET_DIR
from games.words import WordAuthority
from kiosk.gamelog.store import GameLog
from kiosk.play.session import Session

pytestmark = pytest.mark.skipif(
    not (DEFAULT_DICT_DIR.is_dir() and DEFAULT_WORDNET_DIR.is_dir()),
    reason="needs scowl and wordnet-base (./dev installs them)",
)


@pytest.fixture(scope="module")
def words() -> WordAuthority:
    return WordAuthority.load()


def _play(word: str, row: int, col: int, makes: str | None = None) -> dict[str, Any]:
    tiles = [{"row": row, "col": col + i, "letter": ch} for i, ch in enumerate(word)]
    return {"type": "play", "word": makes or word, "tiles": tiles}


def _session(tmp_path: Path, authority: object, first: str) -> Session:
    tmp_path.mkdir(exist_ok=True)
    session = Session(GameLog(tmp_path / "games.sqlite3"), authority, now=lambda: 1_800_000_000.0)
    assert session.new_game("upwords", ["Ann", "Bob"]).ok
    result = session.submit(_play(first, 3, 3))
    assert result.ok, result.message
    return session


def test_a_plural_made_with_s_is_refused(tmp_path: Path, words: WordAuthority) -> None:
    session = _session(tmp_path, words, "MOOD")
    result = session.submit(_play("S", 3, 7, "MOODS"))
    assert not result.ok and "MOODS adds only an S to MOOD" in result.message
    assert "rule 5 'Plurals'" in result.message


@pytest.mark.parametrize("first", ["HI", "PANT"])
def test_a_new_word_ending_in_s_is_allowed_and_logged_as_such(
    tmp_path: Path, words: WordAuthority, first: str
) -> None:
    session = _session(tmp_path, words, first)
    result = session.submit(_play("S", 3, 3 + len(first), first + "S"))
    assert result.ok, result.message
    assert result.event is not None and result.event["not_plural"] is True  # in the log: replays agree
    with GameLog(tmp_path / "games.sqlite3") as log:
        assert log.events(session.game_id)[-1]["not_plural"] is True


def test_runs_follows_the_plural_setting(tmp_path: Path, words: WordAuthority) -> None:
    strict = _session(tmp_path / "a", words, "RUN")  # the default: any plural made with S
    assert not strict.submit(_play("S", 3, 6, "RUNS")).ok
    relaxed = _session(tmp_path / "b", WordAuthority(words.lexicon, plurals="nouns"), "RUN")
    assert relaxed.submit(_play("S", 3, 6, "RUNS")).ok  # RUNS is also a verb form


def test_without_the_word_list_the_engine_rule_stands(tmp_path: Path) -> None:
    session = _session(tmp_path, None, "HI")
    assert not session.submit(_play("S", 3, 5, "HIS")).ok  # the players can still overrule it by hand
