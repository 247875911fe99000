"""The rulebook's worked examples, played on the default board.

Seats follow the rulebook's players: Betty (red) 0, Mateo (green) 1,
Adam (yellow) 2, Kayla 3, except in the final-round example, whose turn
order fixes its own seating. Each example is set up as the rulebook
describes it and must come out as printed.
"""

from __future__ import annotations

import pytest

from oriente.server.oro import Rejected, pending
from oriente.server.oro.scoring import island_points

from .helpers import (
    ADAM,
    BETTY,
    KAYLA,
    MATEO,
    act,
    conn,
    controller,
    isl,
    names,
    owner,
    position,
    types,
)


def test_example_building_two_bridges_and_drawing_from_the_display():
    """"Betty (rot) ist am Zug und hat 4 Karten auf der Hand. Sie spielt die
    Karte ALOA und setzt eine Brücke auf die Verbindung ALOA-BAFI. Dann
    spielt sie die Karte DALI und setzt eine Brücke auf die Verbindung
    ALOA-DALI. Sie beendet den Zug indem sie die Karte RASI von den 4 offen
    liegenden nachzieht. Schließlich legt sie die oberste Karte vom
    Nachziehstapel in die offene Auslage.\""""
    s = position(active=BETTY, hands={BETTY: ["ALOA", "DALI", "GUMA", "HIVA"]},
                 display=["RASI", "MOTU", "NAKA", "PUNA"], deck=["TOKA", "LIMU"])
    act(s, BETTY, "build", island="ALOA", connection=("ALOA", "BAFI"))
    act(s, BETTY, "build", island="DALI", connection=("ALOA", "DALI"))
    assert owner(s, "ALOA", "BAFI") == owner(s, "ALOA", "DALI") == BETTY
    ev = act(s, BETTY, "draw", island="RASI")
    assert names(s, s.hands[BETTY]) == ["GUMA", "HIVA", "RASI"]
    assert names(s, s.display) == ["MOTU", "NAKA", "PUNA", "TOKA"]  # the deck's top card refills it
    assert ev[0].refill == isl(s, "TOKA")
    assert s.played[-2:] == [isl(s, "ALOA"), isl(s, "DALI")]  # face up on the discard pile
    assert s.active == MATEO


@pytest.mark.parametrize("cards", [("ALOA", "ALOA"), ("BAFI", "BAFI"), ("ALOA", "BAFI")])
def test_example_three_ways_to_replace_a_bridge(cards):
    """"Mateo (grün) möchte die Brücke zwischen ALOA und BAFI austauschen.
    Er kann eine der folgenden Kombinationen spielen: 2 Karten ALOA,
    2 Karten BAFI, 1 Karte ALOA und 1 Karte BAFI. Dann legt er eine Brücke
    der eigenen Farbe zwischen ALOA und BAFI.\""""
    s = position(active=MATEO, hands={MATEO: [*cards, "COCO"]}, bridges={("ALOA", "BAFI"): BETTY})
    ev = act(s, MATEO, "replace", islands=cards, connection=("ALOA", "BAFI"))
    assert types(ev)[0] == "Replaced" and ev[0].owner == BETTY
    assert owner(s, "ALOA", "BAFI") == MATEO
    assert names(s, s.hands[MATEO]) == ["COCO"]


def test_example_a_non_matching_pair_replaces_nothing():
    """The three combinations are the only ones: ALOA with COCO does not
    match the connection ALOA-BAFI."""
    s = position(active=MATEO, hands={MATEO: ["ALOA", "COCO"]}, bridges={("ALOA", "BAFI"): BETTY})
    with pytest.raises(Rejected) as err:
        act(s, MATEO, "replace", islands=("ALOA", "COCO"), connection=("ALOA", "BAFI"))
    assert err.value.code == "replace/wrong_island"


def test_example_absolute_majority_on_dali():
    """"Betty spielt eine Karte ELOI. Sie legt eine ihrer Brücken auf die
    Verbindung ELOI-DALI. Sie besitzt jetzt die absolute Mehrheit der
    Brückenplätze auf DALI und übernimmt dadurch die Kontrolle. Als Zeichen
    dafür legt sie einen Markierungsstein ihrer Farbe auf die Insel DALI.\""""
    s = position(active=BETTY, hands={BETTY: ["ELOI"]}, bridges={("ALOA", "DALI"): BETTY})
    ev = act(s, BETTY, "build", island="ELOI", connection=("ELOI", "DALI"))
    assert types(ev) == ["Built", "ControlGained"]
    assert ev[1].island == isl(s, "DALI") and ev[1].removed == ()
    assert controller(s, "DALI") == BETTY


def test_example_taking_aloa_removes_bettys_bridge_and_she_loses_dali():
    """"Mateo spielt eine Karte ALOA und legt eine Brücke auf die Verbindung
    ALOA-COCO. Dann spielt er eine Karte ELOI und legt eine Brücke auf die
    Verbindung ELOI-ALOA. Hierdurch übernimmt er die Kontrolle über ALOA
    (3 von 5 Verbindungen), legt einen seiner Markierungssteine auf diese
    Insel und entfernt nun die rote Brücke von Betty zwischen ALOA und DALI.
    Nun besitzt Betty nicht mehr die Mehrheit der Brückenplätze auf DALI und
    muss ihren Markierungsstein zurücknehmen.\""""
    s = position(active=MATEO, hands={MATEO: ["ALOA", "ELOI"]},
                 bridges={("ALOA", "RASI"): MATEO, ("ALOA", "DALI"): BETTY, ("ELOI", "DALI"): BETTY})
    assert controller(s, "DALI") == BETTY
    ev = act(s, MATEO, "build", island="ALOA", connection=("ALOA", "COCO"))
    assert types(ev) == ["Built"]  # 2 of 5: no majority yet
    ev = act(s, MATEO, "build", island="ELOI", connection=("ELOI", "ALOA"))
    assert types(ev) == ["Built", "ControlGained", "ControlLost"]
    assert ev[1].island == isl(s, "ALOA") and ev[1].removed == ((conn(s, "ALOA", "DALI"), BETTY),)
    assert (ev[2].seat, ev[2].island) == (BETTY, isl(s, "DALI"))
    assert controller(s, "ALOA") == MATEO and controller(s, "DALI") is None
    assert owner(s, "ALOA", "DALI") is None and owner(s, "ELOI", "DALI") == BETTY


def test_example_relative_majority_on_bafi_then_absolute():
    """"Alle vier Spieler sind an BAFI mit jeweils einer Brücke vertreten.
    In seinem Zug spielt Mateo (grün) eine Karte RASI und legt eine Brücke
    auf die Verbindung RASI-BAFI. Damit besetzt er den letzten freien
    Brückenplatz auf BAFI und besitzt hier mehr Brücken als jeder seiner
    Gegner. Er entfernt eine Brücke seiner Wahl, in diesem Fall die rote
    Brücke von Betty. Erst wenn er eine weitere Brücke auf die Verbindung
    BAFI-ORO legt, gewinnt er die Kontrolle über BAFI durch absolute
    Mehrheit. Nur dann entfernt er alle gegnerischen Brücken an dieser
    Insel.\""""
    s = position(active=MATEO, hands={MATEO: ["RASI", "ORO"]},
                 bridges={("BAFI", "ORO"): BETTY, ("BAFI", "COCO"): MATEO, ("ALOA", "BAFI"): ADAM,
                          ("BAFI", "NAKA"): KAYLA})
    ev = act(s, MATEO, "build", island="RASI", connection=("RASI", "BAFI"))
    assert types(ev) == ["Built"]
    d = pending(s)[0]
    assert d.topic.value == "remove" and d.pivot == MATEO
    assert sorted(s.remove_options) == sorted(
        [conn(s, "BAFI", "ORO"), conn(s, "ALOA", "BAFI"), conn(s, "BAFI", "NAKA")])
    ev = act(s, MATEO, "remove", connection=("BAFI", "ORO"))
    assert types(ev) == ["BridgeRemoved"] and ev[0].owner == BETTY
    assert controller(s, "BAFI") is None  # no marker for a relative majority
    assert pending(s)[0].topic.value == "turn"  # the turn goes on (O4.10)
    ev = act(s, MATEO, "build", island="ORO", connection=("BAFI", "ORO"))
    assert types(ev) == ["Built", "ControlGained"]
    assert sorted(o for _, o in ev[1].removed) == [ADAM, KAYLA]
    assert controller(s, "BAFI") == MATEO


def test_example_final_round_passing():
    """"Situation zu Beginn der Schlussrunde: Betty hat 12 Punkte, Adam 10,
    Mateo 7, Kayla 6. Die Zugreihenfolge ist: Mateo, Betty, Adam, Kayla.
    Mateo entscheidet sich, zu passen. Betty, die führt, muss ihren Zug
    machen. Adam darf jetzt nicht mehr passen, weil Betty bereits gespielt
    hat. Kayla entscheidet sich, zu passen. Mateo muss nun seinen Zug
    machen. Kayla macht schließlich als Letzte ihren Zug.\""""
    kayla, mateo, betty, adam = 0, 1, 2, 3  # turn order Mateo, Betty, Adam, Kayla
    scores = [0] * 4
    scores[betty], scores[adam], scores[mateo], scores[kayla] = 12, 10, 7, 6
    s = position(active=kayla, half=2, hands={kayla: ["ALOA"]}, display=["BAFI"], deck=[], scores=scores)
    ev = act(s, kayla, "draw", island="BAFI")  # the last card: the final round begins with Mateo
    assert "FinalRoundBegan" in types(ev) and s.active == mateo
    act(s, mateo, "pass")
    assert s.active == betty
    with pytest.raises(Rejected) as err:
        act(s, betty, "pass")  # nobody with more points owes a turn
    assert err.value.code == "pass/not_allowed"
    act(s, betty, "end")
    with pytest.raises(Rejected):
        act(s, adam, "pass")  # Betty has played
    act(s, adam, "end")
    act(s, kayla, "pass")  # Mateo, with more points, has not played
    with pytest.raises(Rejected):
        act(s, mateo, "pass")
    act(s, mateo, "end")
    ev = act(s, kayla, "end")
    assert s.final_order == [betty, adam, mateo, kayla]
    assert types(ev)[-2:] == ["Scored", "GameEnded"]


def test_example_scoring_bafi_for_adam():
    """"Adam (gelb) kontrolliert die Insel BAFI. Mateo besitzt dort 1 Brücke
    (grün). Die letzte Verbindung ist frei. In diesem Fall gewinnt Adam 2
    Punkte in der ersten Wertung und 3 Punkte in der Schlusswertung.\""""
    adam, mateo = 0, 1
    s = position(2, active=adam, bridges={("ALOA", "BAFI"): adam, ("BAFI", "COCO"): adam,
                                          ("BAFI", "ORO"): adam, ("BAFI", "NAKA"): mateo})
    assert controller(s, "BAFI") == adam
    assert island_points(s, isl(s, "BAFI"), final=False) == (adam, 2)
    assert island_points(s, isl(s, "BAFI"), final=True) == (adam, 3)


@pytest.mark.parametrize("size_island, bridges, first, final", [
    ("DALI", [("ALOA", "DALI"), ("ELOI", "DALI")], 1, 2),
    ("DALI", [("ALOA", "DALI"), ("ELOI", "DALI"), ("DALI", "FANU")], 0, 1),
    ("BAFI", [("ALOA", "BAFI"), ("BAFI", "COCO"), ("BAFI", "ORO")], 2, 3),
    ("BAFI", [("ALOA", "BAFI"), ("BAFI", "COCO"), ("BAFI", "ORO"), ("BAFI", "NAKA")], 1, 2),
    ("BAFI", [("ALOA", "BAFI"), ("BAFI", "COCO"), ("BAFI", "ORO"), ("BAFI", "NAKA"), ("BAFI", "RASI")], 0, 1),
    ("ORO", [("BAFI", "ORO"), ("COCO", "ORO"), ("GUMA", "ORO"), ("HIVA", "ORO")], 3, 4),
    ("ORO", [("BAFI", "ORO"), ("COCO", "ORO"), ("GUMA", "ORO"), ("HIVA", "ORO"), ("LIMU", "ORO")], 2, 3),
    ("ORO", [("BAFI", "ORO"), ("COCO", "ORO"), ("GUMA", "ORO"), ("HIVA", "ORO"), ("LIMU", "ORO"),
             ("NAKA", "ORO")], 1, 2),
    ("ORO", [("BAFI", "ORO"), ("COCO", "ORO"), ("GUMA", "ORO"), ("HIVA", "ORO"), ("LIMU", "ORO"),
             ("NAKA", "ORO"), ("ORO", "TOKA")], 0, 1),
])
def test_example_the_scoring_table(size_island, bridges, first, final):
    """"2 Brücken an einer kleinen Insel: 1 Punkt (2 Punkte) ... 7 Brücken an
    der Hauptinsel ORO: 0 Punkt (1 Punkte).\""""
    s = position(2, bridges={b: 0 for b in bridges})
    assert island_points(s, isl(s, size_island), final=False) == (0, first)
    assert island_points(s, isl(s, size_island), final=True) == (0, final)
