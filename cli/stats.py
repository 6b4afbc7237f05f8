"""Statistics of games and tournaments in the terminal: the figures of the Analytics page."""

from __future__ import annotations

import json
from typing import Annotated, Any, Optional

import typer

from cli.options import App, AsJson, DataDir, ReadKey, read_seen
from domain.errors import RollcallError
from i18n import N_, _, ngettext

# per query: its title and the columns shown (JSON output carries every column; the columns are the read models')
SHOWN: dict[str, tuple[str, tuple[str, ...]]] = {
    "luck_by_player": (N_("Luck per player (observed - expected; |z| >= 2 is rare)"),
                       ("player", "unit", "games", "dice", "observed", "expected", "luck", "z_score", "verdict")),
    "luck_by_die": (N_("Luck per die and purpose"),
                    ("die", "purpose", "unit", "dice", "observed", "expected", "luck", "z_score")),
    "luck_by_game": (N_("Luckiest and unluckiest players of a game (largest |z|)"),
                     ("game", "name", "faction", "unit", "result", "dice", "luck", "z_score")),
    "swings": (N_("Big swings of the game {game} (|z| >= 2)"),
               ("seq", "player", "unit", "observed", "expected", "z_score")),
    "fairness": (N_("Dice fairness (chi-square per die type; Holm over every test)"),
                 ("level", "who", "die", "throws", "p_value", "p_holm", "q_bh", "verdict")),
    "card_fairness": (N_("Card draws against a uniform deck"), ("deck", "draws", "cards", "p_value", "p_holm", "verdict")),
    "odds_checks": (N_("Outcomes against their exact odds"), ("test", "n", "observed", "expected", "p_value", "p_holm",
                                                          "verdict")),
    "vortex_allegiance": (N_("Vortex stabilisation outcomes"), ("outcome", "face", "observed", "expected", "share",
                                                           "expected_share")),
    "ether_by_faction": (N_("Ether harvested by faction"), ("faction", "games", "explorations", "successes", "ether",
                                                        "ether_per_game")),
    "casting": (N_("Casting by number of dice"), ("dice", "attempts", "passed", "expected_passed", "miscasts",
                                              "expected_miscasts")),
    "dispels": (N_("Dispels by number of dice"), ("dice", "attempts", "dispelled", "expected_dispelled")),
    "exhaustion": (N_("Initiative exhaustion"), ("warrior", "dice", "exhausted", "rate", "ci_low", "ci_high", "set_aside")),
    "faction_results": (N_("Faction win rates (95% Wilson interval; mirror matches apart)"),
                        ("faction", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high", "mirror_games",
                         "mean_score")),
    "matchups": (N_("Faction against faction"), ("faction", "opponent", "games", "wins", "draws", "losses", "win_rate")),
    "first_player": (N_("First-player advantage (first player: who acts first)"),
                     ("system", "decided", "first_wins", "rate", "ci_low", "ci_high", "p_value", "verdict")),
    "turn_times": (N_("Time per turn (events with `at`)"), ("turn", "games", "mean_seconds", "median_seconds",
                                                        "max_seconds")),
    "time_by_player": (N_("Time on the game clock per player, turn and phase"),
                       ("game", "name", "faction", "turn", "phase", "seconds")),
}
MAX_ROWS = 12

app = App()


@app.command(help=_("Luck, dice and card fairness, odds of the games' rolls and results of a tournament or a set of "
                    "games. Without a key of the store, the games a tournament's broadcast delay holds back count once "
                    "the delay has passed."))
def stats(tournament: Annotated[Optional[str], typer.Option(help=_("Tournament (default: every game)."))] = None,
          game: Annotated[Optional[list[str]], typer.Option(help=_("A game (repeat for a set of games)."))] = None,
          as_json: AsJson = False,
          data: DataDir = None, key: ReadKey = None) -> None:
    """Luck, dice and card fairness, odds of the games' rolls and results of a tournament or a set of games. Without
    a key of the store, the games a tournament's broadcast delay holds back count once the delay has passed."""
    from projections.stats import ANALYTICS_QUERIES, Scope, focus_game, held_back, scope_games

    def figures_of(con, seen):
        scope = Scope(tournament=tournament, games=tuple(game or ()), seen=seen)
        games = scope_games(con, scope)
        if not games or (scope.games and len(games) < len(set(scope.games))):
            missing = sorted(set(scope.games) - set(games)) if scope.games else []
            raise RollcallError(_("unknown games: {games}").format(games=", ".join(missing)) if missing
                                else _("no games in tournament '{tournament}'").format(tournament=tournament)
                                if tournament else _("no games recorded"))
        figures = {name: query(con, scope) for name, query in ANALYTICS_QUERIES.items()}
        return games, figures, focus_game(con, scope), held_back(con, scope)

    games, figures, focus, held = read_seen(data, key, figures_of)
    if held:
        typer.echo(ngettext("note: {n} game of this scope is broadcast with a delay: left out of these figures until "
                            "it has passed, its luck lines shown as far as they are broadcast (a key of the store, "
                            "--key, counts it as recorded)",
                            "note: {n} games of this scope are broadcast with a delay: left out of these figures until "
                            "it has passed, their luck lines shown as far as they are broadcast (a key of the store, "
                            "--key, counts them as recorded)", len(held)).format(n=len(held)), err=True)
    if as_json:
        typer.echo(json.dumps({"scope": {"tournament": tournament, "games": games}, **figures},
                              ensure_ascii=False, indent=2, default=str))
        return
    _print(figures, len(games), tournament, focus)


def _print(figures: dict[str, list[dict[str, Any]]], games: int, tournament: str | None, focus: str | None) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    console = Console()
    scope = escape(tournament) if tournament else _("All games")
    console.print(f"[bold]{scope}[/bold]: " + ngettext("{n} game", "{n} games", games).format(n=games))  # untranslated: markup
    for name, (title, columns) in SHOWN.items():
        rows = figures.get(name) or []
        if name == "luck_by_game":
            rows = sorted(rows, key=lambda r: -abs(r["z_score"] or 0))
        if not rows:
            continue
        table = Table(title=Text(_(title).format(game=focus)), title_justify="left", title_style="bold")
        for column in columns:
            table.add_column(column, no_wrap=True)
        for row in rows[:MAX_ROWS]:
            table.add_row(*(Text(_cell(column, row.get(column))) for column in columns))  # names never markup
        console.print(table)
        if len(rows) > MAX_ROWS:
            console.print(ngettext("  … {n} more row (--json for all)", "  … {n} more rows (--json for all)",
                                   len(rows) - MAX_ROWS).format(n=len(rows) - MAX_ROWS))


def _cell(column: str, value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        if column.startswith(("p_", "q_")):
            return f"{value:.2g}" if value < 0.001 else f"{value:.3f}"
        if column in ("rate", "share", "expected_share", "win_rate", "ci_low", "ci_high"):
            return f"{value:.1%}"
        return f"{value:.2f}"
    return str(value)
