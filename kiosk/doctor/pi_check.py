"""``python -m kiosk.doctor.pi_check``: do the camera's compiled modules load with this Python's numpy?

On Raspberry Pi OS, picamera2, simplejpeg and libcamera come from apt, built against
Debian's numpy (1.24 on Bookworm). The kiosk's venv sees them through
``--system-site-packages``; if pip put a numpy 2 into the venv (opencv-python 4.12 and later
require it), that numpy hides Debian's and those modules fail at import ("numpy.dtype size
changed", "numpy.core.multiarray failed to import"). The installer runs this check right
after pip, and ``tablekeeper doctor`` runs it too, so the mismatch is found at install time
with the fix, not as a camera that never works.

Exit status: 0 when everything that must load loads; 1 otherwise (each failure on its own
line with the fix). ``--require-camera`` (the installer passes it on a Pi) makes a missing
picamera2 a failure; ``--also MODULE`` adds a module (the aarch64 rehearsal adds one).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass

#: In the order they depend on each other: numpy first, the camera stack last.
CORE = ("numpy", "cv2")
CAMERA = ("libcamera", "simplejpeg", "picamera2")


@dataclass(frozen=True)
class Loaded:
    module: str
    ok: bool
    detail: str
    fix: str = ""
    missing: bool = False


def check(module: str) -> Loaded:
    """Import ``module`` and say where it came from, or why it did not load and the fix."""
    from kiosk.camera.faults import explain

    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module.split(".")[0]:
            return Loaded(module, False, "not installed", "", missing=True)
        reason, fix = explain(exc)
        return Loaded(module, False, reason, fix)
    except Exception as exc:  # ValueError, AttributeError, ImportError: a mismatch of some kind
        reason, fix = explain(exc)
        return Loaded(module, False, reason, fix)
    version = getattr(mod, "__version__", "")
    where = getattr(mod, "__file__", "") or ""
    origin = "apt" if where.startswith("/usr/lib/python3/") else "venv" if where else "built in"
    return Loaded(module, True, f"{version} ({origin}: {where})".replace(" ()", "").strip())


def run_checks(require_camera: bool, also: tuple[str, ...] = ()) -> tuple[list[Loaded], bool]:
    results = [check(m) for m in (*CORE, *also, *CAMERA)]
    ok = True
    for r in results:
        if r.ok:
            continue
        if r.missing and r.module in CAMERA and not require_camera:
            continue
        ok = False
    return results, ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.doctor.pi_check",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--require-camera", action="store_true", help="a missing picamera2 is a failure")
    parser.add_argument("--also", action="append", default=[], metavar="MODULE", help="check this module too")
    args = parser.parse_args(argv)
    results, ok = run_checks(args.require_camera, tuple(args.also))
    for r in results:
        mark = "ok  " if r.ok else ("--  " if r.missing and not args.require_camera else "FAIL")
        print(f"{mark} {r.module}: {r.detail}")
        if r.fix:
            print(f"     fix: {r.fix}")
    print("the camera's modules load with this numpy" if ok else "some modules do not load: see above")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
