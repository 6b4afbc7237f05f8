"""The application service's confirmations (domain.confirmation): a player confirms the result recorded, or
disputes it with the result they saw; the organiser confirms for a player who left; each table's status."""

from __future__ import annotations

from domain.access import seat_of
from domain.confirmation import TableStatus, result_claim, table_status
from domain.errors import RecordError, RollcallError
from domain.systems.pack import winner_of
from i18n import _


class ConfirmationsMixin:
    """Mixed into :class:`service.application.Rollcall`."""

    def _seat(self, game, seat: str | None) -> str:
        """``seat`` as given, else the seat of the player signed in."""
        if seat is not None:
            return seat
        holder = self.holder()  # type: ignore[attr-defined]
        found = seat_of(holder, game.header) if holder is not None and holder.is_player else None
        if found is None:
            raise RollcallError(_("say whose result this is: the seat (p1 or p2) of the player who confirms"))
        return found

    def confirm_result(self, game_id: str, score: dict[str, int], seat: str | None = None, *,
                       absent: bool = False) -> list[dict]:
        """``seat`` (default: the player signed in) confirms the result ``score`` it saw; the second confirmation
        seals the game with it. ``absent``: the organiser confirms for a player who left. The lines stored."""
        game = self.get_game(game_id)  # type: ignore[attr-defined]
        seat = self._seat(game, seat)
        event = {"type": "ResultConfirmed", "seat": seat, "score": dict(score), "winner": winner_of(score),
                 **({"absent": True} if absent else {})}
        events = [event]
        state = game.state
        if state.ended and getattr(state, "result", None) == {"score": event["score"], "winner": event["winner"]} \
                and set(state.players) <= set(getattr(state, "confirmed", {})) | {seat}:
            events.append({"type": "GameSealed", "confirmed_by": list(state.players)})
        return self._written(game_id, events)

    def dispute_result(self, game_id: str, score: dict[str, int], seat: str | None = None) -> dict:
        """``seat`` (default: the player signed in) saw another result than the one recorded: a dispute about the
        game's end, with the result it saw, for the judge."""
        game = self.get_game(game_id)  # type: ignore[attr-defined]
        seat = self._seat(game, seat)
        ended = next((line for line in game.state.lines if line["type"] == "GameEnded"), None)
        if ended is None:
            raise RollcallError(_("game {game} has not ended: there is no result to dispute yet").format(game=game_id))
        winner = winner_of(score)
        return self._written(game_id, [{"type": "DisputeOpened", "by": seat, "about": [ended["seq"]],
                                        "claim": result_claim(game.header["players"], score, winner),
                                        "x_result": {"score": dict(score), "winner": winner}}])[-1]

    def _written(self, game_id: str, events: list[dict]) -> list[dict]:
        try:
            return self.write(game_id, events).lines  # type: ignore[attr-defined]
        except RecordError as exc:
            raise exc.cause from None

    def game_status(self, game_id: str) -> TableStatus:
        return table_status(self.stored_lines(game_id))  # type: ignore[attr-defined]

    def table_statuses(self, tournament: str, round_no: int | None = None) -> dict[int, TableStatus]:
        """Each table's status in round ``round_no`` (default: the last paired) of a tournament paired here."""
        found = self.tournament(tournament)  # type: ignore[attr-defined]
        round_no = round_no or found.last_round
        tables = found.rounds.get(round_no, {}).get("tables", ())
        return {t["table"]: self.game_status(t["game"]) for t in tables}
