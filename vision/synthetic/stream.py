"""A game filmed: the frames a fixed camera streams while players place tiles and the light changes.

Why: the kiosk reads its camera's stream, not single pictures (:mod:`vision.stability`: it waits
for a still board with no hand over it, then reads and votes), and no single picture shows what
a stream does — that a hand comes in from beyond the picture's edge and goes again, while the
room's light changes all at once and stays. So the benchmarks and tests film games: for every
play a hand reaches from beyond the picture's edge to a tile on the board, the tiles are down
while it is there, and it leaves; the room's light changes to the next picture's
(:attr:`vision.synthetic.scenes.Scene.frame_effects`) while the hand is there, in one step after
it left, or gradually over half a second (the old light's shadow and glare fading as the new
one's come); then the board stands still long enough for the kiosk to read it.

The board itself is drawn once per play (:func:`vision.synthetic.scenes.grid_scene` or
:func:`~vision.synthetic.scenes.street_scene` with ``clean_frames``); each frame adds its light,
hand, noise and compression to it, as a camera that does not move would see it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from vision.synthetic.effects import Effects, Hand, hand_outline, lit, sensor
from vision.synthetic.render import Rendered
from vision.synthetic.scenes import Scene
from vision.synthetic.textures import STREET_LETTERS

#: Frames a second.
FPS = 10.0
#: Where the fingertip is in each frame of a play's hand, as a share of the way from the
#: tile it reaches for to beyond the picture's edge (1.0 is out of the picture).
REACH = (1.0, 0.6, 0.3, 0.08, 0.0, 0.0, 0.35, 0.75, 1.2)
#: The frame of :data:`REACH` at which the play's tiles are down.
PLACED_AT = 4
#: Frames the board stands still after the play's last change (the kiosk waits 0.6 s, then
#: reads three frames).
SETTLED_FRAMES = 14
#: How the light changes in a play, drawn evenly.
LIGHT_WHEN = ("with the hand", "after, at once", "after, gradually")
#: Frames a gradual change of light takes.
GRADUAL_FRAMES = 6


@dataclass(frozen=True)
class StreamFrame:
    """One frame: ``image`` at ``timestamp`` (seconds), showing the board after ``plays`` plays;
    ``hand_over_cells``: the largest share of any cell the hand covers (the truth a hand check
    is held to); ``hand_in_picture``: the share of the picture the hand covers, over the board or
    not (the truth of whether anything came in)."""

    image: np.ndarray
    timestamp: float
    plays: int
    hand_over_cells: float
    hand_in_picture: float = 0.0


@dataclass(frozen=True)
class FilmedPlay:
    """The frames of one play (the board before it, the hand, the board after it standing still)
    and when in it the light changed (one of :data:`LIGHT_WHEN`)."""

    frames: tuple[StreamFrame, ...]
    light_when: str


def film(scene: Scene, seed: int, start: float = 0.0) -> Iterator[FilmedPlay]:
    """The plays of ``scene`` (a sequence drawn with ``clean_frames``), filmed; ``seed`` draws
    the hands' ways in and when the light changes."""
    if not scene.frame_effects or scene.calibration_effects is None or scene.clean_start is None:
        raise ValueError("film a scene drawn with clean_frames=True")
    rng = np.random.default_rng([seed, 0x5EED])
    camera = _Camera(rng, start)
    light = scene.calibration_effects
    before = scene.clean_start
    for n, (after, new_light) in enumerate(zip(scene.frames, scene.frame_effects, strict=True)):
        when = LIGHT_WHEN[int(rng.integers(0, len(LIGHT_WHEN)))]
        hand = _hand(rng, after, scene.style.skin)
        frames = []
        for k, reach in enumerate(REACH):
            shows, plays = (after, n + 1) if k >= PLACED_AT else (before, n)
            now = new_light if when == "with the hand" and k >= PLACED_AT else light
            frames.append(camera.frame(shows, plays, now, _reaching(hand, after, reach)))
        if when == "after, at once":
            frames += [camera.frame(after, n + 1, light, None) for _ in range(2)]
        elif when == "after, gradually":
            frames += [camera.frame(after, n + 1, _between(light, new_light, (k + 1) / GRADUAL_FRAMES), None)
                       for k in range(GRADUAL_FRAMES)]
        frames += [camera.frame(after, n + 1, new_light, None) for _ in range(SETTLED_FRAMES)]
        yield FilmedPlay(tuple(frames), when)
        before, light = after, new_light


class _Camera:
    """A camera that does not move, filming at :data:`FPS`: each frame's own noise, its clock."""

    def __init__(self, rng: np.random.Generator, start: float) -> None:
        self.rng, self.now = rng, start
        self._still: tuple[Rendered, Effects, np.ndarray] | None = None

    def frame(self, shot: Rendered, plays: int, light: Effects, hand: Hand | None) -> StreamFrame:
        fx = replace(light, hand=hand, noise_seed=int(self.rng.integers(0, 2**31 - 1)))
        seen = replace(shot, image=sensor(self._lit(shot, replace(fx, noise_seed=None)), fx), hand_drawn=hand)
        over = 0.0 if hand is None else float(seen.hand_cover().max())
        shown = 0.0 if hand is None else float(hand_outline(seen.image.shape, hand).mean() / 255.0)
        stamp, self.now = self.now, self.now + 1.0 / FPS
        return StreamFrame(seen.image, stamp, plays, over, shown)

    def _lit(self, shot: Rendered, fx: Effects) -> np.ndarray:
        """:func:`vision.synthetic.effects.lit` of ``shot`` in ``fx``, kept for the next frame: a
        still board in a still light is the same on the sensor until its noise."""
        if self._still is None or self._still[0] is not shot or self._still[1] != fx:
            self._still = (shot, fx, lit(shot.image, fx))
        return self._still[2]


def _hand(rng: np.random.Generator, shot: Rendered, skin: tuple[int, int, int]) -> tuple[Hand, np.ndarray]:
    """The play's hand (its fingertip at one of the board's tiles after the play, drawn at
    random: an Upwords stack, a street tile) and that tile's middle in the picture."""
    if shot.kind == "street":
        placed = [(at + 2, STREET_LETTERS.index(letter)) for letter, at in sorted(shot.positions.items())
                  if at is not None and -2 <= at <= 2]
    else:
        placed = [(r, c) for r in range(shot.rows) for c in range(shot.cols) if shot.heights[r][c]]
    r, c = placed[int(rng.integers(0, len(placed)))] if placed else (shot.rows // 2, shot.cols // 2)
    across, down = shot.cell_mm
    cell = shot.camera.project(np.array([[(c + 0.5) * across, (r + 0.5) * down, 0.0]]))[0]
    w = shot.image.shape[1]
    hand = Hand(tip=(float(cell[0]), float(cell[1])), angle_deg=float(rng.uniform(0, 360)),
                width_px=float(rng.uniform(0.09, 0.14) * w), colour=skin)
    return hand, cell


def _reaching(hand: tuple[Hand, np.ndarray], shot: Rendered, reach: float) -> Hand | None:
    """The hand with its fingertip ``reach`` of the way out of the picture; None once out."""
    if reach >= 1.0:
        return None
    drawn, cell = hand
    h, w = shot.image.shape[:2]
    a = np.deg2rad(drawn.angle_deg)
    tip = cell + np.array([np.cos(a), np.sin(a)]) * reach * float(np.hypot(w, h))
    return replace(drawn, tip=(float(tip[0]), float(tip[1])))


def _between(a: Effects, b: Effects, t: float) -> Effects:
    """The light ``t`` (0..1) of the way from ``a`` to ``b``: brightness, colour and the lamp's
    gradient in between; the old shadow and glare fade out over the first half, the new ones in
    over the second."""
    old, new = max(0.0, 1.0 - 2.0 * t), max(0.0, 2.0 * t - 1.0)
    fading = a if t < 0.5 else b
    return replace(
        b,
        brightness=(1 - t) * a.brightness + t * b.brightness,
        white_balance=tuple((1 - t) * x + t * y
                            for x, y in zip(a.white_balance, b.white_balance, strict=True)),
        light_gradient=(1 - t) * a.light_gradient + t * b.light_gradient,
        light_angle_deg=(1 - t) * a.light_angle_deg + t * b.light_angle_deg,
        shadow=(a.shadow * old if t < 0.5 else b.shadow * new), shadow_seed=fading.shadow_seed,
        glare=(a.glare * old if t < 0.5 else b.glare * new), glare_at=fading.glare_at,
        glare_radius=fading.glare_radius,
    )
