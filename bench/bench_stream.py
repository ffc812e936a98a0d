"""Does the kiosk offer the play from its camera's stream? Filmed Upwords games, read as the kiosk reads.

    python -m bench stream                   # 4 games per family and board
    python -m bench stream --quick           # 1 game
    python -m bench stream --seeds 810000    # games nobody has looked at
    python -m bench stream --light-change    # skin-toned tables, the light changed since calibration

Randomised Upwords games of 14 plays (8x8 and 10x10) under one fixed camera, filmed at 10 frames
a second (:mod:`vision.synthetic.stream`): for every play a hand comes in from beyond the
picture's edge, the tiles are down while it is there, it leaves; the room's light changes to the
next picture's while the hand is there, at once after it left, or over half a second. Each game
is calibrated as the docs say (the empty board; the letters and the set's thickness taught from a
photo of the tiles laid out).

Every frame goes through the kiosk's own path (:class:`vision.stability.BoardWatcher` with the
calibration's hand check and :func:`kiosk.camera.live.stacks_read`, as ``kiosk/camera/live.py``
builds it: wait for a still board with no
hand over it, read three frames with the game's board as history, vote), and the first board it
reports after a play is judged as :mod:`bench.bench_plays` judges it: offered exactly, **offered
wrong** (the one failure not allowed), or not offered (a hand seen where there is none, cells in
doubt, or no board reported at all). Per frame: false alarms (no hand anywhere in the picture,
yet the kiosk waits for one; a hand beside the board counts neither way) and hands missed (a hand
over a cell the kiosk let through). Baselines in
the same run, same frames: the same path with the hand check judging every frame alone (without
:mod:`vision.stillness` carrying a clear frame forward while nothing comes in), and the play's last
frame alone, read with the same history (what ``bench plays`` measures), so the figures say what
the stream's path costs or gains. And the kiosk's path with players who answer its question: when
a play's frames end with the kiosk not steady and no hand in the picture, the camera films the
settled board on (at most 10 s); once the screen asks (:attr:`kiosk.camera.live.LiveCamera.ASK_AFTER`
seconds of a still picture not steady) the players say nothing is over the board. The row says how
often they were asked, and how many plays were read in that time unasked.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bench import options
from bench.bench_plays import KINDS, PLAYS, _boards, _judge
from kiosk.camera.live import LiveCamera, stacks_read, street_read
from kiosk.camera.view import history
from vision.hands import UNDER_HAND, hand_over_board
from vision.reading import BoardReading
from vision.stability import BoardWatcher, Reading, SteadinessGate
from vision.stillness import stillness_beyond_decision, stillness_decision
from vision.street import StreetReader
from vision.synthetic.scenes import grid_scene
from vision.synthetic.stream import FPS, SETTLED_FRAMES, StreamFrame, film
from vision.synthetic.train import taught_grid_reader
from vision.upwords_reader import UpwordsReader


def _watcher(reader: UpwordsReader | StreetReader, stillness: bool = True) -> BoardWatcher:
    """The kiosk's watcher over ``reader``, with the calibration's hand check; ``stillness``:
    carrying a clear frame forward while nothing comes in (:mod:`vision.stillness`), as the kiosk
    does, or the hand check on every frame alone (the baseline)."""
    appearance = reader.appearance
    assert appearance is not None and appearance.scene is not None
    rows, cols = reader.rows, reader.cols
    gate = SteadinessGate(lambda f: reader.planes.warp(f, rows, cols, 16), rows, cols,
                          hand_over_board=lambda f: hand_over_board(f, reader.corners, rows, cols,
                                                                    appearance),
                          stillness=stillness_decision() if stillness else None, corners=reader.corners,
                          stillness_beyond=stillness_beyond_decision() if stillness else None)
    read = stacks_read(reader) if isinstance(reader, UpwordsReader) else street_read(reader)
    return BoardWatcher(gate, read)


@dataclass
class Players:
    """The players at the filmed table, answering the kiosk's question truthfully."""

    #: Seconds the film's clock has been put forward by the waits the players sat through.
    waited: float = 0.0
    #: The most they wait for the question before they type the play in (seconds).
    patience: float = 10.0

    def answer(self, tally: Counter, watcher: BoardWatcher, frames: tuple[StreamFrame, ...]
               ) -> Reading | None:
        """After a play's frames, the kiosk waiting: film the settled board on until the screen
        asks, say nothing is over the board, film on; the first board reported, or None."""
        last = watcher.last_state
        if last is None or last.steady or frames[-1].hand_in_picture > 0.0:
            return None
        settled, start = frames[-SETTLED_FRAMES:], frames[-1].timestamp + self.waited
        now, answered, result = start, False, None
        for k in range(int(2 * self.patience * FPS)):
            now += 1 / FPS
            frame = settled[k % len(settled)].image
            state = watcher.last_state
            if not answered and state is not None and not state.steady \
                    and state.quiet >= LiveCamera.ASK_AFTER:
                answered = watcher.gate.take_as_clear(frame)
                tally["asked"] += 1
            elif not answered and k >= self.patience * FPS:
                break
            result = watcher.feed(frame, now)
            if result is not None:
                tally["later"] += not answered  # read given more time, unasked
                break
        self.waited += now - start
        return result


#: Judges the first reading reported after a play into the tally.
Judge = Callable[[Counter, Reading], None]


def _play(tally: Counter, frames_tally: Counter, watcher: BoardWatcher, before: Reading, judge: Judge,
          frames: tuple[StreamFrame, ...], players: Players | None = None, may_not_change: bool = False
          ) -> None:
    """Feed one play's frames, ``before`` (the board the players confirmed before it) as the
    watcher's history; judge the first board the watcher reports. ``players``: asked, they answer
    (:class:`Players`). ``may_not_change``: a turn may leave the board as it was (a street word whose
    letters are all off the street), so a board read steady and reported as no change is judged."""
    watcher.accepted = before
    reported = None
    shift = 0.0 if players is None else players.waited
    for frame in frames:
        result = watcher.feed(frame.image, frame.timestamp + shift)
        waiting = watcher.last_state is not None and watcher.last_state.state == "obstructed"
        if frame.hand_over_cells >= UNDER_HAND:
            frames_tally["hand frames"] += 1
            frames_tally["hands missed"] += not waiting
        elif frame.hand_in_picture == 0.0:  # a hand beside the board is neither
            frames_tally["frames without hand"] += 1
            frames_tally["false alarms"] += waiting
        if result is not None and reported is None:
            reported = result
    if reported is None and players is not None:
        reported = players.answer(tally, watcher, frames)
    last = watcher.last_state
    read_again = watcher.accepted is not before  # a steady board was read during the play
    if reported is None and may_not_change and last is not None and last.steady and read_again:
        reported = watcher.accepted  # read the same as before: what the screen shows
    if reported is None:
        tally["hand" if last is not None and last.state == "obstructed" else "nothing"] += 1
        return
    judge(tally, reported)


def _ways() -> dict[str, tuple[Counter, Counter]]:
    """Each way's tallies of plays and frames, in the order printed."""
    return {name: (Counter(), Counter()) for name in
            ("stream (kiosk)", "players answer the kiosk", "each frame's hand check", "last frame alone")}


def run(kind: str, family: str, seeds: range, light_change: bool = False
        ) -> dict[str, tuple[Counter, Counter]]:
    out = _ways()
    for seed in seeds:
        s = grid_scene(seed, family, kind, n_frames=PLAYS, hand_chance=0.0, sequence=True,
                       light_change=light_change, clean_frames=True)
        reader = taught_grid_reader(s)
        watcher, per_frame = _watcher(reader), _watcher(reader, stillness=False)
        answered, players = _watcher(reader), Players()
        for (board, placed), play in zip(_boards(s), film(s, seed), strict=True):
            before = history(board)

            def judge(tally: Counter, reading: Reading, board=board, placed=placed) -> None:
                assert isinstance(reading, BoardReading)
                _judge(tally, board, placed, reading)

            _play(*out["stream (kiosk)"], watcher, before, judge, play.frames)
            _play(*out["players answer the kiosk"], answered, before, judge, play.frames, players)
            _play(*out["each frame's hand check"], per_frame, before, judge, play.frames)
            judge(out["last frame alone"][0], reader.read(play.frames[-1].image, previous=before))
    return out


def _line(name: str, t: Counter, f: Counter) -> str:
    n = max(sum(v for k, v in t.items() if k not in ("asked", "later")), 1)
    return (f"  {name:<24} offered exactly {t['exact']:>3}/{n} ({t['exact'] / n:5.1%})  WRONG {t['WRONG']:>2}"
            f"  not offered: hand {t['hand']:>3}, doubt {t['doubt']:>3}, nothing {t['nothing']:>2}"
            + (f"  | frames: false alarms {f['false alarms']}/{f['frames without hand']},"
               f" hands missed {f['hands missed']}/{f['hand frames']}" if f else "")
            + (f"  | asked {t['asked']}, read later unasked {t['later']}" if name.startswith("players")
               else ""))


def report(what: str, seeds: range, games: str, light_change: bool, started: float,
           out: dict[str, tuple[Counter, Counter]]) -> None:
    """One run's table: what was filmed (``games``: how many of what), then each way's line."""
    light = ", light changed since calibration" if light_change else ""
    print(f"\n{what}, seeds {seeds.start}-{seeds.stop - 1} ({games} filmed{light};"
          f" {time.perf_counter() - started:.0f} s)")
    for name, (tally, frames) in out.items():
        print(_line(name, tally, frames))


def main() -> None:
    args = options(seeds=0, seeds_help="first game seed (held-out runs: 810000 and up)")
    light_change = "--light-change" in sys.argv
    games = 1 if args.quick else 4
    for family in ("train", "held_out"):
        for kind in KINDS:
            seeds = range(args.seeds, args.seeds + games)
            start = time.perf_counter()
            out = run(kind, family, seeds, light_change)
            report(f"{kind}, {family} family", seeds, f"{games} games of {PLAYS} plays", light_change, start,
                   out)


if __name__ == "__main__":
    main()
