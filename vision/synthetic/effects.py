"""What a real camera adds to a clean picture: uneven light, shadows, a hand, blur, noise, JPEG.

Each effect is a small function on a BGR uint8 image; :class:`Effects` says which to apply
and how strongly, and :meth:`Effects.random` draws a plausible mix from a seeded generator so
the same seed always gives the same picture.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand and forearm reaching over the board: where the fingertips are and where the arm comes from."""

    tip: tuple[float, float]      # fingertip position in the image (pixels)
    angle_deg: float              # direction the arm comes from (0 = from the right edge)
    width_px: float = 110.0
    colour: tuple[int, int, int] = (120, 150, 205)   # BGR skin tone


@dataclass(frozen=True, slots=True)
class Effects:
    """The camera and room conditions of one picture. The defaults are a clean, evenly lit photo."""

    light_gradient: float = 0.0       # 0: even; 0.5: one side half as bright as the other
    light_angle_deg: float = 0.0
    brightness: float = 1.0
    shadow: float = 0.0               # 0: none; 0.5: a soft shadow halving the light under it
    shadow_seed: int = 0
    hand: Hand | None = None
    blur_sigma: float = 0.0
    noise_sigma: float = 0.0
    jpeg_quality: int | None = None
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)   # B, G, R gains: the camera's colour cast
    glare: float = 0.0                # 0: none; 0.6: a lamp's soft reflection adding 60 % of full white
    glare_at: tuple[float, float] = (0.5, 0.5)   # its middle, as shares of the picture's width and height
    glare_radius: float = 0.12        # its size, as a share of the picture's shorter side
    hand_lit: bool = False            # the hand under the room's light and cast, as the table is
    noise_seed: int | None = None     # the sensor noise's own draw (None: from ``shadow_seed``); the
                                      # frames of a video differ in their noise alone

    @classmethod
    def random(cls, rng: np.random.Generator, image_size: tuple[int, int],
               hand_chance: float = 0.0) -> Effects:
        """A plausible room: some gradient, maybe a shadow, mild blur and noise, a JPEG camera."""
        w, h = image_size
        hand = None
        if rng.random() < hand_chance:
            hand = Hand(tip=(float(rng.uniform(0.3, 0.7) * w), float(rng.uniform(0.3, 0.7) * h)),
                        angle_deg=float(rng.uniform(0, 360)), width_px=float(rng.uniform(0.09, 0.14) * w))
        return cls(
            light_gradient=float(rng.uniform(0.0, 0.45)),
            light_angle_deg=float(rng.uniform(0, 360)),
            brightness=float(rng.uniform(0.8, 1.1)),
            shadow=float(rng.uniform(0.2, 0.45)) if rng.random() < 0.4 else 0.0,
            shadow_seed=int(rng.integers(0, 2**31 - 1)),
            hand=hand,
            blur_sigma=float(rng.uniform(0.0, 1.2)),
            noise_sigma=float(rng.uniform(1.0, 5.0)),
            jpeg_quality=int(rng.integers(70, 96)),
        )


def apply_effects(image: np.ndarray, effects: Effects) -> np.ndarray:
    """Return a new image with every effect of ``effects`` applied, in the order a camera would."""
    return sensor(lit(image, effects), effects)


def lit(image: np.ndarray, effects: Effects) -> np.ndarray:
    """The scene in the room's light, with the hand and the lens's blur (float32): what reaches
    the sensor. The frames of a video of a still scene share it (:func:`sensor` differs)."""
    h, w = image.shape[:2]
    light = np.full((h, w), effects.brightness, np.float32)
    if effects.light_gradient:
        a = np.deg2rad(effects.light_angle_deg)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = ((xx - w / 2) * np.cos(a) + (yy - h / 2) * np.sin(a)) / (0.5 * np.hypot(w, h))
        light *= 1.0 + effects.light_gradient * 0.5 * ramp
    if effects.shadow:
        light *= 1.0 - effects.shadow * _shadow_mask((h, w), effects.shadow_seed)
    out = image.astype(np.float32)
    if effects.hand is not None and effects.hand_lit:
        out = _draw_hand(out, effects.hand)
    out *= light[..., None]
    if effects.glare:  # the lamp's own light: the camera's colour cast tints it as it tints the rest
        spot = effects.glare * _glare_mask((h, w), effects.glare_at, effects.glare_radius)[..., None]
        out = out + 255.0 * spot
    if effects.white_balance != (1.0, 1.0, 1.0):
        out *= np.asarray(effects.white_balance, np.float32)[None, None, :]
    if effects.hand is not None and not effects.hand_lit:
        out = _draw_hand(out, effects.hand)
    if effects.blur_sigma > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), effects.blur_sigma)
    return out


def sensor(light: np.ndarray, effects: Effects) -> np.ndarray:
    """What the camera makes of the ``light`` on its sensor (:func:`lit`): noise, then JPEG."""
    out = light
    if effects.noise_sigma > 0:
        if effects.noise_seed is None:
            rng = np.random.default_rng(effects.shadow_seed + 7)
            out = out + rng.normal(0.0, effects.noise_sigma, out.shape).astype(np.float32)
        else:  # a video's frames: drawn in single precision, three times as fast
            rng = np.random.default_rng(effects.noise_seed)
            out = out + rng.standard_normal(out.shape, np.float32) * np.float32(effects.noise_sigma)
    result = np.clip(out, 0, 255).astype(np.uint8)
    if effects.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, int(effects.jpeg_quality)])
        if ok:
            result = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return result


def _glare_mask(shape: tuple[int, int], at: tuple[float, float], radius: float) -> np.ndarray:
    """A lamp's reflection on a glossy table or board (0..1): a bright soft spot, strongest in
    its middle. It is light added (the lamp's, white once the camera's white balance has it), not
    a gain: what it covers loses its colour, most where it was darkest."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = max(radius * min(w, h), 1.0)
    return np.exp(-((xx - at[0] * w) ** 2 + (yy - at[1] * h) ** 2) / (2.0 * r * r)).astype(np.float32)


def _shadow_mask(shape: tuple[int, int], seed: int) -> np.ndarray:
    """A soft-edged blob (0..1) like the shadow of a person leaning over the table."""
    h, w = shape
    rng = np.random.default_rng(seed)
    mask = np.zeros((h, w), np.float32)
    centre = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    pts = [centre + rng.uniform(0.2, 0.45) * min(w, h) * np.array([np.cos(t), np.sin(t)])
           for t in np.sort(rng.uniform(0, 2 * np.pi, 7))]
    cv2.fillPoly(mask, [np.array(pts, np.int32)], 1.0)
    return cv2.GaussianBlur(mask, (0, 0), 0.06 * min(w, h))


def hand_outline(shape: tuple[int, ...], hand: Hand) -> np.ndarray:
    """Where ``hand`` covers a picture of ``shape`` (uint8, 255 under the skin, anti-aliased): the
    truth a benchmark holds the arm check to (is the hand over the board's cells at all?)."""
    return _hand_parts(shape, hand)[0]


def _hand_parts(shape: tuple[int, ...], hand: Hand) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The hand's skin (uint8 0..255), the forearm's polygon, the palm's middle and the arm's
    normal (drawing the hand needs all four; its truth only the first)."""
    h, w = shape[:2]
    a = np.deg2rad(hand.angle_deg)
    direction = np.array([np.cos(a), np.sin(a)])
    tip = np.array(hand.tip)
    far = tip + direction * 2.0 * max(w, h)
    normal = np.array([-direction[1], direction[0]])
    half = hand.width_px / 2
    palm = tip + direction * half * 1.1
    arm = np.array([palm + normal * half * 0.8, far + normal * half, far - normal * half,
                    palm - normal * half * 0.8])
    skin = np.zeros((h, w), np.uint8)
    cv2.fillPoly(skin, [arm.astype(np.int32)], 255, cv2.LINE_AA)
    cv2.ellipse(skin, tuple(palm.astype(int)), (int(half * 1.1), int(half * 1.0)), float(hand.angle_deg),
                0, 360, 255, -1, cv2.LINE_AA)
    for k in (-0.6, -0.2, 0.2, 0.6):  # fingers reaching past the palm
        base = palm - direction * half * 0.6 + normal * half * k
        end = base - direction * half * (1.1 - abs(k) * 0.5)
        cv2.line(skin, tuple(base.astype(int)), tuple(end.astype(int)), 255, max(3, int(half * 0.32)),
                 cv2.LINE_AA)
    return skin, arm, palm, normal


def _draw_hand(image: np.ndarray, hand: Hand) -> np.ndarray:
    """A skin-coloured forearm from the image edge ending in a rounded hand, with a soft shadow."""
    h, w = image.shape[:2]
    skin, arm, palm, normal = _hand_parts(image.shape, hand)
    half = hand.width_px / 2
    shadow = np.zeros((h, w), np.float32)
    offset = np.array([0.18, 0.22]) * hand.width_px
    cv2.fillPoly(shadow, [(arm + offset).astype(np.int32)], 1.0)
    cv2.circle(shadow, tuple((palm + offset).astype(int)), int(half * 1.15), 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), hand.width_px * 0.15)
    out = image * (1.0 - 0.45 * shadow[..., None])
    alpha = cv2.GaussianBlur(skin, (0, 0), 1.2).astype(np.float32)[..., None] / 255.0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    shade = 0.85 + 0.15 * np.sin((xx * normal[0] + yy * normal[1]) / max(1.0, half) * 1.4)
    colour = np.array(hand.colour, np.float32)[None, None, :] * shade[..., None]
    return out * (1.0 - alpha) + colour * alpha
