"""`sheetkit read PHOTO --confirmed DRAFT`: a draft the player corrected read back, the
fields whose `# check` they deleted held, the rest of the photo read again around them.
On simulated photos (sheetkit.photo.simulate), through the command as a user runs it."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest

cv2 = pytest.importorskip("cv2")

from sheetkit.photo import simulate  # noqa: E402
from sheetkit.photo.confirm import confirmed_fields, turn_field  # noqa: E402
from sheetkit.photo.flight import turn_cells  # noqa: E402
from sheetkit.photo.read import confirmed_draft, draft_toml, held_fields, read_photo  # noqa: E402

from conftest import assert_user_error, sheetkit  # noqa: E402


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    """A simulated photo whose draft asks a flight and a number, with fields waiting on
    them, and the draft as the player corrects it: each field asked set to the truth, its
    `# check` deleted (those waiting keep theirs), the lists at the top as the reader wrote
    them."""
    folder = tmp_path_factory.mktemp("confirm")
    for seed in range(1, 40):
        s = simulate.sample(seed, "yuncos-easy", (1200, 1600))
        path = folder / f"sheet{seed}.jpg"
        path.write_bytes(s.jpeg)
        draft = read_photo(path)
        corrected = simulate.confirmed(draft, s.truth)
        asked = [k.rsplit(".", 1)[-1] for k in draft.uncertain]
        if corrected is not None and "flight" in asked and "value" in asked and draft.waiting:
            break
    else:
        raise AssertionError("no simulated photo with a flight and a number to confirm, and fields waiting on them")
    sure = {k: dataclasses.replace(r, confidence=1.0) if k in draft.uncertain else r
            for k, r in draft.confidence.items()}
    edited = draft_toml(dataclasses.replace(draft, record=corrected, confidence=sure), path.name)
    listed = draft_toml(draft, path.name).splitlines()[2]
    assert listed.startswith("# To confirm: ")
    lines = edited.splitlines()
    lines[2] = listed  # the player edits values and marks, not the list
    text = "\n".join(lines) + "\n"
    (folder / "draft.toml").write_text(text, encoding="utf-8")
    return path, folder / "draft.toml", draft, corrected


def test_the_fields_confirmed_are_the_listed_ones_no_longer_marked(photo):
    path, edited, draft, _ = photo
    assert confirmed_fields(edited.read_text(encoding="utf-8")) == draft.uncertain
    # the draft as written: nothing confirmed yet; in Spanish the same
    assert confirmed_fields(draft_toml(draft, path.name)) == []
    assert confirmed_fields(draft_toml(draft, path.name, "es")) == []
    # one mark deleted by hand: that field alone
    text = draft_toml(draft, path.name, "es").splitlines()
    first = next(i for i, ln in enumerate(text) if "  # check" in ln and not ln.startswith("#"))
    text[first] = text[first].split("  # check")[0]
    assert len(confirmed_fields("\n".join(text))) == 1


def test_reading_again_holds_what_the_player_confirmed(photo, tmp_path):
    path, edited, draft, corrected = photo
    out = tmp_path / "again.toml"
    run = sheetkit("read", str(path), "--confirmed", str(edited), "-o", str(out))
    assert run.code == 0, run.err
    assert f"read again with {len(draft.uncertain)} confirmed field(s) held" in run.err
    again = tomllib.loads(out.read_text(encoding="utf-8"))
    assert again["qr"] == corrected["qr"]
    assert len(again["turn"]) == len(corrected["turn"])
    for key in draft.uncertain:  # each confirmed field as the player gave it, and not asked again
        assert f"{key}" not in out.read_text(encoding="utf-8").splitlines()[2]
        if key.startswith("turn["):
            t, name = int(key[5:key.index("]")]), key.split(".", 1)[1]
            if name in ("value", "use"):
                continue  # a number holds its box (below); which turn wrote it is the dice log's
            assert again["turn"][t - 1].get(name) == corrected["turn"][t - 1].get(name), key
        else:
            assert again.get(key) == corrected.get(key), key
    # the fields the search can hold were held while the rest was read again
    held = held_fields(corrected, draft.uncertain)
    read_again = read_photo(path, fixed=held)
    assert out.read_text(encoding="utf-8") == draft_toml(confirmed_draft(path, corrected, draft.uncertain), str(path))
    assert all(again[k] == read_again.record[k] for k in ("start", "fish_marked", "crashes_marked")
               if k not in draft.uncertain)
    # a confirmed number is held by the search itself: its box holds the player's number, in
    # the search's reading and in the draft written
    numbers = [k for k in draft.uncertain if k.endswith(".value")]
    assert numbers
    for record in (again, read_again.record):
        written = dict(zip(turn_cells(record), (turn.get("value") for turn in record["turn"])))
        for key in numbers:
            t = int(key[5:key.index("]")])
            box = turn_cells(corrected)[t - 1]
            if box:
                assert written.get(box) == corrected["turn"][t - 1]["value"], key
    assert sheetkit("check", str(out)).code in (0, 1)  # a record sheetkit check reads


def test_a_draft_that_is_not_this_photos_is_refused_in_one_line(photo, tmp_path):
    path, edited, _, _ = photo
    assert_user_error(sheetkit("read", str(path), "--confirmed", str(tmp_path / "none.toml")), "none.toml")
    glux = tmp_path / "glux.toml"
    glux.write_text('game = "glux"\nkind = "rooms"\n', encoding="utf-8")
    assert_user_error(sheetkit("read", str(path), "--confirmed", str(glux)))
    broken = tmp_path / "broken.toml"
    broken.write_text(edited.read_text(encoding="utf-8").replace("start = ", "start = [", 1), encoding="utf-8")
    assert_user_error(sheetkit("read", str(path), "--confirmed", str(broken)), "broken.toml")
    other = tmp_path / "other.toml"
    text = edited.read_text(encoding="utf-8")
    qr = tomllib.loads(text)["qr"]
    other.write_text(text.replace(qr, qr[:-4] + ("0000" if not qr.endswith("0000") else "0001")), encoding="utf-8")
    assert_user_error(sheetkit("read", str(path), "--confirmed", str(other)), "the photo shows sheet")
    assert_user_error(sheetkit("read", str(path), "--confirmed", ""), "file name")


def test_a_score_pads_photo_is_not_read_again_with_a_draft(photo, tmp_path):
    from sheetkit.photo import padsimulate

    _, edited, _, _ = photo
    s = padsimulate.sample(3, "levelx", "flat", paper="a4")
    pad = tmp_path / "pad.jpg"
    padsimulate.write(s, pad)
    assert_user_error(sheetkit("read", str(pad), "--confirmed", str(edited)), "score pad")


def test_a_list_naming_turns_the_draft_does_not_have_holds_nothing(photo, tmp_path):
    path, edited, draft, _ = photo
    text = edited.read_text(encoding="utf-8").splitlines()
    text[2] = "# To confirm: turn[0].dice, turn[999].flight, turn[99999999999].value, start"
    odd = tmp_path / "odd.toml"
    odd.write_text("\n".join(text) + "\n", encoding="utf-8")
    out = tmp_path / "again.toml"
    run = sheetkit("read", str(path), "--confirmed", str(odd), "-o", str(out))
    assert run.code == 0, run.err
    again = tomllib.loads(out.read_text(encoding="utf-8"))
    assert len(again["turn"]) == len(draft.record["turn"])  # no turn made up for the names


def test_a_turn_the_player_deleted_stays_deleted(photo, tmp_path):
    """The draft tells the player to delete a turn the sheet does not have: read again, the
    draft keeps their number of turns and their values."""
    path, edited, draft, corrected = photo
    text = edited.read_text(encoding="utf-8")
    cut = text[:text.rindex("[[turn]]")].rstrip("\n") + "\n"
    shorter = tmp_path / "shorter.toml"
    shorter.write_text(cut, encoding="utf-8")
    out = tmp_path / "again.toml"
    run = sheetkit("read", str(path), "--confirmed", str(shorter), "-o", str(out))
    assert run.code == 0, run.err
    again = tomllib.loads(out.read_text(encoding="utf-8"))
    assert len(again["turn"]) == len(corrected["turn"]) - 1
    for key in draft.uncertain:
        if key.startswith("turn[") and key.endswith(".flight"):
            t = int(key[5:key.index("]")])
            if t < len(corrected["turn"]):
                assert again["turn"][t - 1]["flight"] == corrected["turn"][t - 1]["flight"], key


def test_a_confirmed_number_follows_its_box_to_the_turn_that_writes_it():
    """Read again, the numbers are the dice log's turns': a number the player confirmed is
    then confirmed at the turn that writes its box, a crash while its turn still crashes;
    a turn given another number is no longer confirmed."""
    from sheetkit.photo.read import follow_boxes

    def record(*numbers):
        return {"turn": [({"crash": True} if n is None else {"puzzle": n[0], "value": n[1]}) for n in numbers]}

    theirs = record(("nest1.1", 4), ("lum2.1", 3), None, ("nest1.2", 1))
    ours = record(("lum2.1", 3), ("nest1.1", 4), None, ("nest1.2", 1))
    confirmed = ["start", "turn[1].value", "turn[3].value", "turn[2].flight"]
    assert follow_boxes(theirs, ours, confirmed) == ["start", "turn[2].flight", "turn[2].value", "turn[3].value"]
    # the same turns: the same fields; a crash that became a number is no longer confirmed
    assert follow_boxes(theirs, theirs, confirmed) == ["start", "turn[2].flight", "turn[1].value", "turn[3].value"]
    assert follow_boxes(theirs, record(("nest1.1", 4), ("lum2.1", 3), ("lum3.1", 2), ("nest1.2", 1)),
                        ["turn[3].value"]) == []


def test_a_number_confirmed_by_its_row_alone_names_no_box():
    """A number the player gave by its row or column alone ("nest1": its next box, in the
    order of turns their record has) holds no box: confirmed while the turn writes that
    number in that row, and no box is given their number by it."""
    from sheetkit.photo.read import follow_boxes, merge_confirmed

    theirs = {"start": 1, "fish_marked": 0, "crashes_marked": 0, "used": [],
              "turn": [{"flight": "E", "puzzle": "nest1.1", "value": 5}, {"flight": "N", "puzzle": "nest1", "value": 2}]}
    read = {"start": 1, "fish_marked": 0, "crashes_marked": 0, "used": [],
            "turn": [{"flight": "E", "puzzle": "lum1.1", "value": 3}, {"flight": "N", "puzzle": "nest1.1", "value": 2}]}
    assert follow_boxes(theirs, read, ["turn[2].value"]) == ["turn[2].value"]
    other = {**read, "turn": [read["turn"][0], {"flight": "N", "puzzle": "nest1.1", "value": 6}]}
    assert follow_boxes(theirs, other, ["turn[2].value"]) == []
    merged = merge_confirmed(theirs, other, ["turn[2].value"])
    assert merged["turn"][1]["value"] == 6  # the box read, not the value given for "the next box"


def test_reading_again_never_undoes_what_the_player_put_right():
    """Confirming only mends: a reading again that would give the player's legal record a
    number the rules refuse (here nest row 1's first number again, a row of different numbers)
    mends nothing (None: the player's record stays), while one that breaks no more rules
    than theirs is taken."""
    import copy
    import random

    from sheetkit import layouts
    from sheetkit.checking import records
    from sheetkit.games.yuncos.play import play
    from sheetkit.photo import simulate
    from sheetkit.photo.read import merge_confirmed

    layout = layouts.load("yuncos-easy")
    for seed in range(200):
        theirs = simulate.truth_record(play(layout, random.Random(seed)))
        nest = [t for t in theirs["turn"] if str(t.get("puzzle", "")).startswith("nest1")]
        if len(nest) >= 2:
            break
    assert records.check(records.parse(copy.deepcopy(theirs), "t.toml")).verdict.legal
    confirmed = [f"turn[{t}].flight" for t in range(1, len(theirs["turn"]) + 1)]
    assert merge_confirmed(theirs, copy.deepcopy(theirs), confirmed) == theirs
    worse = copy.deepcopy(theirs)
    first, second = [t for t in worse["turn"] if str(t.get("puzzle", "")).startswith("nest1")][:2]
    second["value"] = first["value"]
    assert not records.check(records.parse(copy.deepcopy(worse), "t.toml")).verdict.legal
    assert merge_confirmed(theirs, worse, confirmed) is None


def test_a_reading_that_would_undo_the_players_record_keeps_it_and_asks_what_it_reads_otherwise(photo, monkeypatch):
    """When reading again would break more rules than the player's record (merge_confirmed
    mends nothing), `--confirmed` keeps the player's record as they left it; what they
    confirmed is sure, and of the rest only what the photo reads otherwise is asked."""
    import copy

    from sheetkit.photo import read

    path, _, draft, corrected = photo
    theirs = copy.deepcopy(corrected)
    from sheetkit import layouts

    others = sorted(set(layouts.load(theirs["layout"]).spec.board.starts) - {theirs["start"]})
    theirs["start"] = others[0]  # a start the photo does not show, left unconfirmed
    confirmed = [k for k in draft.uncertain if k != "start"]
    monkeypatch.setattr(read, "merge_confirmed", lambda rec, got, held: None)
    again = confirmed_draft(path, theirs, confirmed)
    assert again.record == theirs
    assert all(again.confidence[k].confidence == 1.0 for k in confirmed if k in again.confidence)
    assert "start" in again.uncertain
    left = [k for k in again.confidence if k not in confirmed and k != "start"]
    assert left and [k for k in left if k not in again.uncertain]  # not every field: what reads otherwise


def test_the_players_record_kept_asks_its_own_fields_that_the_photo_reads_otherwise(photo):
    """kept_draft: the player's record as they left it, with the confidences of its own
    fields: confirmed ones sure, ones the photo reads alike (however written) as sure as
    read, ones it reads otherwise or lacks asked; a field only the reading has (an ability
    use the player's turn does not have) is not listed, as no line of theirs holds it."""
    import copy

    from sheetkit import layouts
    from sheetkit.photo.read import kept_draft

    path, _, draft, corrected = photo
    again = read_photo(path)
    theirs = copy.deepcopy(again.record)
    others = sorted(set(layouts.load(theirs["layout"]).spec.board.starts) - {theirs["start"]})
    theirs["start"] = others[0]  # read otherwise by the photo
    t = next(i for i, turn in enumerate(theirs["turn"], 1) if "use" not in turn)
    theirs["turn"][t - 1]["use"] = ["plusminus"]  # a use the reading does not have
    u = next((i for i, turn in enumerate(theirs["turn"], 1) if "use" in again.record["turn"][i - 1]), None)
    if u is not None:
        del theirs["turn"][u - 1]["use"]  # one the reading has and theirs not
    theirs["used"] = list(reversed(theirs["used"]))  # the same boxes in another order
    sure_before = [k for k in again.confidence if k not in again.uncertain and k != "start"]
    kept = kept_draft(theirs, again, ["fish_marked"])
    assert kept.record == theirs
    assert kept.confidence["fish_marked"].confidence == 1.0
    assert "start" in kept.uncertain and f"turn[{t}].use" in kept.uncertain
    assert kept.confidence["start"].why.id == "photo.why.otherwise"
    if u is not None:
        assert f"turn[{u}].use" not in kept.confidence
    assert ("used" in kept.uncertain) == ("used" in again.uncertain)  # the same boxes: as sure as read
    still = [k for k in sure_before if k in kept.confidence and k not in (f"turn[{t}].use", "fish_marked")]
    assert still and all(kept.confidence[k].confidence == again.confidence[k].confidence for k in still)
    # those the reading leaves waiting on an asked one (or on the start) wait there too
    waiting = [k for k in again.waiting if k in kept.confidence and k != f"turn[{t}].use"]
    assert waiting and all(k in kept.waiting for k in waiting)
    assert [n.id for n in kept.notes] == ["photo.note.kept"]


def test_a_draft_read_again_lists_what_was_confirmed_so_a_next_round_holds_it_still(photo, tmp_path):
    """Round after round: the draft `--confirmed` writes lists the fields held (none of them
    marked), so the player confirming what it asks next keeps what they confirmed before;
    a line they mark `# check` again is read again."""
    path, edited, draft, corrected = photo
    out = tmp_path / "again.toml"
    assert sheetkit("read", str(path), "--confirmed", str(edited), "-o", str(out)).code == 0
    text = out.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("# Confirmed, held as you left them"))
    held = line.split(": ", 1)[1].split(", ")
    flights = [k for k in draft.uncertain if k.endswith(".flight")]
    assert flights and set(flights) <= set(held)
    again = confirmed_fields(text)
    assert set(held) <= set(again)  # confirmed still, with what the new draft asks once confirmed
    # a second round, the new draft handed back as it is: what was confirmed stays as given
    out2 = tmp_path / "again2.toml"
    assert sheetkit("read", str(path), "--confirmed", str(out), "-o", str(out2)).code == 0
    second = tomllib.loads(out2.read_text(encoding="utf-8"))
    for key in flights:
        t = int(key[5:key.index("]")])
        assert second["turn"][t - 1]["flight"] == corrected["turn"][t - 1]["flight"], key
    line2 = next(x for x in out2.read_text(encoding="utf-8").splitlines() if x.startswith("# Confirmed, held"))
    assert set(flights) <= set(line2.split(": ", 1)[1].split(", "))
    key = flights[0]
    t = int(key[5:key.index("]")])
    lines = text.splitlines()
    turn_starts = [i for i, x in enumerate(lines) if x.startswith("[[turn]]")]
    at = next(i for i in range(turn_starts[t - 1], len(lines)) if lines[i].startswith("flight = "))
    lines[at] += "  # check"
    assert key not in confirmed_fields("\n".join(lines))


def test_a_list_naming_turn_0_or_a_turn_the_draft_lacks_confirms_nothing_there(photo, tmp_path):
    """The lists at the top are the player's to edit too: a turn 0 (there is none: turns count
    from 1) is no field, and one past the sheet's last turn is held nowhere; the draft is
    read again all the same."""
    from sheetkit.photo.confirm import turn_field

    assert turn_field("turn[0].value") is None and turn_field("turn[01].value") is None
    assert turn_field("turn[12].flight") == (12, "flight")
    path, edited, draft, _ = photo
    lines = edited.read_text(encoding="utf-8").splitlines()
    lines.insert(3, "# Confirmed, held as you left them (put `# check` back on a line to have it read again): "
                    "turn[0].value, turn[999].flight")
    hostile = tmp_path / "hostile.toml"
    hostile.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = confirmed_fields(hostile.read_text(encoding="utf-8"))
    assert "turn[0].value" not in got and got[:len(draft.uncertain)] == draft.uncertain
    out, plain = tmp_path / "again.toml", tmp_path / "plain.toml"
    run = sheetkit("read", str(path), "--confirmed", str(hostile), "-o", str(out))
    assert run.code == 0, run.err
    assert sheetkit("read", str(path), "--confirmed", str(edited), "-o", str(plain)).code == 0
    assert out.read_text(encoding="utf-8") == plain.read_text(encoding="utf-8")  # as if they were not there


def test_a_field_waiting_whose_check_the_player_deleted_is_confirmed(photo):
    """The fields listed as waiting are the player's to confirm too: one whose `# check` they
    delete is held like one the draft asked."""
    path, edited, draft, _ = photo
    key = next(k for k in draft.waiting if k.endswith(".flight"))
    t = int(key[5:key.index("]")])
    lines = draft_toml(draft, path.name).splitlines()
    assert any(x.startswith("# Waiting on those") for x in lines)
    starts = [i for i, x in enumerate(lines) if x.startswith("[[turn]]")]
    at = next(i for i in range(starts[t - 1], len(lines)) if lines[i].startswith("flight = "))
    assert "# check" in lines[at]
    lines[at] = lines[at].split("  # check")[0]
    assert confirmed_fields("\n".join(lines)) == [key]


def test_after_a_turn_deleted_or_added_the_lists_hold_no_later_turn(photo):
    """The lists name turns as the draft numbered them: once the player deletes a turn, or
    adds one, the fields listed for the turns from there on are not known to be theirs and
    are read again; the turns before it are confirmed as listed."""
    path, edited, draft, _ = photo
    text = edited.read_text(encoding="utf-8")
    listed = confirmed_fields(text)
    lines = text.splitlines()
    starts = [i for i, x in enumerate(lines) if x.startswith("[[turn]]")]
    k = 2  # the third turn deleted: its lines up to the next [[turn]]
    gone = lines[:starts[k]] + lines[starts[k + 1]:]
    got = confirmed_fields("\n".join(gone))
    assert got == [f for f in listed if not ((tf := turn_field(f)) and tf[0] >= k + 1)]
    # a turn added (by hand, unnumbered) before the third: none listed from the next on
    added = lines[:starts[k]] + ["[[turn]]", 'flight = "N"', "dice = [1, 2]", ""] + lines[starts[k]:]
    held = confirmed_fields("\n".join(added))
    assert not [f for f in held if (tf := turn_field(f)) and tf[0] > k + 1]
    assert [f for f in held if not ((tf := turn_field(f)) and tf[0] >= k + 1)] == got
    # a draft whose turns carry no numbers at all (written by hand) is taken as it is
    plain = [x.split("  #")[0] if x.startswith("[[turn]]") else x for x in lines]
    assert confirmed_fields("\n".join(plain)) == listed
