"""The flight search (sheetkit.photo.flight) on the fields a perfect reader would read off a
sheet (sheetkit.photo.truefields), apart from the reading of the photo: random legal games
from sheetkit's independent player, so the truth is known. The larger measured set is
bench/bench_flight.py."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("cv2")

from sheetkit import layouts  # noqa: E402
from sheetkit.errors import UserError  # noqa: E402
from sheetkit.games.yuncos.play import play  # noqa: E402
from sheetkit.checking.qr import qr_text  # noqa: E402
from sheetkit.games.yuncos.record import parse_flight  # noqa: E402
from sheetkit.photo import flight, simulate, truefields  # noqa: E402


def game(lid: str, seed: int):
    layout = layouts.load(lid)
    return layout, simulate.truth_record(play(layout, random.Random(seed), ability_rate=0.5))


def turn_points(truth, spec) -> list[list[tuple]]:
    """Each turn of `truth` as the grid points it flies through, from where it starts."""
    pos, out = spec.board.starts[truth["start"]], []
    for entry in truth["turn"]:
        points = [pos]
        for dx, dy in parse_flight(entry["flight"]):
            points.append((points[-1][0] + dx, points[-1][1] + dy))
        out.append(points)
        pos = points[-1]
    return out


def turn_steps(truth, spec) -> list[list[tuple]]:
    """Each turn of `truth` as its steps, each keyed as the fields key an edge."""
    return [[(min(v, w), max(v, w)) for v, w in zip(points, points[1:])] for points in turn_points(truth, spec)]


def turn_ends(truth, spec) -> list:
    """The point where each turn of `truth` ends."""
    return [points[-1] for points in turn_points(truth, spec)]


def frame_turns(truth, spec) -> list[int]:
    """The turns of `truth` with a step along the map's frame."""
    return [t for t, steps in enumerate(turn_steps(truth, spec), 1)
            if any(flight._frame(e, spec.board) for e in steps)]


def draft_of(layout, fields, cells, dice):
    return flight.build(fields, layout.spec, layout.id, qr_text(layout, 1), cells, dice)


def is_truth(draft, truth, spec) -> bool:
    return (len(draft.record["turn"]) == len(truth["turn"])
            and all(truefields.fields_right(draft.record, truth, spec).values()))


@pytest.mark.parametrize("seed", [2005, 2011])
def test_a_hard_sheet_read_from_its_true_fields_is_its_game(seed):
    layout, truth = game("yuncos-hard", seed)
    draft = draft_of(layout, *truefields.true_fields(truth, layout.spec))
    assert draft.faults == 0
    assert is_truth(draft, truth, layout.spec)
    assert simulate._verdict(draft.record) == simulate._verdict(truth)


def _marks(draft, truth, kind, what) -> bool:
    """Whether the draft marks for confirmation a field that the flipped reading touches."""
    unsure = set(draft.uncertain)
    if kind == "digit" and isinstance(what, int):  # a digit of the dice log, turn `what`
        return bool({f"turn[{what}].dice", f"turn[{what}].value", f"turn[{what}].flight"} & unsure)
    if kind == "digit":  # a puzzle box: the turn that wrote it
        t = flight.turn_cells(truth).index(what) + 1
        return bool({f"turn[{t}].value", f"turn[{t}].dice"} & unsure)
    return any(k.endswith(".flight") for k in unsure)  # an edge: some turn's flight


@pytest.mark.parametrize("seed", [3001, 3002, 3004])
def test_one_flipped_edge_or_digit_is_read_right_or_marked_for_confirmation(seed):
    layout, truth = game("yuncos-easy", seed)
    spec = layout.spec
    for k in range(2):
        rng = np.random.default_rng(seed * 10 + k)
        fields, cells, dice, flipped = truefields.noisy(truth, spec, rng, 1, kinds=("edge", "digit"), soft=False)
        draft = draft_of(layout, fields, cells, dice)
        (kind, what), = flipped
        assert is_truth(draft, truth, spec) or _marks(draft, truth, kind, what), flipped


def test_a_misread_number_that_fits_no_turn_order_is_mended_and_marked_not_refused():
    layout, truth = game("yuncos-easy", 3001)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    t = next(i for i, e in enumerate(truth["turn"], 1) if "puzzle" in e and e["dice"][1] == e["value"])
    box = flight.turn_cells(truth)[t - 1]
    # the turn's puzzle die read as a number two off, surely enough to be believed, not quite
    wrong = truth["turn"][t - 1]["value"] + (2 if truth["turn"][t - 1]["value"] <= 4 else -2)
    dice[t] = (dice[t][0], (wrong, 0.7))
    draft = draft_of(layout, fields, cells, dice)
    marked = set(draft.uncertain)
    assert f"turn[{t}].dice" in marked or f"turn[{t}].value" in marked, (box, draft.uncertain)
    assert draft.confidence[f"turn[{t}].dice"].confidence < flight.CONFIRM


def test_every_field_of_the_draft_has_a_confidence_and_nothing_is_guessed_silently():
    layout, truth = game("yuncos-hard", 2005)
    draft = draft_of(layout, *truefields.true_fields(truth, layout.spec))
    for t, entry in enumerate(draft.record["turn"], 1):
        assert f"turn[{t}].flight" in draft.confidence and f"turn[{t}].value" in draft.confidence
        if "dice" in entry:
            assert f"turn[{t}].dice" in draft.confidence
    for key in ("start", "fish_marked", "crashes_marked", "used"):
        assert key in draft.confidence
    assert all(0 < r.confidence <= 1 for r in draft.confidence.values())


def test_a_map_without_pencil_is_refused_in_one_line():
    layout, truth = game("yuncos-easy", 3001)
    fields, cells, dice = truefields.true_fields(truth, layout.spec)
    fields.edges = {e: 0.01 for e in fields.edges}
    with pytest.raises(UserError, match="no flight found"):
        draft_of(layout, fields, cells, dice)


def test_the_number_of_turns_is_the_dice_log_as_written_not_a_speck_further_down():
    def box(v, ink=6.0):
        p = {None: 0.01, **{k: (0.94 if k == v else 0.01) for k in range(1, 7)}}
        return (p, ink)

    empty = ({None: 0.97, **{k: 0.005 for k in range(1, 7)}}, 0.0)
    speck = ({None: 0.3, 1: 0.6, **{k: 0.02 for k in range(2, 7)}}, 2.0)
    faint = ({None: 0.5, 4: 0.4, **{k: 0.02 for k in (1, 2, 3, 5, 6)}}, 3.0)  # a light 4, half read
    shadow = ({None: 0.2, 1: 0.7, **{k: 0.02 for k in range(2, 7)}}, 0.3)  # hardly any pencil
    rows = [[box(3), box(5)], [box(2), box(2)], [faint, box(6)], [box(1), box(4)]]
    rows += [[empty, shadow]] + [[empty, empty]] * 30 + [[speck, empty]]
    log = flight.dice_log(rows)
    assert log.turns == 4 and sorted(log) == [1, 2, 3, 4] and log.sure > 0.8
    assert log[1] == ((3, pytest.approx(0.94)), (5, pytest.approx(0.94)))


def test_a_last_turn_with_one_die_pencilled_faintly_is_a_turn_and_that_die_is_asked():
    """A die pencilled lightly holds little pencil (under EMPTY_MM of this photo's line)
    though the digit reader reads it plainly: beside the turn's other die, surely written,
    its row is a turn, and the faint die is asked rather than the turn dropped."""
    def box(v, ink=6.0):
        p = {None: 0.01, **{k: (0.94 if k == v else 0.01) for k in range(1, 7)}}
        return (p, ink)

    empty = ({None: 0.97, **{k: 0.005 for k in range(1, 7)}}, 0.0)
    light3 = ({None: 0.005, 3: 0.99, **{k: 0.001 for k in (1, 2, 4, 5, 6)}}, 0.62)
    rows = [[box(3), box(5)], [box(2), box(2)], [box(6), light3]] + [[empty, empty]] * 33
    log = flight.dice_log(rows)
    assert log.turns == 3
    (flown, c0), (puzzle, c1) = log[3]
    assert (flown, puzzle) == (6, 3) and c0 > 0.9 and c1 < flight.CONFIRM


def test_a_confirmed_flight_is_held_and_the_rest_read_again_around_it():
    layout, truth = game("yuncos-easy", 3004)
    fields, cells, dice = truefields.true_fields(truth, layout.spec)
    t = 2
    fixed = {"start": truth["start"], f"turn[{t}].flight": truth["turn"][t - 1]["flight"]}
    draft = flight.build(fields, layout.spec, layout.id, qr_text(layout, 1), cells, dice, fixed)
    assert draft.record["turn"][t - 1]["flight"] == truth["turn"][t - 1]["flight"]
    assert draft.confidence[f"turn[{t}].flight"].confidence == 1.0
    assert draft.record["start"] == truth["start"]


def test_a_flight_confirmed_after_a_turn_left_as_read_is_held_where_that_turn_ends():
    """A flight the photo hardly shows (its pencil missed, on the frame), confirmed by the
    player after a turn they left as read: held where that turn, as their record has it,
    ends; without knowing where it starts, its edges could not be walked and the sheet
    would be refused."""
    from sheetkit.games.yuncos.record import parse_flight

    for seed in range(3004, 3030):
        layout, truth = game("yuncos-easy", seed)
        fields, cells, dice = truefields.true_fields(truth, layout.spec)
        board = layout.spec.board
        pos, t = board.starts[truth["start"]], 3
        for entry in truth["turn"][:t - 1]:
            for d in parse_flight(entry["flight"]):
                pos = (pos[0] + d[0], pos[1] + d[1])
        faded = set()
        for d in parse_flight(truth["turn"][t - 1]["flight"]):
            w = (pos[0] + d[0], pos[1] + d[1])
            faded.add((min(pos, w), max(pos, w)))
            pos = w
        if any(simulate.on_frame(e, board) for e in faded):
            continue
        fields.edges = {e: (0.01 if e in faded else p) for e, p in fields.edges.items()}
        fixed = {"start": truth["start"], f"turn[{t}].flight": truth["turn"][t - 1]["flight"]}
        fixed.pop("start")  # the start as the player's record has it, not confirmed
        path = {"start": truth["start"], "flights": [entry["flight"] for entry in truth["turn"]]}
        draft = flight.build(fields, layout.spec, layout.id, qr_text(layout, 1), cells, dice, {**fixed, "path": path})
        assert draft.record["turn"][t - 1]["flight"] == truth["turn"][t - 1]["flight"]
        assert is_truth(draft, truth, layout.spec)
        return
    raise AssertionError("no game to fade a flight of")


# --- regressions found on photos of another simulator (bench/unseen) ------------------------

@pytest.mark.parametrize("lid, seed", [("yuncos-easy", 3001), ("yuncos-hard", 2005)])
def test_dice_noted_puzzle_die_first_are_read_as_noted(lid, seed):
    """The log's heading asks for the flown die first, but players note the dice as rolled
    too (the records take either order): the flown die may be either box."""
    layout, truth = game(lid, seed)
    swapped = 0
    for e in truth["turn"][::2]:
        if e.get("dice") and e["dice"][0] != e["dice"][1]:
            e["dice"] = e["dice"][::-1]
            swapped += 1
    assert swapped >= 3
    draft = draft_of(layout, *truefields.true_fields(truth, layout.spec))
    assert is_truth(draft, truth, layout.spec)
    assert [t["dice"] for t in draft.record["turn"]] == [t["dice"] for t in truth["turn"]]  # in the log's order


def test_the_flown_die_may_be_either_box_the_second_at_a_cost():
    costs = {(k, w): c for k, c, w in flight._face_costs(((4, 0.97), (2, 0.97)))}
    assert set(costs) == {(4, 0), (2, 1)}  # sure digits: no other face
    assert costs[(2, 1)] == pytest.approx(costs[(4, 0)] + flight.SWAP_COST)
    assert {k for k, _, _ in flight._face_costs(((None, 0.0), (None, 0.0)))} == set(range(1, 7))


def test_turn_orders_that_leave_more_boxes_than_turns_are_dropped_at_once():
    """Placing the numbers turn by turn, a plan with more boxes left than turns can no
    longer explain them: dropped as it arises, the beam completes without a wider search."""
    import time

    layout, truth = game("yuncos-hard", 2005)
    spec = layout.spec
    f, cells, dice = truefields.true_fields(truth, spec)
    (cost, start, walk, plan, faces), *_ = flight.fly(f, spec, [(truth["start"], 0.0)], dice, len(truth["turn"]))
    puzzle = [flight._puzzle_die(dice, t, faces[t - 1]) for t in range(1, len(plan) + 1)]
    t0 = time.perf_counter()
    plans = flight.assign(cells, puzzle, spec, walk, plan)
    assert plans and {c for c, _, _ in plans[0][1] if c} == set(cells)  # every box explained
    assert time.perf_counter() - t0 < 2.0
    n = len(cells) - 1  # one turn fewer than the boxes written
    assert flight.assign(cells, puzzle[:n], spec, walk, plan[:n]) == []


def test_a_flight_flown_by_a_face_the_log_does_not_show_is_asked():
    """A die misread (a 6 read as a 5, unsurely): the flight that fits the pencil flies
    another face than the digit read, and is no surer than that the digit was misread."""
    layout, truth = game("yuncos-easy", 3001)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    t = next(n for n, e in enumerate(truth["turn"], 1) if e["dice"][0] < 6 and e["dice"][0] != e["dice"][1])
    flown = dice[t][0][0]
    dice[t] = ((flown + 1, 0.55), dice[t][1])
    draft = draft_of(layout, fields, cells, dice)
    key = f"turn[{t}].flight"
    assert key in draft.uncertain  # flown as the digit read or as another face: asked either way


def test_a_flight_after_an_unsure_one_is_no_surer_than_where_it_starts():
    """Each flight starts where the last ended: after an unsure turn every later flight is
    as unsure (a cut wrongly made moves them all), until a confirmed flight fixes the point;
    one unsure only for that waits on the turn asked (the photo is read again around it
    once it is confirmed), not asked itself."""
    layout, truth = game("yuncos-easy", 3004)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    dice[2] = ((dice[2][0][0], 0.5), dice[2][1])  # turn 2's flown die read unsurely
    assert 3 in frame_turns(truth, spec)
    fields.ends[turn_ends(truth, spec)[2]] = 0.3  # turn 3 flies along the frame, its end mark faint
    draft = draft_of(layout, fields, cells, dice)
    conf = [draft.confidence[f"turn[{t}].flight"].confidence for t in range(1, len(truth["turn"]) + 1)]
    assert conf[1] < flight.CONFIRM
    assert all(b <= a for a, b in zip(conf[1:], conf[2:]))
    assert draft.confidence["turn[1].flight"].confidence >= flight.CONFIRM  # before it: as sure as read
    # the number a turn wrote is placed by its dice, so by its flight: no surer than it
    assert all(draft.confidence[f"turn[{t}].value"].confidence <= c for t, c in enumerate(conf, 1))
    # turn 2's flight is asked; each flight after it is asked where it is unsure of its own
    # (a step along the frame, its end mark faint), else it waits on the last one asked
    # before it, and so does its number where the digit is sure (which turn wrote it is the
    # flight's question)
    assert "turn[2].flight" in draft.uncertain
    for t in range(3, len(truth["turn"]) + 1):
        key = f"turn[{t}].flight"
        if key in draft.waiting:
            after = draft.confidence[key].after
            assert after < t and f"turn[{after}].flight" in draft.uncertain
            assert all(f"turn[{u}].flight" in draft.waiting for u in range(after + 1, t))
        else:
            assert key in draft.uncertain
    assert draft.confidence["turn[4].flight"].after == 3  # its own steps as sure as turn 1's
    assert draft.confidence["turn[4].value"].after == 3 and draft.confidence["turn[3].value"].after == 3
    # a turn's abilities wait where its flight and number do, and are asked with an asked
    # flight or number (a number one off its die by a +-1 is asked: a digit misread alike)
    for t, entry in enumerate(draft.record["turn"], 1):
        if "use" in entry:
            flown, use = draft.confidence[f"turn[{t}].flight"], draft.confidence[f"turn[{t}].use"]
            if flown.confidence < flight.CONFIRM:
                waits = f"turn[{t}].flight" in draft.waiting and f"turn[{t}].value" not in draft.uncertain
                assert (f"turn[{t}].use" in draft.waiting) == waits
                assert use.after in (None, flown.after)
    # and so do its dice: the flown die is the flight's length
    for t in range(2, len(truth["turn"]) + 1):
        flown, rolled = draft.confidence[f"turn[{t}].flight"], draft.confidence[f"turn[{t}].dice"]
        assert rolled.confidence <= flown.confidence
        if f"turn[{t}].flight" in draft.waiting:
            assert rolled.after == flown.after
    fixed = {"turn[2].flight": truth["turn"][1]["flight"]}
    again = flight.build(fields, spec, layout.id, qr_text(layout, 1), cells, dice, fixed)
    assert again.confidence["turn[2].flight"].confidence == 1.0
    assert again.confidence["turn[3].flight"].confidence > conf[2]
    assert "turn[3].flight" in again.uncertain  # its own frame step still asked, turn 4 waiting on it
    assert again.confidence["turn[4].flight"].after == 3 and "turn[4].flight" in again.waiting


@pytest.mark.parametrize("seed", [3001, 3007])
def test_a_die_misread_surely_waits_on_the_flight_it_flew(seed):
    """A flown die misread one pip short, surely (a 6 read as a 5), agrees with a flight cut a
    step short: the die is the flight's length, so it waits on the flight asked, not left as
    sure; once that flight is confirmed, it is read right or asked."""
    layout, truth = game("yuncos-easy", seed)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    (flown, sure), puzzle = dice[2]
    dice[2] = ((flown - 1, 0.95), puzzle)
    draft = draft_of(layout, fields, cells, dice)
    assert draft.record["turn"][1]["dice"] != truth["turn"][1]["dice"]  # read as misread
    rolled = draft.confidence["turn[2].dice"]
    assert "turn[2].dice" in draft.waiting and f"turn[{rolled.after}].flight" in draft.uncertain
    fixed = {f"turn[{rolled.after}].flight": truth["turn"][rolled.after - 1]["flight"]}
    again = flight.build(fields, spec, layout.id, qr_text(layout, 1), cells, dice, fixed)
    assert again.record["turn"][1]["dice"] == truth["turn"][1]["dice"] or "turn[2].dice" in again.uncertain


def test_a_confirmed_flight_its_die_reads_otherwise_asks_the_dice():
    """A flight the player confirmed, which the log's flown die, read surely, does not fly
    as read: the search explains it with a +-1 (or the other die flown), and a digit misread
    a pip off would look the same. Which it was only the player knows: the dice are asked,
    not left sure."""
    layout, truth = game("yuncos-easy", 3004)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    t = 17
    (flown, sure), puzzle = dice[t]
    dice[t] = ((flown - 1, 0.95), puzzle)  # misread a pip short, surely
    fixed = {f"turn[{t}].flight": truth["turn"][t - 1]["flight"]}
    draft = flight.build(fields, spec, layout.id, qr_text(layout, 1), cells, dice, fixed)
    entry = draft.record["turn"][t - 1]
    assert entry["flight"] == truth["turn"][t - 1]["flight"] and entry["dice"] != truth["turn"][t - 1]["dice"]
    assert "plusminus" in entry.get("use", ())  # explained by a +-1 ...
    assert f"turn[{t}].dice" in draft.uncertain  # ... and asked
    assert draft.confidence[f"turn[{t}].dice"].why.id == "photo.why.dice_flight"


def test_the_start_is_no_surer_than_the_first_flight_that_leaves_it():
    """The path begins at the start point: a first flight read unsurely (its flown die read
    at even odds) asks the start too, though its mark is clear; once the player confirms
    that flight, the start is as sure as its mark again."""
    layout, truth = game("yuncos-easy", 3004)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    sure = draft_of(layout, fields, cells, dice)
    assert "start" not in sure.uncertain and "turn[1].flight" not in sure.uncertain
    dice[1] = ((dice[1][0][0], 0.5), dice[1][1])  # turn 1's flown die read unsurely
    draft = draft_of(layout, fields, cells, dice)
    assert "turn[1].flight" in draft.uncertain
    assert draft.confidence["start"].confidence <= draft.confidence["turn[1].flight"].confidence
    assert "start" in draft.uncertain
    assert draft.confidence["start"].why.id == "photo.why.first_flight"  # said why: not its mark
    fixed = {"turn[1].flight": truth["turn"][0]["flight"]}
    again = flight.build(fields, spec, layout.id, qr_text(layout, 1), cells, dice, fixed)
    assert "start" not in again.uncertain
    assert again.confidence["start"].confidence >= sure.confidence["start"].confidence


def test_the_flights_wait_on_a_start_whose_mark_is_unsure():
    """The first flight leaves the start point, and every later one the point the one before
    it ended: a start read unsurely (its cross faint) is asked, and the flights wait on it,
    the first saying why; once the player confirms the start, they are as sure as read."""
    layout, truth = game("yuncos-easy", 3004)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    sure = draft_of(layout, fields, cells, dice)
    assert "start" not in sure.uncertain and "turn[1].flight" not in sure.uncertain + sure.waiting
    fields.starts[truth["start"]] = 0.5
    draft = draft_of(layout, fields, cells, dice)
    assert "start" in draft.uncertain
    first = draft.confidence["turn[1].flight"]
    assert "turn[1].flight" in draft.waiting and first.after == 0
    assert first.why.id == "photo.why.after_start"
    # every flight is marked: asked where unsure of its own (a step along the frame), else waiting
    assert {f"turn[{t}].flight" for t in range(1, len(truth["turn"]) + 1)} <= set(draft.waiting + draft.uncertain)
    again = flight.build(fields, spec, layout.id, qr_text(layout, 1), cells, dice, {"start": truth["start"]})
    assert again.uncertain == sure.uncertain and again.waiting == sure.waiting


@pytest.mark.parametrize("lid, seed", [("yuncos-easy", 3001), ("yuncos-easy", 3002), ("yuncos-hard", 2005),
                                       ("yuncos-hard", 2011)])
def test_a_turn_cut_surely_by_its_dice_is_not_asked_for_a_turn_end_mark_that_does_not_show(lid, seed, monkeypatch):
    """A tick across the line may lie along the printed grid line and not show at all. Where
    the flown die is read surely, noted first and flown as it reads (no +-1), and every
    reading cuts the turn there, the missing mark does not ask the flight; a turn flown one
    off (a +-1) is cut where its mark says, so without one it is asked. Either way nothing
    wrong is left unmarked."""
    layout, truth = game(lid, seed)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    path = simulate.field_truth(truth, lid)["path"]
    ends = [p for p, v in fields.ends.items() if v > 0.5 and p != path[0]]
    for v in ends[::3]:
        fields.ends[v] = 0.02  # a third of the turn-end marks do not show
    draft = draft_of(layout, fields, cells, dice)
    right = truefields.fields_right(draft.record, truth, spec)
    marked = set(draft.uncertain) | set(draft.waiting)
    assert all(ok or k in marked for k, ok in right.items())
    # the turns flown as their die reads whose end does not show
    plain = [t for t, (e, end) in enumerate(zip(truth["turn"], turn_ends(truth, spec)), 1)
             if "plusminus" not in e.get("use", []) and fields.ends.get(end) == 0.02]
    assert plain
    asked = [t for t in plain if f"turn[{t}].flight" in draft.uncertain]
    monkeypatch.setattr(flight, "CUT_SURE", 2.0)  # never sure without its mark
    before = draft_of(layout, fields, cells, dice)
    assert [t for t in plain if f"turn[{t}].flight" in before.uncertain] == plain
    assert len(asked) < len(plain)


def test_a_confirmed_turn_takes_its_abilities_only_when_it_is_the_turn_played():
    """The paper does not show which abilities a turn used: confirming a turn's `use` gives
    the truth's only once its flight, number and dice are the truth's; else the draft's stays
    (a draft that placed the numbers in another legal turn order keeps its own)."""
    from types import SimpleNamespace

    truth = {"start": 1, "fish_marked": 0, "crashes_marked": 0, "used": [],
             "turn": [{"flight": "E E", "puzzle": "nest1", "value": 3, "dice": [3, 3], "use": ["plusminus"]},
                      {"flight": "N", "puzzle": "lum1", "value": 2, "dice": [1, 2]}]}
    record = {"start": 1, "fish_marked": 0, "crashes_marked": 0, "used": [],
              "turn": [{"flight": "E E E", "puzzle": "nest1", "value": 3, "dice": [3, 3]},
                       {"flight": "N", "puzzle": "lum1", "value": 2, "dice": [1, 2], "use": ["plusminus"]}]}
    draft = SimpleNamespace(record=record, uncertain=["turn[1].flight", "turn[1].use", "turn[2].use"])
    got = simulate.confirmed(draft, truth)
    assert got["turn"][0] == truth["turn"][0]  # its flight confirmed: the turn as played, its use too
    assert "use" not in got["turn"][1]  # the turn as played: the truth's use (none)
    record["turn"][1]["dice"] = [1, 3]  # a die read otherwise and not asked: not the turn as played
    got = simulate.confirmed(draft, truth)
    assert got["turn"][1]["use"] == ["plusminus"]


@pytest.mark.parametrize("lid, seed", [("yuncos-easy", 2010), ("yuncos-hard", 2011)])
def test_the_search_takes_each_points_options_on_arrays_as_they_are(lid, seed):
    """The search takes a point's options as arrays (_Map.block, worked out on arrays);
    they are _Map.options' own, in its order, at its costs to the last bit."""
    layout, truth = game(lid, seed)
    spec = layout.spec
    f, _, dice, _ = truefields.noisy(truth, spec, np.random.default_rng(seed), 2)
    m = flight._Map(f, spec)
    reads = [None, ((3, 0.97), (5, 0.6)), ((2, 0.5), (None, 0.0))] + [dice[t] for t in sorted(dice)[:3]]
    for pos in list(f.ends)[::7]:
        for read in reads:
            got, want = m.block(pos, read), flight._Block.of_options(m, m.options(pos, read))
            for name in ("least", "cost", "masks", "uniq", "again", "end", "end_cost"):
                assert np.array_equal(getattr(got, name), getattr(want, name)), name
            assert [got.kept(i) for i in range(len(got.least))] == [want.kept(i) for i in range(len(want.least))]


def _placed(plan) -> list:
    return [c for c, _, _ in plan]


def _two_ways(seeds):
    """(spec, cells, puzzle dice, walk, cut, the cheapest plans) of the first seeded game
    whose numbers the search can place in more than one turn order."""
    for seed in seeds:
        layout, truth = game("yuncos-easy" if seed % 2 else "yuncos-hard", seed)
        spec = layout.spec
        f, cells, dice = truefields.true_fields(truth, spec)
        (cost, start, walk, plan, faces), *_ = flight.fly(f, spec, [(truth["start"], 0.0)], dice, len(truth["turn"]))
        puzzle = [flight._puzzle_die(dice, t, faces[t - 1]) for t in range(1, len(plan) + 1)]
        plans = flight.assign(cells, puzzle, spec, walk, plan, slack=50.0)
        if any(_placed(p) != _placed(plans[0][1]) for _, p in plans[1:]):
            yield spec, cells, puzzle, walk, plan, plans


def test_a_turn_order_the_player_confirmed_is_taken_where_the_dice_allow_it():
    """Two turn orders the dice explain as well: the one the player confirmed turn by turn
    is taken."""
    for spec, cells, puzzle, walk, plan, plans in _two_ways(range(2005, 2060)):
        tie = next((p for c, p in plans[1:] if c == plans[0][0] and _placed(p) != _placed(plans[0][1])), None)
        if tie is None:
            continue
        got = flight.assign(cells, puzzle, spec, walk, plan, held={t: c for t, (c, _, _) in enumerate(tie)})
        assert _placed(got[0][1]) == _placed(tie)
        return
    raise AssertionError("no game with two turn orders as cheap")


def test_a_number_confirmed_in_its_box_is_written_by_the_turn_its_dice_say():
    """The paper shows what a box holds, not which turn wrote it: a player who confirms each
    number in its box, at turns the draft had wrong (two turns' numbers swapped, neither
    its own die), holds the boxes and not those turns: the dice place the numbers."""
    for spec, cells, puzzle, walk, plan, plans in _two_ways(range(2005, 2060)):
        best = plans[0][1]
        turns = [t for t, (c, pm, fix) in enumerate(best) if c and not pm and fix is None]
        pair = next(((a, b) for a in turns for b in turns if a < b and cells[best[a][0]][0] != cells[best[b][0]][0]
                     and cells[best[a][0]][0] != puzzle[b][0] and cells[best[b][0]][0] != puzzle[a][0]), None)
        if pair is None:
            continue
        said = {t: c for t, (c, _, _) in enumerate(best)}
        said[pair[0]], said[pair[1]] = said[pair[1]], said[pair[0]]
        got = flight.assign(cells, puzzle, spec, walk, plan, held=said)
        assert _placed(got[0][1]) == _placed(best)
        return
    raise AssertionError("no game with two numbers to swap")


def test_a_stray_number_that_fits_no_turn_order_is_left_out_and_every_number_asked():
    """A mark read as a digit in an empty box (more numbers than any turn order explains):
    the least sure number is left out, the draft says so, and every turn's number is asked
    instead of the sheet being refused."""
    layout, truth = game("yuncos-easy", 2007)
    spec = layout.spec
    f, cells, dice = truefields.true_fields(truth, spec)
    groups = flight.box_groups(spec)
    free = [n for g in groups for n in g if n not in cells]
    stray = dict(cells)
    while len(stray) <= len(truth["turn"]):  # one number more than the turns: no order explains them
        n = next(n for n in free if n not in stray and all(m in stray for m in _before(n, groups)))
        stray[n] = (4, 0.55)  # unsurely read, in the next free box of its row or column
    draft = draft_of(layout, f, stray, dice)
    assert len(draft.record["turn"]) == len(truth["turn"])
    assert any("left out" in str(n) or "left_out" in str(n) for n in draft.notes)
    assert all(f"turn[{t}].value" in draft.uncertain for t in range(1, len(truth["turn"]) + 1))
    # only a last box of its row or column is left out: every true number is still there
    written = {t["puzzle"]: t["value"] for t in draft.record["turn"] if "puzzle" in t}
    assert sum(1 for n, (v, _) in cells.items() if written.get(n) == v) >= len(cells) - 1


def _before(name: str, groups) -> list[str]:
    g = next(g for g in groups if name in g)
    return g[:g.index(name)]


def test_a_fault_nothing_else_asks_for_asks_the_numbers():
    """The errors the rules find in a draft as written (flight.faults_asked: the record the
    player's confirmed fields merged into) ask the turn at fault; where its fields are all
    confirmed, which turn wrote which number (the paper does not show it) is what is wrong,
    and every number not held is asked instead."""
    import copy

    from sheetkit.photo.read import _fields_of

    layout, truth = game("yuncos-easy", 3004)
    t = next(t for t, e in enumerate(truth["turn"], 1) if e.get("value") and t > 2)
    record = copy.deepcopy(truth)
    entry = record["turn"][t - 1]
    far = 6 if entry["value"] <= 3 else 1  # a puzzle die no plus or minus makes the number
    entry["dice"] = [entry["dice"][0], far] if entry["dice"][1] == entry["value"] else [far, entry["dice"][1]]
    assert flight.errors_of(truth) == 0 and flight.errors_of(record) > 0

    def sure():
        return {k: flight.Reading(None, 1.0) for k in _fields_of(record)}

    conf = sure()
    assert flight.faults_asked(record, conf, set()) > 0
    asked = {k for k, r in conf.items() if r.confidence < flight.CONFIRM}
    assert f"turn[{t}].dice" in asked and not any(k.endswith(".value") and k != f"turn[{t}].value" for k in asked)
    # a field of the turn at fault that was waiting on an earlier flight is asked, however unsure
    conf = sure()
    conf[f"turn[{t}].dice"] = flight.Reading(None, 0.1, after=1)
    flight.faults_asked(record, conf, set())
    assert conf[f"turn[{t}].dice"].after is None and conf[f"turn[{t}].dice"].confidence == 0.1
    conf = sure()
    held = {f"turn[{t}].{k}" for k in ("flight", "value", "dice", "use")}
    assert flight.faults_asked(record, conf, held) > 0
    numbers = [f"turn[{u}].value" for u in range(1, len(record["turn"]) + 1) if u != t]
    assert all(conf[k].confidence <= flight.FAULTY and conf[k].after is None for k in numbers)
    assert all(conf[k].confidence == 1.0 for k in held if k in conf)
    assert flight.faults_asked(truth, sure(), held) == 0  # no fault: nothing asked


def _blank_stretch(truth, spec, lid, at: str):
    """The true fields of `truth` with a stretch of its path read as blank paper: every edge
    at the start point ("start"), or at the path's middle point ("middle")."""
    fields, cells, dice = truefields.true_fields(truth, spec)
    path = simulate.field_truth(truth, lid)["path"]
    point = path[0] if at == "start" else path[len(path) // 2]
    for e in fields.edges:
        if point in e:
            fields.edges[e] = 0.0
    return fields, cells, dice


@pytest.mark.parametrize("lid, seed, at", [("yuncos-easy", 3001, "start"), ("yuncos-hard", 2005, "start"),
                                           ("yuncos-hard", 3025, "middle")])
def test_pencil_missed_altogether_is_flown_over_blank_paper_and_every_wrong_flight_asked(lid, seed, at):
    """Where the photo shows no pencil at all (read as blank paper, below what the search
    otherwise crosses), the flight is flown over it all the same, a few steps a flight, the
    last way to cut the path before refusing the sheet: a draft the player can mend, every
    wrong flight marked, rather than the whole sheet to copy by hand."""
    layout, truth = game(lid, seed)
    fields, cells, dice = _blank_stretch(truth, layout.spec, lid, at)
    turns = len(truth["turn"])
    starts = [(truth["start"], 0.0)]
    # neither the search nor its fallback over faint pencil can cut it
    assert not flight.fly(fields, layout.spec, starts, dice, turns)
    assert not flight.fly(fields, layout.spec, starts, dice, turns, flight.FALLBACK_BEAM, walkable=flight.FAINT)
    draft = draft_of(layout, fields, cells, dice)
    assert len(draft.record["turn"]) == turns
    right = truefields.fields_right(draft.record, truth, layout.spec)
    marked = set(draft.uncertain) | set(draft.waiting)  # asked, or waiting on an asked one
    for t, entry in enumerate(draft.record["turn"], 1):
        assert right[f"turn[{t}].flight"] or f"turn[{t}].flight" in marked, (t, entry["flight"])


@pytest.mark.parametrize("lid", ["yuncos-easy", "yuncos-hard"])
def test_a_flight_crosses_blank_paper_at_most_blank_steps_times(lid):
    """Over paper read as blank everywhere, the flights worth trying from a point are those
    with at most BLANK_STEPS steps over it: the search's work stays bounded (every walk of
    six steps from every point would take seconds a photo)."""
    layout, truth = game(lid, 3001)
    spec = layout.spec
    fields, _, _ = truefields.true_fields(truth, spec)
    for e in fields.edges:
        fields.edges[e] = 0.0
    m = flight._Map(fields, spec, flight.FAINT, flight.BLANK_STEPS)
    most = 0
    for pos in [(c, r) for c in range(2, spec.board.width - 2, 3) for r in range(2, spec.board.height - 2, 3)]:
        for o in m.options(pos, None):
            blank = sum(b in m.blank for b in o[6])
            assert blank <= flight.BLANK_STEPS, (pos, o[3])
            most = max(most, blank)
    assert most == flight.BLANK_STEPS  # flights over blank paper are tried, up to the bound
    assert not flight._Map(fields, spec, flight.FAINT).options((5, 5), None)  # and only in the last resort


def test_the_crossed_yuncos_are_spent_on_crashes_the_rules_let_them_save():
    """The paper shows the Yunco boxes crossed and the crash track, not which crashes they
    saved: spent again on a game's crashes (every use of them taken away), every game checks
    as it was played. A Yunco spent where none is unlocked yet, or on a crash that marks
    nothing, or a turn that crashed twice saved once, would break a rule."""
    games = 0
    for lid, seeds in (("yuncos-easy", range(2000, 2080)), ("yuncos-hard", [*range(2000, 2080), 5316])):
        layout = layouts.load(lid)
        for seed in seeds:  # (hard 5316 crashed twice in one turn and saved both)
            truth = game(lid, seed)[1]
            if not any("yunco" in t.get("use", []) for t in truth["turn"]):
                continue
            games += 1
            bare = dict(truth, turn=[{k: v for k, v in t.items() if k != "use"}
                                     | ({"use": u} if (u := [x for x in t.get("use", []) if x != "yunco"]) else {})
                                     for t in truth["turn"]])
            record, checked = flight._yuncos(bare, truth["used"], layout.spec)
            assert flight._errors(checked) == 0, (lid, seed)
            assert simulate._verdict(record) == simulate._verdict(truth), (lid, seed)
            assert sum(t.get("use", []).count("yunco") for t in record["turn"]) == \
                sum(t.get("use", []).count("yunco") for t in truth["turn"]), (lid, seed)
    assert games > 50


@pytest.mark.parametrize("seed", [2011, 2015])
def test_a_turn_the_player_says_used_no_yunco_leaves_it_to_another_crash(seed):
    """Which crash a crossed Yunco saved is the player's to say: confirmed as used at no
    turn where the draft spent it, it saves another crash, and the draft still checks."""
    layout, truth = game("yuncos-easy", seed)
    fields, cells, dice = truefields.true_fields(truth, layout.spec)
    draft = draft_of(layout, fields, cells, dice)
    spent = [t for t, turn in enumerate(draft.record["turn"], 1) if "yunco" in turn.get("use", [])]
    assert len(spent) == 1 and draft.faults == 0
    t = spent[0]
    import copy

    from sheetkit.photo.read import held_fields

    mine = copy.deepcopy(draft.record)  # the player's record: no Yunco at turn t
    said = [u for u in mine["turn"][t - 1].pop("use") if u != "yunco"]
    if said:
        mine["turn"][t - 1]["use"] = said
    fixed = held_fields(mine, [f"turn[{t}].use"])
    assert fixed == {f"turn[{t}].use": said}  # no ability at all is held too
    again = flight.build(fields, layout.spec, layout.id, qr_text(layout, 1), cells, dice, fixed=fixed)
    now = [u for u, turn in enumerate(again.record["turn"], 1) if "yunco" in turn.get("use", [])]
    assert len(now) == 1 and now[0] != t
    assert again.faults == 0
    assert simulate._verdict(again.record) == simulate._verdict(truth)


@pytest.mark.parametrize("lid, seed", [("yuncos-easy", 2040), ("yuncos-easy", 2092), ("yuncos-hard", 2000),
                                       ("yuncos-hard", 2012), ("yuncos-easy", 2029), ("yuncos-hard", 6028),
                                       ("yuncos-hard", 6042)])
def test_numbers_are_placed_so_that_every_crash_is_one_the_rules_allow(lid, seed):
    """A crash is legal only where the die fits no box (Y13), or where a +-1 made it fit
    none (a crash chosen rather than a number that spoils a row): the numbers' turn order is
    searched so, and these games' true fields give a draft that checks as the game (hard
    6028 and 6042 crash one off)."""
    layout, truth = game(lid, seed)
    draft = draft_of(layout, *truefields.true_fields(truth, layout.spec))
    assert draft.faults == 0
    assert simulate._verdict(draft.record) == simulate._verdict(truth)


def test_the_number_search_asks_the_rules_own_question_of_where_a_value_fits():
    """The number search tells a legal crash (the die fits no box, Y13) on bits, for speed:
    on every state of random games' boxes, the values it says fit somewhere are those the
    rules' own placements (Y11, Y12) find a box for."""
    from sheetkit.games.yuncos.rules import placements

    rng = random.Random(7)
    states = 0
    for lid in ("yuncos-easy", "yuncos-hard"):
        for seed in range(2000, 2010):
            layout, truth = game(lid, seed)
            _, cells, _ = truefields.true_fields(truth, layout.spec)
            groups = flight.box_groups(layout.spec)
            filled = [[n for n in g if n in cells] for g in groups]
            values = [[cells[n][0] for n in g] for g in filled]
            fit = flight._fit_masks(layout.spec, values)
            for _ in range(200):
                state = tuple(rng.randint(0, len(g)) for g in filled)
                lines = [v[:i] + [None] * (len(g) - i) for v, g, i in zip(values, groups, state)]
                want = {v for v in range(1, 7) if placements(lines[:2], lines[2:], v)}
                assert {v for v in range(1, 7) if fit(state) >> v & 1} == want, (lid, seed, state)
                states += 1
    assert states == 4000


@pytest.mark.parametrize("seed, k", [(2004, 4), (2007, 3)])
def test_flights_confirmed_after_one_the_record_has_wrong_are_flown_where_the_photo_shows_them(seed, k):
    """The player confirms the flights after turn k, and leaves turn k (a step short in their
    record: its last step along the frame, its end mark faint) to be read again. Walked from
    their record, the confirmed flights lie a step off the path; read again, the sheet is
    not refused: they are flown where the photo shows them, and turn k is right or asked."""
    import copy

    from sheetkit.games.yuncos.notation import flight_text
    from sheetkit.photo.read import held_fields

    layout, truth = game("yuncos-easy", seed)
    fields, cells, dice = truefields.true_fields(truth, layout.spec)
    board = layout.spec.board
    last, v = turn_points(truth, layout.spec)[k - 1][-2:]
    assert flight._frame((min(last, v), max(last, v)), board)  # turn k ends along the frame
    fields = copy.copy(fields)
    fields.ends = dict(fields.ends)
    fields.ends[v] = 0.16
    mine = copy.deepcopy(truth)
    mine["turn"][k - 1]["flight"] = flight_text(parse_flight(truth["turn"][k - 1]["flight"])[:-1])
    confirmed = ["start"] + [f"turn[{t}].flight" for t in range(k + 1, len(truth["turn"]) + 1)]
    draft = flight.build(fields, layout.spec, layout.id, qr_text(layout, 1), cells, dice,
                         fixed={**held_fields(mine, confirmed), "turns": len(mine["turn"])})
    assert len(draft.record["turn"]) == len(truth["turn"])
    assert draft.record["turn"][k - 1]["flight"] == truth["turn"][k - 1]["flight"] or \
        f"turn[{k}].flight" in draft.uncertain
    assert all(draft.record["turn"][t - 1]["flight"] == truth["turn"][t - 1]["flight"] for t in range(k + 1, k + 4))


@pytest.mark.parametrize("spelled", ["yunco", "Yunco", " YUNCO "])
def test_a_yunco_the_player_moves_to_another_crash_stays_there_however_spelled(spelled):
    """Which crash a Yunco saved is the player's to say, written as a record may have it:
    moved from the turn the draft spent it on to the next crash, it is held there, and no
    other turn spends it."""
    import copy

    from sheetkit.games.yuncos.record import _name
    from sheetkit.photo.read import held_fields

    layout, truth = game("yuncos-easy", 2011)
    fields, cells, dice = truefields.true_fields(truth, layout.spec)
    draft = draft_of(layout, fields, cells, dice)
    (t,) = [t for t, turn in enumerate(draft.record["turn"], 1) if "yunco" in turn.get("use", [])]
    later = next(u for u in range(t + 1, len(truth["turn"]) + 1) if draft.record["turn"][u - 1].get("crash"))
    mine = copy.deepcopy(draft.record)
    mine["turn"][t - 1].pop("use")
    mine["turn"][later - 1]["use"] = mine["turn"][later - 1].get("use", []) + [spelled]
    said = [f"turn[{t}].use", f"turn[{later}].use"]
    again = flight.build(fields, layout.spec, layout.id, qr_text(layout, 1), cells, dice, fixed=held_fields(mine, said))
    spent = [u for u, turn in enumerate(again.record["turn"], 1) if any(_name(x) == "yunco" for x in turn.get("use", []))]
    assert spent == [later]
    assert again.faults == 0


def test_an_ability_use_that_is_no_list_is_held_as_written():
    """A typed record may give a turn's use as one word, or as anything at all: held as it
    is (the rules then say what is wrong with it), never a crash of the reading."""
    from sheetkit.photo.read import held_fields

    record = {"start": 1, "turn": [{"flight": "N", "use": "yunco"}, {"flight": "S", "use": 5}, {"flight": "E"}]}
    assert held_fields(record, ["turn[1].use", "turn[2].use", "turn[3].use"]) == \
        {"turn[1].use": ["yunco"], "turn[2].use": [5], "turn[3].use": []}


@pytest.mark.parametrize("seed, t, misread", [(2010, 21, 1), (2032, 20, 4)])
def test_a_crash_whose_die_is_misread_as_one_that_fits_mends_the_die_and_asks_it(seed, t, misread):
    """A crash is legal only where its die fits no box (Y13): where the log's puzzle die is
    read, unsurely, as one that fits, the die was misread rather than the crash against the
    rules. The draft keeps the crash, writes a die that fits nowhere, and asks the dice."""
    layout, truth = game("yuncos-hard", seed)
    fields, cells, dice = truefields.true_fields(truth, layout.spec)
    assert truth["turn"][t - 1].get("crash")
    log = dict(dice)
    log[t] = (dice[t][0], (misread, 0.6))
    draft = draft_of(layout, fields, cells, log)
    assert draft.faults == 0
    assert draft.record["turn"][t - 1].get("crash")
    assert draft.record["turn"][t - 1]["dice"][1] != misread
    assert f"turn[{t}].dice" in draft.uncertain


@pytest.mark.parametrize("lid, seed", [("yuncos-easy", 3004), ("yuncos-hard", 2005), ("yuncos-hard", 2011)])
def test_a_flight_along_the_frame_is_sure_where_its_die_and_its_end_mark_are(lid, seed):
    """Pencil on the map's heavy frame hardly shows, so a step there is inferred. Where the
    flight's die is read surely and flown as it reads, and its end mark is seen, the steps
    between are the only ones that fly it: the flight is not asked. Its end mark faint, or
    its die read unsurely, it is asked (or waits on a flight asked), and nothing wrong is
    left unmarked."""
    import copy

    layout, truth = game(lid, seed)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    draft = draft_of(layout, fields, cells, dice)
    assert is_truth(draft, truth, spec)
    sure = [t for t in frame_turns(truth, spec) if f"turn[{t}].flight" not in draft.uncertain + draft.waiting]
    assert sure
    ends = turn_ends(truth, spec)
    for fade in ("end mark", "die"):
        faded_fields, faded_dice = copy.deepcopy(fields), dict(dice)
        for t in sure:
            if fade == "end mark":
                faded_fields.ends[ends[t - 1]] = 0.3
            else:
                faded_dice[t] = ((dice[t][0][0], 0.9), dice[t][1])
        faded = draft_of(layout, faded_fields, cells, faded_dice)
        marked = set(faded.uncertain) | set(faded.waiting)
        assert {f"turn[{t}].flight" for t in sure} <= marked, fade
        right = truefields.fields_right(faded.record, truth, spec)
        assert all(ok or k in marked for k, ok in right.items()), fade


@pytest.mark.parametrize("lid, seed", [("yuncos-easy", 3004), ("yuncos-hard", 2005)])
def test_a_draft_at_fault_asks_the_start_where_a_start_no_flight_reaches_reads_as_marked(lid, seed):
    """A turn that ends on another start point marks it as a start's cross does, and the
    walk may be read from there. Where the rules find the draft at fault and a start point
    that no flight reaches reads as marked, or the pencil ends there, the start is asked,
    saying which, and the flights wait on it. Either alone asks nothing of the start (the print of a start's
    number can read as pencil on a blurred photo); once the player confirms the start, the
    flights are as sure as before."""
    layout, truth = game(lid, seed)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    walk = simulate.field_truth(truth, lid)["path"]
    stray = next(n for n, v in spec.board.starts.items() if v not in walk)
    fields.starts[stray] = 0.95
    alone = draft_of(layout, fields, cells, dice)
    assert alone.faults == 0 and "start" not in alone.uncertain  # a stray mark alone
    fields.fish[truth["fish_marked"]] = 1.0  # one fish box more read as marked, surely: a fault
    draft = draft_of(layout, fields, cells, dice)
    assert draft.faults and draft.record["start"] == truth["start"]
    assert "start" in draft.uncertain
    assert draft.confidence["start"].why.id == "photo.why.other_start"
    assert draft.confidence["start"].why.values["n"] == stray
    flights = {f"turn[{t}].flight" for t in range(1, len(truth["turn"]) + 1)}
    assert flights <= set(draft.uncertain + draft.waiting)
    assert draft.confidence["turn[1].flight"].after == 0
    fields.starts[stray] = 0.0
    at_fault = draft_of(layout, fields, cells, dice)
    assert "start" not in at_fault.uncertain  # the fault alone
    fields.starts[stray] = 0.95
    again = flight.build(fields, spec, layout.id, qr_text(layout, 1), cells, dice, {"start": truth["start"]})
    assert "start" not in again.uncertain
    assert set(again.uncertain) & flights == set(at_fault.uncertain) & flights
    # no cross shows there, but the pencil ends at it: a walk's other end
    fields.starts[stray] = 0.0
    v = spec.board.starts[stray]
    w = next(w for e in fields.edges for w in e if v in e and w != v and w not in walk)
    fields.edges[(min(v, w), max(v, w))] = 0.9
    ended = draft_of(layout, fields, cells, dice)
    assert "start" in ended.uncertain and ended.confidence["start"].why.values["n"] == stray


@pytest.mark.parametrize("lid, seed", [("yuncos-easy", 3004), ("yuncos-hard", 2005)])
def test_a_faint_step_of_a_flight_cut_surely_is_not_asked_but_a_step_read_as_blank_is(lid, seed):
    """A step read as pencil, faintly, weighs in every reading's cost: where every reading
    walks it, on a turn cut surely by its die, the flight is as sure as its cut. A step read
    as blank paper, or on a turn whose die is read unsurely, asks the flight still."""
    import copy

    layout, truth = game(lid, seed)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    framed = set(frame_turns(truth, spec))
    steps = dict(enumerate(turn_steps(truth, spec), 1))
    sure = draft_of(layout, fields, cells, dice)
    plain = [t for t in steps if t not in framed and "plusminus" not in truth["turn"][t - 1].get("use", [])
             and f"turn[{t}].flight" not in sure.uncertain + sure.waiting][:4]
    assert len(plain) >= 2
    for seen, die, asked in ((0.6, 1.0, False), (0.35, 1.0, True), (0.6, 0.9, True)):
        f, d = copy.deepcopy(fields), dict(dice)
        for t in plain:
            f.edges[steps[t][-1]] = seen  # its last step
            d[t] = ((dice[t][0][0], die), dice[t][1])
        draft = draft_of(layout, f, cells, d)
        marked = set(draft.uncertain) | set(draft.waiting)
        assert all((f"turn[{t}].flight" in marked) == asked for t in plain), (seen, die)
        right = truefields.fields_right(draft.record, truth, spec)
        assert all(ok or k in marked for k, ok in right.items())


@pytest.mark.parametrize("lid, seed, t", [("yuncos-easy", 3004, 5), ("yuncos-hard", 2005, 9), ("yuncos-hard", 2011, 6)])
def test_a_number_one_off_its_die_by_a_plusminus_is_asked(lid, seed, t):
    """A +-1 spent on a number writes it one off its die, and a digit misread alike (a 3 read
    as a 2, explained by a +-1) looks the same on the paper: only the player tells them
    apart, so the number is asked, saying so. Once confirmed, it is not asked again."""
    layout, truth = game(lid, seed)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    draft = draft_of(layout, fields, cells, dice)
    assert is_truth(draft, truth, spec)
    key = f"turn[{t}].value"
    assert key in draft.uncertain and draft.confidence[key].why.id == "photo.why.number_pm"
    plain = [u for u, e in enumerate(draft.record["turn"], 1) if "plusminus" not in e.get("use", ())]
    assert plain and all(draft.confidence[f"turn[{u}].value"].why.id != "photo.why.number_pm" for u in plain)
    again = flight.build(fields, spec, layout.id, qr_text(layout, 1), cells, dice, {key: truth["turn"][t - 1]["value"]})
    assert key not in again.uncertain and again.confidence[key].confidence == 1.0


def test_a_digit_misread_one_off_on_a_turn_whose_flight_spends_a_plusminus_too_is_asked():
    """A turn's flight and its number may each spend a +-1. A box's digit read one off,
    surely, on a turn whose flight spends one already, is explained by a second: the number
    is asked all the same (the record then holds the +-1 twice)."""
    layout, truth = game("yuncos-easy", 2035)
    spec = layout.spec
    fields, cells, dice = truefields.true_fields(truth, spec)
    t = 9
    assert truth["turn"][t - 1].get("use") == ["plusminus"]  # flown one off its die
    cell = flight.turn_cells(truth)[t - 1]
    cells[cell] = (truth["turn"][t - 1]["value"] - 1, 0.97)  # a 6 read as a 5, surely
    draft = draft_of(layout, fields, cells, dice)
    assert draft.record["turn"][t - 1]["use"] == ["plusminus", "plusminus"]
    key = f"turn[{t}].value"
    assert key in draft.uncertain and draft.confidence[key].why.id == "photo.why.number_pm"
