"""How punctual is the table timer? A real-clock countdown on gpiozero mock pins.

For every sound and every LED change it computes when it *should* happen (from the pure
countdown and ring-frame functions) and reads when it *did* (the timestamps gpiozero's
mock pins record at each state change), then prints the worst error, the error of the
first and of the last event (accumulated drift shows as a growing error), and the CPU the
process used while running (``time.process_time`` against wall time).

The baseline, measured in the same run, is the naive design: a loop that polls every
20 ms. Targets: under 15 ms at every event, no drift, under 2 % of one core.

    python -m bench timer                                     # 30 s turn, 3 runs + 1 baseline
    BENCH_TIMER_SECONDS=8 BENCH_TIMER_RUNS=1 python -m bench timer   # a quick check
    python bench/bench_timer.py --seconds 8 --runs 1
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from dataclasses import dataclass

from games.countdown import Countdown, CueKind
from games.ring_frames import RingFrame, RingStyle, next_frame_change, ring_frame
from hardware.build import open_table_timer
from hardware.config import HardwareConfig
from hardware.pins import FactoryChoice, mock_factory
from hardware.ring import duty
from hardware.sounds import SoundSettings

LED_PINS = [5, 6, 13, 19, 26, 12, 16, 20, 21, 25, 24, 23]
BUZZER = 17
BRIGHTNESS = 0.5
TAIL = 2.0  # seconds after the end: the long beep and the red flashing


@dataclass
class Result:
    worst_ms: float
    median_ms: float
    first_ms: float
    last_ms: float
    drift_ms: float
    cpu_percent: float
    events: int
    missing: int


def expected_changes(
    countdown: Countdown, t0: float, stop: float, style: RingStyle
) -> dict[int, list[float]]:
    """When each pin should change: buzzer edges from the cue times, LED edges from the frames."""
    out: dict[int, list[float]] = {pin: [] for pin in [BUZZER, *LED_PINS]}
    sounds = SoundSettings()
    for beep in SoundSettings.PATTERNS[CueKind.START]:  # the start chirp
        out[BUZZER] += [t0 + beep.offset, t0 + beep.end]
    for cue in countdown.cues(t0, stop):
        for beep in sounds.sound_for(cue):
            out[BUZZER] += [cue.at + beep.offset, cue.at + beep.end]
    previous = RingFrame.dark(style.leds)
    t: float | None = t0
    while t is not None and t <= stop:
        frame = ring_frame(countdown, t, style)
        for i, pin in enumerate(LED_PINS):
            if duty(frame.levels[i], BRIGHTNESS) != duty(previous.levels[i], BRIGHTNESS):
                out[pin].append(t)
        previous = frame
        t = next_frame_change(countdown, t, style)
    return out


def one_run(seconds: float, *, fixed_poll: float | None) -> Result:
    factory = mock_factory()
    config = HardwareConfig.from_section({"ring": "leds", "led_pins": LED_PINS, "brightness": BRIGHTNESS})
    timer = open_table_timer(config, Countdown(seconds), choice=FactoryChoice(factory, "bench"))
    pins = {n: factory.pin(n) for n in [BUZZER, *LED_PINS]}
    bases = {}
    for n, pin in pins.items():
        pin.clear_states()
        bases[n] = time.monotonic()
    stop_polling = threading.Event()
    poller = None
    if fixed_poll is None:
        timer.start_thread()
    else:

        def naive() -> None:
            while not stop_polling.is_set():
                timer.poll()
                time.sleep(fixed_poll)

        poller = threading.Thread(target=naive, daemon=True)
        poller.start()
    cpu0, wall0 = time.process_time(), time.monotonic()
    t0 = timer.toggle().now
    time.sleep(seconds + TAIL)
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    stop_polling.set()
    if poller:
        poller.join()
    countdown = timer.countdown
    timer.close()

    expected = expected_changes(countdown, t0, t0 + seconds + TAIL - 0.05, timer.style)
    errors: list[tuple[float, float]] = []  # (expected time, error)
    missing = 0
    for n, pin in pins.items():
        actual, clock = [], bases[n]
        for state in pin.states[1:]:
            clock += state.timestamp
            actual.append(clock)
        horizon = t0 + seconds + TAIL - 0.05  # before close() turns everything off
        want = [t for t in expected[n] if t <= horizon]
        got = [t for t in actual if t <= horizon + 0.015]
        missing += abs(len(want) - len(got))
        errors += [(w, g - w) for w, g in zip(want, got, strict=False)]
    errors.sort()
    if os.environ.get("BENCH_TIMER_DEBUG"):
        for w, e in sorted(errors, key=lambda x: -abs(x[1]))[:8]:
            print(f"  debug: event at +{w - t0:.4f} s off by {e * 1000:.2f} ms", file=sys.stderr)
    magnitudes = [abs(e) * 1000 for _, e in errors]
    tenth = max(1, len(errors) // 10)
    drift = statistics.median(e for _, e in errors[-tenth:]) - statistics.median(e for _, e in errors[:tenth])
    return Result(
        max(magnitudes),
        statistics.median(magnitudes),
        errors[0][1] * 1000,
        errors[-1][1] * 1000,
        drift * 1000,
        100 * cpu / wall,
        len(errors),
        missing,
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("BENCH_TIMER_SECONDS", 30)))
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_TIMER_RUNS", 3)))
    args, _ = parser.parse_known_args(argv)
    print(f"table timer: a {args.seconds:g} s countdown on mock pins (12 LEDs + buzzer), real clock")
    ours = [one_run(args.seconds, fixed_poll=None) for _ in range(args.runs)]
    base = one_run(args.seconds, fixed_poll=0.02)

    def med(results: list[Result], field: str) -> float:
        return statistics.median(getattr(r, field) for r in results)

    rows = [
        ("worst event error (ms)", "worst_ms"),
        ("median event error (ms)", "median_ms"),
        ("first event error (ms)", "first_ms"),
        ("last event error (ms)", "last_ms"),
        ("drift: last 10 % - first 10 % (ms)", "drift_ms"),
        ("CPU while running (% of a core)", "cpu_percent"),
    ]
    print(f"{'':34}{'event-driven (median of ' + str(args.runs) + ')':>30}{'20 ms polling':>16}{'ratio':>8}")
    for label, field in rows:
        a, b = med(ours, field), getattr(base, field)
        ratio = f"{a / b:.2f}" if b else "-"
        print(f"{label:34}{a:30.2f}{b:16.2f}{ratio:>8}")
    print(f"{'events timed per run':34}{med(ours, 'events'):30.0f}{base.events:16d}")
    print(f"{'events missing or extra':34}{med(ours, 'missing'):30.0f}{base.missing:16d}")
    worst = max(r.worst_ms for r in ours)
    drift = max(abs(r.drift_ms) for r in ours)
    met = worst < 15 and med(ours, "cpu_percent") < 2 and not any(r.missing for r in ours)
    print(
        f"targets (< 15 ms every event, < 2 % CPU, nothing missed): {'PASS' if met else 'MISS'}; "
        f"worst of all runs {worst:.2f} ms; largest drift {drift:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
