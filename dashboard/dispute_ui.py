"""Pieces of the Dispute page: the disputed seqs, the rule checks, the tables, and the writes."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import data, layout, params, safe, session
from dashboard import events as ev
from domain.systems.presentation import Names, words
from i18n import N_, _

ABOUT = "about"


def about_input(seq: int, last: int) -> list[int]:
    """The disputed events (URL parameter ``about``; default: the event at ``seq``): at most
    ``params.MAX_ABOUT`` of the game's events (params.seq_list)."""
    if not st.session_state.get(ABOUT) and not st.query_params.get(ABOUT) and seq > 0:
        st.session_state[ABOUT] = str(seq)
    text = st.text_input(_("Disputed events"), key=ABOUT, bind="query-params", max_chars=params.MAX_PARAM,
                         help=_("seqs, e.g. 12 or 12,13 or 12-14 (at most {n} events)").format(n=params.MAX_ABOUT))
    seqs, problem = params.seq_list(text, last)
    if problem:
        st.warning(problem, icon=":material/rule:")
    return seqs


def replay_link(game: str, seq: int, ruled: bool) -> str:
    """A link opening the Replay page at ``seq`` (as ruled or as played), in this tab."""
    from urllib.parse import urlencode

    query = urlencode({"game": game, "seq": seq, **({"ruled": "true"} if ruled else {})})
    label = (_("Open the as-ruled replay at seq {seq}") if ruled else _("Open in the replay at seq {seq}")).format(seq=seq)
    return f'<a class="rc-replay-link" href="/replay?{query}" target="_self">▶ {safe.html(label)}</a>'


def probability_text(p: float | None) -> str:
    if p is None:
        return "–"
    return f"{p:.1%}" + (" " + _("(1 in {n})").format(n=f"{1 / p:.0f}") if 0 < p < 0.5 else "")


def rolls_frame(rolls: list[dict], names: Names | None = None) -> pd.DataFrame:
    names = names or Names()
    return pd.DataFrame([{
        _("roll"): r["seq"], _("player"): names.player(r["player"]), _("purpose"): words(r["purpose"]),
        _("die"): words(r["die"]),
        _("faces"): f"{ev.dice_symbols(r['faces'])}  ({', '.join(map(str, r['faces']))})",
        _("provenance"): r["source"] + (", " + _("{n} re-rolled (was {faces})").format(
            n=r["n_rerolled"], faces=", ".join(map(str, r["rerolled_from"]))) if r["n_rerolled"] else ""),
        _("used by"): r["used_by_seq"],
        _("P(this outcome)"): probability_text(r["p_outcome"]),
    } for r in rolls])


def clock_frame(rows: list[dict], names: Names | None = None, system: str | None = None) -> pd.DataFrame:
    """The game clock around the disputed moment: per clock event, what happened, when, each player's time after
    it, and how much of it the event's stretch took (the time between this clock event and the one before)."""
    from domain import clock as game_clock

    names = names or Names()
    by_seq: dict[int, dict] = {}
    for r in rows:
        by_seq.setdefault(int(r["seq"]), {"row": r, "left": {}})["left"][r["player"]] = r["remaining_seconds"]
    out, before = [], None
    pres = ev.presentation(system) if system else None
    for seq, found in by_seq.items():
        r, left = found["row"], found["left"]
        event = {"type": r["type"], "player": r["by_player"], "judge": r["judge"], "reason": r["reason"],
                 "seconds": r["seconds"]}
        line = {_("seq"): seq, _("event"): pres.summary(event, None, names) if pres else r["type"],
                _("at"): str(r["at"] or "")}
        for pid, seconds in left.items():
            line[names.player(pid)] = game_clock.shown(round(float(seconds) * 1000))
        spent = [before[p] - left[p] for p in left if before and p in before and before[p] > left[p]]
        line[_("time used")] = game_clock.shown(round(max(spent) * 1000)) if spent else ""
        out.append(line)
        before = left
    return pd.DataFrame(out)


def casts_frame(casts: list[dict], names: Names | None = None) -> pd.DataFrame:
    names = names or Names()
    return pd.DataFrame([{
        _("seq"): c["seq"], _("attempt"): words(c["kind"]), _("wizard"): names.of("wizards", c["wizard"]),
        _("spell"): names.of("spells", c["spell"]), _("dice"): c["dice"],
        _("total"): c["total"], _("against"): c["target"], _("succeeded"): c["succeeded"],
        _("P(success)"): probability_text(c["p"]),
    } for c in casts])


def events_frame(events: list[dict], voided: dict[int, str], rolls: dict[int, dict], system: str | None = None,
                 names: Names | None = None) -> pd.DataFrame:
    names = names or Names()
    return pd.DataFrame([{
        _("seq"): int(e["seq"]), _("type"): e["type"],
        _("player"): names.player(e["player"]) if e.get("player") else "",
        _("summary"): ev.summary(e, rolls, system, names), _("written by"): e.get("author") or "–",
        _("as ruled"): voided.get(int(e["seq"]), _("stands")),
    } for e in events])


def rule_checks(game: str, events: list[dict], about: list[int]) -> None:
    """Each disputed event decided again against the as-played state before it, and its recorded violations."""
    from domain.rulings import check_again
    from domain.systems import system_for

    header = data.header(game)
    system = system_for(header["system"])
    lines = [e["payload"] for e in events]
    by_seq = {int(e["seq"]): e for e in events}
    for seq in about:
        event = by_seq[seq]
        recorded = ev.violations(event)
        again = check_again(system, header, lines, seq)
        if not recorded and not again:
            st.success(_("seq {seq} ({type}): every rule checked holds").format(seq=seq, type=safe.md(event["type"])),
                       icon=":material/check_circle:")
        for v in recorded:
            st.error(_("seq {seq} ({type}): **{rule}** — {message} (marked when recorded)").format(
                seq=seq, type=safe.md(event["type"]), rule=safe.md(v["rule"]), message=safe.md(v["message"])),
                icon=":material/error:")
        for b in again:
            st.error(_("seq {seq} ({type}): **{rule}** — {message}").format(
                seq=seq, type=safe.md(event["type"]), rule=safe.md(b.rule), message=safe.md(b.message)),
                icon=":material/error:")


def disputes_and_rulings(disputes: list[dict], rulings: list[dict], names: Names | None = None) -> None:
    if not disputes and not rulings:
        st.caption(_("No disputes in this game yet."))
        return
    names = names or Names()
    rows = [{"seq": d["seq"], "event": _("dispute"), "who": names.player(d["by_player"]), "about": _seqs(d["about"]),
             "text": d["claim"], "outcome": _("ruled at {seq}").format(seq=d["ruled_at"]) if d["ruled_at"]
             else _("open"), "written by": d.get("author") or "–"} for d in disputes]
    rows += [{"seq": r["seq"], "event": _("ruling"), "who": r["judge"], "about": _seqs(r["about"]), "text": r["text"],
              "outcome": r["decision"], "written by": r.get("author") or "–"} for r in rulings]
    heads = {"seq": _("seq"), "event": _("event"), "who": _("who"), "about": _("about"), "text": _("text"),
             "outcome": _("outcome"), "written by": _("written by")}
    st.dataframe(pd.DataFrame(sorted(rows, key=lambda r: r["seq"])).rename(columns=heads), hide_index=True,
                 width="stretch")


def _seqs(values) -> str:
    return ", ".join(str(v) for v in values or ())


# --- writes ---------------------------------------------------------------------------------------

def ruling_missing(judge: str | None, text: str | None) -> str | None:
    """What a ruling lacks before it may be recorded (a ruling is kept for ever): the judge's name, its text."""
    lacking = [what for what, value in ((_("the judge's name"), judge), (_("the ruling's text"), text))
               if not (value or "").strip()]
    return _("A ruling needs {what}: nothing was recorded.").format(what=_(" and ").join(lacking)) if lacking else None


OPEN, RULING = "open", "ruling"  # the page's two writes: opening a dispute, recording a ruling
# what each needs (domain.access.MAY) and what it is, in a refusal's words
WRITES = {OPEN: ("record", N_("open a dispute")), RULING: ("judge", N_("record a ruling"))}


def clear_written_forms() -> None:
    """Empty the fields of a form whose write went through (before its widgets are drawn again), on every run
    until one has drawn them (``written_forms_drawn``): a run cut short by another (the events just written,
    published a moment later, run the page again) would leave the browser sending back what was typed."""
    for name in st.session_state.get("clear_fields", ()):
        st.session_state[name] = ""


def written_forms_drawn() -> None:
    st.session_state.pop("clear_fields", None)


def write(action, game: str, form: str, clear: tuple[str, ...] = (), **fields) -> None:
    """Run one write of the application service with the device's key (asked first: nothing else is said to
    a device that may not write it) and run the page again, which reports the outcome under the form's
    button (``show_message``); the fields ``clear`` are emptied once the write went through, and a refused
    write keeps what was typed."""
    from domain.access import AccessDenied
    from domain.errors import RollcallError

    need, what = WRITES[form][0], _(WRITES[form][1])
    refusal = session.asked(need, what)
    if refusal is not None:
        st.session_state[_message(form)] = ("error", refusal)
        st.rerun()
    try:
        event = getattr(session.store(), action)(game, **fields)
    except AccessDenied as exc:
        st.session_state[_message(form)] = ("error", session.refused(exc, what))
    except RollcallError as exc:
        st.session_state[_message(form)] = ("error", str(exc))
    else:
        st.session_state[_message(form)] = ("success", _("recorded seq {seq} ({type})").format(seq=event["seq"],
                                                                                                type=event["type"]))
        st.session_state["clear_fields"] = clear
        if event["type"] == "RulingMade" and event["decision"] == "void":
            st.session_state["ruled_next"] = True  # show the as-ruled game
    st.rerun()


def _message(form: str) -> str:
    return f"dispute_message:{form}"


def show_message(form: str) -> None:
    """The outcome of the form's last write, where its button is."""
    layout.show_message(_message(form))


# --- the page's position, bound to the URL (``?game=&seq=``) ------------------------------------

def game_changed() -> None:
    st.session_state["seq"] = 0


def game_picker(ids: list[str], container=st) -> str:
    """Selectbox of games bound to the URL parameter ``game`` (no default option, so the chosen game
    always stays in the URL); with none in the URL the first game is chosen."""
    if st.session_state.get("game") not in ids and st.query_params.get("game") not in ids:
        st.session_state["game"] = ids[0]
    game = container.selectbox(_("Game"), ids, index=None, placeholder=_("Choose…"), key="game", bind="query-params", on_change=game_changed)
    if game is None:
        st.info(_("Pick a game."))
        st.stop()
    return game


def seq_input(last: int, container=st) -> int:
    """Number input of the event (0 = setup) kept in the URL parameter ``seq``: read from the link on the
    page's first run (a seq that is not an event number is said, and the setup shown), written back after."""
    if "seq" not in st.session_state:
        wanted, problem = params.whole(st.query_params.get("seq"), _("an event number"))
        if problem:
            st.warning(_("{problem} Showing the setup (seq 0).").format(problem=problem), icon=":material/link_off:")
        st.session_state["seq"] = wanted or 0
    if int(st.session_state.get("seq") or 0) > last:
        st.session_state["seq"] = last
    seq = int(container.number_input(_("Event (0–{last})").format(last=last), min_value=0, max_value=last, step=1, key="seq"))
    if st.query_params.get("seq") != str(seq):
        st.query_params["seq"] = str(seq)
    return seq

