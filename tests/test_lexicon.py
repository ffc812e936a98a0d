"""The SCOWL loader: sizes, variants, case and accents, clear errors, and the parse cache."""

from __future__ import annotations

import hashlib
import marshal
import os
import shutil
from pathlib import Path

import pytest

from games.lexicon import DEFAULT_DICT_DIR, Lexicon, LexiconError, LexiconMissing, _Cache, fold
from kiosk.files.cache_folder import CacheFolder

needs_scowl = pytest.mark.skipif(
    not DEFAULT_DICT_DIR.is_dir(), reason="SCOWL is not installed (sudo apt install scowl)"
)


@pytest.fixture(scope="module")
def lex60() -> Lexicon:
    return Lexicon.load(size=60)


@needs_scowl
def test_size_60_american_knows_each_kind_of_entry(lex60: Lexicon) -> None:
    assert lex60.is_word("trance") and lex60.is_word("zebra's")
    assert lex60.name_form("alaska") == "Alaska" and lex60.name_form("robert") == "Robert"
    assert lex60.abbreviation_form("tsp") == "tsp" and lex60.abbreviation_form("tue") == "Tue"
    assert lex60.is_contraction("don't")
    assert lex60.apostrophe_form("dont") == "don't"
    assert not lex60.knows("zqxv")
    assert lex60.describe() == "SCOWL size 60, American and British, with variants"
    assert len(lex60.words) > 90_000  # SCOWL's own table: ~123k entries with names at 60


@needs_scowl
def test_an_abbreviation_written_in_capitals_and_lower_case_keeps_the_capitals(lex60: Lexicon) -> None:
    # SCOWL lists both ASAP and asap; the rule sheets call ASAP an acronym.
    assert lex60.abbreviation_form("asap") == "ASAP"


@needs_scowl
def test_larger_sizes_contain_smaller_ones() -> None:
    small = Lexicon.load(size=35)
    assert small.words < Lexicon.load(size=50).words
    assert "pigskin" not in small.words  # a size-50 word
    assert small.describe() == "SCOWL size 35, American and British, with variants"


@needs_scowl
def test_spelling_variants() -> None:
    american = Lexicon.load(size=50, variant="american")
    british = Lexicon.load(size=50, variant="British")
    assert american.is_word("color") and not american.is_word("colour")
    assert british.is_word("colour") and not british.is_word("color")
    assert british.describe() == "SCOWL size 50, British, with variants"
    both = Lexicon.load(size=50)  # the default: a family table accepts either spelling
    assert both.is_word("color") and both.is_word("colour") and both.is_word("gray") and both.is_word("grey")
    assert both.spelling_of("colour") == "British" and both.spelling_of("color") == "American"
    assert both.spelling_of("trance") is None
    assert american.describe() == "SCOWL size 50, American, with variants"


@needs_scowl
def test_accents_are_folded_because_tiles_have_none(lex60: Lexicon) -> None:
    assert lex60.is_word(fold("PIÑATA")) and lex60.is_word("pinata") and not lex60.is_word("piñata")
    assert any("pinata" in level for level in lex60.by_level)
    assert fold("  Café’s ") == "cafe's"


@needs_scowl
def test_bad_size_and_variant_say_what_would_work() -> None:
    with pytest.raises(LexiconError, match=r"no size 61; choose one of 10, 20, 35.*95"):
        Lexicon.load(size=61)
    with pytest.raises(LexiconError, match="must be a number"):
        Lexicon.load(size="big")  # type: ignore[arg-type]
    with pytest.raises(LexiconError, match="unknown spelling variant 'klingon'; choose one of both, ameri"):
        Lexicon.load(variant="klingon")


def test_missing_word_list_says_how_to_install_it(tmp_path: Path) -> None:
    hint = r"does not exist; install the scowl package: sudo apt install scowl"
    with pytest.raises(LexiconMissing, match=hint):
        Lexicon.load(dict_dir=tmp_path / "nowhere")
    with pytest.raises(LexiconMissing, match="no SCOWL word lists in"):
        Lexicon.load(dict_dir=tmp_path)
    (tmp_path / "file").write_text("x")
    with pytest.raises(LexiconMissing, match="not a directory"):
        Lexicon.load(dict_dir=tmp_path / "file")
    assert issubclass(LexiconMissing, FileNotFoundError)


def test_upstream_iso_8859_1_files_are_read_too(tmp_path: Path) -> None:
    # Upstream SCOWL is ISO-8859-1; Debian ships UTF-8. Both must load.
    (tmp_path / "english-words.10").write_bytes("caf\xe9\nbanana\nOK\n".encode("latin-1"))
    (tmp_path / "english-upper.10").write_bytes("Z\xfcrich\n".encode("latin-1"))
    lex = Lexicon.load(size=10, dict_dir=tmp_path)
    assert lex.is_word("cafe") and lex.is_word("banana")
    assert lex.name_form("zurich") == "Zürich" and lex.name_form("ok") == "OK"


# -- the cache -----------------------------------------------------------------------------


@pytest.fixture()
def small_scowl(tmp_path: Path) -> Path:
    """A copy of the real size-10 and size-20 lists, so that a test may change one."""
    if not DEFAULT_DICT_DIR.is_dir():
        pytest.skip("SCOWL is not installed (sudo apt install scowl)")
    target = tmp_path / "scowl"
    target.mkdir()
    for f in DEFAULT_DICT_DIR.iterdir():
        if f.name.startswith(("english-", "american-", "british-")) and f.suffix in (".10", ".20"):
            shutil.copy2(f, target / f.name)
    return target


def _same(a: Lexicon, b: Lexicon) -> bool:
    return (a.words, a.names, a.abbreviations, a.contractions, a.by_level, a.files) == (
        b.words, b.names, b.abbreviations, b.contractions, b.by_level, b.files,
    )


def test_cache_gives_the_same_lexicon_and_is_used(small_scowl: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    parsed = Lexicon.load(size=20, dict_dir=small_scowl)
    first = Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache))
    [cache_file] = cache.iterdir()
    assert cache_file.name == "scowl-both-20.marshal"
    second = Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache))
    assert _same(parsed, first) and _same(parsed, second)
    # Prove the second load came from the cache: plant a marker word in it (checksum and all).
    fmt, key, _checksum, body = marshal.loads(cache_file.read_bytes())
    payload = marshal.loads(body)
    payload[0][0].append("zzcachedzz")  # the first level's words (the words are the levels' union)
    body = marshal.dumps(payload)
    cache_file.write_bytes(marshal.dumps((fmt, key, hashlib.sha256(body).hexdigest(), body)))
    assert Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache)).is_word("zzcachedzz")


def test_one_flipped_byte_in_the_cache_is_noticed_and_the_cache_rebuilt(
    small_scowl: Path, tmp_path: Path
) -> None:
    """The audit's case: PURPLE ruled illegal and PURPLX legal by a cache with one bad byte."""
    cache = tmp_path / "cache"
    assert Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache)).is_word("purple")
    [cache_file] = cache.iterdir()
    good = cache_file.read_bytes()
    at = good.index(b"purple")
    cache_file.write_bytes(good[: at + 5] + b"x" + good[at + 6 :])  # the SD card's doing
    lex = Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache))
    assert lex.is_word("purple") and not lex.is_word("purplx")
    assert cache_file.read_bytes() == good  # rebuilt from the word lists


def test_a_source_list_changed_with_the_same_size_and_time_rebuilds_the_cache(
    small_scowl: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    assert Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache)).is_word("purple")
    words = small_scowl / "english-words.20"
    st = words.stat()
    text = words.read_bytes()
    words.write_bytes(text.replace(b"\npurple\n", b"\npurplz\n"))  # same size
    os.utime(words, ns=(st.st_atime_ns, st.st_mtime_ns))  # same time: only the checksum can tell
    assert words.stat().st_size == st.st_size
    lex = Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache))
    assert lex.is_word("purplz") and not lex.is_word("purple")


def test_cache_is_rebuilt_when_a_source_file_changes(small_scowl: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert not Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache)).is_word("zzzyzzy")
    words = small_scowl / "english-words.20"
    words.write_text(words.read_text(encoding="utf-8") + "zzzyzzy\n", encoding="utf-8")
    st = words.stat()
    os.utime(words, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    assert Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache)).is_word("zzzyzzy")


def test_damaged_cache_is_ignored_and_replaced(small_scowl: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    bad = cache / "scowl-both-20.marshal"
    bad.write_bytes(b"\x00not marshal at all")
    lex = Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache))
    assert _same(lex, Lexicon.load(size=20, dict_dir=small_scowl))
    fmt, *_ = marshal.loads(bad.read_bytes())  # rewritten as a good cache
    assert fmt == _Cache.FORMAT


def test_unwritable_cache_directory_is_not_an_error(small_scowl: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache directory should be")
    lex = Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(blocker))
    assert lex.is_word("trick")


def test_each_size_has_its_own_cache_and_a_list_joining_the_dictionary_rebuilds_it(
    small_scowl: Path, tmp_path: Path
) -> None:
    """A kiosk upgraded to a new default size or new spelling lists never reads a cache of
    the old dictionary: each size has its own file, and the key names every source list."""
    cache = tmp_path / "cache"
    ten = Lexicon.load(size=10, dict_dir=small_scowl, cache=CacheFolder(cache))
    twenty = Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache))
    assert sorted(p.name for p in cache.iterdir()) == ["scowl-both-10.marshal", "scowl-both-20.marshal"]
    assert _same(Lexicon.load(size=10, dict_dir=small_scowl, cache=CacheFolder(cache)), ten)
    assert _same(Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache)), twenty)
    assert not twenty.is_word("gaol")
    (small_scowl / "british_variant_1-words.20").write_text("gaol\n", encoding="utf-8")
    again = Lexicon.load(size=20, dict_dir=small_scowl, cache=CacheFolder(cache))
    assert again.is_word("gaol") and again.spelling_of("gaol") == "British variant"
    assert _same(again, Lexicon.load(size=20, dict_dir=small_scowl))
