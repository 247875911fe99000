"""The terminal client's screens for Oro and Samurai, as pure functions:
from views and prompts of real games (played by the rules through the
game port) to lines, labels, found moves and built commands."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from oriente.clients.terminal.commands import Intent, parse_game_input, parse_lobby_input, parse_table_input
from oriente.clients.terminal.games import render_overlay, screen_for
from oriente.clients.terminal.games.samurai import HexMap, hex_map
from oriente.clients.terminal.render import render_lobby, render_table
from oriente.server.games import PORTS

NAMES = {0: "Ann", 1: "Bea", 2: "Cy"}


def _positions(game: str, seats: int, seed: int, steps: int, options: dict[str, Any] | None = None
               ) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(seat, view, prompt) of the seat to act, at every step of a random game."""
    port = PORTS[game]
    state, _ = port.start(port.configure(seats, seed, options or {}, {}).config)
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if port.waiting(state) is None:
            break
        prompts = port.prompts(state, list(range(seats)))
        seat = next(s for s in range(seats) if prompts.get(s) and prompts[s].get("pivot") == s)
        prompt = prompts[seat]
        out.append((seat, port.view(state, seat), prompt))
        legal = [c for c in prompt.get("legal") or [] if c["type"] != "Timeout"]
        if legal:
            port.apply(state, seat, rng.choice(legal))
        else:
            choose = prompt["choose"]
            port.apply(state, seat, {"type": choose["command"], "decision": prompt["id"],
                                     "tiles": rng.sample(choose["tiles"], choose["count"])})
    return out


@pytest.mark.parametrize(("game", "options"), [("oro", {"gods": True}), ("oro", {}), ("samurai", {})])
def test_every_legal_command_has_words_and_every_screen_fits_80x24(game: str, options: dict[str, Any]) -> None:
    screen = screen_for(game)
    assert screen is not None
    for seat, view, prompt in _positions(game, 3, 11, 120, options):
        for choice in screen.choices(prompt, view, seat, NAMES):
            assert "{" not in choice.label and choice.label != choice.command["type"], choice
        lines = render_table(table="T", view=view, prompt=prompt, you=seat, names=NAMES, feed=["a", "b"],
                             seconds_left=30, width=80, height=23, screen=screen)
        assert len(lines) <= 23 and all(len(line) <= 80 for line in lines)
        assert any(">>> YOUR DECISION" in line for line in lines), lines


def test_words_find_the_one_move_or_list_several() -> None:
    screen = screen_for("oro")
    assert screen is not None
    seat, view, prompt = next(p for p in _positions("oro", 2, 3, 40) if p[2].get("topic") == "turn"
                              and any(c["type"] == "Build" for c in p[2]["legal"]))
    builds = [c for c in screen.choices(prompt, view, seat, NAMES) if c.command["type"] == "Build"]
    one = builds[0]
    found = screen.match(one.label, prompt, view, seat, NAMES)
    assert [c.number for c in found] == [one.number]
    assert len(screen.match("build", prompt, view, seat, NAMES)) == len(builds)
    assert screen.match("nosuchisland", prompt, view, seat, NAMES) == []
    assert all(c.label.startswith("draw") for c in screen.match("dr", prompt, view, seat, NAMES))


@pytest.mark.parametrize(("game", "options"), [("oro", {"gods": True}), ("oro", {}), ("samurai", {})])
def test_the_example_words_under_a_summary_find_its_first_move_alone(game: str, options: dict[str, Any]) -> None:
    """The summary's "e.g." is what a person types: it must play that move,
    not list it with another that has the same words ("build guma limu
    guma" is the bridge paid with GUMA, not the one paid with LIMU)."""
    screen = screen_for(game)
    assert screen is not None
    checked = 0
    for seed in (3, 11):
        for seat, view, prompt in _positions(game, 3, seed, 60, options):
            choices = screen.choices(prompt, view, seat, NAMES)
            if not choices:
                continue
            example = screen._example(choices)
            found = screen.find(example, prompt, view, seat, NAMES)
            assert [c.label for c in found] == [choices[0].label], (example, [c.label for c in found])
            checked += 1
    assert checked > 40


def test_a_word_typed_twice_needs_two_words_of_the_move() -> None:
    screen = screen_for("oro")
    assert screen is not None
    for seat, view, prompt in _positions("oro", 2, 3, 80):
        choices = screen.choices(prompt, view, seat, NAMES)
        paid: dict[tuple[str, str], list[tuple[str, Any]]] = {}
        for c in choices:
            m = re.fullmatch(r"build (\w+)-(\w+) with (\w+)", c.label)
            if m:
                paid.setdefault((m.group(1), m.group(2)), []).append((m.group(3), c))
        both = next((ways for ways in paid.values() if len({card for card, _ in ways}) == 2), None)
        if both is None:
            continue
        card, choice = both[0]
        a, b = choice.label.split()[1].split("-")
        found = screen.find(f"build {a} {b} {card}", prompt, view, seat, NAMES)
        assert [c.label for c in found] == [choice.label]
        assert len(screen.find(f"build {a} {b}", prompt, view, seat, NAMES)) == 2
        return
    pytest.fail("no bridge payable with either of its islands' cards in these games")


def test_samurai_tiles_are_chosen_as_five_numbers_checked_before_sending() -> None:
    screen = screen_for("samurai")
    assert screen is not None
    seat, view, prompt = _positions("samurai", 2, 5, 1)[0]
    assert prompt["topic"] == "select" and screen.wants_answer(prompt, seat)
    assert "Choose exactly 5" in screen.choose_command(prompt, [1, 2, 3])  # type: ignore[operator]
    assert "Each number once" in screen.choose_command(prompt, [1, 1, 2, 3, 4])  # type: ignore[operator]
    assert "21 is not on the list" in screen.choose_command(prompt, [1, 2, 3, 4, 21])  # type: ignore[operator]
    cmd = screen.choose_command(prompt, [15, 1, 4, 7, 10])
    assert cmd == {"type": "ChooseTiles", "decision": prompt["id"], "tiles": [0, 3, 6, 9, 14]}
    lines = screen.decision(prompt, view, seat, NAMES, width=80)
    assert any(" 1 H2" in line for line in lines) and any("20 T" in line for line in lines), lines


def test_hexes_have_one_square_each_and_the_map_draws_them_all() -> None:
    m = hex_map(None)
    squares = [m.square(h) for h in m.hexes]
    assert len(set(squares)) == len(squares)
    drawn = m.draw({})
    assert len(drawn) == m.rows + 1 and all(len(line) <= 80 for line in drawn)
    named = next(h for h, info in m.hexes.items() if info.get("name"))
    assert m.name(named).startswith(m.hexes[named]["name"]) and m.square(named) in m.name(named)
    # A map file of its own is drawn the same way: two hexes side by side, one row down.
    small = HexMap([{"id": 0, "q": 0, "r": 0, "terrain": "land"}, {"id": 1, "q": 1, "r": 0, "terrain": "sea"},
                    {"id": 2, "q": 0, "r": 1, "terrain": "city", "name": "Edo"}])
    assert [small.square(h) for h in (0, 1, 2)] == ["A1", "A2", "B1"]
    assert small.draw({0: "0H2"})[1:] == [" A 0H2 ~", " B   O"]


def test_a_seat_sees_no_other_seats_hidden_tiles_or_captures_on_screen() -> None:
    """At 3 seats captures are behind the screens (S7.4): only '?' for others."""
    screen = screen_for("samurai")
    assert screen is not None
    for seat, view, _ in _positions("samurai", 3, 9, 60):
        top = "\n".join(screen.top(view, seat, NAMES, 200))
        others = [p for p in view["players"] if p["seat"] != seat]
        assert all(p["captured"] is None and p["hand"] == [None] * len(p["hand"]) for p in others)
        assert top.count("?") >= len(others)


def test_game_input_and_the_lobby() -> None:
    tells = ("map",)
    assert parse_game_input("1 4 7 9 12", tells, True) == Intent("pick", [1, 4, 7, 9, 12])
    assert parse_game_input("1 4 7 9 12", tells, False) == Intent("match", "1 4 7 9 12")  # words, then
    assert parse_game_input("7", tells, False) is None and parse_table_input("7") == Intent("choose", 7)
    assert parse_game_input("/map", tells, False) == Intent("tell", "map")
    assert parse_game_input("/moves helmet", tells, False) == Intent("moves", "helmet")
    assert parse_game_input("helmet k12", tells, False) == Intent("match", "helmet k12")
    assert parse_game_input("/say hi", tells, False) is None
    served = ("oriente", "oro", "samurai")  # as the server's welcome names them
    assert parse_lobby_input("create oro 3", served) == Intent("create", (3, "normal", "", "oro"))
    assert parse_lobby_input("create samurai 2 quick Edo", served) == Intent("create", (2, "quick", "Edo", "samurai"))
    assert parse_lobby_input("create oro 3").verb == "error"  # a game the server does not play
    lobby = render_lobby([{"table": "AAA", "game": "oro", "status": "open", "seats": [None, None],
                           "settings": {"name": "islands"}}], url="ws://x", name="ana", width=80,
                         games="oriente 4-12 seats, oro 2-4")
    assert any("[oro] islands" in line for line in lobby)
    assert any("(games: oriente 4-12 seats, oro 2-4)" in line for line in lobby)


def test_a_board_over_the_screen_says_how_to_go_back() -> None:
    lines = render_overlay(["x" * 79, "short"], 80, 23)
    assert lines[1].endswith("Enter: back to the table") and lines[0] == "x" * 79
    assert render_overlay(["x" * 79], 80, 23)[0] == "Enter: back to the table"
    assert len(render_overlay(["a"] * 40, 80, 23)) == 23


def test_a_history_before_the_first_view_is_told_on_the_tables_own_map() -> None:
    """A spectator's history may arrive before its snapshot: Samurai's
    squares are counted on the map at this seat count (a part of the whole),
    so the story waits for the view rather than name Edo on the whole map."""
    port = PORTS["samurai"]
    state, events = port.start(port.configure(3, 4, {}, {}).config)
    while not any(e["type"] == "CapitalFilled" for e in events):  # the secret choice, then Edo's figures
        prompts = port.prompts(state, [0, 1, 2])
        seat = next(s for s in range(3) if prompts.get(s) and prompts[s].get("pivot") == s)
        events += port.apply(state, seat, {"type": "ChooseTiles", "decision": prompts[seat]["id"],
                                           "tiles": [0, 1, 2, 3, 4]})
    view = port.view(state, "spectator")
    screen = screen_for("samurai")
    assert screen is not None
    story = screen.story("spectator", NAMES)
    plain = [port.project(e, "spectator") for e in events]
    assert story.tell(plain, None) == []
    lines = story.tell([], view)
    edo = next(h["id"] for h in view["board"]["hexes"] if h.get("name") == "Edo")
    square = hex_map(view).square(edo)
    assert square != hex_map(None).square(edo)  # the whole map counts rows and columns otherwise
    assert any(f"Edo ({square})" in line for line in lines), lines


def test_the_same_move_with_twin_tiles_is_one_move() -> None:
    """Samurai's set has two samurai 1: placing either on a hex is the same
    move in the same words, so the words play it rather than list two."""
    screen = screen_for("samurai")
    assert screen is not None
    tiles = screen._tiles(None)  # type: ignore[attr-defined]
    twins = [i for i, t in enumerate(tiles) if t["kind"] == "samurai" and t.get("strength") == 1]
    land = next(h for h, info in hex_map(None).hexes.items() if info.get("terrain") == "land")
    square = hex_map(None).square(land)
    prompt = {"id": 5, "pivot": 0, "topic": "turn",
              "legal": [{"type": "PlaceTile", "decision": 5, "tile": t, "hex": land} for t in twins]
              + [{"type": "EndTurn", "decision": 5}]}
    assert len(twins) == 2 and len(screen.match(f"samurai 1 {square}", prompt, None, 0, NAMES)) == 2
    found = screen.find(f"samurai 1 {square}", prompt, None, 0, NAMES)
    assert [c.command["tile"] for c in found] == twins[:1]
    assert len(screen.find("samurai", prompt, None, 0, NAMES)) == 1
    assert len(screen.find("e", prompt, None, 0, NAMES)) == 1  # end the turn


def test_another_seats_turn_is_not_called_yours() -> None:
    """The waiting line named the bot's turn "your turn: build…" (a title
    written for the asked seat), which a person reads as their own."""
    screen = screen_for("oro")
    assert screen is not None
    seat, view, prompt = next(p for p in _positions("oro", 2, 3, 40) if p[2].get("topic") == "turn")
    other = 1 - seat
    lines = screen.decision({**prompt, "pivot": other}, view, seat, NAMES, width=80)
    assert not screen.wants_answer({**prompt, "pivot": other}, seat)
    assert lines[0].startswith(f"Waiting for seat {other}") and "to play its turn: build" in lines[0], lines
    assert "your turn" not in " ".join(lines)


def test_of_moves_with_the_same_words_the_one_named_whole_then_in_order_is_meant() -> None:
    from oriente.clients.terminal.games import GameScreen

    class Labelled(GameScreen):
        def label(self, cmd: dict[str, Any], prompt: dict[str, Any], view: Any, you: Any, names: Any) -> str:
            return str(cmd["says"])

    says = ["swap: the rice field in B18 with the helmet in E13", "swap: the helmet in E13 with the rice field in B18",
            "draw from the deck", "Lono: draw from the deck, and play on", "draw ORO from the display"]
    prompt = {"id": 1, "pivot": 0, "legal": [{"type": "X", "says": s} for s in says]}
    screen = Labelled()

    def found(words: str) -> list[str]:
        return [c.label for c in screen.find(words, prompt, None, 0, NAMES)]

    assert found("swap helmet e13 rice field b18") == [says[1]]
    assert found("swap rice b18 helm e13") == [says[0]]
    assert found("draw deck") == [says[2]]
    assert found("lono draw") == [says[3]]
    assert found("draw") == says[2:]  # names none of them whole: all listed
    assert found("swap rice helmet") == [says[0]]  # named whole by neither: the order decides
    assert found("swap") == says[:2]
