"""The read models' run order is derived from what each SQL file reads and makes (projections.models): every
model follows the makers of what it reads, a cycle or a name that nothing makes is refused naming it, and
a new model is picked up by being a file."""

from __future__ import annotations

import pytest

from projections.models import BATCH_TABLES, LOADED, ModelError, models, ordered, parse, run_order


def test_every_model_runs_after_the_makers_of_what_it_reads() -> None:
    found = models()
    for order in run_order():
        position = {name: i for i, name in enumerate(order)}
        makers = {made: m.name for m in found.values() for made in m.makes}
        for name in order:
            for read in found[name].reads:
                maker = makers.get(read)
                if maker in position and maker != name:
                    assert position[maker] < position[name], f"{name} reads {read} before {maker} makes it"


def test_the_batch_models_fill_every_table_a_batch_fills_and_the_views_are_the_rest() -> None:
    batch, views = run_order()
    assert batch[0] == "batch_headers"  # the headers every dim_ model reads, parsed once
    assert {"fct_events", "fct_states", "fct_rolls", "fct_moves", "fct_taken_back", "dim_games"} <= set(batch)
    assert {"fct_casts", "fct_roll_odds", "fct_results", "fct_standings", "stat_macros"} <= set(views)
    assert not set(batch) & set(views)
    assert batch.index("fct_taken_back") > max(batch.index(t) for t in ("fct_events", "fct_moves", "fct_ejections"))
    assert views.index("games_seen") < views.index("fct_results") < views.index("fct_standings")


def test_what_a_file_reads_leaves_out_its_own_ctes_parameters_comments_and_strings() -> None:
    model = parse("fct_example", """
        -- reads nothing FROM commented_out
        CREATE OR REPLACE MACRO example_of(which_game) AS TABLE
        WITH kept AS (SELECT * FROM fct_events WHERE which_game IS NULL), more AS (SELECT 'FROM quoted' AS x)
        SELECT * FROM kept JOIN dim_games USING (game), more;
        CREATE OR REPLACE VIEW fct_example AS SELECT * FROM example_of(NULL);""")
    assert model.creates == {"example_of", "fct_example"}
    assert model.reads == {"fct_events", "dim_games"}


def models_of(**texts: str):
    return {name: parse(name, text) for name, text in texts.items()}


def test_models_that_read_each_other_in_a_cycle_are_refused_naming_them() -> None:
    found = models_of(v_a="CREATE VIEW v_a AS SELECT * FROM v_b;", v_b="CREATE VIEW v_b AS SELECT * FROM v_a;",
                      v_c="CREATE VIEW v_c AS SELECT 1;")
    with pytest.raises(ModelError, match="cycle: v_a, v_b$"):
        ordered(found, "view")


def test_a_model_reading_what_nothing_makes_is_refused_naming_the_file_and_the_name() -> None:
    found = models_of(v_a="CREATE VIEW v_a AS SELECT * FROM fct_nowhere;")
    with pytest.raises(ModelError, match=r"^v_a.sql reads fct_nowhere, which no read model makes$"):
        ordered(found, "view")


def test_a_new_model_file_takes_its_place_by_what_it_reads() -> None:
    found = {**models(), **models_of(fct_new="CREATE OR REPLACE VIEW fct_new AS SELECT * FROM fct_results;",
                                     fct_newer="CREATE OR REPLACE VIEW fct_newer AS SELECT * FROM fct_new;")}
    views = ordered(found, "view")
    assert views.index("fct_results") < views.index("fct_new") < views.index("fct_newer")
    batch = ordered({**found, **models_of(fct_counted="INSERT INTO fct_counted SELECT * FROM batch_events;")}, "batch")
    assert "fct_counted" in batch


def test_the_inputs_no_model_makes_are_the_replays_batch_tables_the_default_dice_and_the_packs_facts() -> None:
    from projections.replay import Batch

    assert BATCH_TABLES == {f"batch_{t}" for t in Batch().tables()}
    assert LOADED == {"dim_default_dice", "dim_facts", "name_slug"}


def test_no_read_model_names_a_systems_event_type_or_roll_purpose() -> None:
    """What a pack's events are to the read models is the pack's to say (GameSystem.facts, loaded as dim_facts):
    the SQL names facts, and only the record format's own events (GameCreated, TakenBack, …)."""
    import re
    from importlib import resources

    from domain.systems import every_fact
    from domain.systems.pack import GameSystem

    own = set(GameSystem.specs)  # the events every system shares: the record format's
    packs = {fact.type for _system, fact in every_fact()} | {t for p in GameSystem.registry.values()
                                                            for t in p.specs} - own
    purposes = {fact.purpose for _system, fact in every_fact() if fact.purpose}
    for entry in resources.files("projections").joinpath("sql").iterdir():
        code = re.sub(r"--[^\n]*", "", entry.read_text(encoding="utf-8"))
        quoted = set(re.findall(r"'([A-Za-z_]+)'", code))
        assert not quoted & (packs - own), f"{entry.name} names {quoted & (packs - own)}"
        assert not quoted & purposes, f"{entry.name} names the purposes {quoted & purposes}"


def test_every_stored_table_is_defined_in_the_file_named_after_it_with_its_columns_said() -> None:
    import re

    from projections.models import column_docs, defined, definitions

    for name in defined():
        made = {re.search(r"EXISTS\s+([a-z_0-9]+)", s.code).group(1) for s in definitions(name)}
        assert made == {name}, f"{name}.sql defines {made}"
    assert column_docs("fct_events")["taken_back"].startswith("True when a take-back")
    assert column_docs("fct_casts")["path"] == "The spell's path (its lore of magic)."


def test_the_statistics_refresh_finds_its_games_first_and_sums_after_what_it_sums() -> None:
    from projections.models import refresh_order

    order = refresh_order()
    assert order.index("stat_touched") < min(order.index(n) for n in order if n not in ("stat_touched", "stat_position"))
    assert order.index("stat_throws") < order.index("stat_luck") and order.index("stat_throws") < order.index("stat_luck_dice")
    assert order.index("stat_faces") < order.index("stat_fairness_faces")  # it takes the faces before and after
    assert not set(order) & set(run_order()[1])


def test_the_read_models_slug_a_name_as_the_domain_does() -> None:
    import duckdb
    from hypothesis import given, strategies as st

    from domain.record import slug
    from projections.models import slug_macro

    con = duckdb.connect()
    con.execute(slug_macro())

    @given(st.text(alphabet=st.sampled_from("Кубок Вихря ЁЖЩЪЬ ёжщъь Café-Open 2026 ß_!,. іїєґў") , max_size=30))
    def same(name: str) -> None:
        assert con.execute("SELECT name_slug($n)", {"n": name}).fetchone()[0] == slug(name)

    same()
    assert con.execute("SELECT name_slug('Кубок Вихря')").fetchone()[0] == "kubok-vikhria"
