"""Word authority speed: lexicon load, rulings, the Tosswords fit search, ``tablekeeper check``.

Every figure is a median of repeated runs, printed beside a baseline measured in the same
run on the same machine (so a busy machine shows up in both), and against the target:

    load < 150 ms · a ruling < 50 µs · a fit search < 30 ms · the check process < 400 ms

Run: ``.venv/bin/python -m bench words`` (needs the scowl package).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from games.lexicon import DEFAULT_DICT_DIR, Lexicon
from games.wordfit import tosswords_misfit
from games.words import WordAuthority
from kiosk.files.cache_folder import CacheFolder

LOADS = 9
RULING_ROUNDS = 7
SEARCHES = 7
PROCESS_RUNS = 11

RULINGS = [
    ("upwords", "MOOD", {}),
    ("upwords", "part-time", {}),
    ("upwords", "Alaska", {}),
    ("upwords", "DONT", {}),
    ("word-on-the-street", "Zeta-Jones", {}),
    ("wots", "Sand Dollar", {}),
    ("wots", "Olives", {}),
    ("tosswords", "TRANCE", {"keys": ("C", "T"), "die": 3}),
    ("tosswords", "ZEBRAS", {}),
    ("tosswords", "PIGSKIN", {"keys": ("I", "K"), "die": 2, "extras": ("P",)}),
    ("wordspiel", "UNITE", {"spiral": "FUN"}),
    ("wordspiel", "tsp", {}),
    ("wordspiel", "Tue", {}),
    ("option", "DEALING", {}),
    ("option", "RACER", {}),
]
#: the words issue 12 named: spellings, true reasons, hyphens, plurals, units
ISSUE_12 = [
    ("upwords", "THEATRE", {}),
    ("upwords", "GREY", {}),
    ("option", "JO", {}),
    ("upwords", "AA", {}),
    ("wots", "X-RAY", {}),
    ("wots", "Rolls-Royce", {}),
    ("tosswords", "PANTS", {}),
    ("tosswords", "RUNS", {}),
    ("wordspiel", "MM", {}),
    ("wordspiel", "ETC", {}),
]
#: standard dictionary words, common abbreviations, the rules they are refused by
DICTIONARY_WORDS = [
    ("upwords", "ESKER", {}),
    ("upwords", "AA", {}),
    ("upwords", "LB", {}),
    ("wordspiel", "ETC", {}),
    ("wordspiel", "MR", {}),
    ("wordspiel", "AKA", {}),
    ("option", "GAOL", {}),
]
#: unknown words, each searched for in the other lists (INTERSTICIAL: a misspelling)
UNKNOWN = ["zqxv", "qi", "zyzzyva", "gooky", "schadenfreudig", "intersticial"]
DRAWS = [
    (("C", "T"), 3, ()),
    (("I", "K"), 2, ("P",)),
    (("E", "S"), 1, ()),
    (("A", "R"), 0, ()),
    (("Q", "U"), 4, ("E",)),
]


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def verdict(value: float, target: float) -> str:
    return "ok" if value < target else "OVER TARGET"


def row(label: str, value: str, baseline: str, ratio: str, target: str) -> None:
    print(f"{label:<34} {value:>12}  {baseline:>24}  {ratio:>8}  {target}")


def bench_load(cache_dir: Path) -> None:
    lex = Lexicon.load()
    raw = median_ms(lambda: [p.read_bytes() for p in lex.files], LOADS)
    parse = median_ms(Lexicon.load, LOADS)
    Lexicon.load(cache=CacheFolder(cache_dir))  # write the cache
    cached = median_ms(lambda: Lexicon.load(cache=CacheFolder(cache_dir)), LOADS)
    row(
        "lexicon load, parse text (ms)",
        f"{parse:.1f}",
        f"read {len(lex.files)} files {raw:.1f}",
        f"x{parse / raw:.1f}",
        f"< 150 ms: {verdict(parse, 150)}",
    )
    row(
        "lexicon load, from cache (ms)",
        f"{cached:.1f}",
        f"read {len(lex.files)} files {raw:.1f}",
        f"x{cached / raw:.1f}",
        f"< 150 ms: {verdict(cached, 150)}",
    )
    print(
        f"  ({len(lex.words):,} words, {len(lex.names):,} names, {len(lex.abbreviations):,} abbreviations, "
        f"{lex.describe()})"
    )


def bench_rulings(authority: WordAuthority) -> None:
    words = authority.lexicon.words
    keys = [w.lower() for _, w, _ in RULINGS]

    def rule_all() -> None:
        for game, word, kw in RULINGS:
            authority.rule(game, word, **kw)  # type: ignore[arg-type]

    def lookup_all() -> None:
        for k in keys:
            _ = k in words

    reps = 200
    per_ruling = (
        median_ms(lambda: [rule_all() for _ in range(reps)], RULING_ROUNDS) / (reps * len(RULINGS)) * 1000
    )
    per_lookup = (
        median_ms(lambda: [lookup_all() for _ in range(reps)], RULING_ROUNDS) / (reps * len(keys)) * 1000
    )
    row(
        "ruling (µs each)",
        f"{per_ruling:.1f}",
        f"set lookup {per_lookup:.2f} µs",
        f"x{per_ruling / per_lookup:.0f}",
        f"< 50 µs: {verdict(per_ruling, 50)}",
    )
    print(
        f"  ({1e6 / per_ruling:,.0f} rulings per second over {len(RULINGS)} rule-sheet examples, five games)"
    )
    for game, word, kw in ISSUE_12:  # the first of these read WordNet and the other lists
        authority.rule(game, word, **kw)  # type: ignore[arg-type]

    def rule_issue() -> None:
        for game, word, kw in ISSUE_12:
            authority.rule(game, word, **kw)  # type: ignore[arg-type]

    rounds = median_ms(lambda: [rule_issue() for _ in range(reps)], RULING_ROUNDS)
    per_issue = rounds / (reps * len(ISSUE_12)) * 1000
    row(
        "ruling issue 12's words (µs each)",
        f"{per_issue:.1f}",
        f"set lookup {per_lookup:.2f} µs",
        f"x{per_issue / per_lookup:.0f}",
        f"< 50 µs: {verdict(per_issue, 50)}",
    )
    for game, word, kw in DICTIONARY_WORDS:  # the first of these read WordNet's titles and initials
        authority.rule(game, word, **kw)  # type: ignore[arg-type]

    def rule_dictionary_words() -> None:
        for game, word, kw in DICTIONARY_WORDS:
            authority.rule(game, word, **kw)  # type: ignore[arg-type]

    rounds = median_ms(lambda: [rule_dictionary_words() for _ in range(reps)], RULING_ROUNDS)
    per_dictionary = rounds / (reps * len(DICTIONARY_WORDS)) * 1000
    row(
        "ruling dictionary words (µs each)",
        f"{per_dictionary:.1f}",
        f"set lookup {per_lookup:.2f} µs",
        f"x{per_dictionary / per_lookup:.0f}",
        f"< 50 µs: {verdict(per_dictionary, 50)}",
    )
    authority.rule("option", "zqxv")  # the first unknown word reads the other lists into memory
    unknown = median_ms(lambda: [authority.rule("option", w) for w in UNKNOWN], RULING_ROUNDS) / len(UNKNOWN)
    row(
        "ruling an unknown word (ms each)",
        f"{unknown:.2f}",
        f"set lookup {per_lookup:.2f} µs",
        f"x{unknown * 1000 / per_lookup:.0f}",
        "(searches larger sizes and other spellings for a house-word hint)",
    )


def bench_first_questions() -> None:
    """What the lazily read data costs, once per kiosk run: the other SCOWL lists (for true
    reasons), the name levels (hyphens), WordNet and GNU units (plurals, units)."""
    authority = WordAuthority(Lexicon.load())
    for label, game, word in (
        ("first name refusal (other lists)", "upwords", "Alaska"),
        ("first hyphen (name levels)", "wots", "X-ray"),
        ("first plural (WordNet + units)", "tosswords", "ZEBRAS"),
        ("first unit (WordNet hierarchy)", "wordspiel", "mm"),
    ):
        start = time.perf_counter()
        authority.rule(game, word)
        first = (time.perf_counter() - start) * 1000
        again = median_ms(lambda g=game, w=word: authority.rule(g, w), RULING_ROUNDS)
        row(f"{label} (ms)", f"{first:.0f}", f"then {again * 1000:.0f} µs", "", "once per run")


def bench_search(lex: Lexicon) -> None:
    authority = WordAuthority(lex)
    start = time.perf_counter()
    authority.fitting_tosswords(("C", "T"), 3)
    first = (time.perf_counter() - start) * 1000
    candidates = authority._tosswords_text().split("\n")

    def naive(keys: tuple[str, str], die: int, extras: tuple[str, ...]) -> list[str]:
        return [w for w in candidates if tosswords_misfit(w, keys, die, extras) is None]

    for keys, die, extras in DRAWS:
        fast = median_ms(lambda k=keys, d=die, e=extras: authority.fitting_tosswords(k, d, e), SEARCHES)
        slow = median_ms(lambda k=keys, d=die, e=extras: naive(k, d, e), 3)
        n = len(authority.fitting_tosswords(keys, die, extras))
        assert n == len(naive(keys, die, extras))
        label = (
            f"fit {keys[0]},{keys[1]} die {die}{' +' + ','.join(extras) if extras else ''} ({n} words, ms)"
        )
        row(
            label,
            f"{fast:.1f}",
            f"naive wordfit scan {slow:.0f}",
            f"x{slow / fast:.0f} faster",
            f"< 30 ms: {verdict(fast, 30)}",
        )
    print(f"  (first search also builds the index of {len(candidates):,} Tosswords words: {first:.0f} ms)")


def bench_process() -> None:
    script = Path(sys.executable).with_name("tablekeeper")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "TABLEKEEPER_DATA": tmp, "TABLEKEEPER_CONFIG": str(Path(tmp) / "none.toml")}
        check = [str(script), "check", "upwords", "mood"]

        def run(cmd: list[str]) -> None:
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

        start = time.perf_counter()
        run(check)  # the first run parses the text files and writes the cache
        cold = (time.perf_counter() - start) * 1000
        bare = median_ms(lambda: run([sys.executable, "-c", "pass"]), PROCESS_RUNS)
        warm = median_ms(lambda: run(check), PROCESS_RUNS)
    row(
        "`tablekeeper check` process (ms)",
        f"{warm:.0f}",
        f"python -c pass {bare:.0f}",
        f"x{warm / bare:.1f}",
        f"< 400 ms: {verdict(warm, 400)}",
    )
    print(f"  (the very first run, which also writes the lexicon cache: {cold:.0f} ms)")


def main() -> int:
    if not DEFAULT_DICT_DIR.is_dir():
        print("SCOWL is not installed (sudo apt install scowl); nothing to measure")
        return 0
    print(f"{'':<34} {'median':>12}  {'baseline (same run)':>24}  {'ratio':>8}  target")
    with tempfile.TemporaryDirectory() as cache:
        bench_load(Path(cache))
    lex = Lexicon.load()
    bench_rulings(WordAuthority(lex))
    bench_first_questions()
    bench_search(lex)
    bench_process()
    return 0


if __name__ == "__main__":
    sys.exit(main())
