"""Simulated Swiss tournaments: players, pairings round by round and every table's game played."""

from __future__ import annotations

import hashlib
import multiprocessing
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

from domain.record import slug
from domain.systems import system_for
from domain.tournaments import GameResult, TournamentError, standings, swiss_pairings, tournament_system
from simulation.games import SIMULATORS, _moment, iso, record_lines


FIRST_NAMES = ("Anna", "Boris", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kasia",
               "Luca", "Mei", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wanda",
               "Xavier", "Yara", "Zeno")
SURNAMES = ("Adler", "Brandt", "Costa", "Dietz", "Eriksen", "Fischer", "Garcia", "Horvat", "Ivanova", "Jansen",
            "Kowalski", "Lind", "Moreau", "Novak", "Ortiz", "Petrov", "Quist", "Rossi", "Silva", "Tanaka")
ROUNDS_PER_DAY, ROUND_HOURS = 4, 3  # round r starts ROUND_HOURS after round r-1, four rounds a day


@dataclass
class SimulatedGame:
    """One game of a simulated tournament: its record lines (as export writes them) and its result."""

    tournament: str
    round: int
    table: int
    game: str
    players: tuple[tuple[str, str], tuple[str, str]]  # (name, faction) of p1 and p2
    score: tuple[int, int]                              # victory points of p1 and p2, from GameEnded
    winner: str | None                                  # the winner's name; None: a draw
    lines: list[str]

    @property
    def events(self) -> int:
        return len(self.lines) - 1

    @property
    def result(self) -> GameResult:
        (a, _), (b, _) = self.players
        return GameResult(a, b, self.score[0], self.score[1], self.winner)


def entrants(system: str, count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` players (name, faction) of a tournament of ``system``: distinct names, factions at random."""
    rng = random.Random(f"{seed}/{system}/entrants")
    names = [f"{first} {last}" for first in FIRST_NAMES for last in SURNAMES]
    rng.shuffle(names)
    chosen = [names[i % len(names)] + (f" {i // len(names) + 1}" if i >= len(names) else "") for i in range(count)]
    return [(name, rng.choice(SIMULATORS[system].factions)) for name in chosen]


def game_seed(seed: int, round_no: int, table: int) -> int:
    """The seed of one table's game: depends only on the tournament's seed, the round and the table."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{round_no}/{table}".encode()).digest()[:8], "big")


def round_start(start: datetime, round_no: int) -> datetime:
    day, slot = divmod(round_no - 1, ROUNDS_PER_DAY)
    return start + timedelta(days=day, hours=slot * ROUND_HOURS)


def play_table(system: str, tournament: str, round_no: int, table: int, seed: int,
               players: tuple[tuple[str, str], tuple[str, str]], start: str, options: dict) -> SimulatedGame:
    """Play one table of a round (a worker process runs this for each game)."""
    game_id = f"{slug(tournament)}-r{round_no}-t{table}"
    sim_seed = game_seed(seed, round_no, table)
    begins = _moment(start) + timedelta(seconds=sim_seed % 300)  # tables start within five minutes
    game = SIMULATORS[system](sim_seed, game_id, tournament=tournament, round_no=round_no, table=table,
                              players=players, start=begins, **options).play()
    lines = record_lines(game)
    ended = game.pending_events[-1].data
    named = {p["id"]: p["name"] for p in game.header["players"]}
    return SimulatedGame(tournament, round_no, table, game_id, players,
                         (ended["score"]["p1"], ended["score"]["p2"]),
                         named[ended["winner"]] if ended["winner"] is not None else None, lines)


def _play_task(task: tuple) -> SimulatedGame:
    return play_table(*task)


def simulate_tournament(system: str, name: str, players: int, rounds: int, seed: int = 1, *, workers: int = 1,
                        on_bye: Callable[[int, str, str], object] | None = None,
                        start: datetime | str | None = None, **game_options) -> Iterator[SimulatedGame]:
    """Play a Swiss tournament of ``players`` players over ``rounds`` rounds; yields each game, round by round.

    Round 1 is paired at random (from the seed), later rounds by the standings so far
    (:func:`domain.tournaments.swiss_pairings`: no rematch when avoidable, a bye for an odd count,
    reported through ``on_bye(round, name, faction)``). Players keep their name and faction. The games
    of a round are played in ``workers`` processes (fork) when more than one; the records are the same
    whatever the number of workers. ``game_options`` go to the system's simulator (e.g. ``turns``,
    ``models_per_player``)."""
    system = tournament_system(system)
    if system not in SIMULATORS:
        raise TournamentError(f"no simulator for system '{system}'")
    if players < 2 or rounds < 1:
        raise TournamentError(f"a tournament needs at least 2 players and 1 round (not {players} and {rounds})")
    field = entrants(system, players, seed)
    faction = dict(field)
    seeding = [n for n, _ in field]
    random.Random(f"{seed}/{system}/round-1").shuffle(seeding)
    begins = _moment(start)
    results: list[GameResult] = []
    byes: list[str] = []
    played: set[frozenset[str]] = set()
    pool = _pool(workers) if workers > 1 else None
    try:
        for round_no in range(1, rounds + 1):
            ranked = seeding
            if round_no > 1:  # by the standings; the seeding order breaks complete ties
                table = {s.player: s for s in standings(results, byes, seeding)}
                ranked = sorted(seeding, key=lambda p: tuple(-k for k in table[p].key))
            pairs, bye = swiss_pairings(ranked, played, byes)
            if bye is not None:
                byes.append(bye)
                if on_bye is not None:
                    on_bye(round_no, bye, faction[bye])
            when = iso(round_start(begins, round_no))
            tasks = [(system, name, round_no, number, seed, system_for(system).seats((a, faction[a]), (b, faction[b])), when,
                      game_options) for number, (a, b) in enumerate(pairs, start=1)]
            done = pool.map(_play_task, tasks) if pool is not None else map(_play_task, tasks)
            for game in done:
                results.append(game.result)
                played.add(frozenset((game.players[0][0], game.players[1][0])))
                yield game
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def _pool(workers: int) -> ProcessPoolExecutor:
    # fork: workers start at once and never re-run the caller's __main__ (spawn would).
    methods = multiprocessing.get_all_start_methods()
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork" if "fork" in methods
                                                                                else "spawn"))
