"""Rules revision 2 (O10): the face-down discard and the god stones as the
rulebook words them (O3.4, O3.5, O7.4, O7.9), the final turn told as what
it was (O5.6), and revision 1 kept for the tables and records played by it
(O10.2). Each test plays the same position under both revisions where the
two differ, so a test fails if either reading is lost."""

from __future__ import annotations

import pytest

from oriente import games
from oriente.games.kit.port import SettingsError
from oriente.games.oro.narrate import OroNarrator
from oriente.games.oro.rules import ConfigError, OroConfig, Rejected, legal
from oriente.games.oro.rules.config import RULES_REVISION
from oriente.games.oro.rules.game import config_from_plain, config_to_plain
from oriente.games.oro.rules.state import Phase
from oriente.games.oro.rules.views import EVERYONE, project

from .helpers import act, isl, position, timeout

# Seat 0 holds every place of DALI, KULU and PUNA (small islands): a card of
# any of them can neither build (no free place) nor replace (no opponent's
# bridge), so it cannot be played (O3.2, O3.3).
OWN = {("DALI", "ALOA"): 0, ("DALI", "ELOI"): 0, ("DALI", "FANU"): 0,
       ("KULU", "FANU"): 0, ("KULU", "HIVA"): 0, ("KULU", "MOTU"): 0,
       ("PUNA", "GUMA"): 0, ("PUNA", "LIMU"): 0, ("PUNA", "MOTU"): 0}


def kinds(state, seat: int = 0) -> set[str]:
    return {type(c).__name__ for c in legal(state, seat)}


def refused(state, what: str, **fields) -> str:
    with pytest.raises(Rejected) as err:
        act(state, 0, what, **fields)
    return err.value.code


def test_o3_5_five_cards_at_the_start_play_one_when_one_can_be_played() -> None:
    """O3.5: "a seat that begins its turn with 5 must play at least one card
    first — or, when none of its cards can be played, discard one face down
    (O3.4)." Revision 1 let it discard instead."""
    hand = ["DALI", "DALI", "KULU", "KULU", "ALOA"]  # ALOA can build on ALOA-BAFI
    s = position(2, active=0, hands={0: hand}, bridges=OWN)
    assert refused(s, "discard", island="DALI") == "discard/not_allowed"
    assert "Discard" not in kinds(s) and "Draw" not in kinds(s)
    act(s, 0, "build", island="ALOA", connection=("ALOA", "BAFI"))
    act(s, 0, "draw")
    old = position(2, active=0, hands={0: hand}, bridges=OWN, revision=1)
    act(old, 0, "discard", island="DALI")  # revision 1: a discard instead of a play
    act(old, 0, "draw")
    assert len(old.hands[0]) == 5


def test_o3_4_over_the_limit_a_discard_only_when_no_card_can_be_played() -> None:
    """O3.4: "only when no card of its hand can be played ... may it discard
    face down, one card at a time, until it is within the limit"; the once
    a turn discard of a seat within the limit then is used up."""
    s = position(2, active=0, hands={0: ["DALI", "DALI", "KULU", "KULU", "PUNA"]}, bridges=OWN)
    assert "Discard" in kinds(s) and not kinds(s) & {"Build", "Replace", "Draw"}
    act(s, 0, "discard", island="PUNA")
    assert refused(s, "discard", island="DALI") == "discard/not_allowed"  # within the limit: once a turn
    act(s, 0, "draw")
    assert len(s.hands[0]) == 5


def test_o3_4_within_the_limit_a_seat_may_still_discard_rather_than_play() -> None:
    """O3.4: "A seat that has played no card this turn, and whose hand is
    within the limit of O3.5, may discard one card face down instead" —
    "kann (oder will)": also when it could play."""
    s = position(2, active=0, hands={0: ["ALOA", "BAFI", "COCO"]})
    act(s, 0, "discard", island="COCO")
    assert refused(s, "build", island="ALOA", connection=("ALOA", "BAFI")) == "turn/discarded"
    assert not kinds(s) & {"Build", "Replace"}


def test_o7_4_a_stone_after_a_face_down_discard() -> None:
    """O7.4: a stone is used "at any time of its holder's own turn (...,
    also after a face-down discard, O3.4)". Revision 1 refused it."""
    for revision, allowed in ((2, True), (1, False)):
        s = position(2, active=0, half=2, gods=True, held={0: {"lono": 1, "kanaloa": 1}},
                     hands={0: ["ALOA", "BAFI", "COCO"]}, deck=["ORO", "TOKA", "GUMA"], revision=revision)
        act(s, 0, "discard", island="COCO")
        assert ("UseLono" in kinds(s)) is allowed and ("Build" in kinds(s)) is allowed  # Kanaloa alone is a stone
        if allowed:
            act(s, 0, "lono")
            act(s, 0, "build", kanaloa=True, connection=("GUMA", "ORO"))
            assert refused(s, "build", island="ALOA", connection=("ALOA", "BAFI")) == "turn/discarded"
            assert all(c.kanaloa for c in legal(s, 0) if type(c).__name__ == "Build")
        else:
            assert refused(s, "lono") == "turn/discarded"
        act(s, 0, "draw")


def test_o7_9_over_the_limit_play_before_discarding() -> None:
    """O7.9: "A seat over it must play cards until it is within it (the
    rulebook's words); only when none of its cards can be played may it
    discard face down." Revision 1 let it discard any card."""
    for revision in (2, 1):
        s = position(2, active=0, half=2, gods=True, held={0: {"lono": 1}}, bridges=OWN,
                     hands={0: ["ALOA", "DALI", "DALI", "KULU"]}, deck=["PUNA", "TOKA"], revision=revision)
        act(s, 0, "lono")
        assert len(s.hands[0]) == 5 and s.hands[0].count(isl(s, "PUNA")) == 1
        if revision == 2:
            assert refused(s, "discard", island="DALI") == "discard/not_allowed"
            act(s, 0, "build", island="ALOA", connection=("ALOA", "BAFI"))
        else:
            act(s, 0, "discard", island="ALOA")  # a card it could have played
        act(s, 0, "draw")
        assert len(s.hands[0]) == 5


def test_o7_9_over_the_limit_a_seat_plays_even_after_a_discard() -> None:
    """O3.4: "While over the limit it may play even after a face-down
    discard" — else a seat that discarded, then took cards by god stones,
    could not end its turn but by discarding what it could play."""
    s = position(2, active=0, half=2, gods=True, held={0: {"lono": 2}}, bridges=OWN,
                 hands={0: ["ALOA", "ELOI", "DALI", "KULU"]}, deck=["PUNA", "PUNA", "TOKA"])
    act(s, 0, "discard", island="KULU")
    act(s, 0, "lono")
    act(s, 0, "lono")
    assert len(s.hands[0]) == 5 and "Discard" not in kinds(s)
    act(s, 0, "build", island="ALOA", connection=("ALOA", "BAFI"))  # over the limit: allowed again
    assert refused(s, "build", island="ELOI", connection=("ELOI", "COCO")) == "turn/discarded"  # within it
    act(s, 0, "draw")


def test_o7_9_silence_over_the_limit_still_discards_at_random() -> None:
    """O8.1: silence on a turn discards at random while over the limit — the
    table's choice, not the seat's — and ends the turn, at revision 2 too."""
    s = position(2, active=0, hands={0: ["DALI", "DALI", "KULU", "KULU", "ALOA"]}, bridges=OWN)
    ev = timeout(s)
    assert [type(e).__name__ for e in ev][:2] == ["Discarded", "Drew"] and s.active == 1


def test_o5_6_a_final_turn_ends_saying_so_at_revision_2_only() -> None:
    """O5.6, O10.1: revision 2's TurnEnded of a final turn says it was one
    and how many cards it played; revision 1's stays as it was recorded."""
    for revision in (2, 1):
        s = position(2, active=0, half=3, hands={0: ["ALOA"], 1: ["BAFI"]}, scores=[3, 3], revision=revision)
        ev = act(s, 0, "end")
        ended = project(next(e for e in ev if type(e).__name__ == "TurnEnded"), EVERYONE)
        ev = act(s, 1, "build", island="BAFI", connection=("BAFI", "ORO")) + act(s, 1, "end")
        played = project(next(e for e in ev if type(e).__name__ == "TurnEnded"), EVERYONE)
        if revision == 2:
            assert ended == {"type": "TurnEnded", "seat": 0, "final": True, "played": 0}
            assert played == {"type": "TurnEnded", "seat": 1, "final": True, "played": 1}
        else:
            assert ended == {"type": "TurnEnded", "seat": 0} and played == {"type": "TurnEnded", "seat": 1}
        assert s.phase is Phase.OVER


@pytest.mark.parametrize("lang,asked,passed,idle,done", [
    ("en", "Seat 2 is asked for their final turn.", "Seat 2 passes: they keep their final turn for later.",
     "Seat 2 ends their final turn without playing.", "Seat 2 ends their final turn."),
    ("de", "Sitz 2 ist für seinen letzten Zug an der Reihe.", "Sitz 2 passt: sein letzter Zug kommt später.",
     "Sitz 2 beendet seinen letzten Zug, ohne zu spielen.", "Sitz 2 beendet seinen letzten Zug."),
    ("fr", "Siège 2 est appelé pour son dernier tour.", "Siège 2 passe : son dernier tour viendra plus tard.",
     "Siège 2 termine son dernier tour sans jouer.", "Siège 2 termine son dernier tour."),
])
def test_o5_6_the_story_tells_a_final_turn_once_as_what_happened(lang: str, asked: str, passed: str, idle: str,
                                                                 done: str) -> None:
    """The story no longer says a seat "plays its final turn" before it
    passes: it is asked, it passes (keeping its turn), and its final turn is
    told when it is over — with or without a card played."""
    n = OroNarrator(lang)
    assert n.narrate({"type": "TurnBegan", "seat": 2, "half": 3}) == asked
    assert n.narrate({"type": "Passed", "seat": 2}) == passed
    assert n.narrate({"type": "TurnEnded", "seat": 2, "final": True, "played": 0}) == idle
    assert n.narrate({"type": "TurnEnded", "seat": 2, "final": True, "played": 3}) == done
    assert n.narrate({"type": "TurnEnded", "seat": 2}) == ""  # any other turn, and revision 1's
    for line in (asked, passed, idle, done):
        assert "plays their final turn" not in line and "plays its final turn" not in line


def test_o10_1_the_config_defaults_to_the_current_revision_and_records_keep_theirs() -> None:
    """O10.1, O10.2: a config that says nothing plays revision 2; a record's
    config without a revision replays as revision 1, written as before."""
    assert OroConfig(seats=3).rules_revision == RULES_REVISION == 2
    old = OroConfig(seats=3, rules_revision=1)
    assert "rules_revision" not in config_to_plain(old)
    assert config_from_plain(config_to_plain(old)).rules_revision == 1
    assert config_from_plain(config_to_plain(OroConfig(seats=3))).rules_revision == 2
    with pytest.raises(ConfigError):
        OroConfig(seats=3, rules_revision=3)


def test_o10_2_the_port_pins_new_tables_and_says_the_revision() -> None:
    """O10.1, O10.2: a new table plays revision 2 (the server adds the port's
    `new_table_options`), a stored one without the option revision 1; the
    public settings and the rules version say which."""
    port = games.load("oro")
    new = port.configure(3, 5, {**port.new_table_options, "gods": True}, {})
    old = port.configure(3, 5, {"gods": True}, {})
    assert (new.public["rules_revision"], old.public["rules_revision"]) == (2, 1)
    assert (port.rules_version(new), port.rules_version(old)) == ("oro/2", "oro")
    assert {"oro", "oro/2"} <= port.replays
    assert "rules_revision" not in old.options and "rules_revision" not in old.record
    assert port.configure(3, 5, new.options, {}) == new
    for bad in (0, 3, True, "2"):
        with pytest.raises(SettingsError):
            port.configure(3, 5, {"rules_revision": bad}, {})
