"""``tablekeeper check / words / house`` through the real console script, in a subprocess.

Each test gets its own data and settings directories (TABLEKEEPER_DATA, TABLEKEEPER_CONFIG),
so house words and the lexicon cache never leak between tests or into the user's files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.lexicon import DEFAULT_DICT_DIR

SCRIPT = Path(sys.executable).with_name("tablekeeper")

pytestmark = [
    pytest.mark.skipif(not SCRIPT.exists(), reason=f"the console script is not installed at {SCRIPT}"),
    pytest.mark.skipif(not DEFAULT_DICT_DIR.is_dir(), reason="SCOWL missing: apt install scowl"),
]


class Table:
    """Runs ``tablekeeper`` with a private data directory and settings file."""

    def __init__(self, root: Path) -> None:
        self.data = root / "data"
        self.config = root / "config" / "tablekeeper.toml"
        self.env = {**os.environ, "TABLEKEEPER_DATA": str(self.data), "TABLEKEEPER_CONFIG": str(self.config)}

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(SCRIPT), *args], capture_output=True, text=True, env=self.env, timeout=60, check=False
        )

    def settings(self, text: str) -> None:
        self.config.parent.mkdir(parents=True, exist_ok=True)
        self.config.write_text(text, encoding="utf-8")


@pytest.fixture()
def tk(tmp_path: Path) -> Table:
    return Table(tmp_path)


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr + result.stdout


# -- check ---------------------------------------------------------------------------------


def test_legal_prints_verdict_reason_and_rule(tk: Table) -> None:
    r = tk("check", "tosswords", "trance", "--keys", "C", "T", "--die", "3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "LEGAL",
        "TRANCE is a word and has 3 letters between C and T",
        "Rule: Tosswords, 'Retiring two tiles': \"the number of spaces … shown on the die\"",
    ]


def test_illegal_exits_1(tk: Table) -> None:
    r = tk("check", "upwords", "part-time")
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        "ILLEGAL",
        "PART-TIME needs a hyphen",
        "Rule: Upwords, rule 7B 'Words requiring a hyphen are illegal'",
    ]


def test_two_words_on_the_command_line_are_ruled_as_a_phrase(tk: Table) -> None:
    r = tk("check", "wots", "Sand", "Dollar")
    assert r.returncode == 1 and "SAND DOLLAR is 2 words" in r.stdout
    assert tk("check", "wots", "Sandbox").returncode == 0


def test_json_has_game_word_legal_reason_rule(tk: Table) -> None:
    r = tk("check", "wordspiel", "unite", "--spiral", "FUN", "--json")
    assert r.returncode == 0
    data = json.loads(r.stdout)
    assert data["game"] == "wordspiel" and data["word"] == "UNITE" and data["legal"] is True
    assert data["rule"].startswith("WordSpiel, rule G") and "UN" in data["reason"]
    assert data["dictionary"] == "SCOWL size 70, American and British, with variants"
    assert data["verdict"] == "LEGAL"
    r = tk("check", "wordspiel", "Tue", "--json")
    assert r.returncode == 1 and json.loads(r.stdout)["legal"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "chess", "word"], "unknown game 'chess'"),
        (["check", "upwords", "word", "--die", "3"], "are for tosswords, not upwords"),
        (["check", "option", "word", "--spiral", "FUN"], "--spiral is for wordspiel, not option"),
        (["check", "tosswords", "trance", "--die", "3"], "--die and --extra need --keys"),
        (["check", "tosswords", "trance", "--keys", "C", "T"], "--keys needs --die"),
        (["check", "tosswords", "trance", "--keys", "C", "T", "--die", "13"], "the die shows 0-10"),
        (["check", "tosswords", "trance", "--keys", "C", "TT", "--die", "3"], "must be a single letter"),
        (["check", "wordspiel", "unite", "--spiral", "F1N"], "the spiral must be letters"),
        (["check", "upwords", "mood", "--size", "61"], "SCOWL has no size 61"),
        (["check", "upwords", "mood", "--variant", "klingon"], "unknown spelling variant"),
        (["check", "upwords"], "the following arguments are required"),
        (["check", "upwords", "  "], "no word given"),
    ],
)
def test_bad_usage_exits_2_with_a_message(tk: Table, args: list[str], message: str) -> None:
    r = tk(*args)
    assert r.returncode == 2
    assert message in r.stderr
    assert r.stdout == ""
    no_traceback(r)


def test_settings_choose_the_dictionary_size(tk: Table) -> None:
    tk.settings('[words]\nsize = 35\n')
    r = tk("check", "option", "pigskin")  # a size-50 word
    assert r.returncode == 1
    assert "PIGSKIN is not in the small list (it is in a larger list)" in r.stdout
    assert tk("check", "option", "pigskin", "--size", "60").returncode == 0


def test_settings_choose_the_spelling_and_the_plural_rule(tk: Table) -> None:
    # issue 12: both spellings and "any added S" by default; the settings narrow or relax them
    assert tk("check", "upwords", "colour").returncode == 0
    assert tk("check", "tosswords", "runs").returncode == 1
    tk.settings('[words]\nvariant = "american"\nplurals = "nouns"\n')
    r = tk("check", "upwords", "colour")
    assert r.returncode == 1
    assert "COLOUR is a British spelling; this table plays American spellings" in r.stdout
    assert tk("check", "tosswords", "runs").returncode == 0
    assert tk("check", "tosswords", "runs", "--plurals", "any").returncode == 1
    tk.settings('[words]\nplurals = "some"\n')
    r = tk("check", "tosswords", "runs")
    assert r.returncode == 2 and "any, nouns" in r.stderr
    no_traceback(r)


def test_missing_word_list_says_how_to_install_it(tk: Table, tmp_path: Path) -> None:
    tk.settings(f'[words]\ndict_dir = "{tmp_path / "nowhere"}"\n')
    r = tk("check", "upwords", "mood")
    assert r.returncode == 2
    assert "install the scowl package: sudo apt install scowl" in r.stderr
    no_traceback(r)


def test_damaged_settings_file_still_rules(tk: Table) -> None:
    tk.settings("[words\nsize = ")
    r = tk("check", "upwords", "mood")
    assert r.returncode == 0 and "damaged" in r.stderr


# -- words ---------------------------------------------------------------------------------


def test_words_tosswords_lists_fitting_words(tk: Table) -> None:
    r = tk("words", "tosswords", "--keys", "I", "K", "--die", "2", "--extra", "P", "--limit", "0")
    assert r.returncode == 0, r.stderr
    head, *rest = r.stdout.splitlines()
    assert head.endswith("words have 2 letters between I and K and contain P:")
    assert "PIGSKIN" in " ".join(rest).split()


def test_words_json_and_limit(tk: Table) -> None:
    r = tk("words", "tosswords", "--keys", "C", "T", "--die", "3", "--limit", "3", "--json")
    data = json.loads(r.stdout)
    assert len(data["words"]) == 3 and data["count"] > 100
    assert data["keys"] == ["C", "T"] and data["die"] == 3
    r = tk("words", "wordspiel", "--spiral", "FUN", "--limit", "0", "--json")
    data = json.loads(r.stdout)
    assert {"NO", "UNITE", "FUNNY"} <= set(data["words"]) and data["count"] == len(data["words"])


def test_words_none_fit_exits_1(tk: Table) -> None:
    r = tk("words", "tosswords", "--keys", "Q", "Z", "--die", "0")
    assert r.returncode == 1 and r.stdout.startswith("No word in the dictionary")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["words", "upwords"], "tosswords and wordspiel only"),
        (["words", "tosswords", "--keys", "C", "T"], "needs --keys X Y and --die N"),
        (["words", "wordspiel"], "needs --spiral"),
        (["words", "wordspiel", "--spiral", "FUN", "--die", "2"], "are for tosswords"),
        (["words", "tosswords", "--keys", "C", "T", "--die", "3", "--limit", "-1"], "--limit"),
    ],
)
def test_words_bad_usage(tk: Table, args: list[str], message: str) -> None:
    r = tk(*args)
    assert r.returncode == 2 and message in r.stderr
    no_traceback(r)


# -- house ---------------------------------------------------------------------------------


def test_house_round_trip_changes_rulings(tk: Table) -> None:
    assert tk("check", "upwords", "zyzzyva").returncode == 1
    r = tk("house", "add", "zyzzyva")
    assert r.returncode == 0 and r.stdout.strip() == "ZYZZYVA is now allowed by house rule in all games"
    assert tk("house", "strike", "mood", "--game", "upwords").returncode == 0
    r = tk("check", "upwords", "zyzzyva", "--json")
    data = json.loads(r.stdout)
    assert r.returncode == 0 and data["source"] == "house" and "allowed by house rule" in data["reason"]
    r = tk("check", "upwords", "mood")
    assert r.returncode == 1 and "MOOD is struck by house rule (in upwords)" in r.stdout
    r = tk("house", "list")
    assert r.stdout.splitlines() == ["MOOD     struck   upwords", "ZYZZYVA  allowed  all games"]
    assert json.loads(tk("house", "list", "--json").stdout)[0] == {
        "word": "MOOD", "action": "strike", "game": "upwords",
    }
    r = tk("house", "remove", "zyzzyva", "--game", "option")
    assert r.returncode == 1 and "no house rule for ZYZZYVA in option" in r.stdout
    assert tk("house", "remove", "zyzzyva").returncode == 0
    assert tk("check", "upwords", "zyzzyva").returncode == 1
    assert (tk.data / "house-words.json").exists()


def test_house_damaged_file_is_reported_and_kept(tk: Table) -> None:
    tk.data.mkdir(parents=True)
    bad = tk.data / "house-words.json"
    bad.write_text("{oops", encoding="utf-8")
    for args in (["house", "add", "qi"], ["house", "list"], ["check", "upwords", "mood"]):
        r = tk(*args)
        assert r.returncode == 2 and "is damaged" in r.stderr and str(bad) in r.stderr
        no_traceback(r)
    assert bad.read_text(encoding="utf-8") == "{oops"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["house", "add"], "needs a WORD"),
        (["house", "list", "qi"], "takes no word"),
        (["house", "add", "sand dollar"], "more than one word"),
        (["house", "add", "qi", "--game", "chess"], "unknown game"),
        (["house", "forget", "qi"], "invalid choice"),
    ],
)
def test_house_bad_usage(tk: Table, args: list[str], message: str) -> None:
    r = tk(*args)
    assert r.returncode == 2 and message in r.stderr
    no_traceback(r)
