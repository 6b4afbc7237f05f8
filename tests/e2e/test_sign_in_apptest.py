"""One sign-in per device, under AppTest over a real store with keys: the sidebar's sign-in is the only key
entry and every page uses it; refusals speak of the page, under the control that was used, and keep what was
typed; signing out forgets everything; a revoked key or a device left alone signs out. (The cookie that
carries the sign-in to a reload or another tab is a browser's: tests/e2e/test_browser_sign_in.py.)"""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pytest
import record_table
from signing import app_page, form, key_fields, ran, sign_in, sign_out, signed_in_as, texts

from service.application import Rollcall
from projections.projector import Projector

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
TOURNAMENT = "Club Night"
PAGES = ("new_game", "record", "live", "games", "replay", "dispute", "standings", "public", "analytics")
CLI_ADVICE = ("--key", "ROLLCALL_KEY")


def lines_of(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A store with keys (Olga organises, Jules judges, Sam keeps score) holding seed 004's first example and
    a tournament of four registered players, projected."""
    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    held = {"organiser": store.add_key("organiser", "Olga")}
    store.key = held["organiser"]
    held |= {"judge": store.add_key("judge", "Jules"), "scorekeeper": store.add_key("scorekeeper", "Sam")}
    store.import_record(lines_of(EX1), str(EX1))
    store.create_tournament(TOURNAMENT, "t9a")
    for player in ("Anna", "Boris", "Chiara", "Dmitri"):
        store.register_player(TOURNAMENT, player, "orcs")
    store.close()
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    monkeypatch.delenv("ROLLCALL_IDLE_MINUTES", raising=False)
    return held


def stored(game: str = GAME) -> list[dict]:
    store = Rollcall.open(folder())
    try:
        return store.stored_lines(game)
    finally:
        store.close()


def rulings() -> list[dict]:
    return [line for line in stored() if line.get("type") == "RulingMade"]


def fill_ruling(at, judge: str | None, decision: str, text: str):
    if judge is not None:
        at.text_input(key="ruling-judge").input(judge)
    [r for r in at.radio if r.label == "Decision"][0].set_value(decision)
    at.text_area(key="ruling-text").input(text)
    return at


def press(at, label: str):
    if label in record_table.labels(at):  # an offer of the Record page's table
        return record_table.tap(at, label)
    [b for b in at.main.button if b.label == label][0].click()
    return ran(at)


def test_every_page_shows_who_is_signed_in_with_sign_out_and_asks_for_no_key(keys) -> None:
    at = sign_in(app_page("games"), keys["judge"])
    for page in PAGES:
        at.switch_page(f"views/{page}.py")
        at = ran(at)
        assert signed_in_as(at) == ["Signed in as **Jules** (judge)"], page
        assert [b.label for b in at.sidebar.button] == ["Sign out"], page
        assert not key_fields(at), page
        assert not [t for t in texts(at) if any(advice in t for advice in CLI_ADVICE)], page


def test_a_judge_signed_in_in_the_sidebar_rules_on_the_dispute_page(keys) -> None:
    at = sign_in(app_page("dispute", game=GAME, seq="6"), keys["judge"])
    assert at.text_input(key="ruling-judge").value == "Jules"  # the judge signed in
    at = press(fill_ruling(at, None, "stands", "the nearest free hex was chosen"), "Record ruling")
    assert [s.value for s in form(at, "ruling").success] == ["recorded seq 8 (RulingMade)"]
    assert [(r["judge"], r["text"]) for r in rulings()] == [("Jules", "the nearest free hex was chosen")]
    store = Rollcall.open(folder())
    events = store.recorder.select_events(store.get_game(GAME).id)
    assert json.loads(events[-1].state)["author"] == "Jules"
    store.close()


def test_a_ruling_without_a_judge_signed_in_is_refused_under_its_button_and_keeps_what_was_typed(keys) -> None:
    at = app_page("dispute", game=GAME, seq="4")
    # a void of seq 4 alone would break F01: the key is asked before any rule is
    at = press(fill_ruling(at, "Jules", "void", "only the step"), "Record ruling")
    assert [unescape(e.value) for e in form(at, "ruling").error] == [
        "Sign in with a judge's key in the sidebar to record a ruling."]
    assert not [e for e in at.main.error if e not in form(at, "ruling").error]  # nothing at the top of the page
    assert at.text_area(key="ruling-text").value == "only the step"
    assert at.text_input(key="ruling-judge").value == "Jules"
    assert not rulings()

    at.text_area(key="dispute-claim").input("the Faceless had activated already")
    at = press(at, "Open dispute")
    assert [unescape(e.value) for e in form(at, "open-dispute").error] == [
        "Sign in with a scorekeeper's key in the sidebar to open a dispute."]
    assert at.text_area(key="dispute-claim").value == "the Faceless had activated already"
    assert not [t for t in texts(at) if any(advice in t for advice in CLI_ADVICE)]


def test_a_scorekeeper_signed_in_is_told_a_ruling_needs_a_judge_and_may_open_a_dispute(keys) -> None:
    at = sign_in(app_page("dispute", game=GAME, seq="6"), keys["scorekeeper"])
    at = press(fill_ruling(at, "Jules", "stands", "fine"), "Record ruling")
    assert [unescape(e.value) for e in form(at, "ruling").error] == [
        "Signed in as Sam (scorekeeper), who may not record a ruling: sign out in the sidebar and sign in with a "
        "judge's key."]
    at.text_area(key="dispute-claim").input("the Swordsman belongs on [3,6]")
    at = press(at, "Open dispute")
    assert [s.value for s in form(at, "open-dispute").success] == ["recorded seq 8 (DisputeOpened)"]
    assert at.text_area(key="dispute-claim").value == ""  # written: the form is empty again
    assert at.text_area(key="ruling-text").value == "fine"  # the refused ruling is kept


def test_after_sign_out_the_next_person_on_the_tablet_cannot_rule(keys) -> None:
    at = sign_in(app_page("dispute", game=GAME, seq="6"), keys["judge"])
    at = press(fill_ruling(at, None, "stands", "fine"), "Record ruling")
    assert len(rulings()) == 1
    fill_ruling(at, None, "void", "a draft the judge left")
    at = sign_out(at)
    assert signed_in_as(at) == [] and [s.value for s in at.sidebar.success] == ["Signed out."]
    assert at.text_input(key="ruling-judge").value == "" and at.text_area(key="ruling-text").value == ""

    at = press(fill_ruling(at, "Jules", "void", "as the judge would have"), "Record ruling")  # the next person
    assert [unescape(e.value) for e in form(at, "ruling").error] == [
        "Sign in with a judge's key in the sidebar to record a ruling."]
    assert len(rulings()) == 1


def test_signing_out_forgets_the_key_its_holder_the_forms_and_the_application_service(keys) -> None:
    from dashboard import session

    at = sign_in(app_page("dispute", game=GAME, seq="6"), keys["judge"])
    sid = at.session_state[session.SID]
    assert at.session_state[session.APP][2].key == keys["judge"]
    fill_ruling(at, None, "stands", "half written")
    at = sign_out(at)
    assert at.session_state[session.OP]["kind"] == "clear"  # (until the browser has cleared the cookie of sid)
    left = " ".join(repr(at.session_state[name]) for name in at.session_state if name != session.OP)
    for forgotten in (keys["judge"], sid, "Jules", "half written"):
        assert forgotten not in left
    assert at.session_state[session.APP][2].key is None  # the page's application service presents no key
    assert session.devices().find(sid, folder(), 1e9) == (None, session.Devices.GONE)


def folder() -> str:
    import os

    return os.environ["ROLLCALL_DATA"]


def test_a_key_revoked_meanwhile_signs_the_device_out(keys) -> None:
    at = sign_in(app_page("record", game=GAME), keys["scorekeeper"])
    assert signed_in_as(at) == ["Signed in as **Sam** (scorekeeper)"]
    store = Rollcall.open(Path(folder()), key=keys["organiser"])
    store.revoke_key("Sam")
    store.close()
    at = ran(at)  # the page's next run (the sidebar looks at the keys every few seconds)
    assert signed_in_as(at) == []
    assert [w.value for w in at.sidebar.warning] == ["Signed out: the key of Sam was revoked."]
    assert at.sidebar.text_input(key="rc_key_typed")


def test_a_device_left_alone_longer_than_the_idle_time_is_signed_out(keys, monkeypatch) -> None:
    from dashboard import session

    monkeypatch.setenv("ROLLCALL_IDLE_MINUTES", "20")
    at = sign_in(app_page("live"), keys["judge"])
    device = session.devices().find(at.session_state[session.SID], folder(), 1e9)[0]
    device.seen -= 19 * 60  # used 19 minutes ago: still signed in
    at = ran(at)
    assert signed_in_as(at) == ["Signed in as **Jules** (judge)"]
    device.seen -= 21 * 60  # and now left alone 21 minutes
    at = ran(at)
    assert signed_in_as(at) == []
    assert [i.value for i in at.sidebar.info] == ["Signed out: this device was left alone for 20 min."]


def test_pairing_on_the_standings_page_uses_the_sidebar_sign_in(keys) -> None:
    at = app_page("standings", tournament=TOURNAMENT)
    assert not key_fields(at)
    at = press(at, "Pair round")
    assert [unescape(e.value) for e in form(at, "pair_round").error] == [
        "Sign in with an organiser's key in the sidebar to pair a round."]
    at = sign_in(at, keys["organiser"])
    at = press(at, "Pair round")
    assert [s.value for s in form(at, "pair_round").success] == ["round 1 paired: 2 tables"]


def test_a_new_game_without_a_sign_in_is_refused_in_the_pages_words(keys) -> None:
    at = app_page("new_game")
    names = [t for t in at.text_input if t.label == "Name"]
    names[0].input("Anna")
    names[1].input("Boris")
    at = press(ran(at), "Start the game")
    assert [unescape(e.value) for e in at.main.error] == [
        "Not started — Sign in with a scorekeeper's key in the sidebar to start a game."]


def test_after_the_first_key_is_added_mid_game_the_record_page_asks_for_the_sidebar_sign_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    store.import_record(lines_of(EX1)[:4], str(EX1))  # up to the Faceless's activation (seq 3)
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    at = app_page("record", game=GAME)
    assert not at.sidebar.text_input  # a store without keys: nobody signs in
    organiser = store.add_key("organiser", "Olga")  # the organiser adds the first key meanwhile
    store.close()
    at = press(at, "end the activation of The Faceless (Boris)")
    assert any("Not recorded — Sign in with a scorekeeper's key in the sidebar to record this game." in e.value
               for e in at.error)
    at = ran(at)  # the page's next run (the sidebar looks at the keys every few seconds)
    assert at.sidebar.text_input(key="rc_key_typed")
    assert [c.value for c in at.caption].count("Last events") == 1
    assert not [t for t in texts(at) if any(advice in t for advice in CLI_ADVICE)]
    at = press(sign_in(at, organiser), "end the activation of The Faceless (Boris)")
    assert stored()[-1]["type"] == "ActivationEnded"
