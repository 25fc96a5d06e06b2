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
from sheetkit.photo import flight, simulate, truefields  # noqa: E402


def game(lid: str, seed: int):
    layout = layouts.load(lid)
    return layout, simulate.truth_record(play(layout, random.Random(seed), ability_rate=0.5))


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


def test_a_confirmed_flight_is_held_and_the_rest_read_again_around_it():
    layout, truth = game("yuncos-easy", 3004)
    fields, cells, dice = truefields.true_fields(truth, layout.spec)
    t = 2
    fixed = {"start": truth["start"], f"turn[{t}].flight": truth["turn"][t - 1]["flight"]}
    draft = flight.build(fields, layout.spec, layout.id, qr_text(layout, 1), cells, dice, fixed)
    assert draft.record["turn"][t - 1]["flight"] == truth["turn"][t - 1]["flight"]
    assert draft.confidence[f"turn[{t}].flight"].confidence == 1.0
    assert draft.record["start"] == truth["start"]
