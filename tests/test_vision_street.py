"""Word on the Street reader on rendered boards across poses and lighting, and the PURPLE turn;
what the rules settle of a read (captured tiles), and rendered games of turns."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from games.wots_moves import reachable, seen_moves
from kiosk.camera.view import StreetRead, compare_street, places_by_rules, settled_by_rules, street_by_rules
from vision.median_strip import DOUBT
from vision.reading import StreetColumn, StreetReading
from vision.street import StreetReader
from vision.synthetic.render import STREET_LETTERS, Effects, Hand, Pose, render_street
from vision.synthetic.scenes import street_scene


def _truth(positions: dict[str, int | None]) -> dict[str, int | None]:
    """What the reader should say: captured (±3) and absent tiles are both 'gone' (None)."""
    return {k: (v if v is not None and abs(v) <= 2 else None) for k, v in positions.items()}


def _read(shot, letters=None) -> StreetReading:
    return StreetReader(shot.corners, shot.image_size, letters=letters).read(shot.image)


def test_start_of_game_every_tile_on_the_median() -> None:
    shot = render_street({}, pose=Pose(tilt_deg=30), seed=1)
    reading = _read(shot)
    assert reading.positions == dict.fromkeys(STREET_LETTERS, 0)
    assert not reading.uncertain_columns()


def test_purple_moves_p_twice_and_captures_r_for_team_b() -> None:
    """Rule sheet example: Team B plays PURPLE: P two spaces, R off the board, L already gone."""
    before = {"R": 1, "L": -3}  # R one space toward team B; L captured earlier by team A
    after = {"P": 2, "R": 3, "L": -3}
    for state in (before, after):
        room = Effects(light_gradient=0.3, light_angle_deg=40, noise_sigma=2, jpeg_quality=85)
        shot = render_street(state, pose=Pose(tilt_deg=25, yaw_deg=5), seed=7, effects=room)
        assert _read(shot).positions == _truth({**dict.fromkeys(STREET_LETTERS, 0), **state})


@pytest.mark.parametrize("seed", range(12))
def test_random_boards_across_poses_and_lighting(seed: int) -> None:
    rng = np.random.default_rng(seed)
    positions = {letter: int(rng.integers(-3, 4)) for letter in STREET_LETTERS}
    pose = Pose.random(rng)
    shot = render_street(positions, pose=pose, effects=Effects.random(rng, pose.image_size), seed=seed)
    reading = _read(shot)
    assert reading.positions == _truth(positions)
    assert all(0.0 <= c.confidence <= 1.0 for c in reading.columns)


def test_a_hand_over_the_street_makes_those_columns_uncertain() -> None:
    shot = render_street({"M": 1}, pose=Pose(tilt_deg=20), seed=3,
                         effects=Effects(hand=Hand(tip=(512, 380), angle_deg=90, width_px=120)))
    reading = _read(shot)
    flagged = [c.letter for c in reading.uncertain_columns() if "under a hand or arm" in c.flags]
    assert flagged, "a column under the arm must be flagged"
    assert "B" not in flagged and "Y" not in flagged  # the ends of the street are clear


def test_text_and_json_forms() -> None:
    shot = render_street({"B": -2, "Y": 3}, pose=Pose(tilt_deg=10), seed=2)
    reading = _read(shot)
    text = reading.to_text()
    assert text.splitlines()[0].startswith("B ")  # B in the first team's outer lane (top line)
    assert "captured / not on the board: Y" in text
    data = reading.to_dict()
    assert data["columns"][0] == {**data["columns"][0], "letter": "B", "position": -2}
    assert len(data["columns"]) == 17


def test_wrong_picture_size_is_refused_in_plain_words() -> None:
    shot = render_street({}, seed=1)
    reader = StreetReader(shot.corners, (640, 480))
    with pytest.raises(ValueError, match="for 640x480 pictures, not 1024x768"):
        reader.read(shot.image)


def test_the_letter_read_confirms_each_column_and_flags_a_tile_in_the_wrong_column() -> None:
    letters_mod = pytest.importorskip("vision.letters", reason="vision/letters.py is missing")
    from vision.synthetic.teach import street_teaching_samples

    images, labels = street_teaching_samples()  # the start position: every tile on its letter
    classifier = letters_mod.LetterClassifier()
    classifier.fit(images, labels)
    letters = letters_mod.LetterReader(classifier, 0.3)
    room = Effects(noise_sigma=2, jpeg_quality=90)
    # the G and K tiles put back in each other's column (not M and W: a W upside down is an M)
    swapped = {"G": "K", "K": "G"}
    shot = render_street({"G": 1, "K": -1}, pose=Pose(tilt_deg=20), seed=4, effects=room, faces=swapped)
    reading = _read(shot, letters)
    by_letter = {c.letter: c for c in reading.columns}
    assert by_letter["G"].position == 1 and by_letter["K"].position == -1  # occupancy still decides
    assert any("reads K, not G" in f for f in by_letter["G"].flags) and by_letter["G"].uncertain
    assert any("reads G, not K" in f for f in by_letter["K"].flags)
    others = [c for c in reading.columns if c.letter not in swapped]
    assert not any(c.uncertain for c in others), [c for c in others if c.uncertain]


def test_a_turned_tile_is_still_confirmed() -> None:
    letters_mod = pytest.importorskip("vision.letters", reason="vision/letters.py is missing")
    from vision.synthetic.teach import street_teaching_samples

    images, labels = street_teaching_samples()  # the start position: every tile on its letter
    classifier = letters_mod.LetterClassifier()
    classifier.fit(images, labels)
    letters = letters_mod.LetterReader(classifier, 0.3)
    shot = render_street({"K": -1, "R": 2}, pose=Pose(tilt_deg=15), seed=9, turned={"K": 2, "R": 1, "G": 3})
    reading = _read(shot, letters)
    assert reading.positions["K"] == -1 and reading.positions["R"] == 2
    assert not reading.uncertain_columns(), reading.uncertain_columns()


def _column(letter: str, position: int | None, doubt: str = "") -> StreetColumn:
    return StreetColumn(letter, position, 0.1 if doubt else 0.98, flags=(doubt,) if doubt else ())


def test_a_captured_tile_never_comes_back_so_the_cameras_doubt_about_it_is_settled() -> None:
    """Rule sheet: "Captured Letter Tiles never move back onto the street"."""
    game = {**dict.fromkeys(STREET_LETTERS, 0), "L": -3, "R": 3, "P": 1}
    columns = [_column(letter, 0) for letter in STREET_LETTERS if letter not in "LRPM"]
    columns += [_column("L", 0, DOUBT),  # the bare median of the tiles' colour: tile or not?
                _column("R", 2),  # sure it sees the captured R back on the street
                _column("P", 2, DOUBT),  # doubted, and the game has P on the street
                _column("M", 0, DOUBT)]
    reading = StreetReading(tuple(columns))
    seen, doubted = street_by_rules(game, reading)
    assert seen["L"] is None and "L" not in doubted  # settled by the rules
    assert seen["R"] == 2 and doubted == {"R", "P", "M"}  # a sure sighting is asked; the street's doubts stay
    view = compare_street(game, reading)
    assert view.uncertain == {"R", "P", "M"}  # R disagrees with the game: the players check it
    assert view.positions["L"] is None
    assert seen_moves(game, seen) == {"P": 1, "R": -1}  # L does not move


def test_a_game_of_turns_moves_each_words_tiles_a_space_and_keeps_captured_tiles() -> None:
    streets = street_scene(5, n_frames=14, hand_chance=0.0, sequence=True).frames
    before = dict.fromkeys(STREET_LETTERS, 0)
    captured: set[str] = set()
    for turn, shot in enumerate(streets):
        after = shot.positions
        way = -1 if turn % 2 == 0 else 1
        moved = {letter: after[letter] - before[letter] for letter in STREET_LETTERS
                 if after[letter] != before[letter]}
        assert moved and all(step * way > 0 for step in moved.values())  # toward the team on the street
        assert all(after[letter] == before[letter] for letter in captured)  # captured for good
        captured |= {letter for letter in STREET_LETTERS if abs(after[letter]) == 3}
        before = dict(after)
    assert captured  # fourteen turns capture some tiles


def test_a_tile_seen_moved_away_from_the_team_on_the_street_or_pulled_off_from_afar_is_asked() -> None:
    """Rule sheet: a turn moves each tile of the word one space toward the team on the street,
    once per time its letter is in the word; a capture from further than the last space takes a
    word with its letter twice or more."""
    game = {**dict.fromkeys(STREET_LETTERS, 0), "B": 2, "C": -1, "D": 1}
    columns = {letter: _column(letter, 0) for letter in STREET_LETTERS}
    game["H"] = 1
    columns.update(B=_column("B", None),  # pulled off from +2: one B in the word
                   C=_column("C", None),  # pulled off from -1 by the second team: four Cs
                   D=_column("D", 0),  # moved toward the first team in the second's turn
                   F=_column("F", None),  # off the median: three Fs
                   G=_column("G", 2),  # two Gs
                   H=_column("H", None))  # off from +1: two Hs
    reading = StreetReading(tuple(columns[letter] for letter in STREET_LETTERS))
    seen, doubted = street_by_rules(game, reading, team=1)
    assert doubted == {"C", "D", "F", "H"}
    assert seen_moves(game, seen, team=1) == {"B": 1, "C": 4, "D": -1, "F": 3, "G": 2, "H": 2}  # as read
    assert street_by_rules(game, reading)[1] == frozenset()  # without the team: nothing to go on
    assert compare_street(game, reading, team=1).uncertain == {"B", "C", "D", "F", "G", "H"}  # all moved


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "turn"), [(960001, 10), (960001, 2)])
def test_a_change_of_light_on_a_skin_toned_table_is_not_a_hand_over_the_street(seed: int, turn: int) -> None:
    """Games on a skin-toned table with the light changed from picture to picture: compared
    without taking the light's smooth change out first, the picture shows an arm that is not
    there; the street's reader takes it out, sees no hand, and reads every column right."""
    from bench.bench_hands import _street_reader
    from vision.arms import arm_cells
    from vision.hands import UNDER_HAND

    scene = street_scene(seed, "train", n_frames=14, hand_chance=0.0, light_change=True, sequence=True)
    reader = _street_reader(scene, True)
    frame = scene.frames[turn]
    look = reader.appearance
    assert look is not None and look.scene is not None
    unfielded = arm_cells(frame.image, reader.corners, 5, 17, look.scene, look.tile_lab, light_field=False)
    assert (unfielded > UNDER_HAND).any()  # the light alone looks like an arm
    reading = reader.read(frame.image)
    assert not any("hand" in flag for column in reading.columns for flag in column.flags)
    assert reading.positions == _truth(frame.positions) and not reading.uncertain_columns()


def test_a_tile_can_be_where_it_was_further_toward_the_team_or_off_the_street() -> None:
    assert reachable(0, 1) == [0, 1, 2, None]
    assert reachable(1, 0) == [1, 0, -1, -2, None]
    assert reachable(-2, 0) == [-2, None]


def _chances(letter: str, chances: tuple[float, ...], flags: tuple[str, ...] = ()) -> StreetColumn:
    """A learnt reader's column: its tile's chance in each space -2..+2, judged as the reader does."""
    best = int(np.argmax(chances))
    second = sorted(chances)[-2]
    if chances[best] < 0.5:
        return StreetColumn(letter, None, 2 * (0.5 - chances[best]), flags=flags, scores=chances)
    confidence = min(2 * (chances[best] - 0.5), max(2 * (0.5 - second), 0.0))
    return StreetColumn(letter, best - 2, confidence, flags=flags, scores=chances)


@pytest.mark.parametrize(("before", "team", "chances", "flags", "settled"), [
    # pulled off from the team's last space, or still there and hidden by the light: a capture
    # is only an absence, never settled
    (2, 1, (0.0, 0.0, 0.45, 0.0, 0.0), (DOUBT,), (False, None)),
    (-2, 0, (0.11, 0.01, 0.45, 0.0, 0.0), (DOUBT,), (False, None)),
    # moved to the lane, surely seen there: the median's doubt says nothing of it
    (0, 0, (0.0, 0.91, 0.45, 0.0, 0.0), (DOUBT,), (True, -1)),
    # a doubt in a lane the tile cannot have reached this turn
    (1, 1, (0.45, 0.05, 0.0, 0.98, 0.0), (), (True, 1)),
    # still on the median, or pulled off from afar by a word with its letter thrice: asked
    (0, 1, (0.0, 0.0, 0.55, 0.0, 0.0), (DOUBT,), (False, 0)),
    # stayed or moved one space: both can be, the camera cannot tell
    (-1, 1, (0.0, 0.6, 0.5, 0.0, 0.0), (), (False, -1)),
    # the picture itself in question: a hand over the street
    (2, 1, (0.0, 0.0, 0.45, 0.0, 0.0), (DOUBT, "a hand or arm is over the board"), (False, None)),
    # surely seen where the rules say it cannot be: the players check it
    (1, 1, (0.0, 0.0, 0.0, 0.3, 0.0), (), (False, None)),
    (2, 1, (0.0, 0.0, 0.9, 0.0, 0.5), (), (False, 0)),
])
def test_the_rules_settle_a_doubtful_column_only_where_they_leave_it_one_likely_place(
        before: int, team: int, chances: tuple[float, ...], flags: tuple[str, ...],
        settled: tuple[bool, int | None]) -> None:
    """Rule sheet: a turn moves a tile only toward the team on the street, a space per time its
    letter is in the word; a tile pulled off from afar takes its letter twice or more."""
    column = _chances("K", chances, flags)
    assert column.uncertain
    assert settled_by_rules(column, places_by_rules(column, before, team)) == settled


def test_only_a_learnt_reader_s_chances_are_weighed_by_the_rules() -> None:
    """The fixed rules' scores are brightness ratios, not chances: their doubts stay asked."""
    game = {**dict.fromkeys(STREET_LETTERS, 0), "K": 0}
    columns = tuple(_chances(letter, (0.0, 0.0, 1.0, 0.0, 0.0)) if letter != "K"
                    else _chances("K", (0.0, 0.0, 0.45, 0.91, 0.0), (DOUBT,)) for letter in STREET_LETTERS)
    assert street_by_rules(game, StreetReading(columns, chances=True), team=1) == (
        {**dict.fromkeys(STREET_LETTERS, 0), "K": 1}, frozenset())
    assert street_by_rules(game, StreetReading(columns), team=1)[1] == {"K"}
    assert street_by_rules(game, StreetReading(columns, chances=True))[1] == {"K"}  # no team: no rules


@pytest.mark.slow
@pytest.mark.parametrize(("family", "seed", "turn", "letters"), [
    ("train", 960001, 2, set()),  # moved into its lane beside a median once doubted, read surely now
    ("held_out", 960003, 10, {"V", "W"}),  # doubts in lanes their tiles cannot have reached
])
def test_a_rendered_turn_the_camera_doubts_is_offered_where_the_rules_settle_it(
        family: str, seed: int, turn: int, letters: set[str]) -> None:
    """A game on a skin-toned table, the light changed picture to picture: the read alone asks
    about ``letters`` (and nothing else); with the game's street before the turn and the team on
    it, the kiosk offers the turn, its moves exactly the game's."""
    from bench.bench_hands import _street_reader
    from bench.bench_turns import turns

    scene = street_scene(seed, family, n_frames=14, hand_chance=0.0, light_change=True, sequence=True)
    reader = _street_reader(scene, True)
    before, frame, after, team = list(turns(scene))[turn]
    reading = reader.read(frame.image)
    assert {column.letter for column in reading.uncertain_columns()} == letters
    seen, doubted = street_by_rules(before, reading, team)
    assert not doubted
    assert seen_moves(before, seen, team) == seen_moves(before, after)


@pytest.mark.slow
def test_a_rendered_turn_with_median_doubts_is_offered_where_the_dictionary_leaves_one_way() -> None:
    """The first turn of a game on a skin-toned table, the light changed since calibration, read
    as the kiosk reads it once the stream has shown nothing came in (``hand_free``: the arm check
    alone takes this light for an arm across the street): the camera doubts ten median tiles (it
    leans to each still being there) and the rules alone ask them all, since each could have been
    pulled off by a word with its letter thrice. With the kiosk's dictionary no word makes the
    turn's sure moves and pulls any of them off, so the turn is offered, its moves exactly the
    game's."""
    from bench.bench_hands import _street_reader
    from bench.bench_turns import kiosk_dictionary, turns
    from vision.synthetic.scenes import game_words

    scene = street_scene(7500, "train", n_frames=1, hand_chance=0.0, light_change=True, sequence=True,
                         words=game_words())
    before, frame, after, team = next(turns(scene))
    reading = _street_reader(scene, True).read(frame.image, hand_free=True)
    asked = {column.letter for column in reading.uncertain_columns()}
    assert len(asked) >= 5 and all(column.flags == (DOUBT,) for column in reading.uncertain_columns())
    assert street_by_rules(before, reading, team)[1] == asked
    seen, doubted = street_by_rules(before, reading, team, kiosk_dictionary())
    assert not doubted
    assert seen_moves(before, seen, team) == seen_moves(before, after)


def _sure_street(positions: dict[str, int | None], doubtful: str = "") -> StreetReading:
    """A learnt reader's street, every tile surely where ``positions`` has it (None: gone), but
    ``doubtful`` letters' columns, whose tile space reads halfway."""
    columns = []
    for letter in STREET_LETTERS:
        at = positions[letter]
        chances = [0.0] * 5
        if at is not None:
            chances[at + 2] = 0.5 if letter in doubtful else 1.0
        columns.append(_chances(letter, tuple(chances)))
    return StreetReading(tuple(columns), chances=True)


def test_a_sure_capture_from_afar_is_believed_when_a_dictionary_word_makes_the_turn() -> None:
    """Rule sheet: the team on the street says a word; a tile one space from that team's side is
    pulled off only by a word with its letter twice (LETTER: T from +1 off the street, L and R a
    space each). The camera is sure of every tile: with the dictionary the turn is believed,
    without it or with no word making these moves it is asked."""
    game = {**dict.fromkeys(STREET_LETTERS, 0), "T": 1}
    seen = {**game, "L": 1, "R": 1, "T": None}
    reading = _sure_street(seen)
    assert street_by_rules(game, reading, team=1)[1] == {"T"}  # no dictionary: asked
    assert street_by_rules(game, reading, team=1, words=["lettuce", "letter"]) == (seen, frozenset())
    assert street_by_rules(game, reading, team=1, words=["lettuce", "later"])[1] == {"T"}
    doubtful = _sure_street(seen, doubtful="L")  # another tile in doubt, halfway between two places
    assert street_by_rules(game, doubtful, team=1)[1] == {"L", "T"}
    # it leans to +1, where the one word of the dictionary that makes the turn leaves it
    assert street_by_rules(game, doubtful, team=1, words=["letter"]) == (seen, frozenset())
    view = compare_street(game, reading, team=1, words=["letter"])
    assert view.doubted == frozenset() and view.uncertain == {"L", "R", "T"}  # moved: shown to check


def _median_doubts(positions: dict[str, int | None], leans: dict[str, float]) -> StreetReading:
    """A learnt reader's street, every tile surely where ``positions`` has it, but the median
    spaces of ``leans``'s letters, which the median decision asked (chance 0.55 a tile, 0.45 bare)."""
    columns = []
    for letter in STREET_LETTERS:
        at, chances = positions[letter], [0.0] * 5
        if letter in leans:
            chances[2] = leans[letter]
            columns.append(_chances(letter, tuple(chances), (DOUBT,)))
            continue
        if at is not None:
            chances[at + 2] = 1.0
        columns.append(_chances(letter, tuple(chances)))
    return StreetReading(tuple(columns), chances=True)


def test_a_doubtful_median_is_settled_where_the_one_way_a_word_makes_the_turn_is_the_camera_s_lean() -> None:
    """Rule sheet: each letter of the word said moves its tile a space toward the team; a tile
    leaves the median for good only by a word with its letter thrice. The first team's turn moves
    D and G a space (DOG, GOD); the camera leans to T's tile still on the median, doubtfully."""
    game = dict.fromkeys(STREET_LETTERS, 0)
    turn = {**game, "D": -1, "G": -1}
    stayed = _median_doubts(turn, {"T": 0.55})
    assert street_by_rules(game, stayed, team=0)[1] == {"T"}  # no dictionary: asked
    assert street_by_rules(game, stayed, team=0, words=["dog", "god", "cat"]) == (turn, frozenset())
    # a word (made up) that also pulls T off from the median: two ways, the players look
    assert street_by_rules(game, stayed, team=0, words=["dog", "dotttg"])[1] == {"T"}
    # the camera leans to the bare strip, the dictionary to the tile: they part, so it is asked
    bare = _median_doubts(turn, {"T": 0.45})
    assert street_by_rules(game, bare, team=0, words=["dog"])[1] == {"T"}
    # no word makes the turn at all: asked
    assert street_by_rules(game, stayed, team=0, words=["cat"])[1] == {"T"}
    # T pulled off by a word with it thrice, and the camera leans to the bare strip: settled off
    pulled = {**turn, "T": None}
    read_bare = _median_doubts(pulled, {"T": 0.45})
    assert street_by_rules(game, read_bare, team=0, words=["dog", "dotttg"])[1] == {"T"}
    assert street_by_rules(game, read_bare, team=0, words=["dotttg"]) == (pulled, frozenset())
    # a hand over the street: the picture itself is in question, never settled by a word
    hand = _median_doubts(turn, {"T": 0.55})
    columns = tuple(replace(c, flags=(*c.flags, "a hand or arm is over the board")) if c.letter == "T" else c
                    for c in hand.columns)
    assert street_by_rules(game, StreetReading(columns, chances=True), team=0, words=["dog"])[1] == {"T"}


def test_no_word_is_offered_for_a_street_the_camera_doubts() -> None:
    """The words the camera offers come from the moves it saw; a read not sure offers none."""
    from games.lexicon import Lexicon
    from games.word_on_the_street import WordOnTheStreet
    from kiosk.play.street_moves import street_moves

    class Authority:  # what street_moves asks of the word authority: its word list
        lexicon = Lexicon.load(size=35)

    class Camera:  # the camera's part street_moves asks for: the street as read against the game
        def __init__(self, read: StreetRead) -> None:
            self.read = read

        def view_of(self, _game: object) -> StreetRead:
            return self.read

    game = WordOnTheStreet(["Reds", "Blues"])
    moved = {**game.positions(), "G": -1, "N": -1, "T": -1}  # GIANT or EATING, by the first team
    sure = compare_street(game.positions(), _sure_street(moved), team=0)
    assert street_moves(game, Camera(sure), Authority()).words == ["EATING", "QUOTING", "TIEING"]
    doubted = compare_street(game.positions(), _sure_street(moved, doubtful="G"), team=0)
    moves = street_moves(game, Camera(doubted), Authority())
    assert moves.words == [] and moves.seen == {"G": -1, "N": -1, "T": -1}


@pytest.mark.slow
def test_the_live_camera_believes_a_sure_turn_a_word_makes_once_the_word_list_is_there(tmp_path) -> None:
    """The kiosk's own camera path, end to end: frames from a recording of a rendered street
    after a turn whose word pulled N off from the lane next to the first team (twice in the
    word), read on the camera's worker thread; the game played up to that turn by the engine,
    with the scene's own words. Without the word list the capture from afar is asked; with it,
    nothing is, and the view is kept for that reading and turn."""
    import time

    import cv2

    from bench.bench_hands import _street_reader
    from bench.bench_turns import turns
    from games.word_on_the_street import WordOnTheStreet
    from kiosk.camera.live import LiveCamera, street_read
    from vision.camera import ResilientCamera
    from vision.camera_sources import ReplaySource
    from vision.hands import hand_over_board
    from vision.stability import BoardWatcher, SteadinessGate
    from vision.synthetic.scenes import game_words

    words, seed, turn = game_words(), 1070001, 6
    scene = street_scene(seed, "train", n_frames=14, hand_chance=0.0, sequence=True, words=words)
    before, frame, after, team = list(turns(scene))[turn]
    draws = np.random.default_rng([seed, 0x7E2])  # the scene's words, drawn as it drew them
    game = WordOnTheStreet(["Reds", "Blues"])
    for _ in range(turn):
        game.apply({"type": "word", "word": words[int(draws.integers(len(words)))]})
    assert game.positions() == before and game.state.on_street == team
    cv2.imwrite(str(tmp_path / "turn.png"), frame.image)
    reader = _street_reader(scene, True)
    look = reader.appearance
    gate = SteadinessGate(lambda f: reader.planes.warp(f, 5, 17, 16), 5, 17,  # as the kiosk builds it
                          hand_over_board=lambda f: hand_over_board(f, reader.corners, 5, 17, look))
    watcher = BoardWatcher(gate, street_read(reader))
    live = LiveCamera(ResilientCamera(lambda: ReplaySource(tmp_path), clock=time.monotonic), watcher,
                      "word-on-the-street", period=0.02)
    live.sync(game)  # nothing read yet: the watcher reads the whole street once it is steady
    assert watcher.accepted is None
    live.start()
    try:
        give_up = time.monotonic() + 60
        while live.view_of(game) is None and time.monotonic() < give_up:
            time.sleep(0.1)
        asked = live.view_of(game)
        assert asked is not None and asked.doubted == {"N"}  # no word list yet: asked
        live.words = lambda: words
        view = live.view_of(game)
        assert view.doubted == frozenset() and live.view_of(game) is view
        moves = seen_moves(before, view.positions, team)
        assert moves == seen_moves(before, after) == {"G": -1, "M": -1, "N": -2}
        # the turn confirmed, the game's street is what the next turn is read against
        game.apply({"type": "word", "word": words[int(draws.integers(len(words)))]})
        live.sync(game)
        assert watcher.accepted == StreetReading.from_positions(game.positions())
        assert live.view_of(game) is not None  # the reading on screen stays
    finally:
        live.close()
