"""The pure countdown: phases, no drift, pauses, corrections, and cues exactly once."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.countdown import Countdown, CountdownError, Cue, CueKind, Phase, Track


def kinds(cues: tuple[Cue, ...] | list[Cue]) -> list[str]:
    return [c.kind.value for c in cues]


def test_a_30_second_turn_goes_through_every_phase() -> None:
    c = Countdown(30.0)
    assert c.phase(5.0) is Phase.IDLE and c.remaining(5.0) == 30.0
    c = c.start(100.0)
    assert c.phase(100.0) is Phase.RUNNING and c.remaining(100.0) == 30.0
    assert c.phase(119.999) is Phase.RUNNING
    assert c.phase(120.0) is Phase.WARNING and c.remaining(120.0) == 10.0
    assert c.phase(129.999) is Phase.WARNING
    assert c.phase(130.0) is Phase.EXPIRED and c.remaining(130.0) == 0.0
    assert c.remaining(1e6) == 0.0 and c.fraction(1e6) == 0.0
    assert c.reset().phase(131.0) is Phase.IDLE


def test_pause_freezes_and_resume_continues_without_losing_a_moment() -> None:
    c = Countdown(60.0).start(0.0).pause(12.5)
    assert c.phase(400.0) is Phase.PAUSED and c.remaining(400.0) == 47.5
    assert c.cues(0.0, 1000.0) == [] and c.next_cue_at(13.0) is None
    c = c.resume(1000.0)
    assert c.remaining(1000.0) == 47.5 and c.ends_at == 1047.5
    c = c.pause(1010.0).resume(2000.0)
    assert c.remaining(2000.0) == pytest.approx(37.5) and c.phase(2037.5) is Phase.EXPIRED


def test_commands_that_do_not_apply_change_nothing() -> None:
    idle = Countdown(30.0)
    assert idle.pause(1.0) == idle and idle.resume(1.0) == idle
    running = idle.start(0.0)
    assert running.start(3.0) == running and running.resume(3.0) == running
    assert running.pause(40.0) == running  # time that is up stays up


def test_toggle_is_the_one_button() -> None:
    c = Countdown(30.0).toggle(0.0)
    assert c.phase(1.0) is Phase.RUNNING
    c = c.toggle(5.0)
    assert c.phase(6.0) is Phase.PAUSED and c.remaining(6.0) == 25.0
    c = c.toggle(10.0)
    assert c.phase(10.0) is Phase.RUNNING and c.ends_at == 35.0
    # after time runs out one press starts the next full turn, like flipping a sand timer
    c = c.toggle(50.0)
    assert c.phase(50.0) is Phase.RUNNING and c.remaining(50.0) == 30.0


def test_cues_of_a_turn_warning_ticks_and_final_at_exact_times() -> None:
    c = Countdown(30.0).start(0.0)
    cues = c.cues(0.0, 100.0)
    assert [(c.kind.value, c.at) for c in cues] == [
        ("warning", 20.0),
        ("tick", 25.0),
        ("tick", 26.0),
        ("tick", 27.0),
        ("tick", 28.0),
        ("tick", 29.0),
        ("final", 30.0),
    ]
    assert [c.remaining for c in cues] == [10.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0]
    assert c.next_cue_at(0.0) == 20.0 and c.next_cue_at(20.0) == 25.0 and c.next_cue_at(30.0) is None


def test_interval_ends_belong_to_one_interval_only() -> None:
    c = Countdown(30.0).start(0.0)
    assert kinds(c.cues(19.0, 20.0)) == ["warning"]
    assert kinds(c.cues(20.0, 21.0)) == []


def test_a_turn_shorter_than_the_warning_has_no_warning_cue() -> None:
    c = Countdown(8.0).start(0.0)
    assert c.phase(0.0) is Phase.WARNING
    assert kinds(c.cues(0.0, 10.0)) == ["tick"] * 5 + ["final"]


def test_warning_and_tick_settings() -> None:
    c = Countdown(60.0, warning=5.0, tick_seconds=5).start(0.0)
    assert kinds(c.cues(0.0, 60.0)) == ["warning", "tick", "tick", "tick", "tick", "final"]
    c = Countdown(60.0, warning=0.0, tick_seconds=0).start(0.0)
    assert kinds(c.cues(0.0, 60.0)) == ["final"]
    assert c.phase(59.9) is Phase.RUNNING


@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, "30", True])
def test_bad_durations_are_refused_in_plain_words(bad: object) -> None:
    with pytest.raises(CountdownError, match="turn length"):
        Countdown(bad)  # type: ignore[arg-type]


def test_bad_warning_and_ticks_are_refused() -> None:
    with pytest.raises(CountdownError, match="warning"):
        Countdown(30.0, warning=-1.0)
    with pytest.raises(CountdownError, match="ticks"):
        Countdown(30.0, tick_seconds=-2)


def test_adjust_adds_and_takes_time_while_running_and_paused() -> None:
    c = Countdown(30.0).start(0.0)
    assert c.adjust(10.0, 5.0).remaining(5.0) == 35.0
    assert c.adjust(10.0, 5.0).fraction(5.0) == 1.0
    assert c.adjust(-5.0, 5.0).remaining(5.0) == 20.0
    assert c.adjust(-100.0, 5.0).phase(5.0) is Phase.EXPIRED
    paused = c.pause(10.0)
    assert paused.adjust(-5.0, 50.0).remaining(60.0) == 15.0
    assert paused.adjust(-5.0, 50.0).phase(60.0) is Phase.PAUSED
    assert paused.adjust(-20.0, 50.0).phase(50.0) is Phase.EXPIRED


def test_adjust_after_time_is_up_gives_more_seconds_and_idle_refuses() -> None:
    c = Countdown(30.0).start(0.0)
    more = c.adjust(5.0, 40.0)
    assert more.phase(40.0) is Phase.WARNING and more.remaining(42.0) == 3.0 and more.ends_at == 45.0
    with pytest.raises(CountdownError, match="already up"):
        c.adjust(-5.0, 40.0)
    with pytest.raises(CountdownError, match="not started"):
        Countdown(30.0).adjust(5.0, 0.0)
    with pytest.raises(CountdownError, match="number of seconds"):
        c.adjust(math.nan, 1.0)


def test_track_reports_the_start_chirp_then_every_cue_once() -> None:
    t = Track(Countdown(30.0))
    t, cues = t.start(0.0)
    assert [(c.kind.value, c.at) for c in cues] == [("start", 0.0)]
    t, cues = t.poll(20.0)
    assert kinds(cues) == ["warning"]
    t, cues = t.poll(20.0)
    assert cues == ()
    t, cues = t.poll(35.0)
    assert kinds(cues) == ["tick"] * 5 + ["final"]


def test_track_flushes_due_cues_before_a_command() -> None:
    t, _ = Track(Countdown(30.0)).start(0.0)
    t, cues = t.pause(20.5)  # the warning at 20.0 was never polled: it comes first
    assert kinds(cues) == ["warning", "pause"]
    t, cues = t.resume(100.0)
    assert kinds(cues) == ["resume"]
    t, cues = t.reset(101.0)
    assert kinds(cues) == ["reset"]
    t, cues = t.reset(102.0)
    assert cues == ()  # nothing changed, nothing to hear


def test_track_ignores_a_clock_value_older_than_the_last_one() -> None:
    t, _ = Track(Countdown(30.0)).start(0.0)
    t, _ = t.poll(21.0)
    t, cues = t.pause(20.0)  # stamped before the poll on another thread
    assert kinds(cues) == ["pause"] and t.countdown.remaining(500.0) == 9.0


def test_track_adjust_across_the_warning_or_to_zero_sounds_that_cue() -> None:
    t, _ = Track(Countdown(30.0)).start(0.0)
    t2, cues = t.adjust(-5.0, 16.0)  # 14 s left -> 9 s: into the warning
    assert kinds(cues) == ["warning"]
    t2, cues = t2.poll(19.0)
    assert kinds(cues) == []  # the warning is not heard twice
    t3, cues = t.adjust(-40.0, 16.0)
    assert kinds(cues) == ["final"] and t3.countdown.phase(16.0) is Phase.EXPIRED
    t4, cues = t.adjust(5.0, 16.0)
    assert kinds(cues) == ["adjust"] and t4.countdown.remaining(16.0) == 19.0


def test_no_drift_after_many_tiny_irregular_polls() -> None:
    t, _ = Track(Countdown(60.0)).start(1000.0)
    now, heard = 1000.0, []
    step = 0
    while now < 1061.0:
        step += 1
        now += 0.0007 + (step % 13) * 0.0011  # ~ 30,000 polls at odd intervals
        t, cues = t.poll(now)
        heard.extend(cues)
    final = [c for c in heard if c.kind is CueKind.FINAL]
    assert len(final) == 1 and final[0].at == 1060.0  # due exactly 60 s after the start
    assert t.countdown.remaining(1059.5) == 0.5


commands = st.lists(
    st.tuples(
        st.floats(min_value=0.0, max_value=8.0, allow_nan=False),
        st.sampled_from(["poll", "poll", "poll", "toggle", "reset", "plus", "minus"]),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(commands)
def test_every_due_cue_is_reported_once_however_irregular_the_polling(steps: list[tuple[float, str]]) -> None:
    """Whatever the commands and gaps, the time cues heard are exactly those due in each stretch."""
    track, now = Track(Countdown(20.0, warning=6.0, tick_seconds=3)), 0.0
    heard: list[Cue] = []
    expected: list[Cue] = []
    corrections: set[float] = set()
    for gap, action in steps:
        before, start = track.countdown, max(now, track.reported_to)
        now += gap
        if action == "poll":
            track, cues = track.poll(now)
        elif action == "toggle":
            track, cues = track.toggle(now)
        elif action == "reset":
            track, cues = track.reset(now)
        else:
            try:
                track, cues = track.adjust(4.0 if action == "plus" else -4.0, now)
                corrections.add(now)
            except CountdownError:
                track, cues = track.poll(now)
        heard.extend(c for c in cues if c.kind in (CueKind.WARNING, CueKind.TICK, CueKind.FINAL))
        expected.extend(before.cues(start, now))
    from_time = [c for c in heard if c in expected]
    from_jumps = [c for c in heard if c not in expected]
    assert from_time == expected  # every cue due, in order, exactly once
    assert all(c.kind in (CueKind.WARNING, CueKind.FINAL) and c.at in corrections for c in from_jumps)
