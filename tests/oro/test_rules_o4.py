"""A test per rule of O4: control of the islands."""

from __future__ import annotations

import pytest

from oriente.server.oro import pending

from .helpers import (
    ADAM,
    BETTY,
    KAYLA,
    MATEO,
    act,
    conn,
    controller,
    isl,
    owner,
    position,
    types,
)

ORO = [("BAFI", "ORO"), ("COCO", "ORO"), ("GUMA", "ORO"), ("HIVA", "ORO"), ("LIMU", "ORO"), ("NAKA", "ORO"),
       ("ORO", "TOKA")]


def test_o4_1_more_than_half_of_the_places_takes_control():
    """O4.1: "As soon as the seat whose turn it is occupies more than half
    of an island's places (2 of 3, 3 of 5, 4 of 7) it takes control of it:
    its marker goes on the island.\""""
    s = position(active=0, hands={0: ["ORO", "ORO", "TOKA", "DALI"]},
                 bridges={ORO[0]: 0, ORO[1]: 0, ("ALOA", "DALI"): 0})
    ev = act(s, 0, "build", island="ORO", connection=ORO[2])
    assert types(ev) == ["Built"] and controller(s, "ORO") is None  # 3 of 7 is not more than half
    ev = act(s, 0, "build", island="ORO", connection=ORO[3])
    assert types(ev) == ["Built", "ControlGained"] and controller(s, "ORO") == 0  # 4 of 7
    ev = act(s, 0, "build", island="DALI", connection=("DALI", "FANU"))
    assert controller(s, "DALI") == 0  # 2 of 3
    assert s.controlled[0] == 2


def test_o4_2_taking_control_removes_every_opponents_bridge():
    """O4.2: "Taking control removes every opponent's bridge on that island's
    connections.\""""
    s = position(active=0, hands={0: ["ORO"]},
                 bridges={ORO[0]: 0, ORO[1]: 0, ORO[2]: 0, ORO[3]: 1, ORO[4]: 2, ("BAFI", "NAKA"): 1})
    ev = act(s, 0, "build", island="ORO", connection=ORO[5])
    assert sorted(ev[1].removed) == sorted([(conn(s, *ORO[3]), 1), (conn(s, *ORO[4]), 2)])
    assert owner(s, *ORO[3]) is None and owner(s, *ORO[4]) is None
    assert owner(s, "BAFI", "NAKA") == 1  # not on ORO: untouched


def test_o4_3_losing_the_majority_loses_control():
    """O4.3: "A seat whose bridges no longer occupy more than half of the
    places of an island it controls (its bridges were removed or replaced)
    loses control at once and takes its marker back.\""""
    s = position(active=MATEO, hands={MATEO: ["DALI", "DALI"]},
                 bridges={("ALOA", "DALI"): BETTY, ("ELOI", "DALI"): BETTY})
    assert controller(s, "DALI") == BETTY
    ev = act(s, MATEO, "replace", islands=("DALI", "DALI"), connection=("ALOA", "DALI"))
    assert types(ev) == ["Replaced", "ControlLost"] and (ev[1].seat, ev[1].island) == (BETTY, isl(s, "DALI"))
    assert controller(s, "DALI") is None and s.controlled[BETTY] == 0


def test_o4_4_no_removal_without_a_takeover():
    """O4.4: "Bridges are removed only when control is taken or by a
    relative majority. Later, the others may build again on a controlled
    island's free places; nothing is removed then.\""""
    s = position(active=MATEO, hands={MATEO: ["BAFI"], BETTY: ["BAFI"]},
                 bridges={("ALOA", "BAFI"): BETTY, ("BAFI", "COCO"): BETTY, ("BAFI", "ORO"): BETTY})
    ev = act(s, MATEO, "build", island="BAFI", connection=("BAFI", "NAKA"))
    assert types(ev) == ["Built"] and controller(s, "BAFI") == BETTY
    act(s, MATEO, "draw")
    for seat in (ADAM, KAYLA):
        act(s, seat, "draw")
    ev = act(s, BETTY, "build", island="BAFI", connection=("BAFI", "RASI"))
    assert types(ev) == ["Built"]  # she already controls BAFI: no second takeover
    assert owner(s, "BAFI", "NAKA") == MATEO


@pytest.mark.parametrize("others", [{ORO[0]: 1, ORO[1]: 1, ORO[2]: 2, ORO[3]: 2},   # 3-2-2
                                    {ORO[0]: 1, ORO[1]: 1, ORO[2]: 2, ORO[3]: 3}])  # 3-2-1-1
def test_o4_5_relative_majority_removes_one_bridge_of_the_seats_choice(others):
    """O4.5: "When the seat whose turn it is occupies a place (builds or
    replaces) and afterwards the island has no free place and the seat has
    more bridges there than any other seat, but not more than half, it
    removes exactly one opponent's bridge of its choice on that island.
    The removal is compulsory; no marker is placed.\""""
    s = position(active=0, hands={0: ["ORO"]}, bridges={**others, ORO[4]: 0, ORO[5]: 0})
    d0 = pending(s)[0]
    act(s, 0, "build", island="ORO", connection=ORO[6])
    d = pending(s)[0]
    assert d.topic.value == "remove" and d.id != d0.id
    assert sorted(s.remove_options) == sorted(conn(s, *c) for c in ORO[:4])
    ev = act(s, 0, "remove", connection=ORO[2])
    assert types(ev) == ["BridgeRemoved"] and ev[0].owner == 2 and controller(s, "ORO") is None
    assert pending(s)[0].topic.value == "turn"


@pytest.mark.parametrize("island, bridges, last, single", [
    ("BAFI", {("ALOA", "BAFI"): 0, ("BAFI", "COCO"): 1, ("BAFI", "ORO"): 1, ("BAFI", "NAKA"): 2},
     ("BAFI", "RASI"), ("BAFI", "NAKA")),                                                    # 2-2-1
    ("ORO", {ORO[0]: 0, ORO[1]: 0, ORO[2]: 1, ORO[3]: 1, ORO[4]: 1, ORO[5]: 2}, ORO[6], ORO[5]),  # 3-3-1
    ("ORO", {ORO[0]: 0, ORO[1]: 1, ORO[2]: 1, ORO[3]: 2, ORO[4]: 2, ORO[5]: 3}, ORO[6], ORO[5]),  # 2-2-2-1
])
def test_o4_6_shared_relative_majority_removes_the_single_bridge(island, bridges, last, single):
    """O4.6: "If the seat has the most bridges there together with one or two
    others, it removes the bridge of the seat that has exactly one bridge
    there (...), so there is no choice.\""""
    s = position(active=0, hands={0: [island]}, bridges=bridges)
    ev = act(s, 0, "build", island=island, connection=last)
    assert types(ev) == ["Built", "BridgeRemoved"] and ev[1].connection == conn(s, *single)
    assert pending(s)[0].topic.value == "turn"


def test_o4_7_small_islands_have_no_relative_majority():
    """O4.7: "Small islands have no relative majority: a full small island
    where no seat holds 2 of its 3 places (1-1-1) removes nothing.\""""
    s = position(3, active=0, hands={0: ["DALI"]}, bridges={("ALOA", "DALI"): 1, ("ELOI", "DALI"): 2})
    ev = act(s, 0, "build", island="DALI", connection=("DALI", "FANU"))
    assert types(ev) == ["Built"] and pending(s)[0].topic.value == "turn"


def test_o4_8_replacing_counts_as_occupying():
    """O4.8: "a replacement on a full island that leaves the seat with the
    most bridges there triggers O4.5/O4.6 as a build of the last free place
    does.\""""
    s = position(active=BETTY, hands={BETTY: ["BAFI", "BAFI"]},
                 bridges={("ALOA", "BAFI"): BETTY, ("BAFI", "COCO"): ADAM, ("BAFI", "ORO"): ADAM,
                          ("BAFI", "NAKA"): MATEO, ("BAFI", "RASI"): KAYLA})
    act(s, BETTY, "replace", islands=("BAFI", "BAFI"), connection=("BAFI", "COCO"))
    assert pending(s)[0].topic.value == "remove"  # 2-1-1-1: her choice
    assert sorted(s.remove_options) == sorted(conn(s, *c) for c in [("BAFI", "ORO"), ("BAFI", "NAKA"),
                                                                     ("BAFI", "RASI")])


def test_o4_9_order_of_resolution():
    """O4.9: "the connection's two islands, in the order the board file lists
    them: where the seat now holds more than half and does not control yet,
    it takes control (...); the same two islands, in the same order, each
    checked for a relative majority when its turn comes.\""""
    s = position(active=MATEO, hands={MATEO: ["ALOA"]},
                 bridges={("ALOA", "COCO"): MATEO, ("ALOA", "RASI"): MATEO, ("ALOA", "DALI"): BETTY,
                          ("BAFI", "COCO"): MATEO, ("BAFI", "ORO"): BETTY, ("BAFI", "NAKA"): ADAM,
                          ("BAFI", "RASI"): KAYLA})
    assert s.board.ends[conn(s, "ALOA", "BAFI")] == (isl(s, "ALOA"), isl(s, "BAFI"))
    ev = act(s, MATEO, "build", island="ALOA", connection=("ALOA", "BAFI"))
    # ALOA first: the takeover (and Betty's bridge to DALI removed), then BAFI's relative majority.
    assert types(ev) == ["Built", "ControlGained"] and ev[1].island == isl(s, "ALOA")
    d = pending(s)[0]
    assert d.topic.value == "remove" and s.queue == [isl(s, "BAFI")]


def test_o4_10_the_turn_goes_on_after_a_removal():
    """O4.10: "After a removal the seat continues its turn; it may fill the
    freed place and turn its relative majority into an absolute one.\""""
    s = position(active=0, hands={0: ["BAFI", "BAFI"]},
                 bridges={("ALOA", "BAFI"): 0, ("BAFI", "COCO"): 1, ("BAFI", "ORO"): 2, ("BAFI", "NAKA"): 3})
    act(s, 0, "build", island="BAFI", connection=("BAFI", "RASI"))
    act(s, 0, "remove", connection=("BAFI", "ORO"))
    ev = act(s, 0, "build", island="BAFI", connection=("BAFI", "ORO"))
    assert types(ev) == ["Built", "ControlGained"] and controller(s, "BAFI") == 0
