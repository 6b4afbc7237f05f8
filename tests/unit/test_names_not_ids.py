"""Names, not ids, in every text a person reads: the packs' summaries, details, offered actions' labels,
pictures and Live cards (their text and tooltips), swept over simulated games of every system. An id of the header (a
player's ``p1``, a model's ``p2m5``, a wizard's ``p1w1``, a vortex's ``v1``) or a word joined by ``_``
(``vortex_move``) in any of them fails, and so does "a" before a vowel."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from domain.game import Game
from domain.systems import system_for
from domain.systems.presentation import add_roll, with_article
from domain.timeline import state_at, state_changes
from simulation.games import record_lines, simulate

PLAYED = {"tornscape": dict(seeds=range(3), turns=4), "t9a": dict(seeds=range(3), turns=6),
          "claustrophobia": dict(seeds=range(3), turns=6)}
JOINED = re.compile(r"\b[A-Za-z]+_\w+\b")
WRONG_ARTICLE = re.compile(r"\ba [aeiouAEIOU]\w*")
PICTURE_EVERY = 5  # the picture and the offers of every fifth state


class Visible(HTMLParser):
    """The text of an HTML picture a person reads: its text and its tooltips, not its style or ids."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.in_style = False

    def handle_starttag(self, tag, attrs) -> None:
        self.in_style = tag == "style"
        self.parts += [value for name, value in attrs if name in ("title", "aria-label", "alt") and value]

    def handle_endtag(self, tag) -> None:
        self.in_style = False

    def handle_data(self, data: str) -> None:
        if not self.in_style:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return " ".join(parser.parts)


def header_ids(header: dict) -> re.Pattern:
    """The ids of the header's players and things that are no words (they hold a digit), as whole words."""
    ids = {str(p["id"]) for p in header["players"]}
    ids |= {str(x["id"]) for part in header["setup"].values() if isinstance(part, list)
            for x in part if isinstance(x, dict) and "id" in x}
    found = sorted((re.escape(i) for i in ids if any(c.isdigit() for c in i)), key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(found) + r")\b", re.IGNORECASE)


def raw_ids(text: str, ids: re.Pattern) -> list[str]:
    return ids.findall(text) + JOINED.findall(text) + WRONG_ARTICLE.findall(text)


def texts(system: str, lines: list[dict]):
    """(where, text) of everything the pack says of a game: each event's summary and details, and at every
    few states the labels of the actions offered and the picture's text."""
    header, events = lines[0], lines[1:]
    pack = system_for(system)
    pres = pack.presentation
    names = pres.names(header)
    game = Game.start(header, id=None)  # type: ignore[arg-type]
    changes = list(state_changes(header, events))
    rolls: dict[int, dict] = {}
    for i, event in enumerate(events):
        if i % PICTURE_EVERY == 0:
            for action in pack.legal_actions(game.state):
                yield "offered action", pres.action_label(action.label, names)
            state = state_at(changes, event["seq"] - 1, pack.state_class.OBJECT_PARTS)
            state.update(game=header["game"], seq=event["seq"] - 1)
            yield "picture", visible(pres.picture(state, names=names))
            yield "card of the Live page", visible(pres.card(state, names))
        add_roll(rolls, event)
        yield f"summary of {event['type']}", pres.summary(event, rolls, names)
        yield f"details of {event['type']}", pres.details(event, names) or ""
        game.record(event)


@pytest.mark.slow
@pytest.mark.parametrize("system", sorted(PLAYED))
def test_every_text_of_a_simulated_game_names_things_in_words(system: str) -> None:
    seen = 0
    for seed in PLAYED[system]["seeds"]:
        lines = [json.loads(line) for line in record_lines(
            simulate(system, seed, f"{system}-{seed}", turns=PLAYED[system]["turns"]))]
        ids = header_ids(lines[0])
        for where, text in texts(system, lines):
            seen += 1
            assert not raw_ids(text, ids), f"{system} seed {seed}, {where}: {text!r}"
    assert seen > 300


def test_a_model_is_named_with_its_player_where_both_players_have_models() -> None:
    header = json.loads(record_lines(simulate("tornscape", 0, "g", turns=1))[0])
    pres = system_for("tornscape").presentation
    names = pres.names(header)
    model = next(m for m in header["setup"]["models"] if m["player"] == "p2")
    assert names.of("models", model["id"]).endswith(f" ({header['players'][1]['name']})")
    assert pres.action_label(f"activate {model['id']}", names) == f"activate {names.of('models', model['id'])}"
    assert names.of("vortices", "v1") in ("Vortex", "Vortex 1")


def test_warriors_of_the_one_human_player_go_without_the_players_name() -> None:
    header = json.loads(record_lines(simulate("claustrophobia", 0, "g", turns=1))[0])
    names = system_for("claustrophobia").presentation.names(header)
    assert names.of("warriors", "redeemer") == "Redeemer"


def test_phases_and_purposes_read_as_words() -> None:
    pres = system_for("tornscape").presentation
    assert pres.summary({"type": "PhaseStarted", "phase": "vortex_movement"}) == "vortex movement phase"
    rolled = {"type": "DiceRolled", "player": "p1", "purpose": "vortex_move", "die": "attack", "faces": ["crit"]}
    assert pres.summary(rolled).startswith("p1: vortex move roll")


def test_the_indefinite_article_fits_the_word() -> None:
    assert [with_article(w) for w in ("organiser", "judge", "scorekeeper")] == \
        ["an organiser", "a judge", "a scorekeeper"]
