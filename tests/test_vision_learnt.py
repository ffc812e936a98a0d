"""The reader that learns each board at calibration, on boards it was never tuned on.

Held-out renders come from the renderer's ``held_out`` style family (colours, typefaces, tile
shapes, tables the occupancy model never saw in training); the real game is 22 photos of a
real Scrabble game in ../shared/data (calibrated on its empty board, taught from one photo).

A check that a read is right or asked also holds the reading to a ceiling on doubt, set from
what the reader asked about on that picture when it was measured (:mod:`doubt`): a reader
that asked about every cell would pass the first half alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from doubt import assert_asks_little, assert_right_or_asked, own_doubt

from bench.bench_generalise import confirmed_board, empty_board
from calibration.file import Calibration
from vision.appearance import BoardAppearance, SurroundLight
from vision.hands import UNDER_HAND_FLAG
from vision.learn_board import learn_grid
from vision.letters import LetterClassifier, LetterReader, teach
from vision.occupancy_model import READER_SURE_EMPTY, CellModel, OccupancyModel, default_model
from vision.reading import BoardReading, CellReading
from vision.synthetic.render import Effects, Hand, Pose, UpwordsSpec, render_upwords
from vision.synthetic.scenes import grid_scene, street_scene
from vision.synthetic.style import (
    HELD_OUT_FONTS,
    TRAIN_FONTS,
    BoardStyle,
    font_files,
    random_style,
    with_wider_faces,
)
from vision.synthetic.train import learn_scene, street_reader
from vision.upwords_reader import (
    FARTHER_FACE_FLAG,
    HIDDEN_BELOW_FLAG,
    ONE_LOW_GAP,
    UNSEEN_NEARER_FLAG,
    TileGeometry,
    UpwordsReader,
    plane_height,
)

REAL_GAME = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-scrabble-game"
TABLEKEEPER = Path(sys.executable).with_name("tablekeeper")


def _careful_flags_of_single_reads(monkeypatch) -> list[bool]:
    """Each letter read one cell at a time from now on: whether it was a careful one."""
    asked: list[bool] = []
    read = LetterReader.read

    def counted(self, image, careful=False):
        asked.append(careful)
        return read(self, image, careful)

    monkeypatch.setattr(LetterReader, "read", counted)
    return asked


def _grid_reader(scene, learnt: bool) -> UpwordsReader:
    cal = scene.calibration
    loose = scene.kind == "grid15"
    appearance = learn_grid(cal.image, cal.corners, cal.rows, cal.cols, scene.face_frac, scene.teaching.image,
                            scene.teaching_layout.keys()) if learnt else None
    reader = UpwordsReader(cal.corners, cal.image_size, rows=cal.rows, cols=cal.cols, loose_tiles=loose,
                           geometry=TileGeometry.from_shape(scene.face_frac, scene.thickness_mm,
                                                            1 if loose else 5, cal.cell_mm[0]),
                           appearance=appearance)
    warps = reader.warp_planes(scene.teaching.image, gray=False)
    crops = [reader.face_crop(warps[1], r, c) for r, c in scene.teaching_layout]
    labels = list(scene.teaching_layout.values())
    reader.letters = LetterReader(teach(crops, labels))
    return reader


def _occupancy(reader, scene, asked: int | None = None) -> tuple[int, int]:
    """(cells right, cells) on occupancy over a scene's pictures; with ``asked``, every picture's
    cells are also right or asked, no more of them asked than ``asked`` allows (:mod:`doubt`)."""
    right = total = 0
    for index, frame in enumerate(scene.frames):
        reading = reader.read(frame.image)

        def occupied_right(cell, heights=frame.heights) -> bool:
            return (cell.height > 0) == (heights[cell.row][cell.col] > 0)

        if asked is not None:
            assert_right_or_asked(reading, occupied_right, measured=asked, what=f"picture {index}")
        right += sum(map(occupied_right, reading.cells))
        total += len(reading.cells)
    return right, total


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "seed", "asked"), [("upwords8", 44, 2), ("grid15", 35, 0)])  # grey, red
def test_learnt_reader_reads_held_out_sets_the_fixed_rules_could_not(kind, seed, asked) -> None:
    """A board colour, typeface and tile shape never trained on: the learnt reader is right on
    occupancy and never silently wrong; the old fixed rules, on the same pictures, are not."""
    scene = grid_scene(seed, "held_out", kind, n_frames=2, sequence=True, hand_chance=0.0)
    right, total = _occupancy(_grid_reader(scene, learnt=True), scene, asked)
    assert right / total >= 0.99
    old_right, _ = _occupancy(_grid_reader(scene, learnt=False), scene)
    assert old_right < right


@pytest.mark.slow
def test_learnt_street_reader_on_a_held_out_set() -> None:
    """A grey median strip with its printed letters, another tile colour and typeface."""
    scene = street_scene(41, "held_out", n_frames=3, hand_chance=0.0)
    reader = street_reader(scene, learn_scene(scene))
    wrong = 0
    for index, frame in enumerate(scene.frames):
        reading = reader.read(frame.image)

        def placed(column, positions=frame.positions) -> bool:
            truth = positions[column.letter]
            return column.position == (truth if truth is not None and -2 <= truth <= 2 else None)

        assert_right_or_asked(reading, placed, measured=0, what=f"picture {index}")
        wrong += sum(not placed(column) for column in reading.columns)
    assert wrong <= 1


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "asked"), [(84105, 1), (84111, 3)])
def test_a_serif_letter_the_two_views_disagree_on_is_flagged(seed: int, asked: int) -> None:
    """Held-out serif I's on loose tiles, taught from a blurrier photo, were read as U and L
    with full confidence: the whole-cell view and the tight-glyph view named different letters
    and the surer one won. Views that disagree are a doubt, so every wrong letter is flagged."""
    scene = grid_scene(seed, "held_out", "grid15", n_frames=5, sequence=True)
    reader = _grid_reader(scene, learnt=True)
    letters = 0
    previous = None
    for index, frame in enumerate(scene.frames):
        previous = reading = reader.read(frame.image, previous=previous)
        if frame.hand:
            continue
        tiles = {(cell.row, cell.col) for cell in reading.cells
                 if cell.height and frame.heights[cell.row][cell.col]}
        assert_right_or_asked(reading, lambda c, grid=frame.letters: c.letter == grid[c.row][c.col],
                              at=tiles, measured=asked, what=f"picture {index}")
        letters += len(tiles)
    assert letters > 40


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "family", "hand_at", "cells", "asked"), [
    (67104, "held_out", 2, [(3, 5)], 11), (69107, "held_out", 3, [(4, 7), (5, 7)], 16),
    (63103, "train", 0, [(7, 7)], 13), (63103, "train", 3, [(3, 2)], 13)])
def test_what_a_hand_hid_does_not_become_history(seed, family, hand_at, cells, asked) -> None:
    """Under a hand a cell cannot be read, and a guess there became the next picture's history:
    an O's lost letter, seen again, taken for a new tile (a stack of 2); a stack read as gone,
    then the tile put on it surely a stack of 1. Under the hand the cell keeps its value from
    before, flagged; in the next picture the same letter is the same stack, and a new letter
    means at least one tile more, the picture saying how many (flagged where it is unsure)."""
    scene = grid_scene(seed, family, "upwords8", n_frames=5, sequence=True)
    assert scene.frames[hand_at].hand
    reader = _grid_reader(scene, learnt=True)
    previous = BoardReading("upwords", 8, 8, tuple(CellReading(r, c, None, 0, 1.0, height_from="history")
                                                   for r in range(8) for c in range(8)))  # the game's start
    for index, frame in enumerate(scene.frames):
        previous = reader.read(frame.image, previous=previous)
        assert_asks_little(previous, measured=asked, counted=own_doubt, what=f"picture {index}")
        for r, c in cells:
            cell = previous.cell(r, c)
            if index == hand_at:
                assert "under a hand or arm" in cell.flags and cell.uncertain
            elif index > hand_at and "under a hand or arm" not in cell.flags:
                assert (cell.height, cell.letter) == (frame.heights[r][c], frame.letters[r][c]), index


def test_a_warm_board_square_is_not_a_hand_but_a_hand_is() -> None:
    """Red squares and tan tiles are skin-coloured; the learnt reader knows them from calibration."""
    style = BoardStyle(board=(40, 40, 150), floor=(35, 35, 140), premium=((60, 60, 200),),
                       tile_body=(120, 170, 210), tile_rim=(105, 150, 190), tile_side=(105, 150, 190))
    pose = Pose(tilt_deg=20, yaw_deg=4)
    empty = render_upwords({}, pose=pose, style=style, seed=1, board_seed=9)
    cells = {(3, c): ("MOODS"[c - 2], 1) for c in range(2, 7)}
    teach = render_upwords(cells, pose=pose, style=style, seed=2, board_seed=9)
    appearance = learn_grid(empty.image, empty.corners, 8, 8, 19.5 / 22, teach.image, cells.keys())
    reader = UpwordsReader(empty.corners, empty.image_size, appearance=appearance)
    calm = reader.read(render_upwords(cells, pose=pose, style=style, seed=3, board_seed=9).image)
    assert not any("hand" in " ".join(c.flags) for c in calm.cells)
    assert [(c.row, c.col) for c in calm.cells if c.height] == sorted(cells)
    assert_asks_little(calm, measured=5, what="calm")
    hand = Hand(tip=(520, 380), angle_deg=60, width_px=120)
    busy = reader.read(render_upwords(cells, pose=pose, style=style, seed=3, board_seed=9,
                                      effects=Effects(hand=hand)).image)
    flagged = [c for c in busy.cells if "under a hand or arm" in c.flags]
    assert flagged and all(c.uncertain for c in flagged)
    assert_asks_little(busy, measured=0, counted=own_doubt, what="busy")


def test_tile_thickness_comes_from_the_calibration() -> None:
    """Stacks of a thick-tiled set read at their height with its thickness, one too low without."""
    spec = UpwordsSpec(thickness_mm=6.0)
    pose = Pose(tilt_deg=32, yaw_deg=8)
    cells = {(2, 2): ("A", 3), (5, 5): ("B", 4), (4, 1): ("C", 2)}
    empty = render_upwords({}, spec=spec, pose=pose, seed=4, board_seed=5)
    shot = render_upwords(cells, spec=spec, pose=pose, seed=6, board_seed=5)
    appearance = learn_grid(empty.image, empty.corners, 8, 8, spec.tile_mm / spec.pitch_mm, shot.image, cells)

    def heights(thickness: float) -> list[int]:
        reader = UpwordsReader(shot.corners, shot.image_size, appearance=appearance,
                               geometry=TileGeometry.from_shape(spec.tile_mm / spec.pitch_mm, thickness))
        reading = reader.read(shot.image)
        return [reading.cell(r, c).height for r, c in cells]

    assert heights(6.0) == [h for _, h in cells.values()]
    assert heights(3.6) != [h for _, h in cells.values()]


def test_the_occupancy_model_is_shipped_and_damage_is_plain(tmp_path: Path) -> None:
    model = default_model()
    assert set(model.models) == {"empty", "tile", "prior"} and model.info["family"] == "train"
    bad = tmp_path / "occupancy.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match=r"python -m vision\.synthetic\.train"):
        OccupancyModel.load(bad)
    broken = tmp_path / "board.npz"
    broken.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(ValueError, match="calibrate the board again"):
        BoardAppearance.load(broken)


def test_a_cell_is_asked_within_its_fitted_band_and_sure_outside_it() -> None:
    """The band each model was fitted with lands on the reader's own sure edges, whatever it is."""
    model = default_model().models["empty"]
    p = np.linspace(0.0, 1.0, 2001)
    chance = model.chance(p)
    assert np.all(np.diff(chance) >= 0) and chance[0] == 0.0 and chance[-1] == 1.0
    assert np.allclose(model.chance(np.array([model.sure_empty, 0.5, model.sure_tile])),
                       [READER_SURE_EMPTY, 0.5, 1.0 - READER_SURE_EMPTY])
    sure = (chance <= READER_SURE_EMPTY) | (chance >= 1.0 - READER_SURE_EMPTY)
    assert np.array_equal(sure, (p <= model.sure_empty) | (p >= model.sure_tile))
    # the band is fitted: wider than the reader's own edges, narrower than everything asked
    assert 0.0 < model.sure_empty <= READER_SURE_EMPTY and 1.0 - READER_SURE_EMPTY <= model.sure_tile < 1.0
    # a band at the reader's own edges changes nothing
    plain = CellModel(model.net, READER_SURE_EMPTY, 1.0 - READER_SURE_EMPTY, picture=True)
    assert np.allclose(plain.chance(p), p)


def test_the_models_say_what_they_were_fitted_on() -> None:
    info = default_model().info
    assert info["light_changed"] and info["wrong_costs"] > 1
    for kind in ("empty", "tile", "prior"):
        facts = info["examples"][kind]
        assert facts["cells"] > 1000 and 0 < facts["occupied"] < facts["cells"]
        # out of fold, the band asks most of the cells the network gets wrong, and few are left sure
        oof = facts["out_of_fold"]
        assert oof["wrong_and_sure"] * 2 < oof["wrong_at_half"]
        assert oof["wrong_and_sure"] < 0.01 * facts["cells"]


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    from vision.synthetic.train import train

    counts = {"upwords8": 2, "street": 2}
    first, second = train(3, counts), train(3, counts)
    first.save(tmp_path / "a.json")
    second.save(tmp_path / "b.json")
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()
    assert OccupancyModel.load(tmp_path / "a.json").info["scenes"] == counts


def test_styles_differ_between_families() -> None:
    """The held-out family shares no board colour, typeface or table with the training one."""
    train = [random_style(np.random.default_rng(i), "train") for i in range(40)]
    held = [random_style(np.random.default_rng(i), "held_out") for i in range(40)]
    assert not {s.font for s in train} & {s.font for s in held}
    assert not {s.table for s in train} & {s.table for s in held}


def test_wider_faces_change_the_tiles_only_and_never_to_the_held_out_typefaces() -> None:
    """A fit that weighs a letter reader's confidence draws tiles beyond the train family's
    (typefaces, inks, colours, sizes, thicknesses); the held-out family's typefaces stay unseen,
    and the game is the same game."""
    fonts = {with_wider_faces(np.random.default_rng(i), random_style(np.random.default_rng(i))).font
             for i in range(40)}
    assert len(fonts) >= 5
    assert not fonts & set(font_files(HELD_OUT_FONTS)) and not fonts & set(font_files(TRAIN_FONTS))
    plain, wider = (grid_scene(41, "train", "upwords8", n_frames=2, sequence=True, wider_faces=w)
                    for w in (False, True))
    assert [f.heights for f in plain.frames] == [f.heights for f in wider.frames]
    assert [f.letters for f in plain.frames] == [f.letters for f in wider.frames]
    assert plain.style.font != wider.style.font and plain.style.board == wider.style.board
    shapes = [grid_scene(i, "train", "upwords8", n_frames=0, wider_faces=True) for i in range(12)]
    assert min(s.thickness_mm for s in shapes) < 3.0 and max(s.thickness_mm for s in shapes) > 4.5


# ------------------------------------------------------------------ the real game, as a family would
def _truth(name: str) -> dict:
    return json.loads((REAL_GAME / f"{name}.json").read_text())


def _cli(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, TABLEKEEPER_DATA=str(data), TABLEKEEPER_CONFIG=str(data / "tablekeeper.toml"))
    return subprocess.run([str(TABLEKEEPER), *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture(scope="module")
def real_game_calibration(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Calibrated through the command line: the empty board, then letters taught from one photo."""
    if not (REAL_GAME / "board-00a.json").is_file():
        pytest.skip("../shared/data/real-scrabble-game is not beside the repository")
    data = tmp_path_factory.mktemp("real")
    empty = _truth("board-00a")
    corners = ",".join(f"{v:.1f}" for point in empty["corners"] for v in point)
    done = _cli(data, "calibrate", "board", str(REAL_GAME / "board-00a.jpg"), "--board", "grid",
                "--grid", "15x15", f"--corners={corners}", "--start-position",
                "--out", str(data / "calibration.json"))
    assert done.returncode == 0, done.stderr
    assert "learnt the empty board" in done.stdout
    layout = data / "layout.txt"
    layout.write_text("\n".join(_truth("board-20")["grid"]) + "\n", "utf-8")
    done = _cli(data, "calibrate", "teach", "--from-photo", str(REAL_GAME / "board-20.jpg"), "--layout",
                str(layout), "--accept", "--calibration", str(data / "calibration.json"))
    assert done.returncode == 0, done.stderr
    assert "Ü" in done.stdout and "learnt the tiles' colour" in done.stdout
    return data / "calibration.json"


@pytest.mark.slow
def test_real_game_read_move_by_move_with_history(real_game_calibration: Path) -> None:
    """Every move's new tiles read right (blanks as blanks, ``?``) but the first, on the centre star,
    which may be asked (a tile over a printed square changes its look least), and nothing
    silently wrong."""
    from calibration.file import load_calibration
    from vision.board_look import load_appearance, reader_for

    cal = load_calibration(real_game_calibration)
    letters = LetterReader(LetterClassifier.load(cal.letters_path(real_game_calibration)))
    reader = reader_for(cal, np.array(cal.corners), cal.image_size, letters=letters,
                        appearance=load_appearance(cal, real_game_calibration))
    previous, before = None, ["." * 15] * 15
    new_tiles = new_right = boards_right = 0
    for move in range(0, 20):  # board-20 taught the letters: not read here
        truth = _truth(f"board-{move:02d}")
        reading = reader.read(cv2.imread(str(REAL_GAME / truth["image"])), previous=previous)
        previous = reading

        def as_laid(cell, grid=truth["grid"]) -> bool:
            return ("." if cell.empty else cell.letter) == grid[cell.row][cell.col]

        assert_right_or_asked(reading, as_laid, measured=4, what=f"move {move}")
        board_right = True
        for cell in reading.cells:
            want = truth["grid"][cell.row][cell.col]
            got = "." if cell.empty else cell.letter
            board_right &= got == want
            if want != before[cell.row][cell.col]:
                new_tiles += 1
                new_right += got == want or (move, cell.row, cell.col, cell.uncertain) == (0, 7, 7, True)
        boards_right += board_right
        before = truth["grid"]
    assert new_tiles >= 50 and new_right == new_tiles
    # Issue 14's target, boards read entirely right >= 95 %. Before the taught tile colour was
    # brought to the calibration's light, 12 of 20 were (premium squares taken for blank tiles).
    assert boards_right >= 19, f"{boards_right} of 20 boards read entirely right"


@pytest.mark.parametrize("kind", ["upwords8", "grid15"])
def test_the_tile_colour_is_kept_under_the_calibrations_light(kind: str) -> None:
    """A teaching photo under a warmer, dimmer lamp teaches the same tile colour as one under the
    calibration's light. The 8x8 layout covers every cell (the light is measured on the board's
    surround), the 15x15 one leaves cells free (measured on them)."""
    from vision.appearance import board_looks, tile_colour
    from vision.learn_board import occupied_mask, with_tiles

    scene = grid_scene(3100, "held_out", kind, n_frames=1)
    cal, teach = scene.calibration, scene.teaching
    lamp = np.clip(teach.image.astype(np.float32) * np.float32([0.62, 0.75, 0.9]), 0, 255).astype(np.uint8)
    taught = [learn_grid(cal.image, cal.corners, cal.rows, cal.cols, scene.face_frac, image,
                         scene.teaching_layout.keys()).tile_lab for image in (teach.image, lamp)]
    assert np.linalg.norm(taught[0] - taught[1]) < 3.0, taught
    # as the lamp showed it (what was kept before), the colour moves far more than that
    tiles = occupied_mask(cal.rows, cal.cols, scene.teaching_layout.keys())
    lamp_looks = board_looks(lamp, cal.corners, cal.rows, cal.cols, scene.face_frac)
    as_seen = tile_colour(lamp_looks, tiles)
    assert np.linalg.norm(as_seen - taught[0]) > 10.0
    # the command line's path: a calibration saved earlier keeps only a small copy of its picture
    saved = learn_grid(cal.image, cal.corners, cal.rows, cal.cols, scene.face_frac, teach.image,
                       scene.teaching_layout.keys())
    retaught = with_tiles(saved, lamp_looks, scene.teaching_layout.keys(), lamp, cal.corners)
    assert np.linalg.norm(retaught.tile_lab - taught[0]) < 3.0, retaught.tile_lab


def test_read_grid_prints_the_real_board(real_game_calibration: Path) -> None:
    done = _cli(real_game_calibration.parent, "read", "grid", str(REAL_GAME / "board-12.jpg"),
                "--calibration", str(real_game_calibration), "--json")
    assert done.returncode == 0, done.stderr
    reading = json.loads(done.stdout)
    truth = _truth("board-12")["grid"]
    assert len([c for c in reading["cells"] if not c["uncertain"]]) >= 220
    assert_right_or_asked(reading, lambda cell: (cell["letter"] or ".") == truth[cell["row"]][cell["col"]],
                          measured=5)


def test_a_damaged_board_look_is_a_plain_refusal(real_game_calibration: Path, tmp_path: Path) -> None:
    cal = json.loads(real_game_calibration.read_text())
    (tmp_path / "board.npz").write_bytes(b"garbage")
    cal["letters_file"] = str(real_game_calibration.parent / "letters.npz")
    (tmp_path / "calibration.json").write_text(json.dumps(cal))
    done = _cli(tmp_path, "read", "grid", str(REAL_GAME / "board-05.jpg"), "--calibration",
                str(tmp_path / "calibration.json"))
    assert done.returncode == 2
    assert "calibrate the board again" in done.stderr


def test_old_calibrations_still_load(tmp_path: Path) -> None:
    """A calibration written before the board's look existed reads as before (fixed rules, said so)."""
    cal = Calibration(kind="upwords", rows=8, cols=8, corners=((10, 10), (90, 10), (90, 90), (10, 90)),
                      image_size=(100, 100))
    data = cal.to_dict()
    for key in ("appearance_file", "tile_face", "tile_thickness_mm"):
        data.pop(key)
    assert Calibration.from_dict(data).appearance_file is None


def test_umlauts_are_told_from_their_plain_letters() -> None:
    """A German set taught from one photo: Ä Ö Ü read apart from A O U on loose tiles."""
    letters = list("AOUÄÖÜBE")
    spec = UpwordsSpec(rows=8, cols=8, pitch_mm=19, tile_mm=17, thickness_mm=4)
    pose = Pose(tilt_deg=15, yaw_deg=5)
    style = random_style(np.random.default_rng(3), "train")
    layout = {(r, c): letters[(r * 8 + c) % len(letters)] for r in range(2) for c in range(8)}
    empty = render_upwords({}, spec=spec, pose=pose, style=style, seed=1, board_seed=2)
    teaching = render_upwords({rc: (letter, 1) for rc, letter in layout.items()}, spec=spec, pose=pose,
                           style=style, seed=2, board_seed=2, effects=Effects(noise_sigma=2, jpeg_quality=85))
    appearance = learn_grid(empty.image, empty.corners, 8, 8, 17 / 19, teaching.image, layout)
    reader = UpwordsReader(empty.corners, empty.image_size, loose_tiles=True, appearance=appearance,
                           geometry=TileGeometry.from_shape(17 / 19, 4, 1, 19))
    plane = reader.warp_planes(teaching.image, gray=False)[1]
    crops = [reader.face_crop(plane, *rc) for rc in layout]
    reader.letters = LetterReader(teach(crops, list(layout.values())))
    rng = np.random.default_rng(5)
    wrong = []
    for k in range(3):
        cells = {(int(rng.integers(2, 8)), int(rng.integers(0, 8))): (letters[int(rng.integers(0, 8))], 1)
                 for _ in range(20)}
        shot = render_upwords(cells, spec=spec, pose=pose, style=style, seed=10 + k, board_seed=2,
                              jitter_mm=0.8, effects=Effects(noise_sigma=3, jpeg_quality=80, blur_sigma=0.6))
        reading = reader.read(shot.image)
        wrong += [(want, reading.cell(*rc).letter) for rc, (want, _) in cells.items()
                  if reading.cell(*rc).letter != want]
    assert wrong == []


def test_a_tile_behind_a_taller_stack_is_not_surely_a_stack() -> None:
    """A single tile just behind a stack of 3 (held-out seed 53002): its own face lies on the
    plane the stack hides, and the best visible plane said 2 with full confidence. When a hidden
    plane fits better than any visible one the height is flagged, not guessed."""
    scene = grid_scene(53002, "held_out", "upwords10", n_frames=5, hand_chance=0.0)
    reader = _grid_reader(scene, learnt=True)
    frame = scene.frames[2]
    assert frame.heights[0][3] == 1 and frame.heights[1][3] == 3
    # a height given with a confidence under 0.6 claims nothing
    assert_right_or_asked(reader.read(frame.image), lambda c: c.height == 1 or c.height_confidence < 0.6,
                          at={(0, 3)}, measured=8)


def test_a_tile_lying_well_off_its_cell_is_cut_round_its_letter() -> None:
    """Loose tiles slide: a Z lying a fifth of a cell down and across from its cell's centre
    (held-out seed 77111) was cut round the cell, not its letter, and read as X with full
    confidence. The letter is looked for as far as a tile can lie off its cell."""
    from vision.occupancy import glyph_centre

    window = np.full((38, 38), 200, np.uint8)
    cv2.putText(window, "Z", (18, 31), cv2.FONT_HERSHEY_SIMPLEX, 0.5, 40, 2)  # centre about (23, 25)
    found = glyph_centre(window, letter_px=15.6)
    assert found is not None and abs(found[0] - 23) < 3 and abs(found[1] - 25) < 3, found
    scene = grid_scene(77111, "held_out", "grid15", n_frames=5, sequence=True)
    reader = _grid_reader(scene, learnt=True)
    frame = scene.frames[1]
    assert frame.letters[6][13] == "Z"
    plane = reader.warp_planes(frame.image, gray=False)[1]
    assert reader.letters.read(reader.face_crop(plane, 6, 13)).letter == "Z"


@pytest.mark.slow
def test_a_crossword_tile_keeps_the_letter_it_was_surely_read_with() -> None:
    """Held-out seed 99110: a Q and a T read surely in two pictures, then doubtfully in the next
    (a softer picture: as O and L before the second look at doubted letters, which now reads the
    Q right but still in doubt). A flat tile is never turned into another letter, so the reading
    with history keeps Q and T, and says so surely; the picture alone still doubts them."""
    scene = grid_scene(99110, "held_out", "grid15", n_frames=5, sequence=True)
    reader = _grid_reader(scene, learnt=True)
    previous = None
    for frame in scene.frames[:3]:
        previous = reader.read(frame.image, previous=previous)
    assert previous.cell(1, 7).letter == "Q" and not previous.cell(1, 7).uncertain
    image = scene.frames[3].image
    alone, kept = reader.read(image), reader.read(image, previous=previous)
    for (r, c), truth in (((1, 7), "Q"), ((1, 5), "T")):
        assert scene.frames[3].letters[r][c] == truth
        assert alone.cell(r, c).uncertain  # what history settles
        assert kept.cell(r, c).letter == truth and not kept.cell(r, c).uncertain, kept.cell(r, c)


def test_a_sure_different_letter_on_a_crossword_tile_is_flagged_not_overruled() -> None:
    """History keeps a letter only against a doubtful read: a tile read surely as another letter
    (a swapped tile, or an earlier misread) is shown as the picture reads it, and flagged."""
    scene = grid_scene(99110, "held_out", "grid15", n_frames=2, sequence=True)
    reader = _grid_reader(scene, learnt=True)
    frame = scene.frames[1]
    reading = reader.read(frame.image)
    (r, c) = next((cell.row, cell.col) for cell in reading.cells if cell.height and not cell.uncertain)
    sure = reading.cell(r, c).letter
    other = "Z" if sure != "Z" else "Y"
    cells = tuple(CellReading(x.row, x.col, other if (x.row, x.col) == (r, c) else x.letter, x.height,
                              1.0) for x in reading.cells)
    wrong_history = BoardReading(reading.game, reading.rows, reading.cols, cells)
    cell = reader.read(frame.image, previous=wrong_history).cell(r, c)
    assert cell.letter == sure and cell.uncertain
    assert f"the tile read {other} before, {sure} now" in cell.flags


@pytest.mark.parametrize(("scores", "truth"), [
    ([0.835, 0.765, 0.618, 0.596, 0.594], 2),  # between stacks of 3 and 4 (held-out seed 73005)
    ([0.933, 0.836, 0.782, 0.820, 1.027], 1),  # a neighbour's face on the fifth plane
])
def test_plane_scores_that_once_gave_a_sure_wrong_height_are_not_sure(scores: list, truth: int) -> None:
    """Measured face scores of two cells the planes read wrong with confidence on held-out renders
    of dense boards: a stack of 2 read as 1 (runner-up the plane just above), and a single tile
    read as 5 (the plane below the best scoring under a lower one). Both are now in doubt."""
    height, lead = plane_height(np.array(scores), np.ones(5, bool))
    assert height != truth and lead < 1.0


@pytest.mark.parametrize(("scores", "height", "lead"), [
    ([0.60, 0.75, 0.95, 0.70, 0.55], 3, 0.20 / 0.08),  # the plane just below catches the face on its side
    ([0.95, 0.70, 0.60, 0.55, 0.50], 1, 0.25 / (0.08 * ONE_LOW_GAP)),  # runner-up just above: a wider margin
])
def test_a_clear_plane_is_a_sure_height(scores: list, height: int, lead: float) -> None:
    assert plane_height(np.array(scores), np.ones(5, bool)) == (height, pytest.approx(lead))


def test_a_hidden_plane_that_fits_better_leaves_the_height_in_doubt() -> None:
    scores = np.array([0.70, 0.60, 0.90, 0.50, 0.40])
    assert plane_height(scores, np.array([True, True, False, True, True])) == (1, 0.0)


def test_a_hidden_plane_that_nearly_fits_as_well_leaves_the_height_in_doubt() -> None:
    """Development seed 320301 (a full 8x8): a stack of 2 behind stacks of 4 and 5, its planes 1
    and 2 hidden, read surely as 3 from plane 3's 0.958, though its own hidden plane 2 scored
    0.936. The lead is counted over the hidden planes too; with them all visible it is as before."""
    scores = np.array([0.870, 0.936, 0.958, 0.692, 0.625])
    height, lead = plane_height(scores, np.array([False, False, True, True, True]))
    assert height == 3 and lead < 1.0
    assert plane_height(scores, np.ones(5, bool))[0] == 3
    # hidden planes that fit far worse leave a clear plane sure
    behind = np.array([False, False, True, True, True])
    height, lead = plane_height(np.array([0.40, 0.45, 0.958, 0.69, 0.62]), behind)
    assert height == 3 and lead >= 1.0


@pytest.mark.slow
def test_a_tall_stack_with_a_fairly_sure_letter_on_top_is_not_surely_empty() -> None:
    """Development seed 321301 (a full 10x10): a stack of 5 (E) whose side looks like the empty
    board, its top face 0.30 clear of every other plane with the E read there at 0.82. A raised
    face needed a letter read at 0.9 to count, so the cell was read surely as empty; a face that
    clear now needs only a sure letter (0.6), and the cell is reported as the stack, in doubt."""
    scene = grid_scene(321301, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[1]
    assert (frame.heights[4][0], frame.letters[4][0]) == (5, "E")
    cell = _grid_reader(scene, learnt=True).read(frame.image).cell(4, 0)
    assert cell.uncertain and (cell.letter, cell.height) == ("E", 5)
    assert "the floor looks empty, but a face 5 high shows E" in cell.flags


@pytest.mark.slow
def test_a_farther_tile_seen_on_an_empty_cells_raised_plane_is_no_stack_where_history_has_none() -> None:
    """Held-out seed 153100, picture 5 (a 10x10, Liberation Serif): the O one row behind an empty
    cell showed on that cell's fifth plane, whose floor looked empty. Read as a stack of 5, in
    doubt, it also hid the O behind it. The game's history has the cell empty, and a move adds
    one tile to a cell, so the face is the farther tile's: the floor is believed, and the O is
    read where it stands. Without history the picture alone cannot tell: the stack stays, in
    doubt."""
    scene = grid_scene(153100, "held_out", "upwords10", n_frames=5, sequence=True)
    before, frame = scene.frames[3], scene.frames[4]
    assert (frame.heights[2][4], frame.heights[1][4], frame.letters[1][4]) == (0, 1, "O")
    history = _history_of(before, 10, 10)
    assert history.cell(2, 4).height == 0
    reader = _grid_reader(scene, learnt=True)
    reading = reader.read(frame.image, previous=history)
    empty, behind = reading.cell(2, 4), reading.cell(1, 4)
    assert empty.height == 0 and not empty.uncertain
    assert (behind.letter, behind.height) == ("O", 1) and not behind.uncertain
    alone = reader.read(frame.image).cell(2, 4)
    assert alone.uncertain and alone.height == 5
    # nor can a history that saw the cell only under a hand
    unseen = _history_of(before, 10, 10, under_hand=((2, 4),))
    assert reader.read(frame.image, previous=unseen).cell(2, 4).uncertain


def _history_of(frame, rows: int, cols: int, under_hand: tuple[tuple[int, int], ...] = ()) -> BoardReading:
    """The game's history as a sure reading of ``frame``'s truth; the cells ``under_hand`` as a
    reading made while a hand hid them (kept from before, in doubt)."""
    cells = []
    for r in range(rows):
        for c in range(cols):
            height = frame.heights[r][c]
            letter = frame.letters[r][c] if height else None
            cell = CellReading(r, c, letter, height, 1.0, height_from="history")
            if (r, c) in under_hand:
                cell = replace(cell, confidence=0.5, flags=(UNDER_HAND_FLAG,))
            cells.append(cell)
    return BoardReading("upwords", rows, cols, tuple(cells))


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "before", "now", "cell", "truth", "asked"), [
    (141100, 1, 3, (6, 4), (1, "S"), 1),  # camera nearly overhead: the planes say 2 at 0.0
    (143105, 0, 2, (5, 1), (2, "Qu"), 1),  # a V laid under the hand, a Qu on it: the planes say 2 at 0.39
])
def test_tiles_laid_under_a_hand_are_one_unless_the_picture_says_more(seed, before, now, cell, truth,
                                                                       asked) -> None:
    """In-domain 8x8s: a cell hidden by a hand, empty before it, holds tiles once the hand has
    gone. One move adds one tile, but the hand may have hidden a move, so the picture decides
    above one tile, unless its planes say next to nothing of the height: a single S after a
    hand, read at 2 with confidence 0.0, was kept as a stack of 2 in every picture after."""
    scene = grid_scene(seed, "train", "upwords8", n_frames=5, sequence=True)
    r, c = cell
    assert scene.frames[before].heights[r][c] == 0
    assert (scene.frames[now].heights[r][c], scene.frames[now].letters[r][c]) == truth
    history = _history_of(scene.frames[before], 8, 8, under_hand=(cell,))
    reading = _grid_reader(scene, learnt=True).read(scene.frames[now].image, previous=history)
    read = reading.cell(r, c)
    assert (read.height, read.letter) == truth and read.uncertain
    assert_asks_little(reading, measured=asked)


@pytest.mark.slow
def test_a_letter_is_read_on_the_face_of_the_height_history_settles() -> None:
    """Held-out seed 121107: three new tiles on the board's far edge fitted plane 4 best (unsure),
    history settled them as single tiles, but the letters had been read on plane 4's picture:
    an N came out as Qu with confidence 0.93, silently wrong. The letter is now read again on
    the face of the height history settled."""
    scene = grid_scene(121107, "held_out", "upwords8", n_frames=5, sequence=True)
    reader = _grid_reader(scene, learnt=True)
    previous = BoardReading("upwords", 8, 8, tuple(CellReading(r, c, None, 0, 1.0, height_from="history")
                                                   for r in range(8) for c in range(8)))
    for frame in scene.frames:
        previous = reader.read(frame.image, previous=previous)
    frame = scene.frames[4]
    alone = reader.read(frame.image)  # the picture alone: the N on another plane, none of them sure
    assert alone.cell(0, 3).height != 1 and all(alone.cell(0, c).uncertain for c in (3, 4, 5))
    assert_asks_little(alone, measured=6, what="alone")
    assert_asks_little(previous, measured=0, what="with history")
    for c, truth in ((3, "N"), (4, "H"), (5, "Z")):
        assert frame.letters[0][c] == truth and frame.heights[0][c] == 1 and not frame.hand
        cell = previous.cell(0, c)
        assert (cell.letter, cell.height) == (truth, 1), cell


@pytest.mark.slow
def test_a_tile_whose_letter_still_shows_where_it_was_is_no_new_tile_on_top() -> None:
    """Held-out seed 267105, picture 4 (fresh ``bench generalise --seeds 257000``): a T on a stack
    of 1 in the far row, under a strong change of light, fitted plane 5 best (not surely) and read
    there as Y at 0.30. History took the other letter for a new tile laid on top: a stack of 2.
    On its own plane the T reads surely, so the history's tile is kept, still in doubt."""
    scene = grid_scene(267105, "held_out", "upwords8", n_frames=5, sequence=True)
    before, now = scene.frames[3], scene.frames[4]
    assert (now.letters[0][5], now.heights[0][5]) == ("T", 1) == (before.letters[0][5], before.heights[0][5])
    assert not now.hand
    reading = _grid_reader(scene, learnt=True).read(now.image, previous=confirmed_board(before))
    read = reading.cell(0, 5)
    assert (read.letter, read.height) == ("T", 1), read
    assert read.uncertain
    assert_asks_little(reading, measured=1)


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "asked"), [("upwords8", None), ("grid15", 8)])
def test_a_full_board_is_read_in_one_batch_and_read_right(kind: str, asked: int | None) -> None:
    """Every cell holds a tile (stacks on Upwords): the letters of all of them are read in one
    batch, and every cell is right or flagged; a batch reads the letters as one cell at a time
    would. The 8x8 is seen nearly overhead, where every stack's height is asked: there its
    letters are held to few doubts instead of its cells."""
    scene = grid_scene(3400, "held_out", kind, n_frames=1, hand_chance=0.0, fill=1.0)
    frame = scene.frames[0]
    assert all(h for row in frame.heights for h in row)
    reader = _grid_reader(scene, learnt=True)
    batches: list[int] = []
    read_many = reader.letters.read_many

    def counted(images, careful=False):
        flags = [careful] * len(images) if isinstance(careful, bool) else list(careful)
        batches.append(flags.count(False))  # the tiles' reads (careful ones: raised faces ahead)
        return read_many(images, careful)

    reader.letters.read_many = counted
    reading = reader.read(frame.image)
    # one batch, every tile in it (the cells seen through a slot are checked after, carefully)
    assert [b for b in batches if b] == [reader.rows * reader.cols]

    def read_right(cell) -> bool:
        return cell.height > 0 and cell.letter == frame.letters[cell.row][cell.col]

    if asked is None:
        assert any("nearly overhead" in note for note in reading.notes), reading.notes
        assert all(read_right(cell) or cell.uncertain for cell in reading.cells)
        assert_right_or_asked(reading, lambda cell: cell.letter == frame.letters[cell.row][cell.col],
                              measured=0, asked=lambda cell: cell.letter_confidence < cell.threshold,
                              what="letters")
    else:
        assert_right_or_asked(reading, read_right, measured=asked)
    assert sum(map(read_right, reading.cells)) / len(reading.cells) >= 0.95
    for (_plane, _row, _col, careful), (crop, read) in reader._letters_read.items():
        alone = reader.letters.read(crop, careful=careful)
        assert alone.letter == read.letter
        assert alone.confidence == pytest.approx(read.confidence, abs=1e-3)


def test_the_raised_planes_covers_counted_at_once_are_those_counted_plane_by_plane() -> None:
    """A read asks how much of each raised plane's face nearer stacks hide, for every tile; the
    packed count must give what counting each plane's mask alone gives, stacks of every height
    drawn in front (and cells whose faces leave the picture take the plain way)."""
    scene = grid_scene(3401, "held_out", "upwords10", n_frames=1, hand_chance=0.0)
    reader = _grid_reader(scene, learnt=False)
    rng = np.random.default_rng(5)
    w, h = reader.image_size
    partly_hidden = 0
    for _ in range(6):
        occluder = np.zeros((h, w), np.uint8)
        for _ in range(25):
            r, c = int(rng.integers(0, reader.rows)), int(rng.integers(0, reader.cols))
            cv2.fillConvexPoly(occluder, reader._silhouette(r, c, int(rng.integers(1, 6))), 255)
        for r in range(reader.rows):
            for c in range(reader.cols):
                packed = reader._raised_covers(occluder, r, c)
                alone = [reader._cover(occluder, r, c, k)[0] for k in range(1, 6)]
                assert packed == alone, (r, c)
                partly_hidden += any(0.0 < x < 1.0 for x in alone)
    assert partly_hidden > 50  # the drawn stacks did hide parts of faces


@pytest.mark.slow
def test_a_board_full_of_tiles_under_a_new_light_is_not_read_empty() -> None:
    """Every cell of a 10x10 board holds a tile and the light is much brighter than at
    calibration. Seven tiles looked more like the empty board than like a tile, and the light
    taken from them alone made every tile look empty: 63 of 100 read surely as empty cells.
    The playing area's surround, which tiles never cover, now overrules so few cells."""
    scene = grid_scene(123403, "held_out", "upwords10", n_frames=2, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[1]
    assert all(h for row in frame.heights for h in row)
    reader = _grid_reader(scene, learnt=True)
    reading = reader.read(frame.image)
    assert_right_or_asked(reading, lambda cell: cell.height > 0, measured=76,
                          what="tiles read as empty cells")


@pytest.mark.slow
def test_a_full_board_under_a_colour_cast_is_not_read_empty() -> None:
    """A full 15x15 under a strong colour cast (``bench read_speed --seeds 280000``): 44 tiles looked
    like the empty board, their light differed from the surround's by 0.22 in red, under the 0.4
    that let the surround overrule them then, and 23 tiles were read surely as empty cells."""
    scene = grid_scene(282301, "held_out", "grid15", n_frames=3, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[2]
    assert all(h for row in frame.heights for h in row)
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    assert_right_or_asked(reading, lambda cell: cell.height > 0, measured=5,
                          what="tiles read as empty cells")


@pytest.mark.slow
def test_a_full_board_under_a_cast_the_surround_nearly_agrees_with_is_not_read_empty() -> None:
    """A full 15x15 under a purple cast (fresh ``bench read_speed --seeds 450000``, seed 452302,
    picture 1): 18 of 225 tiles looked like the empty board, and their light differed from the
    surround's by 0.19, just under the 0.2 at which the surround overrules them; 41 tiles were
    read surely as empty cells. So few cells (under a quarter) never outvote the surround."""
    scene = grid_scene(452302, "held_out", "grid15", n_frames=3, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[0]
    assert all(h for row in frame.heights for h in row)
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    assert_right_or_asked(reading, lambda cell: cell.height > 0, measured=3,
                          what="tiles read as empty cells")


@pytest.mark.slow
def test_a_board_whose_tiles_look_empty_in_a_new_light_asks_the_surround() -> None:
    """A half-full 15x15 under a darker, greener light (fresh ``bench read_speed --seeds 520000``,
    seed 522200, picture 1): 71 tiles looked like the empty board, so 177 of 225 cells seemed to
    vouch for the light, which was never checked against the surround's; 65 tiles were read
    surely as empty cells."""
    scene = grid_scene(522200, "held_out", "grid15", n_frames=3, sequence=False, hand_chance=0.0, fill=0.5)
    frame = scene.frames[0]
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    assert_right_or_asked(reading, lambda cell: cell.height > 0 or not frame.letters[cell.row][cell.col],
                          measured=13, what="tiles read as empty cells")


@pytest.mark.slow
def test_half_the_tiles_vouching_for_a_light_a_little_changed_do_not_outvote_the_surround() -> None:
    """A full 10x10 under a purple cast (fresh ``bench read_speed --seeds 840000``, seed 841301,
    picture 2): 50 of 100 tiles looked like the empty board, exactly half, and vouched for a red
    gain of 0.193, just under the 0.2 at which the surround was asked; the surround said -0.08,
    and 40 tiles were read surely as empty cells. Only a light hardly changed is believed without
    the surround."""
    from bench.bench_generalise import grid_readers

    scene = grid_scene(841301, "held_out", "upwords10", n_frames=3, hand_chance=0.0, fill=1.0)
    frame = scene.frames[2]
    assert all(h for row in frame.heights for h in row)
    reading = grid_readers(scene, True).read(frame.image)
    assert_right_or_asked(reading, lambda cell: cell.height > 0, measured=84,
                          what="tiles read as empty cells")


def test_the_surround_overrules_the_light_only_when_few_cells_vouch_for_it() -> None:
    """The light from the cells that still look as at calibration, unless few do and the
    surround disagrees; a board's worth of cells that look as they did is believed over it."""
    from vision.appearance import board_looks
    from vision.arms import surround_light
    from vision.occupancy_model import light_change

    scene = grid_scene(123403, "held_out", "upwords10", n_frames=2, sequence=False, hand_chance=0.0, fill=1.0)
    reader = _grid_reader(scene, learnt=True)
    cal = scene.calibration
    # The empty board itself: every cell vouches for "no change", so a surround saying otherwise
    # is not believed (a hand on the frame, a cup beside the board).
    empty_looks = board_looks(cal.image, cal.corners, cal.rows, cal.cols, scene.face_frac)
    far_off = np.array([0.6, -0.5, 0.6])
    beside_far_off = np.broadcast_to(far_off, (cal.rows, cal.cols, 3))
    assert np.abs(light_change(empty_looks, reader.appearance,
                               lambda: SurroundLight(far_off, beside_far_off)).gains).max() < 0.05
    # The full board under a brighter lamp: seven tiles look more like the empty board than a
    # tile, and their light is far from the surround's; the surround's is taken, everywhere.
    image = scene.frames[1].image
    looks = board_looks(image, cal.corners, cal.rows, cal.cols, scene.face_frac)
    surround = surround_light(image, cal.corners, cal.rows, cal.cols, reader.appearance.scene)
    assert surround is not None
    from_cells = light_change(looks, reader.appearance)
    assert np.abs(np.median(from_cells.gains.reshape(-1, 3), axis=0) - surround.gains).max() > 0.4
    assert np.allclose(light_change(looks, reader.appearance, lambda: surround).gains, surround.gains)


def test_the_cells_light_is_kept_where_the_surround_beside_them_saw_the_same_shadow() -> None:
    """A shadow across the middle of the board: the cells' light varies along it and its median
    is the shadow's, while most of the surround (its ends, and the board's ends along its sides)
    is in the light, so the two medians disagree. The strip of surround beside each border cell
    saw what that cell saw (:func:`vision.appearance.surround_change`), and the cells' light is
    kept. Where the surround beside them saw no such change, its one gain is still taken."""
    from vision.appearance import board_looks
    from vision.arms import surround_light
    from vision.occupancy_model import light_change

    scene = grid_scene(123403, "held_out", "upwords10", n_frames=1, sequence=False, hand_chance=0.0, fill=0.0)
    reader = _grid_reader(scene, learnt=True)
    cal = scene.calibration
    # a band of shadow across the board's middle, soft-edged, half as bright
    x0, x1 = cal.corners[:, 0].min(), cal.corners[:, 0].max()
    xs = (np.arange(cal.image.shape[1]) - x0) / (x1 - x0)
    inside = np.clip(np.minimum(xs - 0.2, 0.8 - xs) / 0.08, 0.0, 1.0)
    shade = (1.0 - 0.5 * inside)[None, :, None]
    image = np.clip(cal.image.astype(np.float32) * shade, 0, 255).astype(np.uint8)
    surround = surround_light(image, cal.corners, cal.rows, cal.cols, reader.appearance.scene)
    assert surround is not None
    assert np.isnan(surround.beside[2:-2, 2:-2]).all()  # only the border cells have a strip
    beside = surround.beside.mean(axis=-1)
    edges = np.concatenate([beside[0], beside[-1], beside[:, 0], beside[:, -1]])
    assert np.nanmin(edges) < -0.5 and np.nanmax(edges) > -0.1  # in the shadow and out of it
    looks = board_looks(image, cal.corners, cal.rows, cal.cols, scene.face_frac)
    from_cells = light_change(looks, reader.appearance)
    assert np.abs(np.median(from_cells.gains.reshape(-1, 3), axis=0) - surround.gains).max() > 0.2
    kept = light_change(looks, reader.appearance, lambda: surround)
    assert np.allclose(kept.gains, from_cells.gains)
    assert kept.gains.mean(axis=-1).min() < -0.5 and np.ptp(kept.gains.mean(axis=-1)) > 0.35  # the band
    unshaded = SurroundLight(surround.gains, np.zeros_like(surround.beside))
    assert np.allclose(light_change(looks, reader.appearance, lambda: unshaded).gains, surround.gains)


@pytest.mark.slow
def test_a_tall_stack_whose_side_looks_like_the_empty_board_is_not_surely_empty() -> None:
    """Seen from the side, a stack of 4 or 5 covers its floor with its own side, and a grey side
    on a pale board looks like the empty board: stacks were read surely as empty cells. A clear
    face with a sure letter on a raised plane now puts such a cell in doubt."""
    scene = grid_scene(123401, "held_out", "upwords10", n_frames=2, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[1]
    reader = _grid_reader(scene, learnt=True)
    reading = reader.read(frame.image)
    tall = [cell for cell in reading.cells if frame.heights[cell.row][cell.col] >= 4]
    assert len(tall) >= 10
    assert_right_or_asked(reading, lambda cell: cell.height > 0, at={(c.row, c.col) for c in tall},
                          measured=22, what="stacks of 4-5 read as empty cells")
    doubted = [cell for cell in tall if any(f.startswith("the floor looks empty") for f in cell.flags)]
    assert doubted and all(cell.uncertain for cell in doubted)
    assert all(cell.height == frame.heights[cell.row][cell.col] for cell in doubted)


def test_clear_lead_is_the_gap_to_every_other_visible_plane() -> None:
    from vision.upwords_reader import _clear_lead

    scores = np.array([0.667, 0.719, 0.624, 0.714, 1.061])
    assert _clear_lead(scores, np.ones(5, bool), 5) == pytest.approx(1.061 - 0.719)
    # a hidden plane does not count against it, and a hidden best plane stands clear of nothing
    assert _clear_lead(scores, np.array([True, False, True, True, True]), 5) == pytest.approx(1.061 - 0.714)
    assert _clear_lead(scores, np.array([True, True, True, True, False]), 5) == 0.0
    assert _clear_lead(scores, np.array([False, False, False, False, True]), 5) == 0.0


@pytest.mark.slow
def test_a_tall_stack_whose_planes_below_are_muddled_is_not_surely_empty() -> None:
    """Development seed 500002: a stack of 5 (Qu) on the far row, its side the colour of the empty
    board, scored far above every other plane on its top face, but its plane 4 fell just short of
    plane 2, so the height was unsure and the floor's "empty" stood: read surely as an empty cell."""
    scene = grid_scene(500002, "held_out", "upwords8", n_frames=3, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[0]
    assert (frame.heights[0][2], frame.letters[0][2]) == (5, "Qu")
    cell = _grid_reader(scene, learnt=True).read(frame.image).cell(0, 2)
    assert cell.uncertain
    assert (cell.letter, cell.height) == ("Qu", 5)
    assert any(flag.startswith("the floor looks empty, but a face 5 high") for flag in cell.flags)


@pytest.mark.slow
def test_a_cell_seen_through_a_slot_behind_a_nearer_stack_needs_a_surer_letter() -> None:
    """Development seed 500002: an empty cell, 45 % of its floor behind a stack of 4 in front of
    it, looked occupied (the stack's face in its floor's look) and was read as a Qu at 0.75, sure
    enough for a cell in the open but not for one seen through a slot."""
    scene = grid_scene(500002, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=0.5)
    frame = scene.frames[0]
    assert frame.heights[5][7] == 0 and frame.heights[6][7] == 4
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    cell = reading.cell(5, 7)
    assert cell.uncertain and "partly hidden behind a nearer stack" in cell.flags
    # the rest of the board: no cell newly in doubt that was read right and sure in the open
    slot = [c for c in reading.cells if "partly hidden behind a nearer stack" in c.flags]
    assert len([c for c in slot if c.height]) <= 3
    # the empty cells whose look was a nearer stack's, with no letter of their own, read empty
    assert all(frame.heights[c.row][c.col] == 0 for c in slot if not c.height)


@pytest.mark.slow
def test_a_letter_seen_through_a_slot_is_checked_by_the_second_look() -> None:
    """Fresh `read_speed --seeds 950000`, held-out seed 951202, picture 2: an empty cell in the far
    row, half its floor behind a stack of 3 in front of it, showed the top of that stack's G cut
    by its crop's edge; the first look read it as a Qu at 1.0, sure enough for a slot, and the
    cell was read surely as a Qu. Checked by the second look, the match lies on the edge of its
    room: in doubt."""
    scene = grid_scene(951202, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=0.5)
    frame = scene.frames[2]
    assert frame.heights[0][3] == 0 and frame.heights[1][3] == 3
    assert_right_or_asked(_grid_reader(scene, learnt=True).read(frame.image), lambda cell: cell.height == 0,
                          at={(0, 3)}, measured=7)


@pytest.mark.slow
def test_empty_cells_behind_nearer_stacks_are_not_taken_for_tiles() -> None:
    """Held-out seed 143106 (a purple board, thick white tiles, 35° of tilt): stacks of 2 and 3
    along the second row stand over the far row's floors in the picture, and those empty cells
    looked occupied, with no letter on them (9 cells in three pictures of a game, flagged). With
    no face of their own to show, the nearer stack's look is not taken for a tile."""
    scene = grid_scene(143106, "held_out", "upwords8", n_frames=5, sequence=True)
    reader = _grid_reader(scene, learnt=True)
    previous = BoardReading("upwords", 8, 8, tuple(CellReading(r, c, None, 0, 1.0, height_from="history")
                                                   for r in range(8) for c in range(8)))
    for frame in scene.frames:
        previous = reader.read(frame.image, previous=previous)
    last = scene.frames[-1]
    assert last.heights[1][3:6] == (2, 3, 3) and not any(last.heights[0])
    assert [previous.cell(0, c).height for c in range(8)] == [0] * 8
    truth = {(r, c): (last.letters[r][c], last.heights[r][c]) for r in range(8) for c in range(8)}
    assert [(c.row, c.col) for c in previous.cells
            if (c.letter, c.height) != truth[(c.row, c.col)] and c.height + truth[(c.row, c.col)][1]] == []


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "fill", "cell", "truth", "asked"), [
    (331302, 1.0, (3, 2), ("E", 5), 14),  # a clear top face, its E read at 0.54: was read surely empty
    (331100, 0.25, (2, 6), (None, 0), 8),  # 38 % behind a stack of 3, whose Qu showed on its plane 5
])
def test_cells_once_read_wrong_and_sure_on_dense_boards_are_right_or_in_doubt(seed, fill, cell, truth, asked):
    """Two cells `bench read_speed --seeds 330000` (fresh then) read wrong and sure, single
    pictures of held-out 10x10 boards: a stack of five read as an empty cell, and an empty cell
    read as a stack of five from the nearer stack's face. Both are now right, or in doubt."""
    scene = grid_scene(seed, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=fill)
    frame = scene.frames[0]
    assert (frame.letters[cell[0]][cell[1]], frame.heights[cell[0]][cell[1]]) == truth
    assert_right_or_asked(_grid_reader(scene, learnt=True).read(frame.image),
                          lambda read: (read.letter, read.height) == truth, at={cell}, measured=asked)


@pytest.mark.slow
def test_a_far_row_stack_whose_side_looks_like_the_empty_board_is_not_surely_empty() -> None:
    """A full held-out 10x10 (seed 401303, picture 2, ``bench read_speed --seeds 400000``): a
    stack of 4 on the far row, its dark side the colour of the empty board, its O face scoring
    only 0.53 on plane 4 (plane 5 0.48), was read surely as an empty cell. Nothing lies beyond
    the far row, so that face can only be the cell's own: its letter is read, and the cell is a
    stack in doubt."""
    scene = grid_scene(401303, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[1]
    assert (frame.letters[0][8], frame.heights[0][8]) == ("O", 4)
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    assert_right_or_asked(reading, lambda read: (read.letter, read.height) == ("O", 4), at={(0, 8)},
                          measured=34)
    assert reading.cell(0, 8).height, reading.cell(0, 8)


def _crossword_cell(seed: int, fill: float, frames: int, at: int, cell: tuple[int, int]
                    ) -> tuple[str, BoardReading]:
    """A held-out crossword scene's cell: its true letter in picture ``at``, and how the learnt
    reader reads that picture."""
    scene = grid_scene(seed, "held_out", "grid15", n_frames=frames, sequence=False, hand_chance=0.0,
                       fill=fill)
    frame = scene.frames[at]
    return frame.letters[cell[0]][cell[1]], _grid_reader(scene, learnt=True).read(frame.image)


@pytest.mark.slow
def test_the_second_look_weighs_the_letter_the_first_look_read() -> None:
    """A half-full held-out 15x15 (seed 462201, picture 3, fresh ``bench read_speed --seeds
    460000``): a soft, narrow O cut by its tile's edge was read O at 0.24 by the whole cell and F
    by the tight view; O was not among the five letters nearest on both views together, so the
    match chose among the others and read Q surely (0.74). Each view's letter is a candidate."""
    truth, reading = _crossword_cell(462201, 0.5, 3, 2, (9, 9))
    assert truth == "O"
    assert_right_or_asked(reading, lambda read: read.letter == "O", at={(9, 9)}, measured=16)


@pytest.mark.slow
def test_a_corner_stack_whose_face_scores_best_one_plane_low_is_not_read_surely() -> None:
    """A held-out 10x10 a quarter full (seed 901101, picture 1, fresh ``bench read_speed --seeds
    900000 --quick``): a stack of 3 in the far corner, its face scoring 1.02 on plane 2 and 0.94
    on plane 3, was read surely as a stack of 2 (0.65). The plane just above the best is how a
    stack read one low looks, and such a lead must be wider (:data:`ONE_LOW_GAP`)."""
    scene = grid_scene(901101, "held_out", "upwords10", n_frames=2, sequence=False, hand_chance=0.0,
                       fill=0.25)
    frame = scene.frames[0]
    assert (frame.letters[0][0], frame.heights[0][0]) == ("U", 3)
    assert_right_or_asked(_grid_reader(scene, learnt=True).read(frame.image),
                          lambda read: (read.letter, read.height) == ("U", 3), at={(0, 0)}, measured=23)


@pytest.mark.slow
def test_a_cell_behind_a_stack_that_cannot_be_seen_is_not_read_surely() -> None:
    """A half-full held-out 10x10 (seed 441203, picture 1, fresh ``bench read_speed --seeds
    440000``): an empty cell in front of a stack of 4 was read, in doubt, as a stack of 5, and
    hid it; so nothing of that stack was counted in front of the empty cell behind it, whose
    floor shows the stack's side and face. It was read surely as a stack of 2 (Qu at 0.97)."""
    scene = grid_scene(441203, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=0.5)
    frame = scene.frames[0]
    assert (frame.heights[2][3], frame.heights[1][3]) == (4, 0)
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    assert reading.cell(2, 3).uncertain  # the stack of 4, hidden
    assert_right_or_asked(reading, lambda behind: behind.height == 0, at={(1, 3)}, measured=19)
    assert UNSEEN_NEARER_FLAG in reading.cell(1, 3).flags


def test_a_farther_tile_seen_over_a_nearer_stack_is_no_stack_of_its_own() -> None:
    """A half-full held-out 10x10 (seed 491202, picture 3, fresh ``bench read_speed --seeds
    490000``): an empty cell, more than half its floor behind a stack of 3, showed the W just
    beyond it on its plane 5, and was read surely as a stack of 5 with a W at 1.0."""
    scene = grid_scene(491202, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=0.5)
    frame = scene.frames[2]
    column = [frame.heights[row][2] for row in (2, 1, 0)]
    assert (column, frame.letters[0][2]) == ([3, 0, 1], "W")
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    assert reading.cell(2, 2).height == 3
    assert_right_or_asked(reading, lambda cell: cell.height == 0, at={(1, 2)}, measured=11)
    assert FARTHER_FACE_FLAG in reading.cell(1, 2).flags


def test_a_tall_stack_whose_face_is_no_farther_tiles_is_not_read_surely_empty() -> None:
    """A full held-out 8x8 (seed 510300, picture 2, fresh ``bench read_speed --seeds 510000``): a
    stack of 4, its side the colour of the empty board, scored 1.20 on plane 4 and 1.12 on plane
    5, so neither plane was sure, and the tile beyond it read otherwise than its I; it was read
    surely as an empty cell."""
    scene = grid_scene(510300, "held_out", "upwords8", n_frames=3, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[1]
    assert (frame.heights[1][4], frame.letters[1][4]) == (4, "I")
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    assert_right_or_asked(reading, lambda cell: cell.height == 4, at={(1, 4)}, measured=20)
    assert reading.cell(1, 4).height > 0, reading.cell(1, 4)


def test_a_tall_stacks_face_in_a_dim_light_is_as_light_as_a_tiles_in_that_light() -> None:
    """A half-full held-out 10x10 (seed 1021201, picture 2, fresh ``bench read_speed --seeds
    1020000``): a stack of 4 with a stack of 3 beyond it, in a light dimmer than calibration's by a
    log gain of 0.31 there. Its shaded side, with that light undone, looked like the empty cell
    (0.07); its S face led the raised planes but scored 0.76 of the tile's grey at calibration,
    under the 0.9 that makes a face a tile's, so the face was not looked at and the cell was read
    surely as empty. In the cell's own light the face scores 1.04: it is read, it is no letter of
    the tile beyond, and the cell is asked, its guess the stack."""
    scene = grid_scene(1021201, "held_out", "upwords10", n_frames=3, hand_chance=0.0, fill=0.5)
    frame = scene.frames[2]
    assert (frame.heights[4][7], frame.letters[4][7]) == (4, "S")
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    cell = reading.cell(4, 7)
    assert cell.uncertain and (cell.height, cell.letter) == (4, "S"), cell
    assert_asks_little(reading, measured=16)


def test_a_stack_whose_plane_below_its_top_is_hidden_is_not_read_surely() -> None:
    """A full held-out 10x10 (seed 511300, picture 2, fresh ``bench read_speed --seeds 510000``):
    a stack of 2 behind a stack of 5 scored 1.14 on its plane 2, 37 % hidden, and 1.30 on plane
    3, which sees the visible part of the same face; it was read surely as a stack of 3."""
    scene = grid_scene(511300, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[1]
    assert (frame.heights[8][5], frame.heights[7][5], frame.letters[7][5]) == (5, 2, "S")
    reading = _grid_reader(scene, learnt=True).read(frame.image)
    assert_right_or_asked(reading, lambda cell: cell.height == 2, at={(7, 5)}, measured=23)
    cell = reading.cell(7, 5)
    assert cell.height == 2 or HIDDEN_BELOW_FLAG in cell.flags


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "kind"), [(340001, "upwords8"), (371000, "upwords10")])
def test_an_empty_board_is_not_read_letter_by_letter_for_faces_with_nothing_beyond(seed, kind, monkeypatch):
    """On an empty board every cell has nothing beyond it, so the rule above could ask a careful
    letter read (one cell at a time) of every cell: an empty 8x8 then took 50-60 ms instead of 19.
    Only faces the planes lean to are read (with the rule heard for every cell: 35-94 of the
    cells of these boards' pictures)."""
    asked = _careful_flags_of_single_reads(monkeypatch)
    scene = grid_scene(seed, "held_out", kind, n_frames=3, sequence=False, hand_chance=0.0, fill=0.0)
    reader = _grid_reader(scene, learnt=True)
    for frame in scene.frames:
        asked.clear()
        reading = reader.read(frame.image)
        assert sum(asked) <= len(reading.cells) / 3
        assert not any(cell.height for cell in reading.cells)


@pytest.mark.slow
def test_a_pale_margin_on_the_raised_planes_is_not_a_tall_stack() -> None:
    """An empty held-out 8x8 on a pale grey board (seed 340001): the raised planes of the far row
    show the board's margin, which the first look read as Qu at 1.0, so five empty cells were
    reported as stacks of 4 in doubt. The letter that alone would make a stack of an empty-looking
    floor is now read carefully, and the margin matches no taught tile."""
    scene = grid_scene(340001, "held_out", "upwords8", n_frames=3, sequence=False, hand_chance=0.0, fill=0.0)
    reader = _grid_reader(scene, learnt=True)
    for frame in scene.frames:
        reading = reader.read(frame.image)
        assert [(c.row, c.col, c.height, c.flags) for c in reading.cells if c.height or c.flags] == []


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "fill", "frames", "at", "cell", "truth", "wrong", "asked"), [
    (732200, 1.0, 2, 1, (11, 2), "F", "E", 11),  # a pale FreeSerif F, its foot binarised into an E
    (352102, 0.25, 3, 2, (3, 13), "E", "F", 6),  # a DejaVu Serif E whose lower arm fell apart
])
def test_a_letter_only_the_strokes_view_is_sure_of_is_checked(seed, fill, frames, at, cell, truth, wrong,
                                                              asked):
    """Faint serif letters on held-out crossword boards that the strokes (tight) view read wrong
    at 1.0 while the whole cell was torn between the two letters (0.20 and 0.12): read wrong and
    sure until the second look checked every read one view alone vouches for."""
    letter, reading = _crossword_cell(seed, fill, frames, at, cell)
    assert letter == truth
    assert reading.cell(*cell).letter in (truth, wrong, None)  # None: too torn to name a letter (flagged)
    assert_right_or_asked(reading, lambda read: read.letter == truth, at={cell}, measured=asked)


@pytest.mark.slow
def test_a_letter_whose_strokes_view_is_unsure_is_checked_for_a_contradiction() -> None:
    """A small, soft FreeSerif D on a full held-out 15x15 (`bench read_speed --seeds 400000`,
    seed 402303): the whole cell said O at 1.0, the faded strokes O at 0.42 with D a near second,
    and the read went unchecked as sure. The match names D, so the read is in doubt."""
    truth, reading = _crossword_cell(402303, 1.0, 3, 2, (5, 6))
    assert truth == "D"
    assert_right_or_asked(reading, lambda read: read.letter == "D", at={(5, 6)}, measured=7)


@pytest.mark.slow
def test_a_letter_both_views_are_not_sure_of_is_checked() -> None:
    """A DejaVu Serif Bold Q on a half-full held-out 15x15 (`bench read_speed --seeds 560000`,
    seed 562203): binarised in two pieces, its tail touching the cut, so the strokes view kept
    the left arc alone and read C at 1.0, and the whole cell C at 0.77 with Q third. It was read C
    and sure, unchecked. Now the second look checks it, among each view's own nearest letters,
    and finds a Q: the read is in doubt (or right)."""
    truth, reading = _crossword_cell(562203, 0.5, 3, 0, (4, 13))
    assert truth == "Q"
    assert_right_or_asked(reading, lambda read: read.letter == "Q", at={(4, 13)}, measured=13)


@pytest.mark.slow
def test_a_doubted_letter_is_overruled_surely_only_by_a_clearly_surer_match() -> None:
    """A serif I beside a tile's edge on a full held-out 15x15 (fresh `bench read_speed --seeds
    790000`, seed 792301, picture 1): the first look said I at 0.49, the second look matched an L
    at 0.64, and the L was read surely wrong. The match overrules a doubted first look surely only
    when it is 0.2 surer than that look was; here the two looks disagree, and the cell is asked."""
    from bench.bench_generalise import grid_readers

    scene = grid_scene(792301, "held_out", "grid15", n_frames=3, hand_chance=0.0, fill=1.0)
    frame = scene.frames[1]
    assert frame.letters[7][1] == "I"
    reading = grid_readers(scene, True).read(frame.image)  # taught as the bench teaches
    assert_right_or_asked(reading, lambda read: read.letter == "I", at={(7, 1)}, measured=26)


@pytest.mark.slow
def test_a_match_that_cannot_tell_the_letter_from_the_next_checks_nothing() -> None:
    """A soft serif E with a faint bottom arm on a half-full held-out 15x15 (fresh `bench
    read_speed --seeds 810000`, seed 812201, picture 2): the first look read F at 0.83, the second
    look matched F at 0.02 (E a hair behind), and the F was sure. A match that close checked
    nothing: the cell is asked. So are two more such E's matched F at 0.14 and 0.22 (fresh
    ``read_speed --seeds 860000``, seed 862203, pictures 1 and 2)."""
    from bench.bench_generalise import grid_readers

    scene = grid_scene(812201, "held_out", "grid15", n_frames=3, hand_chance=0.0, fill=0.5)
    frame = scene.frames[2]
    assert frame.letters[2][5] == "E"
    assert_right_or_asked(grid_readers(scene, True).read(frame.image), lambda read: read.letter == "E",
                          at={(2, 5)}, measured=6, what="seed 812201")
    scene = grid_scene(862203, "held_out", "grid15", n_frames=3, hand_chance=0.0, fill=0.5)
    reader = grid_readers(scene, True)
    for picture, (r, c), asked in ((1, (4, 3), 7), (2, (0, 12), 8)):
        frame = scene.frames[picture]
        assert frame.letters[r][c] == "E"
        assert_right_or_asked(reader.read(frame.image), lambda read: read.letter == "E", at={(r, c)},
                              measured=asked, what=f"seed 862203, picture {picture}")


@pytest.mark.slow
@pytest.mark.parametrize(("at", "cell", "asked"), [(0, (9, 8), 89), (1, (7, 9), 86)])
def test_a_height_where_the_planes_lie_close_is_never_sure(at: int, cell: tuple, asked: int) -> None:
    """Held-out seed 401300 (`bench read_speed --seeds 400000`), a full 10x10 whose stacks' tops
    move 2.4 px a tile in the warped board: two stacks of 3 were read surely as 4 (0.62), their
    fourth planes scoring clear of the rest. Below 2.6 px a single picture's height is in doubt."""
    scene = grid_scene(401300, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=1.0)
    frame = scene.frames[at]
    r, c = cell
    assert frame.heights[r][c] == 3
    reader = _grid_reader(scene, learnt=True)
    assert reader.layer_shift_px[r, c] < 2.6
    reading = reader.read(frame.image)
    assert_right_or_asked(reading, lambda read: read.height == 3, at={cell}, measured=asked)
    read = reading.cell(r, c)
    assert read.height == 3 or read.height_confidence < 0.6, read  # asked, and for its height


@pytest.mark.slow
def test_a_frame_of_the_tiles_colour_is_not_an_arm_when_tiles_touch_it() -> None:
    """White tiles on a board whose frame is light grey (held-out seed 381203, `bench read_speed
    --seeds 380000`): frame and touching tiles were one thick tile-coloured patch, taken for a
    pale arm across the frame, and most of a half-full 10x10 was flagged as under a hand in every
    picture (the kiosk would wait for ever). Only what has changed since calibration can be an
    arm; the frame has not."""
    scene = grid_scene(381203, "held_out", "upwords10", n_frames=3, sequence=False, hand_chance=0.0, fill=0.5)
    reader = _grid_reader(scene, learnt=True)
    for frame in scene.frames:
        reading = reader.read(frame.image)
        assert [(c.row, c.col) for c in reading.cells if "under a hand or arm" in c.flags] == []


@pytest.mark.slow
def test_raised_faces_over_empty_looking_floors_are_read_with_the_batch_the_same(monkeypatch) -> None:
    """A tall stack's face over a floor that looks empty is read carefully (its letter alone makes
    the stack). Read one cell at a time, each cost a full 8x8 about 2.5 ms, so the reader guesses
    which of them it will read and reads those with the board's batch. The guess may only save
    time: the readings are the same as when every such face is read on its own, and here (a
    half-full development 8x8 with such faces) none is left to be read alone."""
    scene = grid_scene(380201, "held_out", "upwords8", n_frames=3, hand_chance=0.0, fill=0.5)
    careful_alone = _careful_flags_of_single_reads(monkeypatch)
    reader = _grid_reader(scene, learnt=True)
    ahead = [reader.read(frame.image) for frame in scene.frames]
    assert sum(careful_alone) == 0
    raised = [key for key in reader._letters_read if key[3] and key[0] >= 2]  # (plane, row, col, careful)
    assert raised
    # a cell the history has surely empty has no raised face asked (its floor is believed), so
    # none is read ahead: here the history is the empty board
    reader.read(scene.frames[-1].image, previous=empty_board(reader.rows, reader.cols))
    assert not any(key[3] and key[0] >= 2 for key in reader._letters_read)
    monkeypatch.setattr(UpwordsReader, "_raised_faces_ahead", lambda self, wanted, previous=None: [])
    alone = [reader.read(frame.image) for frame in scene.frames]
    assert sum(careful_alone) > 0  # the same faces, each read on its own
    assert alone == ahead


@pytest.mark.slow
def test_the_kiosk_carries_a_real_board_it_saw_clear_and_still_waits_for_a_hand(
        real_game_calibration: Path) -> None:
    """The kiosk's own watcher for the real game's calibration (``kiosk.camera.live``): a photo of
    the game, streamed with its sensor noise, is clear from the frame the arm check passes on; a
    hand drawn reaching over it is waited for; once it has gone, the board under a brighter,
    warmer light is passed by the check again, then carried while it stands still."""
    from calibration.file import load_calibration
    from kiosk.camera.live import _reader_and_watcher
    from vision.synthetic.effects import apply_effects

    cal = load_calibration(real_game_calibration)
    _, watcher, _ = _reader_and_watcher(cal, real_game_calibration)
    gate = watcher.gate
    assert gate.stillness is not None
    photo = cv2.imread(str(REAL_GAME / "board-05.jpg"))
    h, w = photo.shape[:2]
    reach = Hand(tip=(0.5 * w, 0.45 * h), angle_deg=10, width_px=0.12 * w)
    rooms = ([Effects(noise_sigma=2.0, noise_seed=k) for k in range(6)]
             + [Effects(noise_sigma=2.0, noise_seed=10 + k, hand=reach) for k in range(3)]
             + [Effects(noise_sigma=2.0, noise_seed=20 + k, brightness=1.25, white_balance=(0.9, 1.0, 1.1))
                for k in range(6)])
    states = [gate.update(apply_effects(photo, room), k / 10) for k, room in enumerate(rooms)]
    assert states[0].state != "obstructed" and not states[0].hand_free
    assert not states[1].hand_free, "the first frame had nothing before it to be still against"
    assert all(s.hand_free for s in states[2:6])
    assert all(s.state == "obstructed" and not s.hand_free for s in states[6:9])
    assert all(s.state != "obstructed" for s in states[9:])
    assert all(s.hand_free for s in states[11:])
