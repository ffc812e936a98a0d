"""Reading an SQLite write-ahead log by hand, so its committed pages are never thrown away.

After a power cut an SD card can leave the game log's main file empty (0 bytes) while its
``-wal`` still holds every committed entry since the last checkpoint. Handed to SQLite, such a
pair is a *new* database: SQLite resets the WAL and the games are gone. So the WAL is read
here, with nothing but the file format (https://sqlite.org/fileformat.html#the_write_ahead_log):

* a 32-byte header: magic (whose low bit gives the checksums' byte order), version, page
  size, checkpoint sequence, two salts, and a checksum of the first 24 bytes;
* frames, each a 24-byte header (page number, the database's size in pages after a commit,
  or 0 inside a transaction; the two salts; a running checksum) and one page.

A frame counts only while its salts match the header's and the running checksum agrees;
the pages written by the last frame that ends a transaction ("a commit frame") and before it
are the database's newest committed version. :func:`merge` lays those pages over the main
file's, which is exactly what SQLite's own checkpoint would have done.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

MAGIC_LE = 0x377F0682
MAGIC_BE = 0x377F0683
WAL_HEADER = 32
FRAME_HEADER = 24
DB_HEADER = 100
_SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass
class WalPages:
    """The newest committed version of each page a WAL holds."""

    page_size: int = 0
    #: the database's size in pages after the last valid commit (0: no commit at all)
    db_pages: int = 0
    pages: dict[int, bytes] | None = None
    commits: int = 0
    #: frames after the last commit, or failing their checksum: never applied
    ignored_frames: int = 0

    @property
    def committed(self) -> bool:
        return self.db_pages > 0 and bool(self.pages)


def _checksum(data: bytes, big_endian: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    """SQLite's WAL checksum: a Fibonacci-weighted sum over 32-bit words, two at a time."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def read_wal(wal: bytes) -> WalPages:
    """The committed pages of ``wal`` (an empty result for a WAL with no valid commit)."""
    out = WalPages()
    if len(wal) < WAL_HEADER:
        return out
    magic, _version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", wal[:WAL_HEADER])
    if magic not in (MAGIC_LE, MAGIC_BE):
        return out
    big = magic == MAGIC_BE
    if page_size == 1:  # how a 64 KiB page is written
        page_size = 65536
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return out
    s0, s1 = _checksum(wal[:24], big)
    if (s0, s1) != (c0, c1):
        return out
    out.page_size = page_size
    pending: dict[int, bytes] = {}
    committed: dict[int, bytes] = {}
    frame = FRAME_HEADER + page_size
    offset = WAL_HEADER
    while offset + frame <= len(wal):
        head = wal[offset : offset + FRAME_HEADER]
        page_no, db_size, f_salt1, f_salt2, f0, f1 = struct.unpack(">6I", head)
        if (f_salt1, f_salt2) != (salt1, salt2) or page_no == 0:
            break
        body = wal[offset + FRAME_HEADER : offset + frame]
        s0, s1 = _checksum(head[:8], big, s0, s1)
        s0, s1 = _checksum(body, big, s0, s1)
        if (s0, s1) != (f0, f1):
            break
        pending[page_no] = body
        if db_size:
            committed.update(pending)
            pending = {}
            out.db_pages = db_size
            out.commits += 1
        offset += frame
    out.pages = committed
    out.ignored_frames = len(pending) + max(0, (len(wal) - offset) // frame)
    return out


def page_size_of(main: bytes) -> int:
    """The page size a database file's header gives, or 0 when the header does not read."""
    if len(main) < DB_HEADER or not main.startswith(_SQLITE_MAGIC):
        return 0
    (size,) = struct.unpack(">H", main[16:18])
    size = 65536 if size == 1 else size
    return size if 512 <= size <= 65536 and not size & (size - 1) else 0


def _header_pages(main: bytes | bytearray) -> int:
    """The page count a database file's header gives (0 when that field is not current: it is
    valid only while the header's change counter and its version-valid-for number agree)."""
    if len(main) < 100:
        return 0
    (count,) = struct.unpack(">I", main[28:32])
    return count if main[24:28] == main[92:96] else 0


def merge(main: bytes, wal: bytes) -> tuple[bytes, WalPages]:
    """A standalone database file: ``main`` with ``wal``'s committed pages laid over it.

    The result is padded to a whole number of pages (a file cut short mid-page) and marked
    as a rollback-journal file, so SQLite opens it alone and never looks for a WAL. When the
    WAL's page size disagrees with the main file's, the main file is ignored (it cannot be
    the same database).
    """
    pages = read_wal(wal)
    size = page_size_of(main)
    if pages.committed:
        if size and size != pages.page_size:
            main = b""
        size = pages.page_size
        assert pages.pages is not None
        image = bytearray(main[: pages.db_pages * size])
        need = pages.db_pages * size
        if len(image) < need:
            image.extend(bytes(need - len(image)))
        for number, body in pages.pages.items():
            if number <= pages.db_pages:
                image[(number - 1) * size : number * size] = body
    else:
        image = bytearray(main)
        if size and len(image) % size:
            image.extend(bytes(size - len(image) % size))
        if size:
            # A file that lost whole pages at its end: SQLite refuses every query once a table's
            # root lies past the end, though the other tables' pages are intact. The header
            # says how many pages the file had; zero pages in their place read as damage there
            # only (bounded: a damaged count is not believed beyond twice the file).
            want = _header_pages(image) * size
            if len(image) < want <= 2 * len(image) + 16 * size:
                image.extend(bytes(want - len(image)))
    if len(image) >= DB_HEADER and image.startswith(_SQLITE_MAGIC):
        image[18:20] = b"\x01\x01"  # read and write versions 1: not a WAL database
    return bytes(image), pages
