"""``tablekeeper calibrate``: print corner markers, find the board, teach the letters, show it.

::

    tablekeeper calibrate markers OUT.png [--size-mm 30]
    tablekeeper calibrate board IMAGE|--camera --board upwords|wots|grid [--grid RxC]
                                [--corners X,Y,...] [--out FILE] [--preview OUT.png]
    tablekeeper calibrate teach --from-folder DIR | --from-photo IMAGE --layout FILE [--accept]
    tablekeeper calibrate lens PHOTO... | --sheet OUT.png
    tablekeeper calibrate show [--json]

The calibration is written to the kiosk's own file (``kiosk.files.paths.calibration_file()``)
unless ``--calibration``/``--out`` names another. Bad usage (no picture, markers hidden,
a layout that does not fit) exits 2 with a plain message. See docs/calibration.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kiosk.cli.picture_checks import refuse_oversized
from kiosk.cli.usage import UsageError
from vision.board_setup import board_calibration, learn_board_look, locate_board

KINDS = ("upwords", "wots", "grid")
DEFAULT_GRID = {"upwords": (8, 8), "wots": (5, 17), "grid": (8, 8)}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))

    p = sub.add_parser("markers", help="write the printable sheet of four corner markers")
    p.add_argument("out", metavar="OUT.png", help="where to write the sheet (.png or .pdf)")
    p.add_argument("--size-mm", type=float, default=30.0, help="printed marker size (default 30 mm)")

    p = sub.add_parser("board", help="find the board in a photo and save where it is")
    p.add_argument("image", metavar="IMAGE", nargs="?", help="a photo from the kiosk's camera")
    p.add_argument("--camera", action="store_true", help="take the photo with the kiosk's camera")
    p.add_argument("--board", required=True, choices=KINDS, help="upwords, wots (Word on the Street) or grid")
    p.add_argument("--grid", metavar="RxC", help="rows x columns (Upwords 8x8 or 10x10; default per board)")
    p.add_argument("--corners", metavar="X,Y,X,Y,X,Y,X,Y",
                   help="the playing area's corners (top-left, top-right, bottom-right, bottom-left) "
                        "instead of finding the markers")
    p.add_argument("--out", metavar="FILE", help="calibration file (default: the kiosk's own)")
    p.add_argument("--preview", metavar="OUT.png", help="also write the photo with the grid drawn on it")
    p.add_argument("--start-position", action="store_true",
                   help="the photo shows the board before play (empty; Word on the Street: every tile on "
                        "its median letter): learn what this board looks like, for reading it reliably")
    p.add_argument("--tile-thickness", type=float, metavar="MM",
                   help="how thick one tile is, for stack heights (default: 3.6 Upwords, 4 others)")

    p = sub.add_parser("teach", aliases=["letters"], help="teach the letter reader the players' tiles")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--from-folder", metavar="DIR", help="labelled crops, one sub-folder per letter")
    src.add_argument("--from-photo", metavar="IMAGE", help="a photo of tiles laid out as --layout says")
    p.add_argument("--layout", metavar="FILE", help="the layout: one line per row, '.' for an empty cell")
    p.add_argument("--accept", action="store_true", help="take the layout as written, ask nothing")
    p.add_argument("--no-tesseract", action="store_true", help="do not check the layout with Tesseract")
    p.add_argument("--calibration", metavar="FILE", help="calibration file (default: the kiosk's own)")

    p = sub.add_parser("lens", help="calibrate the lens from photos of the printed ChArUco board")
    p.add_argument("images", metavar="IMAGE", nargs="*", help="photos of the lens board (3 or more)")
    p.add_argument("--sheet", metavar="OUT.png", help="write the printable lens board instead")
    p.add_argument("--no-distortion", action="store_true", help="fit focal length and centre only")
    p.add_argument("--calibration", metavar="FILE", help="calibration file (default: the kiosk's own)")

    p = sub.add_parser("show", help="print the calibration")
    p.add_argument("--calibration", metavar="FILE", help="calibration file (default: the kiosk's own)")
    p.add_argument("--json", action="store_true", help="print it as JSON")


def run(args: argparse.Namespace) -> int:
    from calibration.file import CalibrationError

    action = getattr(args, "action", None)
    if action is None:
        raise UsageError("say what to calibrate: markers, board, teach or show")
    handlers = {"markers": _markers, "board": _board, "teach": _teach, "letters": _teach, "lens": _lens,
                "show": _show}
    handler = handlers[action]
    try:
        return handler(args)
    except CalibrationError as exc:
        raise UsageError(str(exc)) from None


def _path(value: str | None) -> Path:
    from kiosk.files.paths import calibration_file

    return Path(value) if value else calibration_file()


# ------------------------------------------------------------------ markers
def _markers(args: argparse.Namespace) -> int:
    from calibration.markers import write_marker_sheet

    path = write_marker_sheet(args.out, args.size_mm)
    print(f"wrote {path}: markers 0-3 of {args.size_mm:g} mm; print at actual size (no fit to page), "
          "check the 100 mm line, then lay each upright at its corner with the dot on the board's corner")
    return 0


# ------------------------------------------------------------------ board
def _grid(text: str | None, kind: str) -> tuple[int, int]:
    from kiosk.cli.read import parse_grid

    if text is None:
        return DEFAULT_GRID[kind]
    rows, cols = parse_grid(text)
    if kind == "wots" and (rows, cols) != (5, 17):

        raise UsageError("Word on the Street is always 5x17 (five spaces by seventeen letters)")
    return rows, cols


def _photo(args: argparse.Namespace) -> tuple[Any, str, Any]:
    """The calibration photo, where it came from, and the camera's held controls (None for a file)."""
    if args.camera == bool(args.image):
        raise UsageError("give a photo (IMAGE) or --camera, not both or neither")
    if args.camera:
        from kiosk.files import settings as settings_mod
        from vision.camera import open_camera

        source_name = settings_mod.load(keep_aside=False).values.get("camera", {}).get("source", "auto")
        choice = open_camera(str(source_name))
        if choice.source is None:
            raise UsageError(f"no camera: {choice.reason}")
        from vision.camera import CameraLost
        from vision.camera_controls import settled_photo

        with choice.source as cam:
            try:
                frame, hold = settled_photo(cam)
            except CameraLost as exc:
                raise UsageError(str(exc)) from None
            return frame, cam.describe(), hold
    if not Path(args.image).exists():
        raise UsageError(f"{args.image}: there is no file")
    from kiosk.cli.picture_checks import load_picture, picture_size

    size = picture_size(Path(args.image))
    if size is not None and max(size) > 8000:  # the calibration must be in the camera's own pixels
        raise UsageError(f"{args.image} is {size[0]}x{size[1]} pixels: calibrate on a photo from the "
                         "kiosk's camera, at the size it takes")
    image, _scale = load_picture(args.image, max_side=8000)
    return image, str(args.image), None


def _board(args: argparse.Namespace) -> int:
    from calibration.file import save_calibration

    kind = args.board
    rows, cols = _grid(args.grid, kind)
    image, where, hold = _photo(args)
    from kiosk.cli.picture_checks import refuse_tiny

    refuse_tiny(image)  # a 1x1 or one-colour picture: said so, before any corner is checked
    h, w = image.shape[:2]
    if args.corners:
        from kiosk.cli.read import parse_corners

        corners = tuple(parse_corners(args.corners))
        how = "corners given"
    else:
        corners, how = locate_board(image, kind, rows, cols)
    out = _path(args.out)
    cal = board_calibration(kind, rows, cols, corners, (w, h), out)
    _refuse_no_board(image, corners, kind, rows, cols)
    from dataclasses import replace

    if args.tile_thickness is not None:
        cal = replace(cal, tile_thickness_mm=args.tile_thickness)
    if hold is not None:
        cal = replace(cal, camera_hold=hold)
    letters_file = cal.letters_file
    save_calibration(cal, out)
    if args.start_position:
        print(learn_board_look(cal, image, out))
    if args.preview:
        _write_preview(image, cal, args.preview)
    pts = ", ".join(f"({x:.0f}, {y:.0f})" for x, y in corners)
    print(f"saved {out}: {kind} {rows}x{cols} in {where} ({w}x{h}), corners {how}: {pts}")
    if letters_file is None:
        print("next: teach the letters with `tablekeeper calibrate teach`")
    return 0


def _refuse_no_board(image: Any, corners: Any, kind: str, rows: int, cols: int) -> None:
    """Corners around no board's lines are refused before anything is saved."""
    from kiosk.cli.picture_checks import refuse_not_a_board

    refuse_not_a_board(image, corners, rows, cols)


def _write_preview(image: Any, cal: Any, out: str) -> None:
    """The photo with the calibrated grid drawn on it, for a person to check by eye."""
    import cv2
    import numpy as np


    src = np.float32([[0, 0], [cal.cols, 0], [cal.cols, cal.rows], [0, cal.rows]])
    H = cv2.getPerspectiveTransform(src, np.float32(cal.corners))
    shown = image.copy()
    lines = [((c, 0), (c, cal.rows)) for c in range(cal.cols + 1)] + \
            [((0, r), (cal.cols, r)) for r in range(cal.rows + 1)]
    for a, b in lines:
        pa, pb = cv2.perspectiveTransform(np.float64([[a, b]]), H)[0]
        cv2.line(shown, tuple(round(v) for v in pa), tuple(round(v) for v in pb), (0, 255, 0), 2,
                 cv2.LINE_AA)
    for name, (x, y) in zip(("TL", "TR", "BR", "BL"), cal.corners, strict=True):
        cv2.putText(shown, name, (int(x) + 6, int(y) - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 255), 2,
                    cv2.LINE_AA)
    if not cv2.imwrite(out, shown):
        raise UsageError(f"cannot write the preview {out}")


# ------------------------------------------------------------------ teach
def _teach(args: argparse.Namespace) -> int:
    from calibration.file import load_calibration
    from vision.teach_letters import (
        confirm,
        parse_layout,
        samples_from_folder,
        samples_from_photo,
        save_taught,
        teach,
    )

    path = _path(args.calibration)
    cal = None
    if path.exists():
        cal = load_calibration(path)
    if args.from_folder:
        if args.layout:
            raise UsageError("--layout goes with --from-photo, not --from-folder")
        samples = samples_from_folder(args.from_folder)
        asked = 0
    else:
        import cv2

        if not args.layout:
            raise UsageError("--from-photo needs --layout FILE (which letter lies on which cell)")
        if cal is None:
            raise UsageError(f"no calibration at {path}: run `tablekeeper calibrate board` first, "
                             "so the board's cells can be found in the photo")
        try:
            layout_text = Path(args.layout).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read the layout {args.layout}: {getattr(exc, 'strerror', None) or exc}"
                             ) from None
        refuse_oversized(Path(args.from_photo))
        image = cv2.imread(args.from_photo, cv2.IMREAD_COLOR)
        if image is None:
            raise UsageError(f"{args.from_photo}: no picture OpenCV can read")
        layout = parse_layout(layout_text, cal.rows, cal.cols, cal.alphabet)
        samples = samples_from_photo(image, cal, layout,
                                     check_with_tesseract=not (args.no_tesseract or args.accept))
        disagreements = [s for s in samples if s.disagrees]
        asked = 0 if args.accept else len(disagreements)
        ask = None
        if disagreements and not args.accept:
            if not sys.stdin.isatty():
                where = "; ".join(f"{s.where()} {s.label} (Tesseract: {s.proposed.letter or 'nothing'})"
                                  for s in disagreements[:8] if s.proposed is not None)
                raise UsageError(f"{len(disagreements)} cells disagree with Tesseract ({where}): run on a "
                                 "terminal to confirm them, or give --accept to take the layout as written")
            print(f"{len(samples) - len(disagreements)} of {len(samples)} cells agree with Tesseract; "
                  "please check the others:")
            ask = input
        try:
            samples = confirm(samples, ask, cal.alphabet)
        except EOFError:
            raise UsageError("stopped before every cell was confirmed; nothing was taught") from None
    classifier = teach(samples)
    target = save_taught(classifier, path, cal)
    if args.from_photo and cal is not None:
        print(_learn_tiles(path, image, layout))
    letters = ", ".join(classifier.alphabet)
    print(f"taught {len(samples)} examples of {len(classifier.alphabet)} letters ({letters}) -> {target}"
          + (f"; {asked} checked by hand" if asked else ""))
    if cal is None:
        print(f"no board calibration yet at {path}: `tablekeeper calibrate board` will use these letters")
    return 0


def _learn_tiles(path: Path, image: Any, layout: dict) -> str:
    """Teach the board's look the tiles' colour and face size from the teaching photo."""
    from calibration.file import load_calibration
    from vision.board_look import add_tiles, load_appearance, save_appearance

    cal = load_calibration(path)  # as save_taught left it
    appearance, face, height = add_tiles(cal, load_appearance(cal, path), image, layout.keys())
    save_appearance(cal, path, appearance, tile_face=face if face is not None else cal.tile_face,
                    tile_height=height.ratio if height is not None else cal.tile_height)
    size = f", tile face {face:.0%} of a cell" if face is not None else ""
    if height is not None:
        size += f", tiles {height.ratio:.1%} of a cell thick"
    elif cal.kind == "upwords":
        size += ("; the tiles' thickness could not be measured (camera nearly overhead?): "
                 "stack heights will come from the game's history")
    return f"learnt the tiles' colour{size}"


# ------------------------------------------------------------------ lens
def _lens(args: argparse.Namespace) -> int:
    import cv2

    from calibration.file import load_calibration, save_calibration
    from calibration.lens import calibrate_lens, write_charuco_sheet

    if args.sheet:
        if args.images:
            raise UsageError("--sheet writes the board to print; give the photos in a second run")
        path = write_charuco_sheet(args.sheet)
        print(f"wrote {path}: print at actual size, glue it flat, photograph it with the kiosk's camera "
              "from 5 to 10 different tilts, then: tablekeeper calibrate lens PHOTOS...")
        return 0
    if not args.images:
        raise UsageError("give the photos of the lens board (or --sheet OUT.png to print one)")
    cal_path = _path(args.calibration)
    if not cal_path.exists():
        raise UsageError(f"no calibration at {cal_path}: run `tablekeeper calibrate board` first")
    cal = load_calibration(cal_path)
    images = []
    for name in args.images:
        refuse_oversized(Path(name))
        image = cv2.imread(name, cv2.IMREAD_COLOR)
        if image is None:
            raise UsageError(f"{name}: no picture OpenCV can read")
        images.append(image)
    result = calibrate_lens(images, distortion=not args.no_distortion)
    if result.image_size != cal.image_size:
        (w, h), (cw, ch) = result.image_size, cal.image_size
        raise UsageError(f"the lens photos are {w}x{h}; the board was calibrated on {cw}x{ch} pictures: "
                         "use the same camera mode")
    from dataclasses import replace

    save_calibration(replace(cal, lens=result.lens), cal_path)
    fx, fy = result.lens.camera_matrix[0][0], result.lens.camera_matrix[1][1]
    print(f"lens saved in {cal_path}: focal length {fx:.0f} x {fy:.0f} px, "
          f"reprojection error {result.rms:.2f} px ({len(result.used)} of {len(images)} photos used)")
    return 0


# ------------------------------------------------------------------ show
def _show(args: argparse.Namespace) -> int:
    from calibration.file import load_calibration

    path = _path(args.calibration)
    if not path.exists():
        raise UsageError(f"no calibration yet at {path}: run `tablekeeper calibrate board`")
    cal = load_calibration(path)
    if args.json:
        print(json.dumps(cal.to_dict(), ensure_ascii=False, indent=2))
        return 0
    letters = cal.letters_path(path)
    taught = "not taught yet (tablekeeper calibrate teach)" if letters is None else \
        f"{letters}" + ("" if letters.exists() else " (MISSING: teach again)")
    print(f"calibration: {path}")
    print(f"board:       {cal.kind} {cal.rows}x{cal.cols}")
    print(f"picture:     {cal.image_size[0]}x{cal.image_size[1]}")
    names = ("top left", "top right", "bottom right", "bottom left")
    for name, (x, y) in zip(names, cal.corners, strict=True):
        print(f"  {name + ':':14s}({x:.1f}, {y:.1f})")
    print(f"alphabet:    {' '.join(cal.alphabet)}")
    print(f"letters:     {taught}")
    print(f"lens:        {'calibrated' if cal.lens else 'not calibrated (focal length estimated)'}")
    return 0
