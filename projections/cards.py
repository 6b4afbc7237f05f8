"""Printable table cards of a tournament round: one card per table with its number, the two players and their
factions, and two QR codes — the table's Record page (for the scorekeeper, who signs in on the tablet) and the
round's Live view (for spectators). One HTML file, two cards per A4 page; every name is escaped. Built from the
round's pairings (projections.tournaments.pairings) by ``rollcall tournament cards`` and the Standings page."""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode, urlsplit

import segno

from domain.errors import RollcallError
from i18n import _
from domain.systems.presentation import title_words

DEFAULT_BASE_URL = "http://localhost:8501"  # where `rollcall dashboard` serves (cli/serve.py)
QR_SCALE = 5  # pixels per module of the PNG; printed at QR_SIZE whatever the scale

CSS = """
@page { size: A4; margin: 10mm; }
* { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 0; color: #111; }
.card { height: 136mm; max-width: 190mm; margin: 0 auto 4mm; padding: 8mm 10mm; border: 1px dashed #888;
        display: flex; flex-direction: column; break-inside: avoid; page-break-inside: avoid; }
.card:nth-child(2n) { break-after: page; page-break-after: always; }
.top { display: flex; justify-content: space-between; align-items: baseline; font-size: 11pt; color: #444; }
.table { font-size: 40pt; font-weight: 700; margin: 2mm 0 3mm; }
.players { display: grid; grid-template-columns: 1fr auto 1fr; gap: 4mm; align-items: center; font-size: 17pt; }
.players .p2 { text-align: right; }
.faction, .team { display: block; font-size: 11pt; color: #444; }
.team { font-weight: 600; }
.vs { font-size: 12pt; color: #666; }
.codes { display: flex; justify-content: space-around; margin-top: auto; }
figure { margin: 0; text-align: center; width: 62mm; }
figure img { width: 38mm; height: 38mm; image-rendering: pixelated; }
figcaption { font-size: 10pt; }
figcaption small { display: block; color: #555; font-size: 7.5pt; overflow-wrap: anywhere; }
@media screen { body { background: #eee; padding: 6mm 0; } .card { background: #fff; } }
"""


def base_url(url: str) -> str:
    """``url`` without a trailing slash; a RollcallError unless it is an http(s) address."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise RollcallError(_("--base-url must be the dashboard's address, such as {example}, not {url!r}").format(
            example=DEFAULT_BASE_URL, url=url))
    return url.strip().rstrip("/")


def record_link(base: str, game: str) -> str:
    return f"{base}/record?{urlencode({'game': game})}"


def signin_link(base: str, code: str) -> str:
    """The address a player's sign-in QR code holds: the player's own page, signing the phone in on the way."""
    return f"{base}/me?{urlencode({'signin': code})}"


def live_link(base: str, tournament: str, round_no: int) -> str:
    return f"{base}/live?{urlencode({'tournament': tournament, 'round': round_no})}"


def qr_image(url: str, label: str) -> str:
    """An <img> of the QR code of ``url`` (a PNG data URI: prints sharp, needs no file beside the page)."""
    uri = segno.make(url, error="m").png_data_uri(scale=QR_SCALE, border=4)
    return f'<img src="{uri}" alt="{escape(label)}" data-url="{escape(url)}">'


def card(tournament: str, row: dict, base: str) -> str:
    """The card of one table (a row of ``pairings``: table_no, game, player, faction, opponent, …)."""
    def side(name: str | None, faction: str | None, cls: str, team: str | None = None) -> str:
        shown = f'<span class="faction">{escape(title_words(faction))}</span>' if faction else ""
        shown += f'<span class="team">{escape(team)}</span>' if team else ""  # a team tournament's team
        return f'<div class="{cls}">{escape(name or "")}{shown}</div>'

    record, live = record_link(base, row["game"]), live_link(base, tournament, row["round"])
    table = f"Table {row['table_no']}" if row.get("table_no") is not None else escape(row["game"])
    return (f'<section class="card" data-table="{row.get("table_no") or ""}">'
            f'<div class="top"><span>{escape(tournament)}</span><span>Round {row["round"]}</span></div>'
            f'<div class="table">{table}</div>'
            f'<div class="players">{side(row["player"], row["faction"], "p1", row.get("team"))}<span class="vs">vs</span>'
            f'{side(row["opponent"], row["opponent_faction"], "p2", row.get("opponent_team"))}</div>'
            f'<div class="codes">'
            f'<figure>{qr_image(record, "Record this game")}<figcaption>Players (signed in) or the scorekeeper: record this game'
            f'<small>{escape(record)}</small></figcaption></figure>'
            f'<figure>{qr_image(live, "Follow the round live")}<figcaption>Spectators: follow the round live'
            f'<small>{escape(live)}</small></figcaption></figure>'
            f'</div></section>')


def cards_html(tournament: str, rows: list[dict], base: str = DEFAULT_BASE_URL) -> str:
    """The printable page of the cards of a round's tables (the bye has no table: no card). ``rows`` are the
    round's pairings; a RollcallError when it has no table."""
    tables = [r for r in rows if r.get("game")]
    if not tables:
        raise RollcallError(_("{tournament} has no table to print in that round (pair it first)").format(
            tournament=tournament))
    base = base_url(base)
    round_no = tables[0]["round"]
    cards = "\n".join(card(tournament, row, base) for row in tables)
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<title>{escape(tournament)}, round {round_no}: table cards</title><style>{CSS}</style></head>'
            f'<body>\n{cards}\n</body></html>\n')


def round_cards(con, name: str, round_no: int | None, base: str = DEFAULT_BASE_URL) -> tuple[str, list[dict]]:
    """The cards page of round ``round_no`` (None: the last) of the tournament ``name``, and the round's
    pairings, read from the published read models."""
    from projections.tournaments import find_tournament, pairings

    rows = pairings(con, name, round_no)
    return cards_html(find_tournament(con, name)["tournament"], rows, base), rows
