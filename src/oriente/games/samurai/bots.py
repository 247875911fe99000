"""Reference policies for Samurai: pure functions of one seat's view and
prompt, as for Oriente (see this package's docstring for the contract).

    choose(view, prompt, rng) -> dict | None

`view` is `samurai.view(state, seat)`, `prompt` the seat's open decision
(`samurai.decision_view(state, seat)`), `rng` a `random.Random` the caller
owns. The answer is a plain command: one of `prompt["legal"]`, or for the
tile choice a `ChooseTiles` built from `prompt["choose"]` (a combination,
not listed). None means "nothing to do now".

- **random**: a uniform pick among the legal commands (EndTurn and Pass
  included); 5 random tiles at the tile choice.
- **heuristic**: greedy and local, as a careful beginner plays. It starts
  with its strongest tiles (all-round tiles first). On a turn it values each
  placement by what it does to the settlements beside it: a ring it closes
  is worth the figures it would win there, less those it would hand to
  another seat; an open ring is worth the lead it gains, weighed by how few
  land hexes remain; kinds it can still win the majority of weigh more. It
  places its best tile, then fast tiles while they gain something, and uses
  a figure swap to move a figure it would lose out of a closing ring, or a
  figure it would win into one; the tile swap recycles a tile whose
  settlements are gone. Figures in setup go where its chosen tiles are
  strongest (the kinds its hand influences most).

Neither policy reads anything but the view and the prompt, so the table
server can play an away seat with it and a bot can use it over the
protocol.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..oriente.bots import Policy

FIGURES = ("helmet", "buddha", "rice")
ALL_ROUND = frozenset({"samurai", "ronin", "ship"})
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
HAND = 5


# -- the random policy -------------------------------------------------------------

def _choose_tiles(view: dict, prompt: dict, tiles: list[int]) -> dict:
    return {"type": "ChooseTiles", "decision": prompt["id"], "tiles": sorted(tiles)}


def _wants_to_choose(view: dict, prompt: dict | None) -> bool:
    """The tile choice is open to this seat and it has not answered yet."""
    if not prompt or prompt.get("topic") != "select":
        return False
    me = view.get("viewer")
    return me in prompt["asked"] and me not in prompt["final"] and "sealed" not in prompt


def random_choose(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """A uniform pick among the legal commands; 5 random tiles to start."""
    if _wants_to_choose(view, prompt):
        assert prompt is not None
        return _choose_tiles(view, prompt, rng.sample(prompt["choose"]["tiles"], prompt["choose"]["count"]))
    if not prompt or prompt.get("pivot") != view.get("viewer") or not prompt.get("legal"):
        return None
    options = prompt["legal"]
    return options[rng.randrange(len(options))]


def no_offer(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """Samurai has no deals."""
    return None


# -- the heuristic: a picture of the table from the view ------------------------------

@dataclass
class Table:
    """What the heuristic reads from a view, indexed for quick lookups."""

    me: int
    seats: int
    neighbours: dict[int, tuple[int, ...]]
    land_around: dict[int, tuple[int, ...]]
    settlements: frozenset[int]
    tiles_at: dict[int, tuple[int, int]]
    figures_at: dict[int, list[str]]
    tile_info: list[dict[str, Any]]
    captured: list[int]
    influence: dict[int, dict[str, list[int]]]

    def reach(self, tile: int) -> frozenset[str]:
        info = self.tile_info[tile]
        if info["kind"] in ALL_ROUND:
            return frozenset(FIGURES)
        return frozenset({info["kind"]}) if info["kind"] in FIGURES else frozenset()

    def strength(self, tile: int) -> int:
        return self.tile_info[tile]["strength"] or 0

    def open_land(self, settlement: int) -> int:
        return sum(1 for h in self.land_around[settlement] if h not in self.tiles_at)


_GEOMETRY: dict[tuple, tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]], frozenset[int]]] = {}


def _geometry(board: dict) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]], frozenset[int]]:
    """Neighbours from the hexes' axial coordinates, once per board."""
    hexes = board["hexes"]
    key = (board["name"], len(hexes), hexes[0]["id"], hexes[-1]["id"])
    cached = _GEOMETRY.get(key)
    if cached is not None:
        return cached
    at = {(h["q"], h["r"]): h for h in hexes}
    neighbours = {h["id"]: tuple(at[(h["q"] + dq, h["r"] + dr)]["id"] for dq, dr in DIRECTIONS
                                 if (h["q"] + dq, h["r"] + dr) in at) for h in hexes}
    terrain = {h["id"]: h["terrain"] for h in hexes}
    settlements = frozenset(h for h, t in terrain.items() if t in ("village", "city", "capital"))
    land_around = {s: tuple(n for n in neighbours[s] if terrain[n] == "land") for s in settlements}
    _GEOMETRY[key] = (neighbours, land_around, settlements)
    return _GEOMETRY[key]


def read_table(view: dict) -> Table:
    neighbours, land_around, settlements = _geometry(view["board"])
    tiles_at = {t["hex"]: (t["seat"], t["tile"]) for t in view["tiles"]}
    figures_at = {f["hex"]: list(f["figures"]) for f in view["figures"] if f["figures"]}
    me = view["viewer"]
    mine = view["players"][me]["captured"] or {}
    table = Table(me=me, seats=view["seats"], neighbours=neighbours, land_around=land_around,
                  settlements=settlements, tiles_at=tiles_at, figures_at=figures_at,
                  tile_info=view["tile_set"]["tiles"], captured=[mine.get(f, 0) for f in FIGURES], influence={})
    for s in figures_at:
        per = {f: [0] * table.seats for f in FIGURES}
        for h in neighbours[s]:
            placed = tiles_at.get(h)
            if placed:
                seat, tile = placed
                for f in table.reach(tile):
                    per[f][seat] += table.strength(tile)
        table.influence[s] = per
    return table


def _kind_weight(table: Table, figure: str) -> float:
    """Kinds in which this seat already holds figures weigh a little more:
    the majority of a kind is what qualifies (S6.1)."""
    return 1.0 + 0.15 * table.captured[FIGURES.index(figure)]


def _settlement_value(table: Table, s: int, per: dict[str, list[int]], open_land: int) -> float:
    """How good settlement `s` looks for this seat with influences `per`."""
    me = table.me
    value = 0.0
    for f in table.figures_at[s]:
        mine = per[f][me]
        others = max(v for seat, v in enumerate(per[f]) if seat != me)
        w = _kind_weight(table, f)
        if open_land == 0:  # the ring closes this turn (S4.1)
            if mine > others:
                value += 10 * w
            elif others > mine and others == max(per[f]) and per[f].count(others) == 1:
                value -= 8 * w  # handing a figure to another seat
            else:
                value += 1  # set aside: nobody gets it
        else:
            lead = max(-4, min(4, mine - others))
            value += w * lead * (2.0 / (open_land + 1))
    return value


def _place_value(table: Table, tile: int, hex_id: int) -> float:
    """The change in the values of the settlements beside `hex_id` when
    this seat puts `tile` there."""
    strength, reach = table.strength(tile), table.reach(tile)
    delta = 0.0
    for s in table.neighbours[hex_id]:
        if s not in table.figures_at:
            continue
        before = table.influence[s]
        after = {f: list(v) for f, v in before.items()}
        for f in reach:
            after[f][table.me] += strength
        open_now = table.open_land(s)
        open_after = open_now - (1 if hex_id in table.land_around[s] else 0)
        delta += _settlement_value(table, s, after, open_after) - _settlement_value(table, s, before, open_now)
    return delta


def _best_placement(table: Table, legal: list[dict]) -> tuple[float, dict | None]:
    best: tuple[float, dict | None] = (float("-inf"), None)
    for cmd in legal:
        kind = cmd["type"]
        if kind == "PlaceTile":
            value = _place_value(table, cmd["tile"], cmd["hex"])
            if table.tile_info[cmd["tile"]]["fast"]:
                value -= 0.5  # fast tiles are worth keeping for a decisive turn
            if not any(s in table.figures_at for s in table.neighbours[cmd["hex"]]):
                value -= 1.0  # a tile that touches nothing
        elif kind == "SwapTile":
            moved = table.tiles_at[cmd["hex"]][1]
            if any(s in table.figures_at for s in table.neighbours[cmd["hex"]]):
                continue  # only recycle tiles whose settlements are gone
            value = _place_value(table, moved, cmd["to"]) - 0.5
        elif kind == "SwapFigures":
            value = _swap_value(table, cmd)
        else:
            continue
        if value > best[0]:
            best = (value, cmd)
    return best


def _swap_value(table: Table, cmd: dict) -> float:
    """S3.5: what exchanging the two figures does to both settlements."""
    a, b = cmd["hex_a"], cmd["hex_b"]
    if table.open_land(a) and table.open_land(b):
        return -1.0  # only worth a swap where a ring is about to close
    before = sum(_settlement_value(table, s, table.influence[s], table.open_land(s)) for s in (a, b))
    saved = table.figures_at[a], table.figures_at[b]
    fa, fb = cmd["figure_a"], cmd["figure_b"]
    table.figures_at[a] = [fb if f == fa else f for f in saved[0]]
    table.figures_at[b] = [fa if f == fb else f for f in saved[1]]
    after = sum(_settlement_value(table, s, table.influence[s], table.open_land(s)) for s in (a, b))
    table.figures_at[a], table.figures_at[b] = saved
    return after - before - 1.0


def _choose_start(view: dict, prompt: dict) -> dict:
    """The strongest tiles: all-round tiles count three times, fast ones a bit
    more; the swaps are left in the supply."""
    info = view["tile_set"]["tiles"]

    def value(t: int) -> float:
        k = info[t]
        if k["kind"] in ("figure_swap", "tile_swap"):
            return -1.0
        return (k["strength"] or 0) * (2.5 if k["kind"] in ALL_ROUND else 1.0) + (0.5 if k["fast"] else 0.0)

    ranked = sorted(prompt["choose"]["tiles"], key=lambda t: (-value(t), t))
    return _choose_tiles(view, prompt, ranked[:prompt["choose"]["count"]])


def _choose_figure(view: dict, prompt: dict, rng: random.Random) -> dict:
    """A figure of the kind its hand influences most, anywhere legal: the
    more figures of its strong kinds on the board, the more it can win."""
    hand = [t for t in view["players"][view["viewer"]]["hand"] if t is not None]
    info = view["tile_set"]["tiles"]
    strong = {f: sum(info[t]["strength"] or 0 for t in hand if info[t]["kind"] == f) for f in FIGURES}
    options = prompt["legal"]
    top = max(strong[c["figure"]] for c in options)
    return rng.choice([c for c in options if strong[c["figure"]] == top])


def heuristic_choose(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    if _wants_to_choose(view, prompt):
        assert prompt is not None
        return _choose_start(view, prompt)
    if not prompt or prompt.get("pivot") != view.get("viewer") or not prompt.get("legal"):
        return None
    legal = prompt["legal"]
    if prompt["topic"] == "figure":
        return _choose_figure(view, prompt, rng)
    ends = [c for c in legal if c["type"] in ("EndTurn", "Pass")]
    table = read_table(view)
    value, best = _best_placement(table, legal)
    if best is None:
        return ends[0] if ends else legal[0]
    if ends and ends[0]["type"] == "EndTurn" and value <= 0.5:
        return ends[0]
    return best


POLICIES: dict[str, Policy] = {
    "random": Policy("random", random_choose, no_offer),
    "heuristic": Policy("heuristic", heuristic_choose, no_offer),
}

__all__ = ["POLICIES", "heuristic_choose", "random_choose", "read_table"]
