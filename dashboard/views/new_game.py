"""New game: start a game at the table — tournament, round, table, the two players and their factions, the
system, the dice, and the setup (a scenario shipped with Rollcall or of the data folder, or the header of a
record uploaded) — then record it on the Record page. The header it writes is an ordinary format-1 header,
created through the same command as an imported record."""

import hashlib
from datetime import datetime, timezone
from urllib.parse import urlencode

import streamlit as st
from streamlit.errors import StreamlitAPIException

from dashboard import data, params, safe, session
from dashboard.standings_view import format_from
from dashboard.tournament_ui import query
from domain.clock import MOST_SECONDS
from domain.errors import RollcallError
from domain.record import derive_game_id, read_json, slug
from domain.scenarios import own_scenarios, scenarios
from domain.systems import PACKS
from i18n import N_, _

NO_TOURNAMENT = N_("(no tournament)")  # the picker's first choice (shown in the page's language)
DICE = {"physical": N_("Physical: tap the faces rolled"), "digital": N_("Digital: Rollcall rolls")}
FLAG_WORDS = {"time": N_("the game ends at time"), "phase": N_("the phase is finished, then the game ends at time")}
# where a setup comes from (its choice's words); the choices themselves stay as they are
SHIPPED, OWN, UPLOADED = N_("{name} (shipped)"), N_("{name} (data folder)"), N_("{name} (uploaded)")


def whole(value, default: int | None = 1) -> int | None:
    """A positive whole number of the upload (a round or a table: at most a million), else ``default``."""
    return value if type(value) is int and 1 <= value <= 1_000_000 else default


def start(header: dict):
    """Write the game's header with the device's key (asked first); the game written, or None once the
    refusal is said under the button."""
    from domain.access import AccessDenied
    from domain.errors import RollcallError

    what = _("start a game")
    refusal = session.asked("record", what)
    try:
        if refusal is None:
            return session.store().write(header=header, source="the new game")
    except AccessDenied as exc:
        refusal = session.refused(exc, what)
    except RollcallError as exc:
        refusal = str(exc)
    st.error(_("Not started — {why}").format(why=safe.message(refusal)), icon=":material/block:")
    return None


st.title(_("New game"))

systems = [pack.alias for pack in PACKS]
titles = {pack.alias: pack.title for pack in PACKS}

uploaded = st.file_uploader(_("Start from a record's header (optional)"), type=["jsonl", "json"],
                            max_upload_size=max(1, params.MAX_UPLOAD // 1_000_000),
                            help=_("A .rollcall.jsonl file (its first line is the header) or a header as JSON: "
                                   "its system, players, setup and rules fill the form."))
given: dict = {}
if uploaded is not None and uploaded.size > params.MAX_UPLOAD:
    st.error(_("{file} is {size} bytes: a header is read from a file of at most {most} bytes.").format(
        file=safe.md(params.shown(uploaded.name)), size=f"{uploaded.size:,}", most=f"{params.MAX_UPLOAD:,}"),
        icon=":material/error:")
    uploaded = None
if uploaded is not None:
    text = uploaded.getvalue().decode("utf-8", errors="replace")
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
    try:
        given = read_json(first if first.strip().startswith("{") else text)[0]
    except RollcallError as exc:
        st.error(_("{file}: line 1 is not a JSON header ({why})").format(
            file=safe.md(params.shown(uploaded.name)), why=safe.md(params.shown(str(exc), 80))), icon=":material/error:")
        given = {}
    if not isinstance(given, dict):
        st.error(_("{file}: a header is a JSON object").format(file=safe.md(params.shown(uploaded.name))),
                 icon=":material/error:")
        given = {}

# widgets start again from the upload's values whenever another file is uploaded
tag = hashlib.sha1(uploaded.getvalue()).hexdigest()[:8] if uploaded is not None else "none"

try:
    tournaments = query("list_tournaments")
except data.NoReadModels:
    tournaments = []
by_name = {t["tournament"]: t for t in tournaments}
named = given.get("tournament") if isinstance(given.get("tournament"), str) else None
names = [NO_TOURNAMENT, *by_name, *([named] if named and named not in by_name else [])]
wanted = named or NO_TOURNAMENT
top = st.columns([2, 1, 1])
tournament = top[0].selectbox(_("Tournament"), names, index=names.index(wanted), key=f"ng-tournament-{tag}",
                              format_func=lambda t: _(NO_TOURNAMENT) if t == NO_TOURNAMENT else t)
chosen = by_name.get(tournament)
in_tournament = tournament != NO_TOURNAMENT
round_no = top[1].number_input(_("Round"), min_value=1, step=1, value=whole(given.get("round"), None if given else 1), key=f"ng-round-{tag}",
                               disabled=not in_tournament)
table_no = top[2].number_input(_("Table"), min_value=1, step=1, value=whole(given.get("table"), None if given else 1), key=f"ng-table-{tag}",
                               disabled=not in_tournament)

fixed_system = chosen.get("system") if chosen and chosen.get("created") else None  # a created tournament's
system_given = given.get("system")
if fixed_system in systems:
    system = fixed_system
    st.caption(_("System: **{system}** (the tournament's)").format(system=titles[system]))
    if system_given and system_given != system and system_given in {a for p in PACKS for a in (p.alias, *p.aliases)}:
        st.warning(_("The header uploaded is a game of {given}, but {tournament} is a {system} tournament: this game "
                     "will be one of {system}.").format(given=safe.md(system_given), tournament=safe.md(tournament),
                                                         system=titles[system]), icon=":material/warning:")
else:
    first_system = next((p.alias for p in PACKS if system_given in (p.alias, *p.aliases)), systems[0])
    system = st.segmented_control(_("System"), systems, default=first_system, key=f"ng-system-{tag}",
                                  format_func=lambda s: titles[s]) or first_system

registered = []
if chosen is not None and chosen.get("created"):
    try:
        registered = [p for p in query("players", tournament) if p.get("dropped_after_round") is None]
    except Exception:  # noqa: BLE001  a tournament only named by game headers has no registrations
        registered = []
given_players = [p for p in given.get("players") or [] if isinstance(p, dict)]
factions = {p["player"]: p.get("faction") or "" for p in registered}
store = session.store()
# a player plays one game a round (F11): who of the round is seated already, and at which table
seated = store.seated(tournament, int(round_no), factions) if in_tournament and round_no else {}
players = []
cols = st.columns(2)
for seat, col in zip(("p1", "p2"), cols):
    with col.container(border=True):
        st.markdown(_("**Player {number}**").format(number=seat[1]))
        preset = next((p for p in given_players if p.get("id") == seat), {})
        faction_key = f"ng-faction-{seat}-{tag}"
        if registered:
            others = {p["name"] for p in players}
            free = [name for name in factions if name not in seated and name not in others]

            def registered_faction(seat=seat, faction_key=faction_key) -> None:
                st.session_state[faction_key] = factions.get(st.session_state.get(f"ng-name-{seat}-{tag}"), "")
            name = st.selectbox(_("Name"), free, index=None, key=f"ng-name-{seat}-{tag}",
                                placeholder=_("registered players not seated yet") if free else
                                _("every player is seated"),
                                on_change=registered_faction)
        else:
            name = st.text_input(_("Name"), value=str(preset.get("name") or "")[:params.MAX_NAME], key=f"ng-name-{seat}-{tag}",
                                 max_chars=params.MAX_NAME)
        faction = st.text_input(_("Faction"), value=str(preset.get("faction") or "")[:params.MAX_NAME], key=faction_key,
                                max_chars=params.MAX_NAME)
        players.append({"id": seat, "name": (name or "").strip(), "faction": faction.strip()})
if seated:
    st.caption(_("Seated already in round {round}: {players}").format(
        round=round_no, players=", ".join(safe.md(f"{name} ({store.place_of(game)})")
                                          for name, game in sorted(seated.items()))))

dice = st.segmented_control(_("Dice"), list(DICE), key=f"ng-dice-{tag}",
                            default="digital" if given.get("dice_mode") == "digital" else "physical",
                            format_func=lambda d: _(DICE[d])) or "physical"

format_clock = None  # the clock a created tournament's format sets its games (domain.formats), offered first
if chosen is not None and chosen.get("created") and not isinstance(given.get("clock"), dict):
    try:
        format_clock = format_from(query("format_rows", tournament)[0]).clock
    except Exception:  # noqa: BLE001  (no read models of it yet: no format to offer)
        format_clock = None
if format_clock:
    given = {**given, "clock": format_clock}
clock_tag = f"{tag}-{format_clock['seconds']}-{format_clock['flag']}" if format_clock else tag  # (follow the tournament)
clocked = st.toggle(_("Chess clock"), value=isinstance(given.get("clock"), dict), key=f"ng-clock-{clock_tag}",
                    help=_("Each player's time on a chess clock; the Record page passes it from player to player."))
clock_setting = None
if clocked:
    given_clock = given.get("clock") if isinstance(given.get("clock"), dict) else {}
    given_seconds = given_clock.get("seconds")
    minutes_left, flag_right = st.columns(2)
    minutes = minutes_left.number_input(
        _("Each player's time (minutes)"), min_value=1, max_value=MOST_SECONDS // 60, step=5, key=f"ng-clock-min-{clock_tag}",
        value=given_seconds // 60 if type(given_seconds) is int and given_seconds >= 60 else 150)
    flag = flag_right.segmented_control(_("When a flag falls"), list(FLAG_WORDS), key=f"ng-clock-flag-{clock_tag}",
                                        default=given_clock.get("flag") if given_clock.get("flag") in FLAG_WORDS
                                        else "time", format_func=lambda f: _(FLAG_WORDS[f])) or "time"
    clock_setting = {"seconds": int(minutes) * 60, "flag": flag}

shipped = scenarios(system)
own, problems = own_scenarios(system, data.data_dir())
for problem in problems:  # (said without the server's folder: a visitor reads it)
    st.warning(safe.md(problem.replace(str(data.data_dir()), _("the data folder"))), icon=":material/warning:")
# each choice: (where it comes from, its name); the words are the page's
setups = {**{(SHIPPED, n): s for n, s in shipped.items()}, **{(OWN, n): s for n, s in own.items()}}
if isinstance(given.get("setup"), dict):
    setups = {(UPLOADED, uploaded.name if uploaded else _("the header")): given["setup"], **setups}
setup_name = st.selectbox(_("Setup"), list(setups), key=f"ng-setup-{tag}",
                          format_func=lambda choice: _(choice[0]).format(name=choice[1]),
                          help=_("Scenarios ship in domain/scenarios/<system>/; your own go in "
                                 "<data>/scenarios/<system>/<name>.json."))

default_id = given.get("game") or (derive_game_id({"tournament": tournament, "round": round_no, "table": table_no})
                                   if in_tournament and round_no and table_no else "")
game_id = st.text_input(_("Game id"), value=str(default_id or "")[:params.MAX_NAME], key=f"ng-game-{default_id}-{tag}",
                        max_chars=params.MAX_NAME,
                        help=_("Left empty: made from the tournament, round and table, or the players."))

header = {"rollcall": 1, "system": system, "players": players, "dice_mode": dice,
          "rules": given.get("rules") if isinstance(given.get("rules"), dict) else {},
          "setup": setups.get(setup_name, {}),
          "started": datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")}
if clock_setting is not None:
    header["clock"] = clock_setting
if in_tournament:
    header["tournament"] = tournament
    header |= {name: int(value) for name, value in (("round", round_no), ("table", table_no)) if value}
if game_id.strip():
    header["game"] = game_id.strip()
elif not in_tournament and all(p["name"] for p in players):
    header["game"] = "-".join(p["name"].lower().replace(" ", "-") for p in players) + "-" + header["started"][:10]

missing = [_("player {number}'s name").format(number=p["id"][1]) for p in players if not p["name"]]
if all(p["name"] for p in players) and len({slug(p["name"]) for p in players}) < 2:
    missing.append(_("two different players"))
if missing:
    st.caption(_("Still needed: {what}").format(what=", ".join(missing)))
if st.button(_("Start the game"), type="primary", disabled=bool(missing), key=f"ng-start-{tag}"):
    written = start(header)
    if written is not None:
        st.success(_("Game **{game}** started: [record it]({link}).").format(
            game=safe.md(written.game), link=f"/record?{urlencode({'game': written.game})}"),
                   icon=":material/check_circle:")
        try:
            st.switch_page("views/record.py", query_params={"game": written.game})
        except StreamlitAPIException:  # a page run on its own (no navigation): the link above leads on
            pass
