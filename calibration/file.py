"""The calibration file: where the board is in the camera's picture, and what reads its letters.

One small JSON file (``kiosk.files.paths.calibration_file()``) written by ``tablekeeper calibrate``
and read by ``tablekeeper read``, the kiosk and ``tablekeeper doctor``. It is written
atomically (temporary file, fsync, ``os.replace``) so a power cut leaves either the old file
or the new one, never half of one; a file that is damaged anyway (truncated, not JSON, a
newer version, impossible values) is refused with a :class:`CalibrationError` whose message
says in plain words what is wrong and how to fix it. The file itself is never touched on a
failed load, so a person can look at it.

Example::

    >>> import tempfile, pathlib
    >>> cal = Calibration(kind="upwords", rows=8, cols=8,
    ...                   corners=((100, 80), (540, 90), (560, 420), (90, 410)),
    ...                   image_size=(640, 480))
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "calibration.json"
    >>> save_calibration(cal, path)
    >>> load_calibration(path) == cal
    True

The format is documented in docs/calibration.md.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from calibration.camera_hold import CameraHold, HoldError
from calibration.durable import write_atomically
from games.checked_json import checked_loads

VERSION = 1
#: A calibration is a few kB (corners, sizes, a lens): a larger file is refused unread.
MAX_FILE_BYTES = 1024 * 1024
#: Its values nest at most three deep (the lens matrix); deeper is not a calibration.
MAX_DEPTH = 16
KINDS = ("upwords", "wots", "grid")
DEFAULT_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FIX = "run `tablekeeper calibrate board` again"


class CalibrationError(ValueError):
    """The calibration file is missing, damaged or describes an impossible board."""


@dataclass(frozen=True)
class Lens:
    """A camera's intrinsics from a lens calibration: 3x3 matrix and distortion coefficients."""

    camera_matrix: tuple[tuple[float, float, float], ...]
    distortion: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        m = self.camera_matrix
        if len(m) != 3 or any(len(row) != 3 for row in m):
            raise CalibrationError("the lens camera matrix must be 3x3")
        if not all(math.isfinite(v) for row in m for v in row):
            raise CalibrationError("the lens camera matrix has a value that is not a number")
        if m[0][0] <= 0 or m[1][1] <= 0:
            raise CalibrationError("the lens focal lengths must be positive")
        if len(self.distortion) not in (0, 4, 5, 8, 12, 14):
            raise CalibrationError(f"the lens has {len(self.distortion)} distortion coefficients; "
                                   "OpenCV uses 4, 5, 8, 12 or 14")

    def to_dict(self) -> dict[str, Any]:
        return {"camera_matrix": [list(r) for r in self.camera_matrix], "distortion": list(self.distortion)}

    @classmethod
    def from_arrays(cls, camera_matrix: Any, distortion: Any = ()) -> Lens:
        """Build from numpy arrays (as cv2.calibrateCamera returns them)."""
        rows = tuple(tuple(float(v) for v in row) for row in _rows(camera_matrix))
        flat = _flatten(distortion)
        return cls(rows, tuple(float(v) for v in flat))


def _rows(matrix: Any) -> list[Any]:
    return list(matrix.tolist() if hasattr(matrix, "tolist") else matrix)


def _flatten(values: Any) -> list[Any]:
    values = values.tolist() if hasattr(values, "tolist") else values
    out: list[Any] = []
    for v in values:
        out.extend(_flatten(v) if isinstance(v, list | tuple) else [v])
    return out


Point = tuple[float, float]


@dataclass(frozen=True)
class Calibration:
    """Where the playing area is in the camera image, and how its letters are read.

    ``kind``: "upwords", "wots" (Word on the Street: 5 rows x 17 columns) or "grid" (any
    rows x cols board). ``corners``: the playing area's outer corners in the camera image,
    top-left, top-right, bottom-right, bottom-left (as the players sit: TL is the far left).
    ``image_size``: (width, height) of the pictures the corners belong to. ``letters_file``:
    the taught letter classifier (.npz), relative to the calibration file's folder unless
    absolute. ``lens``: the camera's intrinsics, if a lens calibration was done.
    Invalid values raise :class:`CalibrationError` at construction.
    """

    kind: str
    rows: int
    cols: int
    corners: tuple[Point, Point, Point, Point]
    image_size: tuple[int, int]
    alphabet: tuple[str, ...] = tuple(DEFAULT_ALPHABET)
    letters_file: str | None = None
    lens: Lens | None = None
    appearance_file: str | None = None
    tile_face: float | None = None
    tile_thickness_mm: float | None = None
    #: The tile's thickness as a share of the cell pitch, measured from the teaching photo
    #: (:mod:`vision.set_geometry`); None when it was never measured.
    tile_height: float | None = None
    #: The camera's exposure, gain, white balance and focus at calibration, held at every start.
    camera_hold: CameraHold | None = None
    version: int = field(default=VERSION)

    def __post_init__(self) -> None:
        if self.version != VERSION:
            raise CalibrationError(f"calibration version {self.version!r} is not one this tablekeeper reads "
                                   f"(it reads version {VERSION}); {_FIX}")
        if not isinstance(self.kind, str) or self.kind not in KINDS:
            raise CalibrationError(f"board kind {self.kind!r} is not one of {', '.join(KINDS)}")
        for name in ("rows", "cols"):
            value = getattr(self, name)
            if not _whole(value) or not 1 <= value <= 50:
                raise CalibrationError(f"{name} must be a whole number from 1 to 50, not {value!r}")
            object.__setattr__(self, name, int(value))
        if self.kind == "wots" and (self.rows, self.cols) != (5, 17):
            raise CalibrationError("a Word on the Street board is 5 rows x 17 columns, "
                                   f"not {self.rows}x{self.cols}")
        size = tuple(self.image_size)
        if len(size) != 2 or not all(_whole(v) and v > 0 for v in size):
            raise CalibrationError(f"the image size must be two positive whole numbers (width, height), "
                                   f"not {self.image_size!r}")
        object.__setattr__(self, "image_size", (int(size[0]), int(size[1])))
        object.__setattr__(self, "corners", _check_corners(self.corners, self.image_size))
        letters = tuple(self.alphabet) if isinstance(self.alphabet, str) else tuple(self.alphabet or ())
        if not letters or not all(isinstance(a, str) and a.strip() == a and a for a in letters):
            raise CalibrationError("the alphabet must be a non-empty list of letters (like A, B, Qu, Ä)")
        if len(set(letters)) != len(letters):
            raise CalibrationError("the alphabet names a letter twice")
        object.__setattr__(self, "alphabet", letters)
        if self.letters_file is not None and not (isinstance(self.letters_file, str) and self.letters_file):
            raise CalibrationError("letters_file must be a file name")
        if self.lens is not None and not isinstance(self.lens, Lens):
            raise CalibrationError("lens must be a Lens")
        if self.camera_hold is not None and not isinstance(self.camera_hold, CameraHold):
            raise CalibrationError("camera_hold must be a CameraHold")
        if self.appearance_file is not None and not (isinstance(self.appearance_file, str)
                                                     and self.appearance_file):
            raise CalibrationError("appearance_file must be a file name")
        for name, low, high, unit in (("tile_face", 0.4, 1.0, "of the cell"),
                                      ("tile_thickness_mm", 0.5, 20.0, "mm"),
                                      ("tile_height", 0.02, 0.5, "of the cell")):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
                raise CalibrationError(f"{name} must be a number from {low} to {high} {unit}, not {value!r}")
            object.__setattr__(self, name, float(value))

    # -- conveniences --------------------------------------------------------------------------
    def letters_path(self, calibration_path: str | os.PathLike[str]) -> Path | None:
        """The taught classifier's full path, resolved against the calibration file's folder."""
        if self.letters_file is None:
            return None
        p = Path(self.letters_file)
        return p if p.is_absolute() else Path(calibration_path).parent / p

    def corners_for(self, width: int, height: int) -> Any:
        """The corners for a picture of ``width`` x ``height``: scaled from the calibrated size when
        the shape is the same, refused (CalibrationError) when it is not."""
        import numpy as np

        corners = np.array(self.corners, np.float64)
        cw, ch = self.image_size
        if (width, height) != (cw, ch):
            if abs(cw / ch - width / height) > 0.01:
                raise CalibrationError(f"the calibration is for {cw}x{ch} pictures; this photo is "
                                       f"{width}x{height}")
            corners = corners * (width / cw)
        return corners

    def appearance_path(self, calibration_path: str | os.PathLike[str]) -> Path | None:
        """The learnt board references' full path (like :meth:`letters_path`)."""
        if self.appearance_file is None:
            return None
        p = Path(self.appearance_file)
        return p if p.is_absolute() else Path(calibration_path).parent / p

    def with_letters(self, letters_file: str | None) -> Calibration:
        return replace(self, letters_file=letters_file)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "kind": self.kind,
            "rows": self.rows,
            "cols": self.cols,
            "corners": [list(p) for p in self.corners],
            "image_size": list(self.image_size),
            "alphabet": list(self.alphabet),
            "letters_file": self.letters_file,
            "lens": self.lens.to_dict() if self.lens else None,
            "appearance_file": self.appearance_file,
            "tile_face": self.tile_face,
            "tile_thickness_mm": self.tile_thickness_mm,
            "tile_height": self.tile_height,
            "camera_hold": self.camera_hold.to_dict() if self.camera_hold else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Calibration:
        """Build from the JSON form; any problem is a :class:`CalibrationError`."""
        if not isinstance(data, Mapping):
            raise CalibrationError("the calibration is not a JSON object")
        version = data.get("version")
        if version != VERSION:
            raise CalibrationError(f"calibration version {version!r} is not one this tablekeeper reads "
                                   f"(it reads version {VERSION}); {_FIX}")
        missing = [k for k in ("kind", "rows", "cols", "corners", "image_size") if k not in data]
        if missing:
            raise CalibrationError(f"the calibration lacks {', '.join(missing)}; {_FIX}")
        lens_data = data.get("lens")
        try:
            lens = None
            if lens_data is not None:
                if not isinstance(lens_data, Mapping):
                    raise CalibrationError("the lens entry is not an object")
                lens = Lens(tuple(tuple(float(v) for v in row) for row in lens_data["camera_matrix"]),
                            tuple(float(v) for v in lens_data.get("distortion") or ()))
            corners = data["corners"]
            size = data["image_size"]
            image_size = tuple(size)
            hold = data.get("camera_hold")
            camera_hold = None if hold is None else CameraHold.from_dict(hold)
            alphabet = data.get("alphabet", DEFAULT_ALPHABET)
            if not isinstance(alphabet, str | list):
                raise CalibrationError("the alphabet must be a list of letters")
        except CalibrationError:
            raise
        except HoldError as exc:
            raise CalibrationError(f"{exc}; {_FIX}") from None
        except (TypeError, ValueError, KeyError, IndexError) as exc:
            raise CalibrationError(f"the calibration has a malformed value ({exc}); {_FIX}") from None
        return cls(kind=data["kind"], rows=data["rows"], cols=data["cols"], corners=corners,  # type: ignore[arg-type]
                   image_size=image_size, alphabet=alphabet,  # type: ignore[arg-type]
                   letters_file=data.get("letters_file"), lens=lens,
                   appearance_file=data.get("appearance_file"), tile_face=data.get("tile_face"),
                   tile_thickness_mm=data.get("tile_thickness_mm"), tile_height=data.get("tile_height"),
                   camera_hold=camera_hold, version=version)


def _whole(value: Any) -> bool:
    """A whole number (numpy integers too), but not a bool or a float."""
    return not isinstance(value, bool | float) and hasattr(value, "__index__")


def _check_corners(corners: Any, image_size: tuple[int, int]) -> tuple[Point, Point, Point, Point]:
    """Four finite points forming a convex quadrilateral, clockwise on screen (TL, TR, BR, BL)."""
    try:
        if isinstance(corners, str) or any(len(p) != 2 for p in corners):
            raise TypeError
        pts = [(float(p[0]), float(p[1])) for p in corners]
    except (TypeError, ValueError, IndexError, KeyError):
        raise CalibrationError(f"the corners must be four (x, y) points, not {corners!r}") from None
    if len(pts) != 4:
        raise CalibrationError(f"the corners must be four points (top-left, top-right, bottom-right, "
                               f"bottom-left), not {len(pts)}")
    if not all(math.isfinite(v) for p in pts for v in p):
        raise CalibrationError("a corner is not a finite number")
    crosses = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        crosses.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    if not (all(c > 0 for c in crosses) or all(c < 0 for c in crosses)):
        raise CalibrationError("the four corners do not make a convex board outline "
                               "(two corners swapped, or three in a line)")
    if crosses[0] < 0:
        # Image y grows downwards, so TL->TR->BR->BL turns with a positive cross product.
        raise CalibrationError("the corners go round the board the wrong way: give them as "
                               "top-left, top-right, bottom-right, bottom-left")
    w, h = image_size
    if any(x < -0.05 * w or x > 1.05 * w or y < -0.05 * h or y > 1.05 * h for x, y in pts):
        raise CalibrationError(f"a corner lies outside the {w}x{h} picture")
    return (pts[0], pts[1], pts[2], pts[3])


def load_calibration(path: str | os.PathLike[str]) -> Calibration:
    """Read a calibration file; raise :class:`CalibrationError` in plain words if it is unusable."""
    path = Path(path)
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise CalibrationError(f"there is no calibration file at {path}; run `tablekeeper calibrate board`"
                               ) from None
    except IsADirectoryError:
        raise CalibrationError(f"{path} is a folder, not a calibration file") from None
    except OSError as exc:
        raise CalibrationError(f"cannot read the calibration file {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CalibrationError(f"the calibration file {path} is larger than {MAX_FILE_BYTES // 1024} kB: "
                               f"not a calibration (damaged?); {_FIX}")
    if not raw.strip():
        raise CalibrationError(f"the calibration file {path} is empty; {_FIX}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CalibrationError(f"the calibration file {path} is not text (damaged?); {_FIX}") from None
    try:
        data = checked_loads(text, max_digits=12, max_depth=MAX_DEPTH, holder="a calibration")
    except ValueError as exc:
        if not isinstance(exc, json.JSONDecodeError):
            raise CalibrationError(f"the calibration file {path} is damaged ({exc}); {_FIX}") from None
        body = text.strip()
        if exc.pos >= len(body) or (body.startswith("{") and not body.endswith("}")):
            raise CalibrationError(f"the calibration file {path} is cut short (half written?); {_FIX}"
                                   ) from None
        raise CalibrationError(f"the calibration file {path} is damaged (not JSON at line {exc.lineno}, "
                               f"column {exc.colno}); {_FIX}") from None
    try:
        return Calibration.from_dict(data)
    except CalibrationError as exc:
        raise CalibrationError(f"{path}: {exc}") from None


def save_calibration(cal: Calibration, path: str | os.PathLike[str]) -> None:
    """Write ``cal`` to ``path`` atomically: the old file stays whole until the new one is."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CalibrationError(f"cannot make the folder {path.parent}: {exc.strerror or exc}") from None
    text = json.dumps(cal.to_dict(), ensure_ascii=False, indent=2) + "\n"
    try:
        write_atomically(path, text.encode("utf-8"))
    except OSError as exc:
        raise CalibrationError(f"cannot write the calibration file {path}: {exc.strerror or exc}") from None


def corners_from_sequence(values: Sequence[float]) -> tuple[Point, Point, Point, Point]:
    """Eight numbers x0,y0,...,x3,y3 as four points (the ``--corners`` form)."""
    if len(values) != 8:
        raise CalibrationError(f"corners need eight numbers (four x,y points), not {len(values)}")
    return tuple((float(values[i]), float(values[i + 1])) for i in range(0, 8, 2))  # type: ignore[return-value]
