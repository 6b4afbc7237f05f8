"""The view model of a player's own page (/me): my table now, my games and results, my standing — a pure function
of the tournament's published read models (what any spectator sees, under the broadcast delay) and who I am."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlencode

from domain.systems.presentation import title_words
from i18n import N_, _

RESULT_WORDS = {"W": N_("won"), "D": N_("draw"), "L": N_("lost")}  # said with _()


@dataclass(frozen=True)
class MyTable:
    round: int
    table: int | None  # None: a bye
    game: str | None
    opponent: str | None
    opponent_faction: str | None
    faction: str | None
    record_link: str | None


@dataclass(frozen=True)
class MyGame:
    round: int
    table: int | None
    opponent: str | None
    score: str  # "3–1", mine first ("" while it is played)
    result: str  # in words, mine
    game: str | None


@dataclass(frozen=True)
class MyPage:
    player: str
    tournament: str
    now: MyTable | None  # the table of the latest pairing published (the next round's once it is)
    games: list[MyGame] = field(default_factory=list)
    rank: int | None = None
    points: int | None = None
    record: str = ""  # W–D–L


def _mine(row: dict, player: str) -> bool | None:
    """True: I sit as p1 in the row; False: as p2; None: not mine."""
    me = player.casefold()
    if str(row.get("player") or "").casefold() == me:
        return True
    if str(row.get("opponent") or "").casefold() == me:
        return False
    return None


def my_page(player: str, tournament: str, pairings: list[dict], results: list[dict], standings: list[dict]) -> MyPage:
    """``player``'s page in ``tournament`` from the rows of projections.tournaments (pairings of the last round,
    results of every round, standings)."""
    now = None
    for row in pairings:
        side = _mine(row, player)
        if side is None:
            continue
        game = row.get("game")
        now = MyTable(row["round"], row.get("table_no") if game else None, game,
                      (row["opponent"] if side else row["player"]) if game else None,
                      title_words(row["opponent_faction"] if side else row["faction"]) if game and (
                          row["opponent_faction"] if side else row["faction"]) else None,
                      title_words(row["faction"] if side else row["opponent_faction"]) if (
                          row["faction"] if side else row["opponent_faction"]) else None,
                      f"/record?{urlencode({'game': game})}" if game else None)
        break
    games = []
    for row in results:
        side = _mine(row, player)
        if side is None:
            continue
        if row.get("game") is None:
            games.append(MyGame(row["round"], None, None, "", _("bye"), None))
            continue
        mine, theirs = (row.get("score"), row.get("opponent_score")) if side else (row.get("opponent_score"),
                                                                                   row.get("score"))
        result = row.get("result")
        if result and not side:
            result = {"W": "L", "L": "W"}.get(result, result)
        games.append(MyGame(row["round"], row.get("table_no"), row["opponent"] if side else row["player"],
                            "" if mine is None else f"{mine}–{theirs}",
                            _(RESULT_WORDS[result]) if result in RESULT_WORDS else _("playing"), row["game"]))
    standing = next((s for s in standings if str(s["player"]).casefold() == player.casefold()), None)
    return MyPage(player, tournament, now, games, standing["rank"] if standing else None,
                  standing["tournament_points"] if standing else None,
                  f"{standing['wins']}–{standing['draws']}–{standing['losses']}" if standing else "")
