"""What the Record page offers is always of the state it shows, and the rules accept every offer.

* At every state of simulated games of Tornscape, The 9th Age and Claustrophobia, each offer the page makes
  of it — a button, a roll's face buttons and pickers, a form's values, a move of the list, a tap on the
  board — records, on a copy of the game, an event the rules accept.
* Walking golden records through the page under AppTest (a tap on the page's own button wherever one
  records the next event, the store otherwise), after every write the buttons shown are exactly the offers
  of the game as now stored — no stale button stays, nothing the rules refuse is offered — and a run of
  the page again shows them in the same order.
"""

from __future__ import annotations

import copy
import json
import pickle
import sys
from pathlib import Path

import pytest
import record_table
from streamlit.testing.v1 import AppTest

from dashboard import record_view as ui
from domain.game import Game
from projections.projector import Projector
from service.application import Rollcall
from simulation.games import record_lines, simulate

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from completions import completions  # noqa: E402  (the legal actions' test oracle, tests/completions.py)

RECORD = str(ROOT / "dashboard" / "views" / "record.py")
GAMES = ROOT / "tests" / "games"
PLAYED = {"tornscape": dict(seeds=range(1), turns=1), "t9a": dict(seeds=range(2), turns=3),
          "claustrophobia": dict(seeds=range(2), turns=3)}
WALKED = ("seed004-ex1-shove-enemy-failed-dodge", "t9a-dispelled-failed-bound",
          "claustrophobia-seed003-sceptre-three-dice")
NOT_ASKED = ("seq", "hash", "at")  # what a write leaves to the store and the clock


def on_copy(game: Game) -> Game:
    twin = copy.copy(game)
    twin._pending_events = []
    twin.state = pickle.loads(pickle.dumps(game.state, pickle.HIGHEST_PROTOCOL))
    return twin


def page_offers(game: Game) -> ui.Offers:
    pres = game.system.presentation
    return ui.offers(game.system.legal_actions(game.state), pres, pres.names(game.state.header))


def events_of(offer: ui.Offer) -> list[dict]:
    """The events a tap on the offer, then on what its form offers, may record."""
    if offer.complete:
        return [offer.action.event]
    return [event for action in offer.actions for event in completions(action, 3 if offer.rolls else 4)]


def tap_events(game: Game, offers: ui.Offers) -> list[dict]:
    """What a tap on the board records at each place it is offered (the page's own rule: the first choice)."""
    pres = game.system.presentation
    actions = game.system.legal_actions(game.state)
    due = [o.action for o in offers.all() if "to" in o.action.open] or [a for kind in offers.moves.values()
                                                                         for a in kind]
    taps = pres.taps(due + [a for a in actions if a.event.get("type") == "ActivationStarted"], game.state.to_json())
    out = []
    for choices in (*taps.hexes.values(), *taps.models.values()):
        action, values = choices[0]
        out.append(action.fill(**values) if action.open else action.event)
    return out


def accepted(game: Game, event: dict, what: str) -> None:
    before = game.state.seq
    try:
        on_copy(game).record(event)
    except Exception as exc:  # the page offered something the rules refuse
        raise AssertionError(f"seq {before}: the offer {what!r} is refused: {exc}") from None
    assert game.state.seq == before


def replay(lines: list[str]):
    header, *events = [json.loads(line) for line in lines]
    game = Game.start(header, id=None)  # type: ignore[arg-type]
    for event in events:
        yield game
        game.record(event)
    yield game


@pytest.mark.parametrize("system", sorted(PLAYED))
def test_every_offer_of_the_page_is_accepted_by_the_rules_at_every_simulated_state(system: str) -> None:
    states = offers_checked = 0
    for seed in PLAYED[system]["seeds"]:
        lines = record_lines(simulate(system, seed, f"{system}-{seed}", turns=PLAYED[system]["turns"]))
        for game in replay(lines):
            offers = page_offers(game)
            for offer in offers.all():
                for event in events_of(offer):
                    accepted(game, event, offer.label)
                    offers_checked += 1
            moves = [a.event for kind in offers.moves.values() for a in kind]
            for event in moves[:: max(1, len(moves) // 12)] + tap_events(game, offers)[:24]:
                accepted(game, event, event["type"])
            assert [o.label for o in page_offers(on_copy(game)).all()] == [o.label for o in offers.all()]
            states += 1
    assert states > 40 and offers_checked > states


# --- through the page --------------------------------------------------------------------------------

def lines_of(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


def ran(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(at: AppTest) -> list[tuple[str, str]]:
    """The offers the page shows, in order: (id, label) of the table's offer buttons."""
    return [(o["id"], o["label"]) for o in record_table.offers(at)]


def check_page(at: AppTest, store: Rollcall, game_id: str) -> dict[str, ui.Offer]:
    """The page's offer buttons are exactly the offers of the game as stored, each accepted by the rules."""
    game = store.get_game(game_id)
    offers = {o.key: o for o in page_offers(game).all()}
    keys = [key for key, _ in shown(at)]
    assert sorted(keys) == sorted(offers), (
        f"seq {game.state.seq}: stale {sorted(set(keys) - set(offers))}, missing {sorted(set(offers) - set(keys))}")
    assert record_table.board(at)["seq"] == game.state.seq
    for key in keys:
        for event in events_of(offers[key]):
            accepted(game, event, offers[key].label)
    return offers


@pytest.mark.parametrize("name", WALKED)
def test_after_every_write_through_the_page_its_offers_are_of_the_new_state_in_a_stable_order(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = GAMES / f"{name}.rollcall.jsonl"
    lines = lines_of(path)
    game_id = json.loads(lines[0])["game"]
    data = tmp_path / "data"
    store = Rollcall.open(data)
    store.import_record(lines[:1], str(path))
    Projector(data).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(data))
    at = AppTest.from_file(RECORD, default_timeout=30)
    at.query_params["game"] = game_id
    at = ran(at)
    tapped = 0
    for line in lines[1:]:
        offers = check_page(at, store, game_id)
        order = shown(at)
        assert shown(ran(at)) == order  # the same offers in the same order, run after run
        event = {k: v for k, v in json.loads(line).items() if k not in NOT_ASKED}
        button = next((label for key, label in order if offers[key].complete
                       and offers[key].action.matches(event)), None)
        if button is not None:
            at = record_table.tap(at, button)
            assert any("Recorded seq" in s.value for s in at.success), [e.value for e in at.error]
            tapped += 1
        else:
            store.record(game_id, event)
            at = ran(at)
    check_page(at, store, game_id)
    assert [json.loads(x)["type"] for x in lines[1:]] == [x["type"] for x in store.stored_lines(game_id)[1:]]
    assert tapped >= 3
