"""The standings page as HTML: every table's game and the club's leaderboard.

Plain HTML and inline CSS, no script: it works on any phone, refreshes itself every few
seconds, and shows nothing a person could click to change a game. Every name and word
comes from a kiosk, so every one is escaped.
"""

from __future__ import annotations

import html
from datetime import datetime
from typing import Any

REFRESH = 5

_CSS = """
body{font:16px/1.35 system-ui,sans-serif;margin:0;background:#10161d;color:#e8edf2}
header{padding:10px 16px;background:#1c2733;display:flex;justify-content:space-between;align-items:baseline}
h1{font-size:22px;margin:0}h2{font-size:18px;margin:18px 16px 8px}
.muted{color:#8b9aab;font-size:13px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(270px,1fr));gap:10px;padding:0 16px}
.card{background:#1c2733;border-radius:8px;padding:10px 12px}
.card h3{margin:0 0 4px;font-size:17px;display:flex;justify-content:space-between}
.card h3 a{color:#e8edf2;text-decoration:none}
table{border-collapse:collapse;width:100%}td,th{padding:3px 6px;text-align:left}
.score td:last-child{text-align:right;font-weight:600}
tr.move td{color:#ffd166}tr.won td{color:#06d6a0}
.word{font-weight:700;letter-spacing:1px}
.legal{color:#06d6a0}.illegal{color:#ef476f}.problem{color:#ef476f;font-size:13px}
.board{margin:0 16px 24px;max-width:640px;width:calc(100% - 32px)}
.board th{color:#8b9aab;font-weight:400;border-bottom:1px solid #2c3a48}
.sheet{margin:0 16px 24px;max-width:640px;width:calc(100% - 32px);font-size:14px}
.sheet td{border-bottom:1px solid #1c2733;vertical-align:top}.sheet td:last-child{overflow-wrap:anywhere}
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _page(title: str, body: str, club: str) -> str:
    stamp = datetime.now().strftime("%H:%M:%S")
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f'<meta name=viewport content="width=device-width,initial-scale=1">'
        f'<meta http-equiv=refresh content="{REFRESH}">'
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
        f"<header><h1>{_e(title)}</h1>"
        f"<span class=muted>{_e(club)} · updated {stamp} · read-only</span></header>"
        f"{body}</body></html>"
    )


def _status(s: dict[str, Any]) -> str:
    if s.get("abandoned"):
        return "given up"
    if s.get("over"):
        winners = s.get("winners") or []
        return ("won by " + " and ".join(winners)) if winners else "over, no winner"
    if s.get("to_move"):
        return f"{s['to_move']} to play"
    return ""


def game_card(s: dict[str, Any] | None, table: str, link: bool = True) -> str:
    name = f'<a href="/table/{_e(table)}">{_e(table)}</a>' if link else _e(table)
    if s is None or "players" not in s:
        problem = f"<div class=problem>{_e(s['problem'])}</div>" if s and s.get("problem") else ""
        return f"<div class=card><h3>{name}</h3><div class=muted>no game yet</div>{problem}</div>"
    rows = []
    winners = set(s.get("winners") or [])
    for player in s["players"]:
        cls = (
            "won" if player in winners else "move" if player == s.get("to_move") and not s.get("over") else ""
        )
        marker = "▶ " if cls == "move" else "★ " if cls == "won" else ""
        rows.append(
            f"<tr class='{cls}'><td>{marker}{_e(player)}</td><td>{_e(s['scores'].get(player, 0))}</td></tr>"
        )
    word = f"<div>Last word: <span class=word>{_e(s['last_word'])}</span></div>" if s.get("last_word") else ""
    ruling = ""
    if s.get("ruling"):
        r = s["ruling"]
        cls = "legal" if r["legal"] else "illegal"
        ruling = (
            f"<div class={cls}>{_e(r['verdict'])}: {_e(r['reason'])}"
            f"<div class=muted>{_e(r['rule'])}</div></div>"
        )
    problem = f"<div class=problem>{_e(s['problem'])}</div>" if s.get("problem") else ""
    waiting = (
        f"<div class=muted>waiting for message {_e(s['waiting_for'])}</div>" if s.get("waiting_for") else ""
    )
    return (
        f"<div class=card><h3>{name}<span class=muted>{_e(s['title'])}</span></h3>"
        f"<div class=muted>{_e(_status(s))} · {_e(s['events'])} events</div>"
        f"<table class=score>{''.join(rows)}</table>{word}{ruling}{waiting}{problem}</div>"
    )


def leaderboard_table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "<p class='muted board'>No game played yet.</p>"
    body = "".join(
        f"<tr><td>{i}</td><td>{_e(r['player'])}</td><td>{r['wins']}</td><td>{r['games']}</td>"
        f"<td>{'' if r['best_turn'] is None else r['best_turn']}</td></tr>"
        for i, r in enumerate(rows, start=1)
    )
    head = "<tr><th>#</th><th>Player</th><th>Wins</th><th>Games</th><th>Best turn</th></tr>"
    return f"<table class=board>{head}{body}</table>"


def club_page(snapshot: dict[str, Any], club: str) -> str:
    tables = snapshot.get("tables", [])
    cards = "".join(game_card(t["current"], t["table"]) for t in tables) or "<p class=muted>No table yet.</p>"
    body = (
        f"<h2>Tables ({len(tables)})</h2><div class=grid>{cards}</div>"
        f"<h2>Leaderboard</h2>{leaderboard_table(snapshot.get('leaderboard', []))}"
    )
    return _page(f"{club} club night", body, club)


def table_page(snapshot: dict[str, Any], club: str, table: str) -> str | None:
    """One table's current game, its score sheet and its earlier games; None if unknown."""
    found = next((t for t in snapshot.get("tables", []) if t["table"] == table), None)
    if found is None:
        return None
    current = found["current"]
    sheet = ""
    if current and current.get("sheet"):
        rows = "".join(
            f"<tr><td>{i}</td><td>{_e(line['player'])}</td><td>{line['points']:+d}</td>"
            f"<td>{_e(line['summary'])} <span class={'legal' if line['verdict'] == 'LEGAL' else 'illegal'}>"
            f"{_e(line['verdict'])}</span></td></tr>"
            for i, line in reversed(list(enumerate(current["sheet"], start=1)))
        )
        sheet = f"<h2>Score sheet <span class=muted>newest first</span></h2><table class=sheet>{rows}</table>"
    earlier = [g for g in found["games"] if g is not current]
    others = "".join(game_card(g, f"{table}: {g.get('title', '')}", link=False) for g in reversed(earlier))
    body = (
        f"<div class=grid style='margin-top:12px'>{game_card(current, table, link=False)}</div>{sheet}"
        + (f"<h2>Earlier games</h2><div class=grid>{others}</div>" if others else "")
        + "<p class='muted board'><a style='color:#8b9aab' href='/'>All tables</a></p>"
    )
    return _page(f"{table} — {club}", body, club)


def not_found(table: str) -> str:
    return _page(
        "No such table", f"<p class=board>No game from {_e(table)} has reached the club yet.</p>", ""
    )
