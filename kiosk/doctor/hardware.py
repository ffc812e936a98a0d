"""``tablekeeper doctor``'s GPIO, LED ring and buzzer checks, through ``hardware/``'s public API.

The timer opens its parts with :func:`hardware.build.open_table_timer`, which falls back
to on-screen-only parts (and says why in ``TableTimer.notes``) when the GPIO is not
usable. Doctor opens the parts the same way, so it reports exactly what the kiosk would
get — and adds the device-file facts (which ``/dev`` node, which group) a person needs to
fix it. With ``--test-devices`` it runs a three-second countdown on the real parts: the
ring drains, turns amber, the buzzer ticks and beeps at zero.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from kiosk.doctor.checks import Context, Result, _missing_module

#: How long the --test-devices countdown lasts, and when it warns.
TEST_SECONDS = 3.0
TEST_WARNING = 2.0


def _hardware_config(ctx: Context) -> Any:
    from hardware.config import HardwareConfig

    return HardwareConfig.from_section(ctx.settings.section("hardware"))


def _config_or_failure(ctx: Context, name: str) -> tuple[Any, Result | None]:
    """The [hardware] settings, or the check's failure saying what is wrong with them."""
    try:
        from hardware.config import HardwareConfigError
    except ImportError as exc:
        return None, _missing_module(name, exc)
    try:
        return _hardware_config(ctx), None
    except HardwareConfigError as exc:
        fix = f"edit the [hardware] table in {ctx.config_path()}"
        return None, Result.fail(name, "; ".join(exc.problems), fix)


def _gpio_nodes(dev: Path) -> list[Path]:
    return sorted(dev.glob("gpiochip*"))


def check_gpio(ctx: Context) -> Result:
    name = "GPIO"
    try:
        from hardware.pins import choose_factory
    except ImportError as exc:
        return _missing_module(name, exc)
    config, failure = _config_or_failure(ctx, name)
    if failure is not None:
        return failure
    choice = choose_factory(config.pin_factory)
    if not choice.real:
        fix = f'set pin_factory = "auto" in [hardware] of {ctx.config_path()}' if ctx.on_pi else ""
        return Result.warn(name, f"{choice.reason}; the timer runs on screen only", fix)
    chips = _gpio_nodes(ctx.dev)
    if not chips:
        return Result.fail(name, "no /dev/gpiochip* on this machine; the timer runs on screen only",
                           "sudo apt install --reinstall raspberrypi-kernel  (then sudo reboot)")
    blocked = [str(c) for c in chips if not os.access(c, os.R_OK | os.W_OK)]
    if blocked:
        return Result.fail(name, f"no permission for {', '.join(blocked)}: the timer runs on screen only",
                           f"sudo usermod -aG gpio {ctx.service_user}  (then restart the kiosk)")
    notes = _open_parts_notes(ctx, config)
    trouble = [n for n in notes if "not usable" in n]
    if trouble:
        return Result.fail(name, f"{trouble[0]} (pins {_pins(config)})",
                           "sudo systemctl stop tablekeeper  (another program may hold the pins), "
                           "or change the pins in [hardware]")
    factory = os.environ.get("GPIOZERO_PIN_FACTORY") or "gpiozero's default"
    return Result.ok(name, f"{choice.reason}; pin factory {factory}; pins {_pins(config)}")


def _pins(config: Any) -> str:
    used = config.pins_in_use()
    return ", ".join(f"GPIO{p} {what}" for p, what in sorted(used.items())) or "none"


def _open_parts_notes(ctx: Context, config: Any) -> list[str]:
    """Open the timer's parts as the kiosk would, note what happened, close them again."""
    from games.countdown import Countdown
    from hardware.build import open_table_timer

    timer = open_table_timer(config, Countdown(TEST_SECONDS, warning=TEST_WARNING, tick_seconds=1))
    try:
        if ctx.test_devices:
            _play_test_pattern(timer)
        return list(timer.notes)
    finally:
        timer.close()


def _play_test_pattern(timer: Any) -> None:
    """Run the short countdown for real: ring frames and buzzer cues at their true times."""
    timer.start()
    end = time.monotonic() + TEST_SECONDS + 0.8
    while (now := time.monotonic()) < end:
        wake = timer.poll(now)
        time.sleep(0.02 if wake is None else min(max(wake - now, 0.0), 0.1))


def check_ring_and_buzzer(ctx: Context) -> Result:
    name = "ring and buzzer"
    config, failure = _config_or_failure(ctx, name)
    if failure is not None:
        return failure
    parts = f"ring {config.ring} ({config.ring_leds} LEDs), buzzer {config.buzzer}"
    if ctx.on_pi and config.ring == "neopixel":
        node_problem = _neopixel_node_problem(ctx, config)
        if node_problem:
            return Result.fail(name, f"{parts}: {node_problem[0]}", node_problem[1])
    try:
        notes = _open_parts_notes(ctx, config)
    except Exception as exc:  # any driver failure is a finding, not a crash
        return Result.fail(name, f"{parts}: could not be opened: {exc}",
                           "sudo systemctl stop tablekeeper, then: tablekeeper doctor --test-devices")
    ring_notes = [n for n in notes if n.startswith("ring:")]
    tested = " — test pattern played" if ctx.test_devices else ""
    if ring_notes and ctx.on_pi and config.ring != "none":
        return Result.fail(name, f"{parts}: {ring_notes[0][5:].strip()}",
                           "sudo systemd/install-pi.sh  (installs the [pi] extra: the NeoPixel driver)")
    if ring_notes:
        return Result.ok(name, f"{parts}: {ring_notes[0][5:].strip()}{tested}")
    return Result.ok(name, f"{parts}: opened{tested}")


def _neopixel_node_problem(ctx: Context, config: Any) -> tuple[str, str] | None:
    """The device node a NeoPixel ring needs on this Pi, if it is missing or closed to us."""
    from hardware.pins import board_model

    model = board_model() or ""
    if "Raspberry Pi 5" in model:
        node = ctx.dev / "pio0"
        fix = "sudo systemd/install-pi.sh  (installs the /dev/pio0 udev rule), then reboot"
        missing_fix = "sudo apt update && sudo apt full-upgrade  (a firmware with PIO support), then reboot"
    elif config.ring_pin == 10:
        node, fix = ctx.dev / "spidev0.0", f"sudo usermod -aG spi {ctx.service_user}"
        missing_fix = "sudo raspi-config nonint do_spi 0  (enable SPI), then reboot"
    else:
        return None
    if not node.exists():
        return f"{node} is missing", missing_fix
    if not os.access(node, os.R_OK | os.W_OK):
        return f"no permission for {node}", fix
    return None
