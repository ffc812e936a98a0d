"""``tablekeeper replay`` through the installed console script, in a subprocess, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "tablekeeper"
TRANSCRIPTS = Path(__file__).parent / "transcripts"

pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason=f"the console script {SCRIPT} is not installed")


def tk(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False
    )


def write(tmp_path: Path, *lines: Any, name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(
        "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8"
    )
    return path


def header(game: str, players: list[str], **options: Any) -> dict[str, Any]:
    return {"tablekeeper": "transcript", "version": 1, "game": game, "players": players, "options": options}


def assert_plain_error(result: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    for w in words:
        assert w in result.stderr, result.stderr


# ---------------------------------------------------------------- the table
def test_table_for_the_purple_example() -> None:
    result = tk("replay", "tests/transcripts/wots-purple.jsonl")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Word on the Street: Team A v Team B")
    assert "PURPLE: P, P moved; R captured" in out
    purple_row = next(line for line in out.splitlines() if "PURPLE" in line)
    assert purple_row.split()[:6] == ["9", "Team", "B", "+1", "1", "1"]
    assert "Not finished: Team A to move." in out
    assert "Position: B0 C0 D0 F0 G0 H0 K0 L< M0 N0 P+2 R> S0" in out


@pytest.mark.parametrize("path", sorted(TRANSCRIPTS.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_transcript_replays(path: Path) -> None:
    result = tk("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    recount: dict[str, int] = dict.fromkeys(data["players"], 0)
    for turn in data["turns"]:
        recount[turn["player"]] += turn["points"]
    assert recount == data["scores"]


def test_json_has_game_scores_winner_and_turns() -> None:
    result = tk("replay", "tests/transcripts/tosswords-trance.jsonl", "--json")
    data = json.loads(result.stdout)
    assert data["game"] == "tosswords" and data["scores"] == {"Ann": 2, "Bob": 3}
    assert data["winner"] is None and data["over"] is False and data["to_move"] == "Ann"
    assert [(t["player"], t["points"]) for t in data["turns"]] == [("Ann", 2), ("Bob", 3)]
    assert data["turns"][0]["line"] == 4 and data["turns"][0]["event"] == "move"


def test_a_finished_game_names_its_winner(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        header("wots", ["Reds", "Blues"], tiles_to_win=1),
        {"type": "word", "word": "LULL"},
    )
    data = json.loads(tk("replay", str(path), "--json").stdout)
    assert data["winner"] == "Reds" and data["over"] is True
    table = tk("replay", str(path)).stdout
    assert "Winner: Reds (captured 1 tiles" in table


def test_a_tie_is_a_list_of_names(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        header("wordspiel", ["Ann", "Bob"], rounds=2, hand=2),
        {"type": "start_round", "flipped": "F"},
        {"type": "word", "word": "FUN"},
        {"type": "start_round", "flipped": "S"},
        {"type": "word", "word": "SOD"},
    )
    data = json.loads(tk("replay", str(path), "--json").stdout)
    assert data["winner"] == ["Ann", "Bob"] and data["scores"] == {"Ann": 2, "Bob": 2}
    assert "Draw: Ann and Bob" in tk("replay", str(path)).stdout


def test_standard_input() -> None:
    text = (TRANSCRIPTS / "wordspiel-fun.jsonl").read_text(encoding="utf-8")
    result = tk("replay", "-", "--json", stdin=text)
    assert result.returncode == 0 and json.loads(result.stdout)["state"].startswith(
        "round 1/5 | spiral FUNNY"
    )


# ---------------------------------------------------------------- refusals and bad input
def test_an_illegal_event_stops_the_replay_naming_the_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        header("tosswords", ["Ann", "Bob"]),
        {"type": "move", "tiles": ["C", "T"], "keys": ["C", "T"], "die": 3, "word": "TRANCE"},
        "# Bob's toss shows 2: TRANCE does not fit it",
        {"type": "move", "tiles": ["C", "T"], "keys": ["C", "T"], "die": 2, "word": "TRANCE"},
        {"type": "timeout"},
    )
    result = tk("replay", str(path))
    assert_plain_error(result, 1, "line 4", "does not have 2 letters between C and T")
    assert "TRANCE (keys C–T, die 3)" in result.stdout, "the rows before the error are shown"
    data = json.loads(tk("replay", str(path), "--json").stdout)
    assert data["error"]["line"] == 4 and data["scores"] == {"Ann": 2, "Bob": 0}


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    assert_plain_error(tk("replay", str(tmp_path / "nope.jsonl")), 2, "there is no file")


def test_a_directory_is_a_usage_error(tmp_path: Path) -> None:
    assert_plain_error(tk("replay", str(tmp_path)), 2, "is a directory")


def test_no_file_argument_is_a_usage_error() -> None:
    assert_plain_error(tk("replay"), 2, "FILE")


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        (["{not json"], ["line 1", "not JSON"]),
        ([header("chess", ["A", "B"])], ["line 1", "unknown game 'chess'"]),
        ([header("tosswords", ["A"])], ["line 1", "2 to 2 players"]),
        ([header("tosswords", ["A", "B"], die="d20")], ["die must be one of"]),
        ([{"players": ["A", "B"]}], ["header with a 'game'"]),
        ([header("tosswords", ["A", "B"]), "[1, 2]"], ["line 2", "an event must be an object"]),
        ([header("tosswords", ["A", "B"]), {"type": "fly"}], ["line 2", "no 'fly' event"]),
        (["", "# only a comment"], ["empty"]),
        ([{**header("tosswords", ["A", "B"]), "version": 99}], ["newer"]),
    ],
)
def test_bad_transcripts_get_a_plain_message(tmp_path: Path, lines: list[Any], words: list[str]) -> None:
    assert_plain_error(tk("replay", str(write(tmp_path, *lines))), 1, *words)


def test_binary_file_is_refused_plainly(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\xff\xfe")
    assert_plain_error(tk("replay", str(path)), 2, "not a UTF-8 text file")


def test_the_example_in_the_transcript_docs_replays() -> None:
    doc = (ROOT / "docs" / "transcript.md").read_text(encoding="utf-8")
    example = doc.split("```jsonl\n", 1)[1].split("```", 1)[0]
    result = tk("replay", "-", "--json", stdin=example)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["game"] == "word-on-the-street"


def test_transcript_module_examples_run() -> None:
    import doctest

    import games.transcript as module

    result = doctest.testmod(module)
    assert result.attempted and not result.failed


def test_unicode_line_separators_inside_strings_are_not_line_breaks(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    lines = [
        header("wots", ["Équipe A", "Équipe B"]),
        {"type": "word", "word": "Zeta-Jones", "note": "line\u2028separator and next\x85line"},
    ]
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    result = tk("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["turns"][0]["summary"] == "ZETA-JONES: T, N, S moved"  # Z has no tile
