"""House words: added and struck words persist in a real file, rule as "house", never get lost."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from games.house_words import HouseEntry, HouseWordsError
from games.lexicon import DEFAULT_DICT_DIR, Lexicon
from games.words import WordAuthority
from kiosk.files.house_file import open_house_words

needs_scowl = pytest.mark.skipif(
    not DEFAULT_DICT_DIR.is_dir(), reason="SCOWL is not installed (sudo apt install scowl)"
)


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    if not DEFAULT_DICT_DIR.is_dir():
        pytest.skip("SCOWL is not installed (sudo apt install scowl)")
    return Lexicon.load(size=60)


@pytest.fixture()
def house_file(tmp_path: Path) -> Path:
    return tmp_path / "data" / "house-words.json"


def authority(lexicon: Lexicon, house_file: Path) -> WordAuthority:
    return WordAuthority(lexicon, open_house_words(house_file))


def test_missing_file_is_an_empty_list(house_file: Path) -> None:
    house = open_house_words(house_file)
    assert house.entries() == [] and len(house) == 0
    assert not house_file.exists()  # reading never creates it


def test_entries_persist_across_a_reload(house_file: Path) -> None:
    house = open_house_words(house_file)
    assert house.add("qi") == HouseEntry("QI", "allow", None)
    house.strike("ok", game="UPWORDS")
    house.add("Zyzzyva", game="wots")
    again = open_house_words(house_file)
    assert again.entries() == [
        HouseEntry("OK", "strike", "upwords"),
        HouseEntry("QI", "allow", None),
        HouseEntry("ZYZZYVA", "allow", "word-on-the-street"),
    ]
    data = json.loads(house_file.read_text(encoding="utf-8"))
    assert data["tablekeeper"] == "house-words" and data["version"] == 1
    assert not [p for p in house_file.parent.iterdir() if p.name.endswith(".tmp")]


def test_remove_drops_exactly_one_scope(house_file: Path) -> None:
    house = open_house_words(house_file)
    house.add("qi")
    house.strike("qi", game="option")
    assert house.remove("QI", game="option").action == "strike"
    with pytest.raises(KeyError, match="no house rule for QI in option"):
        house.remove("qi", game="option")
    assert open_house_words(house_file).entries() == [HouseEntry("QI", "allow", None)]


def test_a_later_change_replaces_the_same_scope(house_file: Path) -> None:
    house = open_house_words(house_file)
    house.add("qi", game="upwords")
    house.strike("QI", game="upwords")
    assert open_house_words(house_file).entries() == [HouseEntry("QI", "strike", "upwords")]


def test_two_writers_do_not_undo_each_other(house_file: Path) -> None:
    kiosk, command_line = open_house_words(house_file), open_house_words(house_file)
    kiosk.add("qi")
    command_line.add("za")  # loaded before the kiosk's change, must not drop it
    assert {e.word for e in open_house_words(house_file).entries()} == {"QI", "ZA"}


@pytest.mark.parametrize(
    ("word", "message"),
    [("", "cannot be empty"), ("sand dollar", "more than one word"), ("r2d2", "other than letters")],
)
def test_bad_words_are_refused_with_a_reason(house_file: Path, word: str, message: str) -> None:
    house = open_house_words(house_file)
    with pytest.raises(HouseWordsError, match=message):
        house.add(word)
    assert not house_file.exists()


def test_unknown_game_is_refused(house_file: Path) -> None:
    with pytest.raises(HouseWordsError, match="unknown game 'chess'"):
        open_house_words(house_file).add("qi", game="chess")


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (b'{"entries": []}', "not a tablekeeper house-words file"),
        (b'{"tablekeeper": "house-words", "version": 9, "entries": []}', "version 9"),
        (b'{"tablekeeper": "house-words", "version": 1, "entries": {}}', "should be a list"),
        (b'{"tablekeeper": "house-words", "version": 1, "entries": [{"word": "QI", "action": "maybe"}]}',
         "entry 1 has action 'maybe'"),
        (b'{"tablekeeper": "house-words", "version": 1, "entries": [{"word": "QI", "action": "allow", '
         b'"game": "chess"}]}', "entry 1: unknown game"),
    ],
)
def test_damaged_file_is_a_clear_error_and_is_kept(house_file: Path, content: bytes, why: str) -> None:
    house_file.parent.mkdir(parents=True)
    house_file.write_bytes(content)
    with pytest.raises(HouseWordsError, match=why) as err:
        open_house_words(house_file)
    assert str(house_file) in str(err.value) and "left untouched" in str(err.value)
    assert house_file.read_bytes() == content


def test_a_change_never_overwrites_a_damaged_file(house_file: Path) -> None:
    house = open_house_words(house_file)
    house.add("qi")
    house_file.write_bytes(b'{"tablekeeper": "house-words", "version": 1, "entries": [')  # cut short
    with pytest.raises(HouseWordsError, match="damaged"):
        house.add("za")
    assert house_file.read_bytes().endswith(b"[")


def test_a_failed_write_leaves_the_old_file(house_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    house = open_house_words(house_file)
    house.add("qi")
    before = house_file.read_bytes()

    def disk_full(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(OSError, match="No space"):
        house.add("za")
    monkeypatch.undo()
    assert house_file.read_bytes() == before
    assert [p.name for p in house_file.parent.iterdir()] == [house_file.name]  # no temp file left


# -- rulings with house words ------------------------------------------------------------------


@needs_scowl
def test_house_allow_and_strike_rule_as_house(lexicon: Lexicon, house_file: Path) -> None:
    house = open_house_words(house_file)
    assert not WordAuthority(lexicon, house).rule("upwords", "qi").legal
    house.add("qi")
    house.strike("mood", game="upwords")
    auth = authority(lexicon, house_file)  # a fresh load: the file is the truth
    r = auth.rule("upwords", "QI")
    assert r.legal and r.source == "house"
    assert r.reason == "QI is allowed by house rule (in all games)"
    r = auth.rule("upwords", "mood")
    assert not r.legal and r.source == "house"
    assert r.reason == "MOOD is struck by house rule (in upwords)"
    assert auth.rule("option", "mood").legal  # struck for Upwords only


@needs_scowl
def test_a_game_entry_beats_an_all_games_entry(lexicon: Lexicon, house_file: Path) -> None:
    house = open_house_words(house_file)
    house.strike("ok")
    house.add("ok", game="wordspiel")
    auth = authority(lexicon, house_file)
    assert auth.rule("wordspiel", "ok").legal
    assert not auth.rule("option", "ok").legal
    assert auth.rule("option", "ok").source == "house"


@needs_scowl
def test_house_words_do_not_lift_the_shape_rules(lexicon: Lexicon, house_file: Path) -> None:
    house = open_house_words(house_file)
    house.add("qi")
    house.add("zebras", game="tosswords")
    auth = authority(lexicon, house_file)
    r = auth.rule("tosswords", "qi")
    assert not r.legal and "3 to 12" in r.reason  # the strip still needs 3 letters
    r = auth.rule("tosswords", "zebras", keys=("Z", "R"), die=2)
    assert r.legal and r.source == "house"
    assert r.reason == "ZEBRAS is allowed by house rule (in tosswords), and has 2 letters between Z and R"
    assert not auth.rule("tosswords", "zebras", keys=("Z", "R"), die=1).legal
    assert not auth.rule("wordspiel", "qi", spiral="FUN").legal


@needs_scowl
def test_house_words_change_the_word_searches(lexicon: Lexicon, house_file: Path) -> None:
    house = open_house_words(house_file)
    auth = WordAuthority(lexicon, house)
    assert "TRANCE" in auth.fitting_tosswords(("C", "T"), 3)
    house.strike("trance", game="tosswords")
    house.add("zebras", game="tosswords")
    assert "TRANCE" not in auth.fitting_tosswords(("C", "T"), 3)
    assert "ZEBRAS" in auth.fitting_tosswords(("Z", "R"), 2)
    house.add("nqzz", game="wordspiel")
    house.strike("unite")
    found = auth.spiral_continuations("FUN")
    assert "NQZZ" in found and "UNITE" not in found


@needs_scowl
def test_authority_load_reports_a_damaged_house_file(house_file: Path) -> None:
    house_file.parent.mkdir(parents=True)
    house_file.write_text("[]", encoding="utf-8")
    with pytest.raises(HouseWordsError, match="not a tablekeeper house-words file"):
        WordAuthority.load(house=open_house_words(house_file))
    assert house_file.read_text(encoding="utf-8") == "[]"
