"""``tablekeeper doctor [--test-devices] [--json]``: is this machine ready to referee?

Checks the data directory and game log, the settings, the word list, Tesseract, the
display and touchscreen, the camera, the GPIO and pin factory, the LED ring and buzzer
(``--test-devices`` plays a short countdown on them) and the calibration. Prints one line
per check — OK, WARN or FAIL with what is wrong — and under each problem the one command
that fixes it. Exit status 1 when any check failed, 0 otherwise (warnings are things the
kiosk copes with, such as no camera).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from kiosk.doctor import camera as doctor_camera
from kiosk.doctor import checks
from kiosk.doctor import hardware as hardware_checks
from kiosk.files import settings as settings_file

#: In the order a person would fix them: storage first, then software, then devices.
CHECKS: tuple[checks.Check, ...] = (
    checks.check_user,
    checks.check_data_dir,
    checks.check_game_log,
    checks.check_settings,
    checks.check_word_list,
    checks.check_tesseract,
    checks.check_display,
    checks.check_touch,
    doctor_camera.check_camera,
    hardware_checks.check_gpio,
    hardware_checks.check_ring_and_buzzer,
    checks.check_calibration,
)

LABELS = {checks.OK: "OK", checks.WARN: "WARN", checks.FAIL: "FAIL"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--test-devices", action="store_true",
                        help="play a three-second countdown on the LED ring and buzzer")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")


def run_checks(ctx: checks.Context, which: tuple[checks.Check, ...] = CHECKS) -> list[checks.Result]:
    results = []
    for check in which:
        try:
            results.append(check(ctx))
        except Exception as exc:  # a check that crashes is itself a finding; the report goes on
            name = check.__name__.removeprefix("check_").replace("_", " ")
            results.append(checks.Result.fail(name, f"the check itself failed: {type(exc).__name__}: {exc}",
                                              "report this: tablekeeper doctor --json > doctor.json"))
    return results


def run(args: argparse.Namespace) -> int:
    from hardware.pins import is_raspberry_pi

    ctx = checks.Context(
        settings=settings_file.load(keep_aside=False),  # doctor looks; it never moves files
        on_pi=is_raspberry_pi(),
        test_devices=args.test_devices,
    )
    results = run_checks(ctx)
    if args.json:
        json.dump([asdict(r) for r in results], sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        _print_report(results)
    return 1 if any(r.status == checks.FAIL for r in results) else 0


def _print_report(results: list[checks.Result]) -> None:
    width = max(len(r.name) for r in results)
    for r in results:
        print(f"{LABELS[r.status]:<5} {r.name:<{width}}  {r.detail}")
        if r.fix and r.status != checks.OK:
            print(f"{'':<5} {'':<{width}}  fix: {r.fix}")
    failed = sum(r.status == checks.FAIL for r in results)
    warned = sum(r.status == checks.WARN for r in results)
    if failed:
        print(f"\n{failed} problem(s) to fix" + (f", {warned} warning(s)" if warned else "") + ".")
    else:
        print("\nReady to referee" + (f" ({warned} warning(s))." if warned else "."))
