"""Reference policies for Oro: pure functions of one seat's view and prompt.

Same contract as Oriente's (games/oriente/bots/__init__.py):

    choose(view, prompt, rng) -> dict | None

`view` is `oro.view(state, seat)`, `prompt` the seat's open decision
(`oro.decision_view(state, seat)`, with its `legal` commands) and `rng` a
`random.Random` the caller owns. The answer is one of `prompt["legal"]`,
or None when the seat is not the one waited on. Policies read nothing but
the view and the prompt, so the table server can play an away seat with
them and a bot can use them over the protocol. Oro has no deals, so
`offer` always returns None.

- **random** picks uniformly among the legal commands.
- **heuristic** plays the board the way the rulebook's tactical advice
  does. It rebuilds the map and the bridges from the view and values a
  position for a seat as the points its controlled islands would score now
  (one per place it does not occupy, plus one, O5.2/O5.7) and a share of
  that for islands it leads without control. A play (a build or a
  replacement, with its takeovers and removals, O4) is worth the change
  of its own value less half the change of its opponents', less what the
  cards cost: a card in hand is worth keeping ("eine größere Kartenhand
  bringt mehr Möglichkeiten"), so it plays only what pays, keeps
  Kanaloa for good plays, and draws otherwise — from the display when a
  card there builds well for it, else from the deck. When it must discard
  it drops its least useful card; it removes the bridge whose loss costs
  its opponents most; in the final round it passes whenever it may (the
  last turn is the best, O5.5); Ku takes the best card from the fullest
  hand, Pele gives back its least useful cards, Lono draws as a draw would.

`Policy` is defined here (the same three fields as Oriente's) so that this
module does not depend on the package's registry.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

Choose = Callable[[dict, dict | None, random.Random], dict | None]

CARD_COST = 0.55  # what keeping a card in hand is worth, in points
KANALOA_COST = 0.9  # a single-use joker
OPPONENT_WEIGHT = 0.5
LEAD_SHARE = 0.3


@dataclass(frozen=True)
class Policy:
    """A named policy; calling it is calling its `choose`."""

    name: str
    choose: Choose
    offer: Choose

    def __call__(self, view: dict, prompt: dict | None, rng: random.Random) -> dict | None:
        return self.choose(view, prompt, rng)


def _mine(view: dict, prompt: dict | None) -> bool:
    return prompt is not None and prompt.get("pivot") == view.get("viewer") and bool(prompt.get("legal"))


# -- random --------------------------------------------------------------------------

def random_choose(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """A uniform pick among the legal commands, when the seat is waited on."""
    if not _mine(view, prompt):
        return None
    assert prompt is not None
    options = prompt["legal"]
    return options[rng.randrange(len(options))]


def no_offer(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """Oro has no deals."""
    return None


# -- the heuristic's picture of the board ------------------------------------------------

class Board:
    """The map, bridges and counts as the view shows them, with a cheap
    what-if for one more bridge."""

    def __init__(self, view: dict) -> None:
        board = view["board"]
        self.n: int = view["seats"]
        self.places: list[int] = [isl["places"] for isl in board["islands"]]
        self.small: list[bool] = [isl["size"] == "small" for isl in board["islands"]]
        self.ends: list[tuple[int, int]] = [(a, b) for a, b in board["connections"]]
        self.incident: list[list[int]] = [[] for _ in self.places]
        for c, (a, b) in enumerate(self.ends):
            self.incident[a].append(c)
            self.incident[b].append(c)
        self.bridges: list[int | None] = list(view["bridges"])

    def counts(self, bridges: list[int | None], island: int) -> list[int]:
        out = [0] * self.n
        for c in self.incident[island]:
            owner = bridges[c]
            if owner is not None:
                out[owner] += 1
        return out

    def island_value(self, island: int, counts: list[int], seat: int) -> float:
        """What the island is worth to the seat: the points it would score
        now if controlled (O5.2), a share of them while it leads."""
        mine = counts[seat]
        if not mine:
            return 0.0
        places = self.places[island]
        if mine * 2 > places:
            return 1.0 + places - mine
        rival = max(k for s, k in enumerate(counts) if s != seat)
        need = places // 2 + 1
        return LEAD_SHARE * mine / need * (1.0 if mine >= rival else 0.5) * (1 + places - need)

    def after(self, seat: int, c: int) -> tuple[list[int | None], set[int]]:
        """The bridges after the seat's bridge on c and what follows (O4):
        a takeover removes every opponent there; a relative majority the
        strongest opponent's bridge. Also returns the islands touched."""
        bridges = list(self.bridges)
        bridges[c] = seat
        touched = set(self.ends[c])
        for i in self.ends[c]:
            counts = self.counts(bridges, i)
            if counts[seat] * 2 > self.places[i]:
                for d in self.incident[i]:
                    if bridges[d] not in (None, seat):
                        bridges[d] = None
                        touched.update(self.ends[d])
            elif not self.small[i] and sum(counts) == self.places[i] and counts[seat] == max(counts):
                rivals = [d for d in self.incident[i] if bridges[d] not in (None, seat)]
                if rivals:
                    worst = max(rivals, key=lambda d: counts[bridges[d]])  # type: ignore[index]
                    bridges[worst] = None
                    touched.update(self.ends[worst])
        return bridges, touched

    def gain(self, seat: int, bridges: list[int | None], touched: set[int]) -> float:
        """The seat's change of value less a share of its opponents'."""
        total = 0.0
        for i in touched:
            old, new = self.counts(self.bridges, i), self.counts(bridges, i)
            for s in range(self.n):
                delta = self.island_value(i, new, s) - self.island_value(i, old, s)
                total += delta if s == seat else -OPPONENT_WEIGHT * delta
        return total

    def island_use(self, seat: int, island: int) -> float:
        """How well one more card of `island` would build for the seat: the
        best gain among its free connections."""
        best = 0.0
        for c in self.incident[island]:
            if self.bridges[c] is None:
                best = max(best, self.gain(seat, *self.after(seat, c)))
        return best


# -- the heuristic ----------------------------------------------------------------------

def _play_value(board: Board, seat: int, cmd: dict) -> float:
    after, touched = board.after(seat, cmd["connection"])
    if cmd["type"] == "Build":
        cost = KANALOA_COST if cmd.get("kanaloa") else CARD_COST
    else:
        cost = CARD_COST * len(cmd.get("islands") or ()) + KANALOA_COST * (cmd.get("kanaloa") or 0)
    return board.gain(seat, after, touched) - cost


def _least_useful(board: Board, seat: int, islands: list[int]) -> int:
    return min(islands, key=lambda i: (board.island_use(seat, i), i))


def _turn(view: dict, prompt: dict, board: Board, seat: int) -> dict:
    legal = prompt["legal"]
    by_type: dict[str, list[dict]] = {}
    for cmd in legal:
        by_type.setdefault(cmd["type"], []).append(cmd)
    if "Pass" in by_type:  # O5.5: moving last is best
        return by_type["Pass"][0]
    plays = by_type.get("Build", []) + by_type.get("Replace", [])
    if plays:
        best = max(plays, key=lambda cmd: _play_value(board, seat, cmd))
        if _play_value(board, seat, best) > 0:
            return best
    if "UseLono" in by_type:
        return _pick_draw(board, seat, by_type["UseLono"])
    if "UseKu" in by_type:
        hands = {h["seat"]: h["size"] for h in view["hands"]}
        return max(by_type["UseKu"], key=lambda cmd: (hands[cmd["target"]], -cmd["target"]))
    if "UsePele" in by_type:
        return by_type["UsePele"][0]
    if "Draw" in by_type:
        return _pick_draw(board, seat, by_type["Draw"])
    if "Discard" in by_type and "EndTurn" not in by_type:
        return _discard(board, seat, by_type["Discard"])
    if "EndTurn" in by_type:
        return by_type["EndTurn"][0]
    if plays:  # over the limit with nothing to discard: play the least bad
        return max(plays, key=lambda cmd: _play_value(board, seat, cmd))
    return legal[0]


def _pick_draw(board: Board, seat: int, draws: list[dict]) -> dict:
    deck = [d for d in draws if d.get("island") is None]
    shown = [d for d in draws if d.get("island") is not None]
    if shown:
        best = max(shown, key=lambda d: (board.island_use(seat, d["island"]), -d["island"]))
        if board.island_use(seat, best["island"]) > CARD_COST or not deck:
            return best
    return deck[0] if deck else draws[0]


def _discard(board: Board, seat: int, discards: list[dict]) -> dict:
    worst = _least_useful(board, seat, [d["island"] for d in discards])
    return next(d for d in discards if d["island"] == worst)


def heuristic_choose(view: dict, prompt: dict | None, rng: random.Random, memo: dict | None = None) -> dict | None:
    """The heuristic's answer to the seat's open decision (deterministic:
    the rng is accepted for the common signature)."""
    if not _mine(view, prompt):
        return None
    assert prompt is not None
    seat = view["viewer"]
    board = Board(view)
    legal = prompt["legal"]
    topic = prompt["topic"]
    if topic in ("turn", "final_turn"):
        return _turn(view, prompt, board, seat)
    if topic in ("give_up", "pele"):  # give away the least useful card
        worst = _least_useful(board, seat, [c["island"] for c in legal])
        return next(c for c in legal if c["island"] == worst)
    if topic == "ku":  # take the card that builds best
        return max(legal, key=lambda c: (board.island_use(seat, c["island"]), -c["island"]))
    if topic == "remove":  # the removal that helps most (O4.5)
        def removal(cmd: dict) -> float:
            bridges = list(board.bridges)
            bridges[cmd["connection"]] = None
            return board.gain(seat, bridges, set(board.ends[cmd["connection"]]))
        return max(legal, key=lambda c: (removal(c), -c["connection"]))
    return legal[0]


POLICIES: dict[str, Policy] = {
    "random": Policy("random", random_choose, no_offer),
    "heuristic": Policy("heuristic", heuristic_choose, no_offer),
}

__all__ = ["POLICIES", "Policy", "heuristic_choose", "random_choose"]

