"""The optimal Kniffel/Yahtzee solver: published expected scores, the turn's terminal values
against the scoring engine, the simulation, and the coach on hand-checked end-game positions."""

from __future__ import annotations

import json
from itertools import product

import numpy as np
import pytest

from generator.core.team import Solo
from generator.io.pair import PAIR
from generator.kniffel import simulate
from generator.kniffel.coach import advise, make_position, parse_roll
from generator.kniffel.load import load_rules, load_strategy
from generator.kniffel.scoring import allowed_boxes, extra_bonus, score
from generator.kniffel.simulate import Distribution, score_distribution, simulate_scores
from generator.kniffel.solver import (
    JOKER_SETTINGS,
    best_boxes,
    dice_space,
    make_game,
    reachable_upper,
    solve_values,
    terminal_values,
    with_joker,
)

KNIFFEL = load_rules("kniffel")
YAHTZEE = load_rules("yahtzee")  # forced joker, as shipped


@pytest.fixture(scope="session")
def kniffel():
    """The Kniffel table, solved once per session (the session's cache folder keeps it)."""
    return load_strategy(KNIFFEL)


@pytest.fixture(scope="session")
def free_choice():
    return load_strategy(with_joker(YAHTZEE, "free"))


@pytest.fixture(scope="session")
def forced():
    return load_strategy(YAHTZEE)


# --- published figures -------------------------------------------------------------------


def test_kniffel_expected_score_is_the_published_one(kniffel) -> None:
    # Verhoeff: 245.870775 without extra bonus and joker
    assert kniffel.expected_score() == pytest.approx(245.870775, abs=1e-6)


def test_yahtzee_free_choice_joker_expected_score(free_choice) -> None:
    # Verhoeff's 254.5896 (his "free choice joker": full value in a lower box only
    # once the matching upper box is filled)
    assert free_choice.expected_score() == pytest.approx(254.5896, abs=1e-4)


def test_yahtzee_forced_joker_expected_score(forced) -> None:
    # Hasbro's forced joker: slightly below the free choice. No published figure; the
    # solver's forced-joker rule is cross-checked against an independent brute force on
    # a small game (tests/test_kniffel_forced_joker.py), the full game pinned here
    assert forced.expected_score() == pytest.approx(254.587729, abs=1e-6)
    assert forced.expected_score() < 254.5896  # below the free choice (published)


def test_warm_load_is_identical(kniffel) -> None:
    # how fast it loads is measured in bench/bench_kniffel_solver.py, not here
    again = load_strategy(KNIFFEL)
    assert np.array_equal(again.values, kniffel.values, equal_nan=True)


def test_table_holds_values_exactly_for_reachable_states(kniffel) -> None:
    game = kniffel.game
    reach = reachable_upper(game)
    assert reach.sum() * game.n_flags == 357_632  # Verhoeff's count of reachable states
    assert not np.isnan(kniffel.values[reach]).any()
    assert np.isnan(kniffel.values[~reach]).all()
    # end of the game: the bonus decides
    assert kniffel.value(game.full, 63) == 35 and kniffel.value(game.full, 62) == 0


# --- one turn's terminal values against the scoring engine --------------------------------


def _reference(rules, game, values, filled: int, upper: int, flag: int, roll) -> float:
    """max over the boxes `scoring` allows of points + extra bonus + V afterwards."""
    ycat = rules.yahtzee_box
    sheet = {c.id: 0 for i, c in enumerate(rules.boxes) if filled >> i & 1}
    if ycat is not None and ycat.id in sheet and flag:
        sheet[ycat.id] = ycat.score
    best = -np.inf
    for cat in allowed_boxes(roll, rules, sheet):
        i = rules.boxes.index(cat)
        pts = score(roll, cat, rules, sheet)
        u = min(game.cap, upper + pts) if cat.kind == "upper" else upper
        y = flag
        if cat is ycat:
            y = int(pts == ycat.score) if game.n_flags == 2 else 0
        later = values[filled | 1 << i, u, y]
        best = max(best, pts + extra_bonus(roll, rules, sheet) + later)
    return best


@pytest.mark.parametrize("joker", ["none", "free", "forced"])
def test_terminal_values_follow_the_scoring_engine(joker: str) -> None:
    rules = with_joker(YAHTZEE, joker)
    game = make_game(rules)
    rng = np.random.default_rng(7)
    values = rng.uniform(0, 100, game.shape)  # any table will do: the terminal is exact
    reach = reachable_upper(game)
    states = []
    for _ in range(60):
        filled = int(rng.integers(0, game.full))
        us = np.nonzero(reach[filled])[0]
        flag = int(rng.integers(0, 2)) if filled >> game.yahtzee_box & 1 else 0
        states.append((filled, int(rng.choice(us)), flag))
    f, u, y = (np.array(col) for col in zip(*states))
    terminal, choice = terminal_values(game, values, f, u, y, with_choice=True)
    plain, _ = terminal_values(game, values, f, u, y)
    np.testing.assert_array_equal(terminal, plain)
    space = dice_space()
    fives = [space.index((k,) * 5) for k in range(1, 7)]
    picks = list(fives) + list(rng.choice(space.n_states, 12, replace=False))
    for w, (filled, upper, flag) in enumerate(states):
        for s in picks:
            want = _reference(rules, game, values, filled, upper, flag, space.states[s])
            assert terminal[w, s] == pytest.approx(want, abs=1e-9), (joker, filled, upper, s)
            assert not filled >> int(choice[w, s]) & 1
    # per game: the best box of a final roll gives the same value
    ws, ss = np.meshgrid(np.arange(len(states)), picks, indexing="ij")
    ws, ss = ws.ravel(), ss.ravel()
    boxes, best = best_boxes(game, values, f[ws], u[ws], y[ws], ss)
    np.testing.assert_array_equal(best, terminal[ws, ss])
    assert (boxes == choice[ws, ss]).mean() > 0.99  # ties aside, the same box


def _plain_best_boxes(game, values, filled, upper, flag, state):
    """`best_boxes` as it was written first (fresh arrays per box): the same boxes and values."""
    flat = values.reshape(-1)
    n_u, n_y = game.n_upper, game.n_flags
    five = np.nonzero(np.isin(state, game.yahtzee_states))[0]
    face = game.counts[1:, state[five]].argmax(axis=0)
    allowed = game.allowed(filled[five])
    five_points = game.yahtzee_points(filled[five])
    best = np.full(len(filled), -np.inf)
    choice = np.full(len(filled), -1, dtype=np.int64)
    for box in range(game.n_boxes):
        ok = (filled >> box) & 1 == 0
        ok[five] &= allowed[np.arange(len(five)), box, face]
        if not ok.any():
            continue
        pts = np.take(game.raw_points[box], state)
        pts[five] = five_points[np.arange(len(five)), box, face]
        new_upper = np.minimum(game.cap, upper + pts) if game.faces[box] else upper
        new_flag = flag
        if box == game.yahtzee_box:
            new_flag = (pts == game.rules.boxes[box].score) * (n_y - 1)
        index = ((filled | (1 << box)) * n_u + new_upper) * n_y + new_flag
        value = np.where(ok, pts + np.take(flat, np.where(ok, index, 0)), -np.inf)
        np.copyto(choice, box, where=value > best)
        np.maximum(best, value, out=best)
    if game.extra:
        best[five[flag[five] == 1]] += game.extra
    return choice, best


@pytest.mark.parametrize(
    ("name", "joker"), [("kniffel", None), *(("yahtzee", j) for j in JOKER_SETTINGS)]
)
def test_best_boxes_are_the_plain_ones(name: str, joker: str | None) -> None:
    # many games, a fifth of them with five equal dice, integer values (ties for the rule)
    game = make_game(with_joker(load_rules(name), joker))
    rng = np.random.default_rng(21)
    values = rng.integers(0, 40, game.shape).astype(np.float64)
    reach = reachable_upper(game)
    n = 3000
    filled = rng.integers(0, game.full, n)
    upper = np.array([rng.choice(np.nonzero(reach[f])[0]) for f in filled])
    flag = rng.integers(0, game.n_flags, n) * (filled >> max(game.yahtzee_box, 0) & 1)
    state = rng.integers(0, dice_space().n_states, n)
    state[::5] = rng.choice(game.yahtzee_states, len(state[::5]))
    got = best_boxes(game, values, filled, upper, flag, state)
    want = _plain_best_boxes(game, values, filled, upper, flag, state)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_free_joker_needs_the_matching_upper_box_filled() -> None:
    game = make_game(with_joker(YAHTZEE, "free"))
    names = [c.id for c in YAHTZEE.boxes]
    box = names.index
    fours = (4,) * 5
    s = dice_space().index(fours)
    ybox = 1 << box("yahtzee")
    # fours open: any box may take the Yahtzee, the large straight only by its own pattern
    assert game.points(box("large_straight"), s, ybox) == 0
    assert game.points(box("full_house"), s, ybox) == 0
    assert game.points(box("four_of_a_kind"), s, ybox) == 20
    assert game.allowed(ybox)[box("ones"), 3]
    # fours filled: the joker scores the full value
    assert game.points(box("large_straight"), s, ybox | 1 << box("fours")) == 40
    assert game.points(box("small_straight"), s, ybox | 1 << box("fours")) == 30


# --- simulation --------------------------------------------------------------------------


def test_simulation_mean_agrees_with_the_exact_expectation(kniffel) -> None:
    scores = simulate_scores(kniffel, 3000, seed=5)
    dist = Distribution(np.bincount(scores), 5)
    z = (dist.mean - kniffel.expected_score()) / dist.standard_error
    assert abs(z) < 4, z
    assert 30 < dist.sd < 50
    assert np.array_equal(scores, simulate_scores(kniffel, 3000, seed=5))  # seeded
    p = [dist.percentile(q) for q in (1, 25, 50, 75, 99)]
    assert p == sorted(p) and dist.minimum <= p[0] and p[-1] <= dist.maximum
    assert dist.percentile(50) == int(np.median(scores))


class _Memory:
    """A store in a dict (what another process would leave in the cache)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], dict] = {}

    def arrays(self, namespace, key, compute, valid=None):
        if (namespace, key) not in self.kept:
            self.kept[namespace, key] = compute()
        return self.kept[namespace, key]


class _Threads:
    """A team of `size` threads on the same arrays (a barrier for `wait`): shares of three."""

    def __init__(self, size: int) -> None:
        self.size = size

    def run(self, work, *arrays):
        import threading

        barrier = threading.Barrier(self.size)
        results: dict[int, object] = {}

        class Member:
            def __init__(self, index: int) -> None:
                self.index, self.size, self.arrays = index, barrier.parties, arrays

            def wait(self) -> None:
                barrier.wait(timeout=60)

        def one(index: int) -> None:
            results[index] = work(Member(index))

        threads = [threading.Thread(target=one, args=(k,)) for k in range(1, self.size)]
        for thread in threads:
            thread.start()
        one(0)
        for thread in threads:
            thread.join()
        assert len(results) == self.size
        return results[0]


class _Shirker:
    """A wrong team: member 0 of 2, but nobody does member 1's share (the test must see it)."""

    def run(self, work, *arrays):
        return work(Solo(arrays, index=0, size=2))


def test_the_table_solved_by_two_processes_is_the_same_bit_for_bit(kniffel) -> None:
    game = make_game(KNIFFEL)
    shared = solve_values(game, team=PAIR)
    assert np.array_equal(shared, kniffel.values, equal_nan=True)  # the NaN in the same places
    # the comparison sees a share of the work left undone
    assert not np.array_equal(solve_values(game, team=_Shirker()), shared, equal_nan=True)


def test_a_run_played_by_a_team_has_the_same_scores(kniffel) -> None:
    whole = simulate_scores(kniffel, 1001, seed=5)
    assert np.array_equal(simulate_scores(kniffel, 1001, seed=5, team=PAIR), whole)
    assert np.array_equal(simulate_scores(kniffel, 1001, seed=5, team=_Threads(3)), whole)
    assert not np.array_equal(simulate_scores(kniffel, 1001, seed=5, team=_Shirker()), whole)
    # and through the store: the whole run's counts under the whole run's key
    store = _Memory()
    dist = score_distribution(kniffel, 1001, 5, store=store, team=PAIR)
    assert np.array_equal(dist.counts, np.bincount(whole)) and len(store.kept) == 1


def test_a_state_plays_alike_whatever_is_solved_beside_it(kniffel, monkeypatch) -> None:
    # a team's members solve other sets of states at once: a state's keep values and best
    # boxes must not depend on its neighbours (7 states per block, or 60, or all at once)
    whole = simulate_scores(kniffel, 1500, seed=9)
    for block in (7, 60):
        monkeypatch.setattr(simulate, "BLOCK", block)
        assert np.array_equal(simulate_scores(kniffel, 1500, seed=9), whole)


def test_solve_cli_json(run_cli, kniffel) -> None:
    result = run_cli("kniffel", "solve", "--rules", "kniffel", "--games", "500", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["expected_score"] == kniffel.expected_score()
    dist = report["distribution"]
    assert dist["method"] == "simulation" and dist["games"] == 500 and dist["seed"] == 1
    assert abs(dist["mean"] - report["expected_score"]) < 5 * dist["standard_error"]
    assert [row["p"] for row in dist["percentiles"]] == [1, 5, 10, 25, 50, 75, 90, 95, 99]


# --- the coach on end-game positions -----------------------------------------------------


def _all_but(rules, open_ids: set[str], upper_points: dict[str, int] | None = None) -> str:
    """A --filled text with every box but `open_ids` filled (upper boxes: given or 0 points)."""
    upper_points = upper_points or {}
    parts = []
    for cat in rules.boxes:
        if cat.id not in open_ids:
            parts.append(f"{cat.label['de']}={upper_points.get(cat.id, 0)}")
    return ",".join(parts)


def test_only_chance_left_last_roll(kniffel) -> None:
    upper = {"threes": 9, "fours": 12, "fives": 15, "sixes": 18, "twos": 6, "ones": 3}  # 63
    pos = make_position(KNIFFEL, _all_but(KNIFFEL, {"chance"}, upper), None)
    assert pos.upper == 63 and pos.points == 63
    advice = advise(kniffel, pos, parse_roll(["1", "3", "4", "5", "6"]), 0)
    (only,) = advice.options
    assert only.box == "chance" and only.points == 19
    assert only.expected == pytest.approx(63 + 35 + 19) and only.loss == 0


def test_only_chance_left_with_rolls_to_go(kniffel) -> None:
    pos = make_position(KNIFFEL, _all_but(KNIFFEL, {"chance"}), None)
    roll = parse_roll(["13456"])
    # one re-roll left: keep what beats 3.5
    one = advise(kniffel, pos, roll, 1)
    assert one.options[0].keep == (4, 5, 6)
    assert one.options[0].expected == pytest.approx(15 + 2 * 3.5)
    # two re-rolls left: a die is worth 4.25 with one more roll, so keep 5 and 6 only
    two = advise(kniffel, pos, roll, 2)
    assert two.options[0].keep == (5, 6)
    assert two.options[0].expected == pytest.approx(11 + 3 * 4.25)
    assert two.options[1].loss > 0
    assert [o.expected for o in two.options] == sorted((o.expected for o in two.options),
                                                       reverse=True)  # fmt: skip


def test_only_kniffel_left(kniffel) -> None:
    pos = make_position(KNIFFEL, _all_but(KNIFFEL, {"kniffel"}), None)
    last = advise(kniffel, pos, parse_roll(["22256"]), 1)
    assert last.options[0].keep == (2, 2, 2)
    assert last.options[0].expected == pytest.approx(50 / 36)
    done = advise(kniffel, pos, parse_roll(["55555"]), 0)
    assert done.options[0].points == 50 and done.options[0].expected == 50


def test_last_upper_box_decides_the_bonus(kniffel) -> None:
    upper = {"twos": 8, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}  # 62
    pos = make_position(KNIFFEL, _all_but(KNIFFEL, {"ones", "chance"}, upper), None)
    advice = advise(kniffel, pos, parse_roll(["12356"]), 0)
    # one 1 in Einser reaches 63 (+35); a last turn on Chance alone is worth 5 × 14/3
    # (a die kept from 5 up, then from 4 up: 11/6 + 4/6 · (15/6 + 3/6 · 3.5) = 14/3)
    assert advice.options[0].box == "ones"
    assert advice.options[0].expected == pytest.approx(62 + 1 + 35 + 70 / 3)
    assert advice.options[1].box == "chance" and advice.options[1].points == 17


def test_yahtzee_joker_and_extra_bonus_at_the_end(forced, free_choice) -> None:
    open_ids = {"small_straight", "fours"}
    filled = _all_but(YAHTZEE, open_ids).replace("Yahtzee=0", "Yahtzee=50")
    pos = make_position(YAHTZEE, filled, None)
    roll = parse_roll(["44444"])
    # forced: the matching upper box is open, so it must take the dice (+100 extra bonus)
    options = advise(forced, pos, roll, 0).options
    assert [o.box for o in options] == ["fours"]
    assert options[0].points == 20 and options[0].extra == 100
    # free choice joker: either box; the straight scores 0 while fours is open
    pos = make_position(with_joker(YAHTZEE, "free"), filled, None)
    free = {o.box: o for o in advise(free_choice, pos, roll, 0).options}
    assert free["small_straight"].points == 0 and free["fours"].points == 20


def _positions(rules, count: int, seed: int):
    """Seeded positions of every stage: random boxes filled with possible points, a roll."""
    from generator.kniffel.scoring import possible_scores

    rng = np.random.default_rng(seed)
    for _ in range(count):
        boxes = rng.permutation(len(rules.boxes))[: rng.integers(0, len(rules.boxes))]
        parts = []
        for i in boxes:
            cat = rules.boxes[int(i)]
            parts.append(f"{cat.id}={rng.choice(sorted(possible_scores(cat, rules)))}")
        roll = rng.integers(1, 7, 5) if rng.random() > 0.15 else np.full(5, rng.integers(1, 7))
        yield make_position(rules, ",".join(parts), None), tuple(sorted(int(d) for d in roll))


@pytest.mark.parametrize("joker", [None, "free", "none"])
def test_the_coach_gives_the_solver_s_figures_bit_for_bit(joker, forced) -> None:
    """The coach's plain-Python answer against the solver's terminal values and rollhold's
    policy on the table's numpy array (an independent statement of the same sums)."""
    from generator.core.rollhold import policy
    from generator.kniffel.load import load_table

    rules = with_joker(YAHTZEE, joker)
    strategy = forced if joker is None else load_strategy(rules)
    table = load_table(rules)
    for pos, roll in _positions(rules, 60, seed=11):
        for rolls_left in (0, 1, 2):
            advice = advise(table, pos, roll, rolls_left)
            assert advice == advise(strategy, pos, roll, rolls_left)
            if not rolls_left:
                continue
            terminal, choice = strategy.terminal(
                np.array([pos.mask]), np.array([pos.upper]), np.array([pos.flag]), with_choice=True
            )
            ranked = policy(dice_space(), terminal[0], 3).ranked(roll, rolls_left)
            assert [o.keep for o in advice.options] == [keep for keep, _ in ranked]
            assert [o.expected for o in advice.options] == [pos.points + v for _, v in ranked]
            best = rules.boxes[int(choice[0, dice_space().index(roll)])].id
            assert advice.stop_box == best


def test_a_damaged_block_found_mid_answer_is_recomputed(tmp_path, monkeypatch) -> None:
    from generator.kniffel.load import load_table

    monkeypatch.setenv("DICESHEETS_CACHE", str(tmp_path))
    # five upper boxes and chance: a table of 64 × 64 floats, two blocks of 16 KiB
    rules = KNIFFEL.__class__(
        **{**KNIFFEL.__dict__, "boxes": (*KNIFFEL.boxes[1:6], KNIFFEL.boxes[-1])}
    )
    pos, roll = make_position(rules, "", None), parse_roll(["13356"])
    reference = advise(load_table(rules), pos, roll, 2)
    (entry,) = tmp_path.rglob("*.table")
    data = entry.read_bytes()
    assert len(data) > 2 * 16384
    damaged = bytearray(data)
    damaged[-100] ^= 1  # the second block: read after values of the first
    entry.write_bytes(bytes(damaged))
    assert advise(load_table(rules), pos, roll, 2) == reference
    assert entry.read_bytes() == data  # rewritten


# --- bad input ---------------------------------------------------------------------------

ADVISE = ["kniffel", "advise", "--rules", "kniffel"]
BAD = [
    (["--roll", "1", "3", "3", "4"], "--roll"),
    (["--roll", "1", "3", "3", "4", "6", "6"], "--roll"),
    (["--roll", "1", "3", "3", "4", "7"], "--roll"),
    (["--roll", "1", "3", "x", "4", "6"], "--roll"),
    (["--roll", "13346", "--filled", "Einser=3,Vierling=4"], "--filled"),
    (["--roll", "13346", "--filled", "Einser=3,ones=2"], "--filled"),
    (["--roll", "13346", "--filled", "Einser=7"], "--filled"),
    (["--roll", "13346", "--filled", "Full House=20"], "--filled"),
    (["--roll", "13346", "--filled", "Einser"], "--filled"),
    (["--roll", "13346", "--filled", "Einser=3", "--upper", "21"], "--upper"),
    (["--roll", "13346", "--rolls-left", "3"], "--rolls-left"),
    (["--roll", "13346", "--rolls-left", "-1"], "--rolls-left"),
    (["--roll", "13346", "--joker", "wild"], "--joker"),
    (["--roll", "13346", "--rules", "poker"], "--rules"),
]


@pytest.mark.parametrize(("args", "option"), BAD)
def test_advise_bad_input_exit_2(run_cli, args: list[str], option: str) -> None:
    result = run_cli(*ADVISE, *args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and option in err, err


def test_no_joker_for_a_rule_set_without_yahtzee_box() -> None:
    from generator.core.errors import InputError

    rules = KNIFFEL.__class__(**{**KNIFFEL.__dict__, "boxes": KNIFFEL.boxes[:6]})
    with pytest.raises(InputError, match="no Yahtzee box") as caught:
        with_joker(rules, "free")
    assert caught.value.subject == "joker"  # the CLI names --joker


def test_advise_cli_text_and_json(run_cli, kniffel) -> None:
    args = ["kniffel", "advise", "--rules", "kniffel", "--filled", "Einser=3,Kniffel=0",
            "--upper", "3", "--roll", "1", "3", "3", "4", "6", "--rolls-left", "2"]  # fmt: skip
    text = run_cli(*args)
    assert text.exit_code == 0, text.output
    assert "best" in text.output and "3 3" in text.output
    data = json.loads(run_cli(*args, "--json").output)
    losses = [o["loss"] for o in data["options"]]
    assert losses[0] == 0 and losses == sorted(losses)
    assert data["best"] == data["options"][0]
    assert data["points_so_far"] == 3 and data["filled"] == {"ones": 3, "kniffel": 0}
    keeps = {tuple(o["keep"]) for o in data["options"]}
    assert len(keeps) == len(data["options"]) == 24  # 2 · 3 · 2 · 2 keeps of 1 33 4 6
    assert keeps == {tuple(k for k, t in zip((1, 3, 3, 4, 6), mask) if t)
                     for mask in product((0, 1), repeat=5)}  # fmt: skip
