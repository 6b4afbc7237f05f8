"""How a rules pack presents its games to people: pure functions from the replay state (docs/replay.md) and
the stored event lines to strings (HTML, SVG, text). Stdlib only; nothing here checks a rule.

Each pack owns its presentation: ``system_for(alias).presentation`` is an instance of the pack's
``Presentation`` subclass (``GameSystem.presentation_class``). The dashboard and the CLI call these hooks and
never ask which system a game is:

``names(header) -> Names``
    The names of things in words: players by name, factions ("Dread Elves", not ``dread_elves``), models,
    warriors, spells, cards. Every summary and picture takes one.
``summary(event, rolls=None, names=None) -> str``
    One line per event for the event list. The events every game shares are summarised here; a pack adds
    its own in ``SUMMARIES`` (event type -> ``fn(presentation, payload, rolls, names)``).
``details(event, names=None) -> str | None``
    An extra line (markdown) about the current event, when the pack has one (a card's name and effect …).
``highlight(event, before) -> dict``
    What the picture marks for an event, given the state just before it (``needs_before`` says whether
    the pack looks at ``before``; when it does not, callers may pass ``None``).
``picture(state, event=None, before=None, events=None, names=None) -> str``
    The picture of one moment as HTML (with its ``<style>``), for a page that shows one moment.
``scene(header, changes, lines, names=None) -> Scene``
    The whole game as one picture drawn once plus, per seq, the changes of element attributes that bring
    it to that seq (domain.systems.scene), for a page that steps through a game in the browser. The
    browser applies the changes and nothing else: no geometry or rule lives there.
``card(state, names=None) -> str``
    A small picture of one moment for a grid of many tables (the Live page).
``text_board(state, event=None, names=None) -> str``
    The state as plain text (``rollcall replay`` without ``--json``).

``events`` given to these hooks are the stored lines of a game (each a dict with ``seq`` and ``type``) or
rows that carry them in ``payload``; ``payload(event)`` reads either.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html import escape
from typing import Any, Callable, ClassVar

from domain.systems.fields import AT_TIME
from i18n import N_, _, ngettext

__all__ = ["Names", "with_article", "Presentation", "Taps", "dice_symbols", "die_symbol", "e", "payload", "plural", "pos_text",
           "roll_ref", "rolls_by_seq", "signed", "words"]

_TOKEN = re.compile(r"[A-Za-z0-9_]+")
DIE_SYMBOLS = {"crit": "✹", "success": "●", "blank": "○"}
D6_SYMBOLS = "⚀⚁⚂⚃⚄⚅"
PLAYER_PALETTE = ("#2f6fdb", "#d7353b", "#2a9d5c", "#8e5bd0", "#e08a1e", "#1fa3a3")
UNKNOWN_PLAYER = "#8c8c8c"


# --- small formatting -------------------------------------------------------------------------

# what Markdown reads as markup besides HTML (a picture may be shown inside Markdown): written as references
_MARKUP = str.maketrans({c: f"&#{ord(c)};" for c in "[]*`!~$\\"})


def e(value: Any) -> str:
    """``value`` as text safe inside HTML or SVG (text and attribute values), also where that HTML is read as
    Markdown (brackets, asterisks, backticks … as character references: a name is never a link or bold)."""
    return escape(str(value), quote=True).translate(_MARKUP)


def words(value: Any) -> str:
    """``aura_of_foresight`` -> ``aura of foresight``."""
    return str(value).replace("_", " ")


def phase_words(phase: Any) -> str:
    """A phase's name in words, in the reader's language when a pack's catalog has it (``vortex_movement`` ->
    ``vortex movement``; a pack marks its phases' words with ``N_()``)."""
    said = words(phase)
    return _(said) if said else said


def title_words(value: Any) -> str:
    """``dread_elves`` -> ``Dread Elves``."""
    return " ".join(w[:1].upper() + w[1:] for w in words(value).split())


def plural(count: Any, word: str, words: str | None = None) -> str:
    """A count and its word: ``1 round``, ``2 rounds``, ``0 games`` (``words``: a plural not made with an s)."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def with_article(word: Any) -> str:
    """``word`` with its indefinite article: ``a judge``, ``an organiser``."""
    text = str(word)
    return f"{'an' if text[:1].lower() in 'aeiou' and text[:1] else 'a'} {text}"


def signed(value: Any) -> str:
    return f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def die_symbol(face: Any) -> str:
    if isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6:
        return D6_SYMBOLS[face - 1]
    return DIE_SYMBOLS.get(str(face), str(face))


def dice_symbols(faces: list | None) -> str:
    """``["crit", "blank"]`` -> ``"✹ ○"``; d6 faces as die faces ⚀…⚅."""
    return " ".join(die_symbol(f) for f in faces or [])


def game_title(header: dict) -> str:
    """A game as a person names it: "Round 2 · table 1" (a tournament's game), else its players ("Anna vs
    Boris"); a header or a row of the games' list (``table_no``)."""
    round_no, table = header.get("round"), header.get("table", header.get("table_no"))
    if round_no is not None and table is not None:
        return _("Round {round} · table {table}").format(round=round_no, table=table)
    players = [str(p.get("name") or p.get("id")) for p in header.get("players") or [] if isinstance(p, dict)]
    said = _(" vs ").join(players)
    if round_no is not None:
        return _("Round {round}").format(round=round_no) + (f" · {said}" if said else "")
    return said or str(header.get("game") or "")


def pos_text(at: Any) -> str:
    """A position or list of positions as written in records: ``[3,4]``."""
    if isinstance(at, list) and len(at) == 1 and isinstance(at[0], list):
        at = at[0]
    return json.dumps(at, separators=(",", ":"))


def payload(event: dict) -> dict:
    """The fields of an event: a stored line itself, or the ``payload`` of a row carrying one."""
    raw = event.get("payload") if "payload" in event else event
    if isinstance(raw, str):
        raw = json.loads(raw)
    return raw or {}


def roll_ref(event: dict) -> int | None:
    """The seq of the roll an event uses (a dodge, a stabilisation, a cast …), if any."""
    p = payload(event)
    for name in ("dodge", "roll"):
        if isinstance(p.get(name), int) and not isinstance(p.get(name), bool):
            return p[name]
    return None


def rolls_by_seq(events: list[dict]) -> dict[int, dict]:
    """DiceRolled payloads by seq, re-rolls applied (to show a dodge's faces)."""
    rolls: dict[int, dict] = {}
    for ev in events:
        add_roll(rolls, ev)
    return rolls


def add_roll(rolls: dict[int, dict], event: dict) -> None:
    """Fold one event into ``rolls`` (a roll, or a re-roll of one of its dice)."""
    p = payload(event)
    kind = event.get("type") or p.get("type")
    if kind == "DiceRolled":
        rolls[int(p.get("seq", event.get("seq")))] = {**p, "faces": list(p.get("faces") or [])}
    elif kind == "DieRerolled" and p.get("roll") in rolls:
        faces = rolls[p["roll"]]["faces"]
        if isinstance(p.get("index"), int) and 0 <= p["index"] < len(faces):
            faces[p["index"]] = p.get("face")


def roll_faces(p: dict, rolls: dict[int, dict] | None) -> list | None:
    ref = roll_ref(p)
    return (rolls or {}).get(ref, {}).get("faces") if ref is not None else None


def dice_text(p: dict, rolls: dict[int, dict] | None) -> str:
    """`` ⚀ ⚃`` for the faces of the roll an event uses (empty when it uses none)."""
    faces = roll_faces(p, rolls)
    return f" {dice_symbols(faces)}" if faces else ""


# --- names of things ----------------------------------------------------------------------------

@dataclass
class Taps:
    """The choices a tap on a picture makes: a hex (``"q,r"``) or a model (its id) -> the (action, values of
    its open fields) it records, and the hexes to mark as choices."""

    hexes: dict[str, list[tuple[Any, dict]]] = field(default_factory=dict)
    models: dict[str, list[tuple[Any, dict]]] = field(default_factory=dict)
    marked: list = field(default_factory=list)

    def add_hex(self, hex_text: str, action: Any, values: dict) -> None:
        self.hexes.setdefault(hex_text, []).append((action, values))

    def add_model(self, model: str, action: Any, values: dict) -> None:
        self.models.setdefault(model, []).append((action, values))


@dataclass
class Names:
    """The names of a game's things in words, by kind (``players``, ``models``, ``factions`` …) and id."""

    by_kind: dict[str, dict[str, str]] = field(default_factory=dict)

    def of(self, kind: str, thing: Any) -> str:
        """The name of ``thing`` (an id) of ``kind``; the id itself when it has none."""
        if thing is None:
            return "—"
        return self.by_kind.get(kind, {}).get(str(thing), str(thing))

    def player(self, pid: Any) -> str:
        return self.of("players", pid)

    def faction(self, value: Any) -> str:
        return self.of("factions", value) if value else "—"

    def bare(self, kind: str, thing: Any) -> str:
        """The name of ``thing`` without its player's (for a picture that shows it on its player's side)."""
        return self.by_kind.get(f"{kind}:bare", {}).get(str(thing)) or self.of(kind, thing)

    def short(self, kind: str, thing: Any) -> str:
        """A short label (a few letters) of ``thing``, unique among its kind."""
        return self.by_kind.get(f"{kind}:short", {}).get(str(thing), str(thing))


def unique_names(items: list[tuple[str, str]]) -> dict[str, str]:
    """id -> name, numbering names that several ids share ("Swordsman 1", "Swordsman 2")."""
    counts: dict[str, int] = {}
    for _thing, name in items:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    out = {}
    for thing, name in items:
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            out[thing] = f"{name} {seen[name]}"
        else:
            out[thing] = name
    return out


def with_owners(names: dict[str, str], owners: dict[str, str], players: dict[str, str]) -> dict[str, str]:
    """id -> name with its player's name when things of a kind belong to several players: "Faceless 1 (Anna)"."""
    if len({owners.get(thing) for thing in names} - {None}) < 2:
        return names
    return {thing: f"{name} ({players.get(owners[thing], owners[thing])})" if thing in owners else name
            for thing, name in names.items()}


def short_labels(names: dict[str, str], letters: int = 2) -> dict[str, str]:
    """id -> a label of at most ``letters`` letters and a number, unique: "Swordsman 2" -> "Sw2"."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for thing, name in names.items():
        parts = name.split()
        number = parts[-1] if len(parts) > 1 and parts[-1].isdigit() else ""
        stem = "".join(p[0] for p in parts[: -1 if number else None])
        base = (stem if len(stem) >= letters else parts[0][:letters]).capitalize()[:letters] + number
        label, n = base, 1
        while label in used:
            n += 1
            label = f"{base}{n}"
        used.add(label)
        out[thing] = label
    return out


# --- the presentation every pack extends -----------------------------------------------------

Summary = Callable[["Presentation", dict, "dict[int, dict] | None", Names], str]


class Presentation:
    """The presentation hooks of a rules pack (see the module's docstring). Subclasses override what their
    games show; the base knows the events every game shares."""

    needs_before: ClassVar[bool] = False
    SUMMARIES: ClassVar[dict[str, Summary]] = {}
    #: the titles of the groups of legal actions (Action.group) the Record page shows; a pack adds its own
    GROUP_TITLES: ClassVar[dict[str, str]] = {"dice": N_("Dice"), "score": N_("Score"), "turn": N_("Turn and phase"),
                                              "end": N_("End of the game")}
    #: the groups that may come at any time: offered after what is due
    LATE_GROUPS: ClassVar[tuple[str, ...]] = ("score", "end")
    #: name kinds -> header parts listing them (``setup.<part>`` entries with ``id`` and ``name``)
    NAMED: ClassVar[dict[str, str]] = {}

    def __init__(self, pack: Any = None) -> None:
        self.pack = pack

    def group_title(self, group: str) -> str:
        """The title of a group of legal actions, in the reader's language (an unknown group by its name)."""
        return _(self.GROUP_TITLES[group]) if group in self.GROUP_TITLES else group.capitalize()

    # names ---------------------------------------------------------------------------------
    def names(self, header: dict | None) -> Names:
        header = header or {}
        players = header.get("players") or []
        by_kind = {
            "players": {str(p.get("id")): str(p.get("name") or p.get("id")) for p in players},
            "factions": {str(p.get("faction")): self.faction_name(p.get("faction")) for p in players
                         if p.get("faction")},
        }
        setup = header.get("setup") or {}
        human = setup.get("human")
        by_kind["owners"] = {str(x.get("id")): str(x.get("player") or human) for part in self.NAMED.values()
                             for x in setup.get(part) or [] if isinstance(x, dict) and (x.get("player") or human)}
        for kind, part in self.NAMED.items():
            items = [(str(x.get("id")), self.thing_name(kind, x)) for x in setup.get(part) or []
                     if isinstance(x, dict) and x.get("id") is not None]
            by_kind[kind] = unique_names(items)
            by_kind[f"{kind}:short"] = short_labels(by_kind[kind])
            by_kind[f"{kind}:bare"] = by_kind[kind]
            by_kind[kind] = with_owners(by_kind[kind], by_kind["owners"], by_kind["players"])
        return Names(by_kind)

    def faction_name(self, faction: Any) -> str:
        return title_words(faction) if faction else "—"

    #: name kinds -> the word naming a thing of that kind that has no name of its own ("Wizard": "Wizard 1")
    NOUNS: ClassVar[dict[str, str]] = {}

    def thing_name(self, kind: str, thing: dict) -> str:
        """The name of one thing of the setup: its ``name``, else its id in words ("archmage": "Archmage"), but
        an id with a digit ("p1w1") gives the word for its kind (numbered when several share it: "Wizard 2")."""
        ident = str(thing.get("id"))
        noun = self.NOUNS.get(kind) if any(c.isdigit() for c in ident) else None
        return str(thing.get("name") or noun or title_words(ident))

    def player_colours(self, players: Any) -> dict[str, str]:
        """A colour per player id, by the order of the players (the first blue, the second red)."""
        return {str(pid): PLAYER_PALETTE[i % len(PLAYER_PALETTE)] for i, pid in enumerate(players or {})}

    # one line per event ----------------------------------------------------------------------
    def summary(self, event: dict, rolls: dict[int, dict] | None = None, names: Names | None = None) -> str:
        p = payload(event)
        kind = event.get("type") or p.get("type")
        names = names or Names()
        fn = self.SUMMARIES.get(kind) or COMMON_SUMMARIES.get(kind)
        if fn is not None:
            return fn(self, p, rolls, names)
        given = {k: v for k, v in p.items() if k not in BOOKKEEPING}
        return ", ".join(f"{words(k)} {value_text(v)}" for k, v in given.items())[:120]

    def details(self, event: dict | None, names: Names | None = None) -> str | None:
        return None

    def actor(self, event: dict, state: dict | None = None) -> str | None:
        """The player who made ``event`` (``state``: the replay state around it, for packs whose events
        name a piece rather than its player)."""
        p = payload(event)
        return event.get("player") or p.get("player") or self.owner(p, state or {})

    def actor_by_name(self, event: dict, names: Names) -> str:
        """Who made ``event``, by name ("" when nobody did): its player, else the owner of the piece it names."""
        pid = self.actor(event)
        if pid is None:
            owners = names.by_kind.get("owners", {})
            p = payload(event)
            pieces = [p.get(k) for k in ("model", "wizard", "warrior")]
            pid = next((owners[str(x if not isinstance(x, dict) else x.get("id"))] for x in pieces
                        if x is not None and str(x if not isinstance(x, dict) else x.get("id")) in owners), None)
        return names.player(pid) if pid else ""

    def owner(self, p: dict, state: dict) -> str | None:
        return None

    def highlight(self, event: dict | None, before: dict | None) -> dict:
        return {}

    def action_label(self, label: str, names: Names) -> str:
        """What a button offering a legal action says: the action's label with the ids of the things it names
        (players, models, warriors, wizards, spells …) in words."""
        kinds = [m for kind, m in names.by_kind.items() if ":" not in kind and kind not in ("factions", "owners")]

        def word(match: re.Match) -> str:
            token = match.group(0)
            return next((m[token] for m in kinds if token in m), words(token))
        return _TOKEN.sub(word, label)

    def choice_picture(self, name: str, value: Any) -> str | None:
        """A small picture (inline SVG) of one value of an open field ``name`` a page offers to choose (a
        vortex's facing), or None: the value's words are enough."""
        return None

    def taps(self, actions: list, state: dict) -> Taps:
        """What a tap on the picture of ``state`` (the replay state) may record among ``actions`` (legal
        actions): nothing for a pack whose picture has no board to tap."""
        return Taps()

    # pictures ----------------------------------------------------------------------------------
    def kept_picture(self, state: dict, names: Names, mark: dict | None = None) -> tuple[str, Any, list] | None:
        """For a page that keeps a tappable picture drawn while the state moves on: (a key that changes only
        when it must be drawn again, a function drawing it, the look of its every element now as [element id,
        attribute, value]); None for a pack without one (such a page shows ``picture``)."""
        return None

    def picture(self, state: dict, event: dict | None = None, before: dict | None = None,
                events: list[dict] | None = None, names: Names | None = None, mark: dict | None = None) -> str:
        """``mark``: what to highlight instead of the event's highlight (``{"hexes": [...], "models": [...]}``:
        the choices a page offers)."""
        return f'<div class="rc-picture" data-seq="{e(state.get("seq"))}">{e(self.text_board(state))}</div>'

    def card(self, state: dict, names: Names | None = None) -> str:
        """A small picture of one moment for a grid of many tables (the Live page): at most about as tall as
        a board card, nothing in it cut off. The pack's picture unless the pack draws a smaller one."""
        return self.picture(state, names=names, mark={})

    CSS: ClassVar[str] = ""

    def scene(self, header: dict, changes: list, lines: list[dict], names: Names | None = None,
              skip: set[int] | None = None):
        """The game drawn once and its frames (domain.systems.scene); ``skip``: seqs of events left out
        (voided, as ruled). Packs with small pictures implement ``look`` and ``shell``; a pack with a
        large one (a board) overrides this."""
        from domain.systems.scene import region_scene

        names = names or self.names(header)
        ctx = self.scene_context(header, changes, lines)
        return region_scene(header, changes, lines, self.pack.state_class.OBJECT_PARTS,
                            lambda m: {**self.status_look(m.state, names), **self.look(m, names, ctx)},
                            lambda look: status_html(look) + self.shell(header, look, names, ctx),
                            self.CSS, skip)

    def scene_context(self, header: dict, changes: list, lines: list[dict]) -> dict:
        """What ``look`` needs to know about the whole game (read once per scene)."""
        return {}

    def look(self, moment, names: Names, ctx: dict) -> dict:
        """Every element of the picture at a moment (domain.systems.scene.Moment)."""
        return {("rc-text", "html"): f"<pre>{e(self.text_board(moment.state, moment.event, names))}</pre>"}

    def shell(self, header: dict, look: dict, names: Names, ctx: dict) -> str:
        """The picture's HTML with each element as ``look`` says."""
        return f'<div class="rc-picture" data-seq="0"><div id="rc-text">{look.get(("rc-text", "html"), "")}</div></div>'

    def status_look(self, state: dict, names: Names) -> dict:
        """The status line above the picture: turn, phase, each player's name, faction and score."""
        return {("rc-status", "html"): status_line(state, names, self.player_colours(state.get("players")))}

    def text_board(self, state: dict, event: dict | None = None, names: Names | None = None) -> str:
        return head_text(state, names)

    def sides(self, header: dict, names: Names) -> list[str]:
        """The players whose side of the picture is at the bottom, then at the top (none: the picture has
        no sides to turn round)."""
        return []

    # what the rules derive -----------------------------------------------------------------------
    def derived_rules(self, event_type: str | None) -> dict[str, str]:
        """The derived fields of an event type with the rule deriving each."""
        spec = (getattr(self.pack, "specs", None) or {}).get(event_type)
        return dict(spec.derived) if spec is not None else {}


# --- the summaries every game shares ----------------------------------------------------------

BOOKKEEPING = ("seq", "type", "hash", "violations")


def value_text(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return "—"
    if isinstance(value, list) and not value:
        return _("none")
    if isinstance(value, (list, dict)):
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return ", ".join(value)
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def ids_text(values: Any, names: Names | None = None, kind: str = "") -> str:
    return ", ".join(names.of(kind, v) if names else str(v) for v in values or [])


def _phase(pr: Presentation, p: dict, rolls, names: Names) -> str:
    aside = p.get("set_aside") or []
    said = _("{phase} phase").format(phase=phase_words(p.get("phase")))
    return said + (ngettext(", {n} action die set aside", ", {n} action dice set aside", len(aside)).format(
        n=len(aside)) if aside else "")


def roll_words(p: dict) -> str:
    """What a roll was for: its purpose, or an ``other`` roll's label and the face it needs ("shooting: to hit, 4+")."""
    label, needs = p.get("label"), p.get("needs")
    what = str(label) if label else words(p.get("purpose"))
    return f"{what}, {needs}+" if needs is not None else what


def _ended(pr: Presentation, p: dict, rolls, names: Names) -> str:
    score = " – ".join(f"{names.player(k)} {v}" for k, v in (p.get("score") or {}).items())
    winner = names.player(p["winner"]) if p.get("winner") else _("none (draw)")
    if p.get("reason") == AT_TIME:
        return _("ended at time: {score}; winner {winner}").format(score=score, winner=winner)
    return _("{score}; winner {winner} ({reason})").format(score=score, winner=winner, reason=reason_words(p))


def reason_words(p: dict) -> str:
    """The ``reason`` of an event (points scored, the end of a game) in the reader's language when it is one a
    pack offers (``GameSystem.end_reasons``, ``scoring_reasons``), else as the record says it."""
    reason = p.get("reason")
    return _(reason) if isinstance(reason, str) and reason else str(reason)


def _decision(p: dict) -> str:
    decision = p.get("decision")
    return {"stands": _("stands"), "void": _("void")}.get(decision, str(decision))


COMMON_SUMMARIES: dict[str, Summary] = {
    "TurnStarted": lambda pr, p, rolls, names: _("turn {turn} starts").format(turn=p.get("turn")),
    "PhaseStarted": _phase,
    "DiceRolled": lambda pr, p, rolls, names: _("{player}: {what} roll, {die}: {faces}").format(
        player=names.player(p.get("player")), what=roll_words(p), die=p.get("die"),
        faces=dice_symbols(p.get("faces"))),
    "DieRerolled": lambda pr, p, rolls, names: _("re-roll of roll {roll} die {index} → {face}").format(
        roll=p.get("roll"), index=p.get("index"), face=die_symbol(p.get("face"))),
    "PointsScored": lambda pr, p, rolls, names: (f"{names.player(p.get('player'))} +{p.get('points')} "
                                                 f"({reason_words(p)})"),
    "CardDrawn": lambda pr, p, rolls, names: _("{player} draws {card} from {deck}").format(
        player=names.player(p.get("player")), card=p.get("card"), deck=p.get("deck")),
    "GameEnded": _ended,
    "GameSealed": lambda pr, p, rolls, names: _("sealed by {players}").format(
        players=ids_text(p.get("confirmed_by"), names, "players")),
    "ResultConfirmed": lambda pr, p, rolls, names: (
        _("the organiser confirms the result for {player}, who left") if p.get("absent") else
        _("{player} confirms the result")).format(player=names.player(p.get("seat"))),
    "DisputeOpened": lambda pr, p, rolls, names: _("{player} disputes {seqs}: {claim}").format(
        player=names.player(p.get("by")), seqs=ids_text(p.get("about")), claim=p.get("claim")),
    "RulingMade": lambda pr, p, rolls, names: f"{p.get('judge')}: {ids_text(p.get('about'))} {_decision(p)}",
    "Noted": lambda pr, p, rolls, names: str(p.get("text", "")),
    "TakenBack": lambda pr, p, rolls, names: _("takes back seq {seqs}").format(seqs=ids_text(p.get("taken_back"))),
    "GameRewound": lambda pr, p, rolls, names: _("{judge} rewinds to seq {seq} (takes back {seqs}): {text}").format(
        judge=p.get("judge"), seq=p.get("to"), seqs=ids_text(p.get("taken_back")), text=p.get("text")),
    # the game clock (domain.clock)
    "ClockStarted": lambda pr, p, rolls, names: _("the clock starts: {player}'s time runs").format(
        player=names.player(p.get("player"))),
    "ClockPassed": lambda pr, p, rolls, names: _("{player} passes the clock").format(
        player=names.player(p.get("player"))),
    "ClockPaused": lambda pr, p, rolls, names: _("the clock is paused") if not p.get("judge") else
        _("{judge} pauses the clock").format(judge=p.get("judge")),
    "ClockResumed": lambda pr, p, rolls, names: _("the clock runs again"),
    "ClockAdjusted": lambda pr, p, rolls, names: _("{judge} adjusts {player}'s time by {seconds:+d} s: {reason}").format(
        judge=p.get("judge"), player=names.player(p.get("player")), seconds=int(p.get("seconds") or 0),
        reason=p.get("reason")),
    "FlagFell": lambda pr, p, rolls, names: _("{player}'s flag fell").format(player=names.player(p.get("player"))),
}


def head_text(state: dict, names: Names | None = None, extra: str = "") -> str:
    """The first line of a text board: game, seq of last, turn, phase, and whether the game has ended."""
    last = state.get("last_seq", state.get("seq"))
    ended = "  " + _("(the game has ended)") if state.get("ended") else ""
    return (_("{game}  seq {seq}/{last}  turn {turn}  phase {phase}").format(
        game=state.get("game"), seq=state.get("seq"), last=last, turn=state.get("turn"),
        phase=phase_words(state.get("phase")) if state.get("phase") else "-") + f"{extra}{ended}")


def scores_text(state: dict, names: Names | None = None) -> str:
    names = names or Names()
    return "  ".join(
        f"{pid} {p.get('name') or names.player(pid)} ({names.faction(p.get('faction')) if p.get('faction') else '-'}):"
        f" {_('{points} VP').format(points=p.get('score', 0))}"
        + (", " + crystals_text(p["crystals"]) if "crystals" in p else "")
        for pid, p in (state.get("players") or {}).items())


def crystals_text(crystals: Any) -> str:
    """A player's crystals (Tornscape): ``3 crystals``."""
    n = crystals if isinstance(crystals, int) and not isinstance(crystals, bool) else 2
    return ngettext("{n} crystal", "{n} crystals", n).format(n=crystals)


def status_html(look: dict) -> str:
    return f'<div id="rc-status" class="rc-status">{look.get(("rc-status", "html"), "")}</div>'


def status_line(state: dict, names: Names, colours: dict[str, str]) -> str:
    """Turn, phase and each player's name, faction and score (HTML, escaped)."""
    players = []
    for pid, p in (state.get("players") or {}).items():
        p = p or {}
        extra = [names.faction(p.get("faction"))] if p.get("faction") else []
        extra.append(_("{points} VP").format(points=p.get("score", 0)))
        if "crystals" in p:
            extra.append(crystals_text(p["crystals"]))
        players.append(f'<span class="rc-player" data-player="{e(pid)}"><span class="rc-swatch" '
                       f'style="background:{colours.get(pid, UNKNOWN_PLAYER)}"></span><b>{e(names.player(pid))}</b> '
                       f'<span class="rc-muted">{e(" · ".join(extra))}</span></span>')
    turn = state.get("turn") or 0
    where = _("Turn {turn}").format(turn=turn) if turn else _("Setup")
    if state.get("phase"):
        where += " · " + _("{phase} phase").format(phase=phase_words(state["phase"]))
    return f'<span class="rc-where">{e(where)}</span>{"".join(players)}'
