"""The club's standings over HTTP: read-only, plain HTML that any phone can show.

Only GET and HEAD are answered; every other method gets 405 (nothing on this server can
change a game: there is no form, no upload, no command). Pages refresh themselves every
few seconds; ``/standings.json?wait=V`` answers as soon as the standings pass version
``V`` (a long poll, for scoreboards and the latency benchmark).

Routes: ``/`` (every table and the leaderboard), ``/table/NAME`` (one table: the page its
QR code opens), ``/standings.json`` (``?table=NAME`` for one table's part).
"""

from __future__ import annotations

import json
import logging
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from kiosk.club.server import page
from kiosk.club.server.board import Board

log = logging.getLogger(__name__)

_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
}
MAX_WAIT = 25.0


class StandingsHandler(BaseHTTPRequestHandler):
    server: StandingsServer
    server_version = "tablekeeper-club"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer(body=True)

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def __getattr__(self, name: str) -> Any:
        # http.server answers a method it has no do_X for with 501; any method but GET and
        # HEAD is refused here as not allowed on a read-only page.
        if name.startswith("do_"):
            return self._refuse
        raise AttributeError(name)

    def _refuse(self) -> None:
        self.close_connection = True
        self._send(
            405, "text/plain; charset=utf-8", b"read-only: only GET and HEAD\n", extra={"Allow": "GET, HEAD"}
        )

    def _answer(self, body: bool) -> None:
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        board = self.server.board
        route = urllib.parse.unquote(url.path)
        if route == "/standings.json":
            after = _int(query.get("wait", [""])[0])
            if after is not None:
                board.wait(after, min(MAX_WAIT, float(_int(query.get("timeout", [""])[0]) or MAX_WAIT)))
            snapshot = board.snapshot()
            only = query.get("table", [""])[0]
            if only:  # one table's part (a phone's score sheet, the latency benchmark)
                snapshot = {**snapshot, "tables": [t for t in snapshot["tables"] if t["table"] == only]}
            data = json.dumps(snapshot, ensure_ascii=False).encode("utf-8")
            self._send(200, "application/json", data, body)
        elif route == "/":
            self._send(
                200,
                "text/html; charset=utf-8",
                page.club_page(board.snapshot(), self.server.club).encode(),
                body,
            )
        elif route.startswith("/table/") and route.count("/") == 2:
            table = route.removeprefix("/table/")
            html = page.table_page(board.snapshot(), self.server.club, table)
            self._send(
                200 if html else 404,
                "text/html; charset=utf-8",
                (html or page.not_found(table)).encode(),
                body,
            )
        else:
            self._send(404, "text/plain; charset=utf-8", b"no such page\n", body)

    def _send(
        self, status: int, kind: str, data: bytes, body: bool = True, extra: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        for key, value in {**_HEADERS, **(extra or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)


class StandingsServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], board: Board, club: str) -> None:
        self.board = board
        self.club = club
        super().__init__(address, StandingsHandler)


def make_server(address: tuple[str, int], board: Board, club: str) -> StandingsServer:
    """Bind the page to ``address`` (the user's choice; ``127.0.0.1`` by default)."""
    return StandingsServer(address, board, club)


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None
