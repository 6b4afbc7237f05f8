"""Behavioural and property tests for Tornscape hex / hexon geometry."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.systems.tornscape import hexes as hx

COORD = st.integers(min_value=-40, max_value=40)
HEXES = st.tuples(COORD, COORD)
SMALL = st.integers(min_value=-12, max_value=12)
SMALL_HEXES = st.tuples(SMALL, SMALL)
BOARD_DIMS = st.integers(min_value=1, max_value=14)


def lattice_centre(a: int, b: int) -> hx.Hex:
    """Hexon centre a*(2,1) + b*(-1,3), built independently of the module."""
    return (2 * a - b, a + 3 * b)


LATTICE = st.integers(min_value=-6, max_value=6)
CENTRES = st.builds(lattice_centre, LATTICE, LATTICE)


def brute_distance(a: hx.Hex, b: hx.Hex) -> int:
    """Hex distance via cube coordinates (max form), independent of the module."""
    ax, az = a
    bx, bz = b
    return max(abs(ax - bx), abs(az - bz), abs((-ax - az) - (-bx - bz)))


# --------------------------------------------------------------------------
# Constants and conversions
# --------------------------------------------------------------------------


def test_directions_are_the_six_axial_offsets_in_record_order():
    assert hx.DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert all(brute_distance((0, 0), d) == 1 for d in hx.DIRECTIONS)


def test_hexon_directions_are_in_record_order_and_point_at_centres():
    assert hx.HEXON_DIRECTIONS == ((2, 1), (-1, 3), (-3, 2), (-2, -1), (1, -3), (3, -2))
    assert all(hx.is_hexon_centre(d) for d in hx.HEXON_DIRECTIONS)


@pytest.mark.parametrize("value", [[3, -4], (3, -4)])
def test_as_hex_turns_a_json_pair_into_a_tuple(value):
    assert hx.as_hex(value) == (3, -4)
    assert type(hx.as_hex(value)) is tuple


@pytest.mark.parametrize(
    "value", [[1], [1, 2, 3], ["1", 2], [1.0, 2], [True, 2], None, "12", {"q": 1, "r": 2}]
)
def test_as_hex_rejects_anything_but_two_ints(value):
    with pytest.raises(ValueError):
        hx.as_hex(value)


@given(HEXES)
def test_offset_conversion_round_trips_from_axial(h):
    assert hx.from_offset(*hx.to_offset(h)) == h


@given(COORD, COORD)
def test_offset_conversion_round_trips_from_offset(col, row):
    assert hx.to_offset(hx.from_offset(col, row)) == (col, row)


def test_odd_rows_are_shifted_right_in_offset_layout():
    # Pointy-top odd-r: (col 0, row 1) touches both (col 0, row 0) and (col 1, row 0).
    odd = hx.from_offset(0, 1)
    assert hx.distance(odd, hx.from_offset(0, 0)) == 1
    assert hx.distance(odd, hx.from_offset(1, 0)) == 1
    even = hx.from_offset(0, 2)
    assert hx.distance(odd, even) == 1


# --------------------------------------------------------------------------
# Board
# --------------------------------------------------------------------------


@given(BOARD_DIMS, BOARD_DIMS)
def test_board_hexes_are_row_major_by_offset_and_count_width_times_height(w, h):
    cells = hx.board_hexes(w, h)
    assert len(cells) == w * h == len(set(cells))
    assert [hx.to_offset(c) for c in cells] == [(c, r) for r in range(h) for c in range(w)]


@given(BOARD_DIMS, BOARD_DIMS, st.tuples(st.integers(-25, 25), st.integers(-5, 20)))
def test_on_board_agrees_with_board_hexes(w, h, cell):
    assert hx.on_board(cell, w, h) == (cell in set(hx.board_hexes(w, h)))


def test_board_hexes_returns_a_fresh_list_each_time():
    first = hx.board_hexes(3, 2)
    first.clear()
    assert len(hx.board_hexes(3, 2)) == 6


def test_empty_board_has_no_hexes():
    assert hx.board_hexes(0, 5) == [] and hx.board_hexes(5, 0) == []


# --------------------------------------------------------------------------
# Distance, neighbours, rings
# --------------------------------------------------------------------------


@given(HEXES, HEXES)
def test_distance_matches_cube_max_formula(a, b):
    assert hx.distance(a, b) == brute_distance(a, b)


@given(HEXES, HEXES, HEXES)
def test_distance_is_a_metric(a, b, c):
    assert hx.distance(a, a) == 0
    assert hx.distance(a, b) == hx.distance(b, a)
    assert (hx.distance(a, b) == 0) == (a == b)
    assert hx.distance(a, c) <= hx.distance(a, b) + hx.distance(b, c)


@given(HEXES)
def test_neighbours_are_the_six_hexes_at_distance_one_in_direction_order(h):
    ns = hx.neighbours(h)
    assert ns == tuple((h[0] + dq, h[1] + dr) for dq, dr in hx.DIRECTIONS)
    assert all(hx.distance(h, n) == 1 for n in ns)


@given(SMALL_HEXES, st.integers(0, 8))
def test_ring_is_exactly_the_hexes_at_that_distance(h, radius):
    got = hx.ring(h, radius)
    assert len(got) == len(set(got)) == (1 if radius == 0 else 6 * radius)
    brute = {x for x in hx.within(h, radius + 1) if brute_distance(h, x) == radius}
    assert set(got) == brute


@given(SMALL_HEXES, st.integers(1, 8))
def test_ring_walks_a_closed_loop_of_adjacent_hexes(h, radius):
    got = hx.ring(h, radius)
    for i, x in enumerate(got):
        assert hx.distance(x, got[(i + 1) % len(got)]) == 1


@given(SMALL_HEXES, st.integers(0, 8))
def test_within_is_exactly_the_hexes_up_to_that_distance(h, radius):
    got = hx.within(h, radius)
    assert len(got) == len(set(got)) == 3 * radius * (radius + 1) + 1
    box = {(h[0] + dq, h[1] + dr) for dq in range(-9, 10) for dr in range(-9, 10)}
    assert set(got) == {x for x in box if brute_distance(h, x) <= radius}


def test_negative_ring_radius_is_rejected():
    with pytest.raises(ValueError):
        hx.ring((0, 0), -1)


# --------------------------------------------------------------------------
# Hexons
# --------------------------------------------------------------------------


@given(HEXES)
def test_every_hex_belongs_to_exactly_one_hexon(h):
    # Only centres within distance 1 can own h; exactly one of them must.
    owners = [c for c in hx.within(h, 1) if hx.is_hexon_centre(c) and h in hx.hexon_hexes(c)]
    assert owners == [hx.hexon_centre_of(h)]


@given(HEXES)
def test_hexon_hexes_of_hexon_centre_of_contains_the_hex(h):
    c = hx.hexon_centre_of(h)
    assert hx.is_hexon_centre(c)
    assert h in hx.hexon_hexes(c)


@given(HEXES)
def test_hexon_centre_of_a_centre_is_itself(h):
    c = hx.hexon_centre_of(h)
    assert hx.hexon_centre_of(c) == c


def test_hexons_tile_a_region_without_gaps_or_overlaps():
    region = hx.within((0, 0), 10)
    centres = {hx.hexon_centre_of(h) for h in region}
    counts: dict = {}
    for c in centres:
        for h in hx.hexon_hexes(c):
            counts[h] = counts.get(h, 0) + 1
    assert all(counts[h] == 1 for h in region)


@given(HEXES)
def test_hexon_centre_predicate_uses_python_modulo(h):
    assert hx.is_hexon_centre(h) == ((3 * h[0] + h[1]) % 7 == 0)


@given(CENTRES)
def test_hexon_hexes_are_the_centre_first_then_its_neighbours(c):
    got = hx.hexon_hexes(c)
    assert got[0] == c
    assert got[1:] == hx.neighbours(c)
    assert all(hx.hexon_centre_of(x) == c for x in got)


def test_hexon_hexes_rejects_a_non_centre():
    with pytest.raises(ValueError):
        hx.hexon_hexes((1, 0))


@given(CENTRES)
def test_hexon_ring_has_twelve_hexes_each_at_distance_one_from_the_hexon(c):
    ring = hx.hexon_ring(c)
    cells = set(hx.hexon_hexes(c))
    assert len(ring) == len(set(ring)) == 12
    assert not cells & set(ring)
    assert all(min(brute_distance(x, y) for y in cells) == 1 for x in ring)
    # ... and it is every such hex.
    adjacent = {n for x in cells for n in hx.neighbours(x)} - cells
    assert set(ring) == adjacent


@given(CENTRES)
def test_hexon_directions_are_exactly_the_centre_differences_of_touching_hexons(c):
    cells = set(hx.hexon_hexes(c))
    # Touching hexons: those owning a hex adjacent to one of ours.
    touching = {hx.hexon_centre_of(n) for x in cells for n in hx.neighbours(x)} - {c}
    diffs = {(t[0] - c[0], t[1] - c[1]) for t in touching}
    assert diffs == set(hx.HEXON_DIRECTIONS)


@given(CENTRES, st.integers(0, 5))
def test_hexon_neighbour_follows_hexon_direction_index(c, i):
    n = hx.hexon_neighbour(c, i)
    assert n == (c[0] + hx.HEXON_DIRECTIONS[i][0], c[1] + hx.HEXON_DIRECTIONS[i][1])
    assert n == hx.hexon_neighbours(c)[i]
    assert hx.are_adjacent_hexons(c, n) and hx.are_adjacent_hexons(n, c)
    assert hx.hexon_distance(c, n) == 1
    # Opposite direction leads back.
    assert hx.hexon_neighbour(n, (i + 3) % 6) == c


@pytest.mark.parametrize("bad", [-1, 6, 1.0])
def test_hexon_neighbour_rejects_bad_direction(bad):
    with pytest.raises(ValueError):
        hx.hexon_neighbour((0, 0), bad)


@given(CENTRES)
def test_a_hexon_is_not_adjacent_to_itself(c):
    assert not hx.are_adjacent_hexons(c, c)
    assert hx.hexon_distance(c, c) == 0


def _hexon_bfs(start: hx.Hex, goal: hx.Hex, limit: int = 40) -> int:
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        cur, d = queue.popleft()
        if cur == goal:
            return d
        if d >= limit:
            continue
        for dq, dr in hx.HEXON_DIRECTIONS:
            n = (cur[0] + dq, cur[1] + dr)
            if n not in seen:
                seen.add(n)
                queue.append((n, d + 1))
    raise AssertionError("goal not reached")


@settings(max_examples=150)
@given(CENTRES, CENTRES)
def test_hexon_distance_equals_bfs_over_hexon_adjacency(c1, c2):
    assert hx.hexon_distance(c1, c2) == _hexon_bfs(c1, c2)
    assert hx.hexon_distance(c2, c1) == hx.hexon_distance(c1, c2)


@given(HEXES, HEXES)
def test_hexon_distance_between_any_two_hexes_own_centres_matches_bfs(a, b):
    c1, c2 = hx.hexon_centre_of(a), hx.hexon_centre_of(b)
    if hx.hexon_distance(c1, c2) <= 8:
        assert hx.hexon_distance(c1, c2) == _hexon_bfs(c1, c2)


def test_hexon_distance_rejects_non_centres():
    with pytest.raises(ValueError):
        hx.hexon_distance((0, 0), (1, 0))


@given(st.lists(CENTRES, min_size=1, max_size=6))
def test_hexons_connected_matches_flood_fill(cs):
    group = set(cs)
    start = next(iter(group))
    reached = {start}
    stack = [start]
    while stack:
        cur = stack.pop()
        for other in group:
            if other not in reached and hx.hexon_distance(cur, other) == 1:
                reached.add(other)
                stack.append(other)
    assert hx.hexons_connected(cs) == (reached == group)


def test_hexons_connected_examples():
    assert hx.hexons_connected([(0, 0)])
    assert hx.hexons_connected([(0, 0), (2, 1), (1, 4)])
    assert not hx.hexons_connected([(0, 0), (4, 2)])
    assert not hx.hexons_connected([])


# --------------------------------------------------------------------------
# Footprints
# --------------------------------------------------------------------------


def test_infantry_footprint_is_its_hex():
    assert hx.footprint("infantry", [[3, 4]]) == frozenset({(3, 4)})


@given(CENTRES)
def test_large_footprint_is_its_seven_hexon_hexes(c):
    assert hx.footprint("large", [list(c)]) == frozenset(hx.hexon_hexes(c))


@given(CENTRES, st.integers(0, 5), st.integers(0, 5))
def test_huge_footprint_is_the_union_of_its_hexons(c, i, j):
    c2 = hx.hexon_neighbour(c, i)
    c3 = hx.hexon_neighbour(c2, j)
    centres = list(dict.fromkeys([c, c2, c3]))
    fp = hx.footprint("huge", [list(x) for x in centres])
    assert fp == frozenset(h for x in centres for h in hx.hexon_hexes(x))
    assert len(fp) == 7 * len(centres)


@pytest.mark.parametrize(
    "size, at",
    [
        ("infantry", []),
        ("infantry", [[0, 0], [1, 0]]),
        ("large", [[1, 0]]),
        ("large", [[0, 0], [2, 1]]),
        ("huge", [[0, 0]]),
        ("huge", [[0, 0], [0, 0]]),
        ("huge", [[0, 0], [4, 2]]),
        ("huge", [[0, 0], [1, 0]]),
        ("gargantuan", [[0, 0]]),
        ("infantry", [["a", 0]]),
    ],
)
def test_footprint_rejects_invalid_positions(size, at):
    with pytest.raises(ValueError):
        hx.footprint(size, at)


FOOTPRINTS = st.one_of(
    st.builds(lambda h: hx.footprint("infantry", [list(h)]), SMALL_HEXES),
    st.builds(lambda c: hx.footprint("large", [c]), CENTRES),
    st.builds(
        lambda c, i: hx.footprint("huge", [c, hx.hexon_neighbour(c, i)]),
        CENTRES,
        st.integers(0, 5),
    ),
)


@given(FOOTPRINTS, FOOTPRINTS)
def test_footprint_distance_is_the_nearest_pair_distance(a, b):
    expected = min(brute_distance(x, y) for x in a for y in b)
    assert hx.footprint_distance(a, b) == expected == hx.footprint_distance(b, a)
    assert (expected == 0) == bool(a & b)


@given(CENTRES, st.integers(0, 5))
def test_adjacent_hexons_are_at_footprint_distance_one(c, i):
    a = hx.footprint("large", [c])
    b = hx.footprint("large", [hx.hexon_neighbour(c, i)])
    assert hx.footprint_distance(a, b) == 1


# --------------------------------------------------------------------------
# Nearest free hexes
# --------------------------------------------------------------------------


def brute_nearest_free(fp, is_free, w, h):
    candidates = [
        x for x in hx.board_hexes(w, h) if x not in fp and is_free(x)
    ]
    if not candidates:
        return []
    dist = {x: min(brute_distance(x, y) for y in fp) for x in candidates}
    best = min(dist.values())
    return sorted(x for x in candidates if dist[x] == best)


@st.composite
def board_scenarios(draw):
    w = draw(BOARD_DIMS)
    h = draw(BOARD_DIMS)
    # Anchor anywhere on or a little off the board so edges are exercised.
    col = draw(st.integers(-2, w + 1))
    row = draw(st.integers(-2, h + 1))
    anchor = hx.from_offset(col, row)
    kind = draw(st.sampled_from(["infantry", "large", "huge"]))
    if kind == "infantry":
        fp = hx.footprint("infantry", [anchor])
    else:
        c = hx.hexon_centre_of(anchor)
        if kind == "large":
            fp = hx.footprint("large", [c])
        else:
            fp = hx.footprint("huge", [c, hx.hexon_neighbour(c, draw(st.integers(0, 5)))])
    density = draw(st.sampled_from([0.0, 0.02, 0.1, 0.5, 1.0]))
    rnd = draw(st.randoms(use_true_random=False))
    free = frozenset(x for x in hx.board_hexes(w, h) if rnd.random() < density)
    # Also mark some footprint and off-board hexes "free" to check they are ignored.
    free |= fp
    free |= {hx.from_offset(-1, 0), hx.from_offset(w, h)}
    return fp, free, w, h


@pytest.mark.slow
@settings(max_examples=300)
@given(board_scenarios())
def test_nearest_free_hexes_agrees_with_brute_force_scan_of_the_board(scenario):
    fp, free, w, h = scenario
    got = hx.nearest_free_hexes(fp, free.__contains__, w, h)
    assert got == brute_nearest_free(fp, free.__contains__, w, h)


@settings(max_examples=200)
@given(board_scenarios())
def test_nearest_free_hexes_are_free_on_board_and_at_minimal_distance(scenario):
    fp, free, w, h = scenario
    got = hx.nearest_free_hexes(fp, free.__contains__, w, h)
    assert got == sorted(got)
    assert len(got) == len(set(got))
    for x in got:
        assert x in free and hx.on_board(x, w, h) and x not in fp
    if got:
        d = hx.footprint_distance(fp, {got[0]})
        assert d >= 1
        assert all(hx.footprint_distance(fp, {x}) == d for x in got)
        # Nothing free and on board is strictly closer.
        for x in hx.board_hexes(w, h):
            if x in free and x not in fp:
                assert hx.footprint_distance(fp, {x}) >= d


def test_nearest_free_hexes_on_an_open_board_is_the_adjacent_ring():
    fp = hx.footprint("large", [(7, 7)])  # (3*7+7) % 7 == 0
    assert hx.is_hexon_centre((7, 7))
    got = hx.nearest_free_hexes(fp, lambda _: True, 30, 30)
    assert got == sorted(hx.hexon_ring((7, 7)))


def test_nearest_free_hexes_is_empty_when_nothing_is_free():
    fp = hx.footprint("infantry", [(2, 2)])
    assert hx.nearest_free_hexes(fp, lambda _: False, 10, 10) == []


@pytest.mark.parametrize("size, at, w, h", [("infantry", [(0, 0)], 1, 1), ("large", [(0, 0)], 1, 2)])
def test_nearest_free_hexes_terminates_when_the_footprint_covers_the_whole_board(size, at, w, h):
    fp = hx.footprint(size, at)
    assert set(hx.board_hexes(w, h)) <= fp
    assert hx.nearest_free_hexes(fp, lambda _: True, w, h) == []


def test_nearest_free_hexes_never_returns_the_footprint_itself():
    fp = hx.footprint("infantry", [(0, 0)])
    assert hx.nearest_free_hexes(fp, lambda x: x == (0, 0), 5, 5) == []


def test_nearest_free_hexes_finds_a_far_corner():
    w, h = 20, 15
    corner = hx.from_offset(w - 1, h - 1)
    fp = hx.footprint("infantry", [hx.from_offset(0, 0)])
    assert hx.nearest_free_hexes(fp, lambda x: x == corner, w, h) == [corner]


def test_nearest_free_hexes_from_a_footprint_off_the_board():
    fp = hx.footprint("infantry", [hx.from_offset(-5, 3)])
    got = hx.nearest_free_hexes(fp, lambda _: True, 4, 6)
    assert got == brute_nearest_free(fp, lambda _: True, 4, 6)
    assert got  # board is reachable


# --------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------


@given(SMALL_HEXES, SMALL_HEXES)
def test_infantry_step_is_a_move_to_an_adjacent_hex(a, b):
    assert hx.step_is_adjacent("infantry", [list(a)], [list(b)]) == (brute_distance(a, b) == 1)


@given(CENTRES, CENTRES)
def test_large_step_is_a_move_to_an_adjacent_hexon(a, b):
    assert hx.step_is_adjacent("large", [a], [b]) == (hx.hexon_distance(a, b) == 1)


def test_large_step_from_or_to_a_non_centre_is_illegal():
    assert not hx.step_is_adjacent("large", [[1, 0]], [[3, 1]])
    assert not hx.step_is_adjacent("large", [[0, 0]], [[1, 0]])


def test_huge_step_examples():
    a, b = (0, 0), (2, 1)  # adjacent (direction 0)
    c = hx.hexon_neighbour(b, 0)  # (4, 2)
    # Slide one hexon forward: {a, b} -> {b, c}.
    assert hx.step_is_adjacent("huge", [a, b], [b, c])
    # Shift both forward one hexon step.
    assert hx.step_is_adjacent("huge", [a, b], [hx.hexon_neighbour(a, 1), hx.hexon_neighbour(b, 1)])
    # Order of centres does not matter for "different"; same set is no step.
    assert not hx.step_is_adjacent("huge", [a, b], [b, a])
    # Different number of centres.
    assert not hx.step_is_adjacent("huge", [a, b], [a, b, c])
    # New centre too far from any old one.
    far = hx.hexon_neighbour(c, 0)
    assert not hx.step_is_adjacent("huge", [a, b], [c, far])
    # Disconnected result.
    assert not hx.step_is_adjacent("huge", [a, b], [a, c])
    # Not hexon centres.
    assert not hx.step_is_adjacent("huge", [a, b], [(1, 0), (3, 1)])
    # Duplicated centres.
    assert not hx.step_is_adjacent("huge", [a, b], [b, b])


@given(CENTRES, st.integers(0, 5), st.integers(0, 5))
def test_huge_translation_by_one_hexon_is_a_step(c, i, move):
    before = [c, hx.hexon_neighbour(c, i)]
    after = [hx.hexon_neighbour(x, move) for x in before]
    assert hx.step_is_adjacent("huge", before, after)


def test_step_with_unknown_size_is_rejected():
    with pytest.raises(ValueError):
        hx.step_is_adjacent("gargantuan", [[0, 0]], [[1, 0]])


@given(SMALL_HEXES, SMALL_HEXES)
def test_large_step_between_any_two_hexes_is_a_move_between_adjacent_hexons(a, b):
    legal = hx.is_hexon_centre(a) and hx.is_hexon_centre(b) and hx.hexon_distance(a, b) == 1
    assert hx.step_is_adjacent("large", [a], [b]) == legal
    assert hx.step_is_adjacent("large", [list(a)], [list(b)]) == legal


@given(st.one_of(SMALL_HEXES.map(lambda h: hx.footprint("infantry", [h])),
                 CENTRES.map(lambda c: hx.footprint("large", [c])),
                 st.frozensets(SMALL_HEXES, min_size=1, max_size=12)))
def test_near_is_the_footprint_and_its_neighbours_in_the_same_order_every_time(fp):
    expected = set(fp) | {n for h in fp for n in hx.neighbours(h)}
    assert hx.near(fp) == expected
    fresh: set = set()
    for h in fp:
        fresh.add(h)
        fresh.update(hx.neighbours(h))
    assert list(hx.near(fp)) == list(fresh) == list(hx.near(frozenset(fp)))
