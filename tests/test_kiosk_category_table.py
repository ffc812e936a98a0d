"""The kiosk's Word on the Street card tray: draws survive a restart; a damaged file stops nothing."""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.play.categories import load_categories
from kiosk.play.category_table import CategoryTable


def test_the_deck_and_the_card_on_the_table_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "category-deck.json"
    first = CategoryTable(path, "green")
    drawn = [first.draw() for _ in range(3)]
    assert all(card in load_categories("green") for card in drawn)
    again = CategoryTable(path, "green")  # the kiosk restarted mid-turn
    assert again.current == drawn[-1]
    more = [again.draw() for _ in range(5)]
    assert len(set(drawn + more)) == 8  # no repeats across the restart
    again.put_back()
    assert CategoryTable(path, "green").current == ""
    assert json.loads(path.read_text())["green"]["position"] == 8


def test_the_two_decks_keep_their_own_places(tmp_path: Path) -> None:
    path = tmp_path / "category-deck.json"
    green = CategoryTable(path, "green")
    green.draw()
    blue = CategoryTable(path, "blue")
    card = blue.draw()
    assert card in load_categories("blue")
    saved = json.loads(path.read_text())
    assert saved["green"]["position"] == 1 and saved["blue"]["position"] == 1


def test_a_damaged_deck_file_means_a_fresh_shuffle(tmp_path: Path) -> None:
    path = tmp_path / "category-deck.json"
    path.write_text("{not json")
    table = CategoryTable(path, "green")
    assert table.current == ""
    assert table.draw() in load_categories("green")
    assert json.loads(path.read_text())["green"]["position"] == 1


def test_an_unknown_level_falls_back_to_green(tmp_path: Path) -> None:
    assert CategoryTable(tmp_path / "deck.json", "purple").level == "green"
