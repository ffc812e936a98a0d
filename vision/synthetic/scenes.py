"""Randomised board scenes with their truth: the training and test material of the readers.

A *scene* is one physical set on one table under one fixed camera: the calibration picture
(the empty board, or Word on the Street's start position), a teaching picture (the set's tiles
laid out in alphabet order, as players teach the reader), and several later pictures of the
game with other tiles, other light, sometimes a hand. Scenes are drawn from a style family
(:mod:`vision.synthetic.style`): ``train`` for what the models learn from, ``held_out`` for measuring
them on sets they never saw. The same seed gives the same scene.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from games.word_on_the_street import CAPTURED, WotsState, direction, move_tiles
from vision.synthetic.effects import Hand
from vision.synthetic.render import (
    Effects,
    Pose,
    Rendered,
    StreetSpec,
    UpwordsSpec,
    render_street,
    render_upwords,
)
from vision.synthetic.style import (
    BoardStyle,
    random_style,
    random_tile_shape,
    with_any_skin,
    with_any_table,
    with_table_skin,
    with_wider_faces,
)
from vision.synthetic.teach import layout as teaching_layout
from vision.synthetic.textures import STREET_LETTERS

#: The stacking sets made, as far as we know them: cells 18-26 mm apart, tiles 2-5 mm thick.
ANY_PITCH_MM = (18.0, 26.0)
ANY_THICKNESS_MM = (2.0, 5.0)
#: A tile's face against the pitch, and its thickness, for a scene with ``wider_faces``: beyond
#: both families' ranges, as sets of any make are.
WIDER_FACE_FRAC = (0.75, 0.95)
WIDER_THICKNESS_MM = (2.0, 5.6)
UPWORDS_LETTERS = (*tuple("ABCDEFGHIJKLMNOPRSTUVWXYZ"), "Qu")
GRID_LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
BOARD_KINDS = ("upwords8", "upwords10", "grid15", "street")


@dataclass(frozen=True)
class Scene:
    kind: str                      # one of BOARD_KINDS
    style: BoardStyle
    face_frac: float               # tile face / pitch
    thickness_mm: float
    calibration: Rendered          # empty board (grids) or the start position (street)
    teaching: Rendered | None      # the alphabet laid out (grids); None for the street
    teaching_layout: dict          # (row, col) -> letter in the teaching picture
    frames: tuple[Rendered, ...]   # later pictures of the game
    #: each frame's camera and room (with ``clean_frames`` the frames are drawn without them, and
    #: :mod:`vision.synthetic.stream` films them), and the calibration picture's
    frame_effects: tuple[Effects, ...] = ()
    calibration_effects: Effects | None = None
    clean_start: Rendered | None = None  # with ``clean_frames``: the board before the first frame

    @property
    def rows(self) -> int:
        return self.calibration.rows

    @property
    def cols(self) -> int:
        return self.calibration.cols


def _effects(rng: np.random.Generator, style: BoardStyle, size: tuple[int, int], hand_chance: float
             ) -> Effects:
    fx = Effects.random(rng, size, hand_chance)
    fx = replace(fx, white_balance=tuple(float(v) for v in rng.uniform(0.9, 1.1, 3)))
    if fx.hand is not None:
        fx = replace(fx, hand=Hand(fx.hand.tip, fx.hand.angle_deg, fx.hand.width_px, style.skin))
    return fx


#: Tables of the light-change scenes (kind, BGR): skin-toned, as a hand is. Per family, so
#: held-out scenes stand on tables nothing was fitted on (a pinker wood, a printed cloth).
LIGHT_CHANGE_TABLES = {
    "train": (("wood", (115, 160, 205)), ("cork", (90, 140, 190)), ("cloth", (165, 195, 215))),
    "held_out": (("wood", (130, 160, 220)), ("printed", (170, 190, 215)), ("plain", (150, 180, 210))),
}


def _light_rng(seed: int) -> np.random.Generator:
    """The light-change draws come from their own generator, so a scene with ``light_change``
    has the same tiles, pose and hands as without it: only the light and the table differ."""
    return np.random.default_rng([seed, 0x1167])


def _skin(seed: int, style: BoardStyle, any_skin: bool) -> BoardStyle:
    """``style``, its skin of any tone with ``any_skin`` (drawn from its own generator, so the rest
    of the scene is as without)."""
    return with_any_skin(np.random.default_rng([seed, 0x5E1F]), style) if any_skin else style


def _light_table(rng: np.random.Generator, style: BoardStyle, family: str, seed: int, any_table: bool
                 ) -> BoardStyle:
    """The table a light-change scene stands on: the family's (:data:`LIGHT_CHANGE_TABLES`), or with
    ``any_table`` one of any make and tone (drawn from its own generator, after the family's draw,
    so the light's draws and the rest of the scene are as without)."""
    kind, colour = LIGHT_CHANGE_TABLES[family][int(rng.integers(0, len(LIGHT_CHANGE_TABLES[family])))]
    style = replace(style, table=kind, table_colour=tuple(int(np.clip(v + rng.normal(0, 10), 0, 255))
                                                          for v in colour))
    return with_any_table(np.random.default_rng([seed, 0x7AB1E]), style) if any_table else style


def _table_skin(seed: int, style: BoardStyle, table_skin: bool) -> BoardStyle:
    """``style``, its skin of its table's colour with ``table_skin`` (its own generator)."""
    return with_table_skin(np.random.default_rng([seed, 0x5A3E]), style) if table_skin else style


#: A harsh lamp's glare (:func:`changed_light` with ``harsh_glare``): on every picture, up to this
#: strong and this wide (a share of the picture's shorter side).
HARSH_GLARE = (0.3, 0.9)
HARSH_GLARE_RADIUS = (0.06, 0.25)


def changed_light(rng: np.random.Generator, calibration: Effects, fx: Effects, harsh_glare: bool = False
                  ) -> Effects:
    """``fx`` under a light changed since ``calibration`` as a room's changes: overall brightness
    x0.6-1.6, white balance +-25 % per channel, sometimes a soft shadow (somewhere else each
    time) and sometimes a lamp's glare. ``harsh_glare``: a glare on every picture, stronger and
    wider (:data:`HARSH_GLARE`), cutting many faces white with their ink: a wider domain for the
    fits than the benchmarks' (the same draws, so the rest of the light is as without)."""
    # the draws in this order, whatever ``harsh_glare``: a seed's scene stays the benchmarks' own
    brightness = calibration.brightness * float(rng.uniform(0.6, 1.6))
    white_balance = tuple(float(b * rng.uniform(0.75, 1.25)) for b in calibration.white_balance)
    shadow = float(rng.uniform(0.2, 0.5)) if rng.random() < 0.5 else 0.0
    shadow_seed = int(rng.integers(0, 2**31 - 1))
    glare_on = rng.random() < (1.0 if harsh_glare else 0.4)
    glare = float(rng.uniform(*(HARSH_GLARE if harsh_glare else (0.3, 0.7)))) if glare_on else 0.0
    glare_at = (float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9)))
    radius = float(rng.uniform(*(HARSH_GLARE_RADIUS if harsh_glare else (0.06, 0.15))))
    return replace(fx, brightness=brightness, white_balance=white_balance, shadow=shadow,
                   shadow_seed=shadow_seed, glare=glare, glare_at=glare_at, glare_radius=radius,
                   hand_lit=True)


def _grid_cells(rng: np.random.Generator, rows: int, cols: int, letters: tuple[str, ...], max_height: int,
                fill: float | None = None) -> dict[tuple[int, int], tuple[str, int]]:
    density = rng.uniform(0.08, 0.55)
    if fill is not None:  # drawn all the same, so the rest of the scene is as without
        density = fill
    cells = {}
    for r in range(rows):
        for c in range(cols):
            if rng.random() < density:
                h = 1 if max_height == 1 else int(min(max_height, 1 + rng.geometric(0.55) - 1))
                cells[(r, c)] = (letters[int(rng.integers(0, len(letters)))], max(h, 1))
    return cells


def _game_states(rng: np.random.Generator, rows: int, letters: tuple[str, ...], max_height: int, turns: int
                 ) -> list[dict[tuple[int, int], tuple[str, int]]]:
    """Board states of a plausible game from its first move, one per turn: each turn lays 1-5 tiles
    in a line, on empty cells or (stacking games) on a stack with another letter, one tile per
    stack per turn."""
    board: dict[tuple[int, int], tuple[str, int]] = {}  # from the empty board, as the kiosk's history is
    states = []
    for _ in range(turns):
        n = int(rng.integers(1, 6))
        across = bool(rng.integers(0, 2))
        line, start = int(rng.integers(0, rows)), int(rng.integers(0, rows - n + 1))
        for i in range(n):
            rc = (line, start + i) if across else (start + i, line)
            letter, height = board.get(rc, (None, 0))
            if height >= max_height:
                continue
            choices = [a for a in letters if a != letter]
            board[rc] = (choices[int(rng.integers(0, len(choices)))], height + 1)
        states.append(dict(board))
    return states


def _leaning(pose: Pose, min_tilt: float, max_tilt: float) -> Pose:
    """The pose with its tilt (drawn from 0 to ``max_tilt``) spread over ``min_tilt`` to ``max_tilt``
    instead: the same draws, so a scene's other choices do not change with ``min_tilt``."""
    if min_tilt <= 0 or max_tilt <= 0:
        return pose
    return replace(pose, tilt_deg=min_tilt + pose.tilt_deg / max_tilt * (max_tilt - min_tilt))


def grid_scene(seed: int, family: str = "train", kind: str = "upwords8", n_frames: int = 3,
               max_tilt: float = 35.0, hand_chance: float = 0.15, sequence: bool = False,
               fill: float | None = None, any_set: bool = False, min_tilt: float = 0.0,
               light_change: bool = False, clean_frames: bool = False, wider_faces: bool = False,
               harsh_glare: bool = False, any_skin: bool = False, any_table: bool = False,
               table_skin: bool = False) -> Scene:
    """An Upwords (8x8, 10x10, stacks) or crossword-style 15x15 (loose flat tiles) scene.

    ``sequence``: the frames are one game, turn by turn (for reading with history); otherwise
    each frame is an independent random board (more variety for training), each cell holding a
    tile with chance ``fill`` (by default a random 8-55 %; 1.0 is a full board). ``any_set``:
    stacking sets of any make (cells :data:`ANY_PITCH_MM` apart, tiles :data:`ANY_THICKNESS_MM`
    thick) rather than the style family's. The camera leans ``min_tilt`` to ``max_tilt`` degrees
    from straight overhead.

    ``light_change``: the table is skin-toned (:data:`LIGHT_CHANGE_TABLES`) and each frame's
    light has changed since calibration (:func:`changed_light`); tiles, pose and hands are the
    same as without. ``clean_frames``: the frames are drawn with no light, noise or hand (their
    :attr:`Scene.frame_effects` say what they would have), for a video to add them frame by frame.
    ``wider_faces``: the tiles (typeface, letter size, ink, colour; face size and thickness,
    :data:`WIDER_FACE_FRAC`, :data:`WIDER_THICKNESS_MM`) are drawn from a wider domain than the
    family's (:func:`vision.synthetic.style.with_wider_faces`); the rest of the scene is as
    without. ``harsh_glare``: with ``light_change``, a lamp's glare on every picture, stronger and
    wider than the benchmarks' (:func:`changed_light`). ``any_skin``: the hands' skin of any tone
    (:func:`vision.synthetic.style.with_any_skin`); ``any_table``: with ``light_change``, a table of
    any make and tone (:func:`vision.synthetic.style.with_any_table`); ``table_skin``: with
    ``light_change``, the hands' skin of the table's own colour
    (:func:`vision.synthetic.style.with_table_skin`); the rest of the scene is as without."""
    rng = np.random.default_rng(seed)
    style = _skin(seed, random_style(rng, family), any_skin)
    faces_rng = np.random.default_rng([seed, 0x1E77])
    if wider_faces:
        style = with_wider_faces(faces_rng, style)
    light_rng = _light_rng(seed)
    if light_change:
        style = _table_skin(seed, _light_table(light_rng, style, family, seed, any_table), table_skin)
    shape = random_tile_shape(rng, family)
    if wider_faces:
        shape = {"face_frac": float(faces_rng.uniform(*WIDER_FACE_FRAC)),
                 "thickness_mm": float(faces_rng.uniform(*WIDER_THICKNESS_MM))}
    rows = {"upwords8": 8, "upwords10": 10, "grid15": 15}[kind]
    pitch = 22.0 if kind != "grid15" else float(rng.uniform(17.0, 20.0))
    if any_set and kind != "grid15":
        pitch = float(rng.uniform(*ANY_PITCH_MM))
        shape = {**shape, "thickness_mm": float(rng.uniform(*ANY_THICKNESS_MM))}
    loose = kind == "grid15"
    spec = UpwordsSpec(rows=rows, cols=rows, pitch_mm=pitch, tile_mm=pitch * shape["face_frac"],
                       thickness_mm=shape["thickness_mm"], margin_mm=float(rng.uniform(12, 30)))
    pose = _leaning(Pose.random(rng, max_tilt=max_tilt), min_tilt, max_tilt)
    board_seed = int(rng.integers(0, 2**31 - 1))
    size = pose.image_size
    jitter = float(pitch * (1 - shape["face_frac"]) * rng.uniform(0.4, 0.9)) if loose else 0.0
    letters = GRID_LETTERS if loose else UPWORDS_LETTERS
    shade = float(rng.uniform(0.0, 0.5))

    def shot(cells, effects, seed_):
        return render_upwords(cells, spec=spec, pose=pose, effects=effects, seed=seed_, style=style,
                              jitter_mm=jitter, board_seed=board_seed, contact_shadow=shade)

    calibration_fx = _effects(rng, style, size, 0.0)
    calibration = shot({}, calibration_fx, int(rng.integers(0, 2**31 - 1)))
    lay = {rc: letter for rc, (letter, _) in teaching_layout(letters, rows, rows).items()}
    teaching = shot({rc: (letter, 1) for rc, letter in lay.items()}, _effects(rng, style, size, 0.0),
                    int(rng.integers(0, 2**31 - 1)))
    max_height = 1 if loose else 5
    states = (_game_states(rng, rows, letters, max_height, n_frames) if sequence else
              [_grid_cells(rng, rows, rows, letters, max_height, fill) for _ in range(n_frames)])
    frames, frame_fx = [], []
    for state in states:
        fx = _effects(rng, style, size, hand_chance)
        if light_change:
            fx = changed_light(light_rng, calibration_fx, fx, harsh_glare)
        frame_fx.append(fx)
        frames.append(shot(state, Effects() if clean_frames else fx, int(rng.integers(0, 2**31 - 1))))
    # drawn last, so the scene's other draws are the same with and without it
    start = shot({}, Effects(), int(rng.integers(0, 2**31 - 1))) if clean_frames else None
    return Scene(kind, style, shape["face_frac"], shape["thickness_mm"], calibration, teaching, lay,
                 tuple(frames), tuple(frame_fx), calibration_fx, start)


#: SCOWL's size for the words teams say: its commonest lists
WORD_LIST_SIZE = 35


def game_words() -> list[str]:
    """Ordinary words of three letters or more from SCOWL's commonest lists: the turns of a
    real game (the word list the kiosk's word authority reads; ``scowl`` from apt)."""
    from games.lexicon import Lexicon
    from games.wots_moves import dictionary_words

    return [word for word in dictionary_words(Lexicon.load(size=WORD_LIST_SIZE)) if len(word) >= 3]


def street_scene(seed: int, family: str = "train", n_frames: int = 3, max_tilt: float = 35.0,
                 hand_chance: float = 0.15, light_change: bool = False, sequence: bool = False,
                 clean_frames: bool = False, words: Sequence[str] | None = None, any_skin: bool = False,
                 any_table: bool = False) -> Scene:
    """A Word on the Street scene: the start position, then tiles pushed about and captured
    (``light_change``, ``clean_frames``, ``any_skin``, ``any_table``: as :func:`grid_scene`'s).
    ``sequence``: the frames are one game, turn by turn (:func:`_street_turns`, each turn a word
    drawn from ``words``, or random letters); otherwise each is an independent random street."""
    rng = np.random.default_rng(seed)
    style = _skin(seed, random_style(rng, family), any_skin)
    light_rng = _light_rng(seed)
    if light_change:
        style = _light_table(light_rng, style, family, seed, any_table)
    shape = random_tile_shape(rng, family)
    pitch = float(rng.uniform(26.0, 32.0))
    spec = StreetSpec(pitch_mm=pitch, lane_mm=pitch * float(rng.uniform(0.9, 1.1)),
                      tile_mm=pitch * shape["face_frac"], thickness_mm=shape["thickness_mm"])
    pose = Pose.random(rng, max_tilt=max_tilt)
    board_seed = int(rng.integers(0, 2**31 - 1))
    size = pose.image_size
    shade = float(rng.uniform(0.0, 0.5))

    def shot(positions, effects, seed_):
        return render_street(positions, spec=spec, pose=pose, effects=effects, seed=seed_, style=style,
                             board_seed=board_seed, contact_shadow=shade)

    calibration_fx = _effects(rng, style, size, 0.0)
    calibration = shot({}, calibration_fx, int(rng.integers(0, 2**31 - 1)))
    frames, frame_fx = [], []
    turns = _street_turns(np.random.default_rng([seed, 0x7E2]), n_frames, words) if sequence else None
    for n in range(n_frames):
        positions = (turns[n] if turns is not None else
                     {letter: int(rng.choice([-3, -2, -1, 0, 0, 1, 2, 3])) for letter in STREET_LETTERS})
        fx = _effects(rng, style, size, hand_chance)
        if light_change:
            fx = changed_light(light_rng, calibration_fx, fx)
        frame_fx.append(fx)
        frames.append(shot(positions, Effects() if clean_frames else fx, int(rng.integers(0, 2**31 - 1))))
    lay = {(2, c): letter for c, letter in enumerate(STREET_LETTERS)}
    # drawn last, so the scene's other draws are the same with and without it
    start = shot({}, Effects(), int(rng.integers(0, 2**31 - 1))) if clean_frames else None
    return Scene("street", style, shape["face_frac"], shape["thickness_mm"], calibration, None, lay,
                 tuple(frames), tuple(frame_fx), calibration_fx, start)


def _street_turns(rng: np.random.Generator, turns: int, words: Sequence[str] | None = None
                  ) -> list[dict[str, int]]:
    """A game's streets after each turn, from the start (every tile on the median), the teams
    taking turns. With ``words``, each turn is a word drawn from them, its tiles moved by the
    engine's own rule (:func:`games.word_on_the_street.move_tiles`): a real game's moves.
    Without, a turn is 3-7 letters drawn at random, each moving its tile a space toward the team
    (a tile pulled off its side is captured, +-3, and stays so): far more repeated letters, so
    far more tiles pulled off from afar, than words make."""
    at = dict.fromkeys(STREET_LETTERS, 0)
    out = []
    for turn in range(turns):
        team = turn % 2
        if words is not None:
            state = WotsState(tuple(at[letter] for letter in STREET_LETTERS), ((), ()), team)
            moved, _ = move_tiles(state, team, words[int(rng.integers(len(words)))])
            at = dict(zip(STREET_LETTERS, moved.positions, strict=True))
        else:
            for letter in rng.choice(list(STREET_LETTERS), int(rng.integers(3, 8))):
                if abs(at[letter]) < CAPTURED:
                    at[letter] += direction(team)
        out.append(dict(at))
    return out


def scene(seed: int, family: str = "train", kind: str = "upwords8", **kwargs: object) -> Scene:
    if kind == "street":
        return street_scene(seed, family, **kwargs)  # type: ignore[arg-type]
    return grid_scene(seed, family, kind, **kwargs)  # type: ignore[arg-type]
