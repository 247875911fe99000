"""A test per rule of O8 (online play) and O9 (board and tiles files)."""

from __future__ import annotations

import copy
import json
import pickle
import random
from itertools import combinations

import pytest

from oriente.server.oro import (
    TABLE,
    BoardError,
    Game,
    GiveUp,
    OroConfig,
    Rejected,
    Timeout,
    apply,
    board_from_data,
    decision_view,
    default_board,
    legal,
    new_game,
    pending,
    project,
    replay,
    tiles_from_data,
    view,
)
from oriente.server.oro.board import _load
from oriente.server.oro.decisions import SILENCE, Topic

from .helpers import act, isl, names, position, timeout, types


def board_data() -> dict:
    return copy.deepcopy(_load("board.json"))


def tiles_data() -> dict:
    return copy.deepcopy(_load("tiles.json"))


# -- O8 online play ---------------------------------------------------------------------------

def test_o8_1_every_topic_has_a_rule_and_a_silence():
    """O8.1: "A decision has an id, a kind, a topic, the seats asked, the
    pivot (the seat waited on), the seats that may answer early, and a fixed
    meaning for silence.\""""
    assert set(SILENCE) == set(Topic)
    s = position(2, active=0, hands={0: ["ALOA", "BAFI", "COCO", "DALI", "ELOI"]}, deck=["ORO", "TOKA"])
    d = decision_view(s, 0)
    assert (d["kind"], d["topic"], d["pivot"], d["early"], d["timer"]) == ("prompt", "turn", 0, [], "prompt")
    ev = timeout(s)  # over the limit: one card face down at random, then the deck's top card
    assert types(ev)[:2] == ["Discarded", "Drew"] and ev[1].island == isl(s, "ORO") and s.active == 1
    s = position(2, active=0, half=3, scores=[0, 5])
    ev = timeout(s)  # a final turn: it ends; silence never passes
    assert "Passed" not in types(ev) and s.final_order == [0]


def test_o8_2_the_setup_round_seals_early_choices():
    """O8.2: "The pivot is the first seat whose choice is not final; every
    seat after it may hand in its choice early, sealed — shown to nobody but
    itself — and may change it until it becomes the pivot (...). A round
    whose seats all chose early never waits.\""""
    state, _ = new_game(OroConfig(seats=3, seed=8, first_seat=1))
    d = pending(state)[0]
    assert (d.kind.value, d.asked, d.pivot, d.early) == ("round", (1, 2, 0), 1, (2, 0))
    first, second = state.hands[0][0], state.hands[0][1]
    assert apply(state, 0, GiveUp(decision=d.id, island=first)) == []
    assert apply(state, 0, GiveUp(decision=d.id, island=second)) == []  # changed, still sealed
    assert decision_view(state, 0)["sealed"] == {"type": "GiveUp", "decision": d.id, "island": second}
    assert "sealed" not in decision_view(state, 2)
    assert view(state, 2) == view(copy.deepcopy(state), 2)
    ev = apply(state, 2, GiveUp(decision=d.id, island=state.hands[2][0]))
    assert ev == []
    ev = apply(state, 1, GiveUp(decision=d.id, island=state.hands[1][0]))  # the pivot: all become final
    assert types(ev)[:4] == ["GaveUp", "GaveUp", "GaveUp", "DisplayOpened"]
    assert dict(ev[3].given)[0] == second
    with pytest.raises(Rejected) as err:
        apply(state, 0, GiveUp(decision=d.id, island=second))
    assert err.value.code == "decision/closed"


def test_o8_3_a_choice_inside_a_turn_is_a_decision_of_its_own():
    """O8.3: "A turn is one decision for as long as the seat plays on; a
    choice inside it is a decision of its own, and the turn then continues
    as a new decision.\""""
    s = position(active=0, hands={0: ["BAFI", "ALOA", "ALOA"]},
                 bridges={("ALOA", "BAFI"): 0, ("BAFI", "COCO"): 1, ("BAFI", "ORO"): 2, ("BAFI", "NAKA"): 3})
    turn = pending(s)[0].id
    act(s, 0, "build", island="ALOA", connection=("ALOA", "COCO"))
    assert pending(s)[0].id == turn
    act(s, 0, "build", island="BAFI", connection=("BAFI", "RASI"))
    choice = pending(s)[0].id
    act(s, 0, "remove", connection=("BAFI", "ORO"))
    after = pending(s)[0].id
    assert len({turn, choice, after}) == 3 and pending(s)[0].topic is Topic.TURN


def test_o8_4_refusals_name_a_code_and_change_nothing():
    """O8.4: "A command for a closed decision is refused as `decision/closed`
    (...); every other refusal has a stable code and a sentence, and changes
    nothing.\""""
    s = position(2, active=0, hands={0: ["ALOA"]})
    old = pending(s)[0].id - 1
    before = pickle.dumps(s)
    for seat, cmd, code in [
        (0, GiveUp(decision=old, island=0), "decision/closed"),
        (0, GiveUp(decision=999, island=0), "decision/unknown"),
        (1, GiveUp(decision=pending(s)[0].id, island=0), "decision/not_yours"),
        (0, GiveUp(decision=pending(s)[0].id, island=0), "decision/wrong_answer"),
        (7, GiveUp(decision=pending(s)[0].id, island=0), "seat/unknown"),
        (0, Timeout(decision=pending(s)[0].id, pivot=0), "timeout/not_table"),
        (TABLE, Timeout(decision=pending(s)[0].id, pivot=1), "decision/closed"),
    ]:
        with pytest.raises(Rejected) as err:
            apply(s, seat, cmd)
        assert err.value.code == code and err.value.message
        assert pickle.dumps(s) == before


def test_o8_5_views_hold_exactly_what_a_seat_may_know():
    """O8.5: "its own hand, and for each card in it which other seats know
    it; for every other hand its size and the cards the viewer is certain it
    holds; (...) the discard pile as cards played face up, counted by
    island, and a count of face-down cards ("???"), plus the viewer's own
    face-down discards of this half (...). Spectators see public
    information only.\""""
    s = position(3, active=0, hands={0: ["ALOA", "BAFI"], 1: ["COCO"]}, display=["ORO"], deck=["TOKA"])
    act(s, 0, "discard", island="BAFI")
    act(s, 0, "draw", island="ORO")
    v0, v1, vs = view(s, 0), view(s, 1), view(s, "spectator")
    assert v0["hands"][0]["cards"] == sorted([isl(s, "ALOA"), isl(s, "ORO")])
    assert v0["hands"][0]["known_to"] == [[], [1, 2]]  # ALOA nobody, ORO (from the display) both
    assert v1["hands"][0]["cards"] is None and names(s, v1["hands"][0]["known"]) == ["ORO"]
    assert v0["hands"][1]["cards"] is None and v0["hands"][1]["size"] == 1
    assert v0["discard"]["hidden"] == 1 and v0["my_hidden"] == [isl(s, "BAFI")] and v1["my_hidden"] == []
    assert names(s, vs["hands"][0]["known"]) == ["ORO"] and "my_hidden" not in vs
    assert all(h["cards"] is None for h in vs["hands"]) and vs["decision"].get("legal") is None
    text = json.dumps(vs)
    assert json.loads(text) == vs  # plain data


def test_o8_6_certain_knowledge_follows_what_was_seen():
    """O8.6: "When an observer sees a card of island X leave, it is certain
    of one X fewer; when it does not see which card left, it is certain of
    one card fewer of every island it was certain of.\""""
    s = position(2, active=0, hands={0: ["ALOA"]}, display=["BAFI", "BAFI", "COCO"],
                 deck=["DALI", "ELOI", "FANU", "GUMA", "HIVA", "KULU", "LIMU"])
    for pick in ("BAFI", "BAFI", "COCO"):
        act(s, 0, "draw", island=pick)  # from the display: seen by all
        act(s, 1, "draw")
    assert names(s, view(s, 1)["hands"][0]["known"]) == ["BAFI", "BAFI", "COCO"]
    act(s, 0, "build", island="BAFI", connection=("ALOA", "BAFI"))  # seen: one BAFI fewer
    assert names(s, view(s, 1)["hands"][0]["known"]) == ["BAFI", "COCO"]
    act(s, 0, "draw")
    act(s, 1, "draw", island="DALI")
    act(s, 0, "discard", island="ALOA")  # unseen: one card fewer of every island
    assert view(s, 1)["hands"][0]["known"] == []
    assert names(s, view(s, 0)["hands"][0]["cards"]) == ["BAFI", "COCO", "LIMU"]


def test_o8_7_commands_and_views_name_islands_not_copies():
    """O8.7: "Commands, events and views name cards by island, never by
    copy.\""""
    s = position(2, active=0, hands={0: ["ALOA", "ALOA", "ALOA"]})
    discards = [c for c in legal(s, 0) if type(c).__name__ == "Discard"]
    assert discards == [type(discards[0])(decision=pending(s)[0].id, island=isl(s, "ALOA"))]
    v = view(s, 0)
    assert v["hands"][0]["cards"] == [isl(s, "ALOA")] * 3 and len(v["hands"][0]["known_to"]) == 3


def test_o8_8_every_hand_is_revealed_after_the_game():
    """O8.8: "After the game every hand is revealed.\""""
    s = position(3, active=0, half=3, hands={0: ["ALOA"], 1: ["BAFI", "COCO"], 2: []})
    for seat in (0, 1, 2):
        ev = act(s, seat, "end")
    assert ev[-1].hands == ((isl(s, "ALOA"),), (isl(s, "BAFI"), isl(s, "COCO")), ())
    assert project(ev[-1], "spectator") == project(ev[-1], "all")
    assert names(s, view(s, 2)["hands"][1]["known"]) == ["BAFI", "COCO"]


# -- O9 board and tiles files -------------------------------------------------------------

def test_o9_1_the_board_file_format():
    """O9.1: "Board file (JSON, "format": "oro.board.v1") (...) `size` is
    small, large or main; `pos` (optional) is where a client draws the
    island.\""""
    data = board_data()
    for island in data["islands"]:
        del island["pos"]
    assert board_from_data(data).pos == (None,) * 16
    for mutate, match in [(lambda d: d.pop("format"), "format"),
                          (lambda d: d["islands"][0].update(size="huge"), "size"),
                          (lambda d: d["islands"][0].update(pos=[1]), "pos"),
                          (lambda d: d.update(connections="ALOA-BAFI"), "connections")]:
        d = board_data()
        mutate(d)
        with pytest.raises(BoardError, match=match):
            board_from_data(d)


def _swap_connections(d: dict) -> None:
    """Two connections exchange an end: degrees stay, a new pair may repeat."""
    d["connections"][0] = [d["connections"][0][0], d["connections"][1][1]]


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["islands"].pop(), "16 islands"),
    (lambda d: d["islands"][1].update(name="ALOA"), "two islands are called ALOA"),
    (lambda d: d["islands"][3].update(size="large"), "4 small island"),
    (lambda d: d["connections"].append(["ALOA", "ALOA"]), "to itself"),
    (lambda d: d["connections"].append(["ALOA", "BAFI"]), "connected twice"),
    (lambda d: d["connections"].append(["ALOA", "ZZZ"]), "unknown island ZZZ"),
    (lambda d: d["connections"].pop(), "connections, not"),
])
def test_o9_2_the_validator_checks_every_stated_constraint(mutate, message):
    """O9.2: "16 islands with distinct names; 4 small, 11 large, 1 main;
    each connection links two different known islands, no pair twice; every
    island has exactly as many connections as its size gives it, 3, 5 or 7,
    hence 37 connections; every island can be reached from every other.\""""
    d = board_data()
    mutate(d)
    with pytest.raises(BoardError, match=message):
        board_from_data(d)


def test_o9_2_an_archipelago_in_two_pieces_is_refused():
    """O9.2: "every island can be reached from every other (one
    archipelago).\""""
    # Two pieces with the right degrees: the small islands linked to each
    # other (3 each), and the others on their own: the large ones in a circle
    # linked to their two neighbours on each side, ORO to seven of them, and
    # two more links for the four left with four.
    d = board_data()
    smalls = [i["name"] for i in d["islands"] if i["size"] == "small"]
    large = [i["name"] for i in d["islands"] if i["size"] == "large"]
    conns = [list(p) for p in combinations(smalls, 2)]
    pairs = [[large[k], large[(k + j) % 11]] for k in range(11) for j in (1, 2)]
    pairs += [["ORO", large[k]] for k in (0, 1, 2, 4, 5, 7, 8)]
    pairs += [[large[3], large[9]], [large[6], large[10]]]
    d["connections"] = conns + pairs
    with pytest.raises(BoardError, match="cannot be reached"):
        board_from_data(d)


def test_o9_3_the_tiles_file():
    """O9.3: "cards_per_island (must be 3) and stones, the number of stones
    of each god, 16 in all.\""""
    assert len(tiles_from_data(tiles_data()).stone_list()) == 16
    for mutate, match in [(lambda t: t.update(cards_per_island=2), "3 cards per island"),
                          (lambda t: t["stones"].update(kane=5), "16 god stones"),
                          (lambda t: t["stones"].update(maui=0), "unknown god"),
                          (lambda t: t.pop("format"), "format")]:
        t = tiles_data()
        mutate(t)
        with pytest.raises(BoardError, match=match):
            tiles_from_data(t)


def test_o9_4_a_table_plays_on_another_board_file():
    """O9.4: "The engine's configuration takes the parsed files; without them
    it uses the defaults shipped in server/oro/data/.\""""
    d = board_data()
    d["name"] = "mirror"
    # Rename every island of one size class among themselves (a different
    # map: ALOA's connections now belong to another large island).
    large = [i for i in d["islands"] if i["size"] == "large"]
    rename = {a["name"]: b["name"] for a, b in zip(large, large[1:] + large[:1], strict=True)}
    d["connections"] = [[rename.get(a, a), rename.get(b, b)] for a, b in d["connections"]]
    tiles = tiles_data()
    tiles["stones"] = {"kane": 16, "kanaloa": 0, "ku": 0, "pele": 0, "lono": 0}
    game = Game(OroConfig(seats=3, seed=4, gods=True, board=d, tiles=tiles))
    assert game.state.board.name == "mirror" and set(game.state.stones) == {"kane"}
    assert game.state.board.ends != default_board().ends
    rng = random.Random(1)
    while not game.over:
        p = game.pending()[0]
        game.apply(p.pivot, rng.choice(game.legal(p.pivot)))
    again = replay(json.loads(json.dumps(game.record())))
    assert again.events == game.events and again.state.board.name == "mirror"
