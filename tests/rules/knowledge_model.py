"""An independent who-knows-what model, rebuilt from full-detail events alone.

The engine keeps its own bookkeeping (`state.knows`) and its own gate
(`views.py`); this model shares neither. It follows every card through the
events the engine emits, applying the rules' semantics of knowledge
(R5.3, R10.4):

- setup: each seat knows its own inhabitant; treasures are public; the
  bonus card and the deck are unknown to all (R2);
- a revealed inhabitant, a score card, a reinforcement, a card put at the
  known bottom of the deck are public (R3.4a, R6, R10.4);
- a card drawn as a new inhabitant is known to its seat only (R5.8, R6.7);
- Transformation: the transforming seat sees the taken inhabitants; after
  the deal it knows only its kept card, each other seat only its own new
  card, and the card drawn from the deck is unseen (R5.3);
- a bonus card added at the end of a season is unseen (R3.5);
- after the game everything is public (R10.4).

The model also keeps the public pieces (discs, stone, chain, workers) so
that the seats asked in a round can be recomputed from public information
alone (R10.2a, R10.2c, R10.2d).

`KnowledgeModel.apply(event)` returns, for every card-carrying field of the
event, who may know that card from it; `card_items` reads those fields from
the full event or from any projection of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, NoReturn

from oriente.games.oriente.rules import events as E
from oriente.games.oriente.rules.cards import (
    ALL_CARDS,
    GEISHA,
    INHABITANTS,
    KIND,
    NINJAS,
    NOFUS,
    RANK,
    SHOGUN,
    TREASURES,
    VALUE,
    Kind,
)
from oriente.games.oriente.rules.commands import Action, ActionKind

PUBLIC = "public"  # every seat and every spectator
Who = str | frozenset  # PUBLIC, or the seats that know
Labels = dict[tuple, Who]  # who may know each card an event carries
NOBODY: frozenset = frozenset()


class ModelMismatch(AssertionError):
    """The events contradict what earlier events said about a card."""


def may_know(who: Who, viewer: Any) -> bool:
    """Whether `viewer` (a seat, or any non-seat viewer such as a spectator)
    may know a card whose knowledge is `who`."""
    if who == PUBLIC:
        return True
    return isinstance(viewer, int) and not isinstance(viewer, bool) and viewer in who


# -- which event fields hold cards, and in which shape ------------------------------

# Shapes: "one" a card or None; "list" a list of cards; "seat_list" a list
# indexed by seat; "pairs" [seat, card] once per seat; "indexed_pairs"
# [seat, card] where a seat may repeat; "triples" [seat, card, side];
# "loot" [seat, [cards]]; "transfers" Transfer maps; "promises" Promise maps
# (their `cards` are words of a player, not a statement about a place).
CARD_FIELDS: dict[str, dict[str, str]] = {
    "GameStarted": {"treasures": "list", "inhabitants": "seat_list", "bonus_card": "one"},
    "SeasonBegan": {},
    "Passed": {},
    "Announced": {"card": "one"},
    "PrivilegeRoundOpened": {},
    "PrivilegePassed": {},
    "Fulfilled": {},
    "BonusAwarded": {"cards": "list"},
    "IncomeDrawn": {"card": "one"},
    "SuccessionDone": {"shogun": "one", "daimyo": "one"},
    "CreditTaken": {"cards": "list"},
    "TradeDone": {"given": "one", "drawn": "one"},
    "Incited": {},
    "Assassinated": {"card": "one"},
    "InhabitantDrawn": {"card": "one"},
    "TransformationBegan": {"maho": "one", "taken": "pairs"},
    "TransformationDone": {"kept": "one", "drawn": "one", "dealt": "pairs"},
    "FightBegan": {"defender_card": "one"},
    "NegotiationDone": {},
    "NegotiationClosed": {},
    "SupportDeclared": {},
    "SupportersRevealed": {"supporters": "triples"},
    "ReinforcementTurned": {"card": "one"},
    "FightResolved": {"supporters": "triples", "reinforcements": "indexed_pairs", "captured": "one"},
    "ReinforcementTaken": {"card": "one", "to_bottom": "list", "to_winner": "list"},
    "RevolutionRoundOpened": {},
    "RevolutionAnswered": {"card": "one"},
    "RevolutionResolved": {"inhabitants": "pairs", "loot": "loot", "dealt": "indexed_pairs"},
    "SeasonEnded": {"bonus_card": "one"},
    "GeishaDrawn": {},
    "GameEnded": {"inhabitants": "seat_list"},
    "DealProposed": {"transfers": "transfers", "promises": "promises"},
    "DealAccepted": {},
    "DealClosed": {},
    "DealExecuted": {"transfers": "transfers"},
    "PromiseSettled": {},
}

# Every other field of every event, none of which holds a card. A field the
# engine adds later must be classified here before the properties pass.
OTHER_FIELDS: dict[str, set[str]] = {
    "GameStarted": {"seats", "stone_holder", "deck_size", "hut_used"},
    "SeasonBegan": {"season", "stone_holder", "bonus_size"},
    "Passed": {"seat", "decision"},
    "Announced": {"seat", "action", "claim", "over"},
    "PrivilegeRoundOpened": {"decision", "announcer", "rank", "asked"},
    "PrivilegePassed": {"seat", "decision", "voided_claim"},
    "Fulfilled": {"seat", "action", "bonus_set_aside"},
    "BonusAwarded": {"seat", "blessing"},
    "IncomeDrawn": {"seat"},
    "SuccessionDone": {"seat", "target", "from_pile", "done"},
    "CreditTaken": {"seat", "target"},
    "TradeDone": {"seat", "target"},
    "Incited": {"seat", "moved_to", "supply", "hut", "square"},
    "Assassinated": {"seat", "target"},
    "InhabitantDrawn": {"seat"},
    "TransformationBegan": {"seat"},
    "TransformationDone": {"seat"},
    "FightBegan": {"decision", "attacker", "defender", "asked"},
    "NegotiationDone": {"seat", "decision"},
    "NegotiationClosed": {"decision"},
    "SupportDeclared": {"seat", "decision", "side"},
    "SupportersRevealed": set(),
    "ReinforcementTurned": {"seat"},
    "FightResolved": {"attacker", "defender", "attack_total", "defence_total", "shogun_defence",
                      "winner", "loser"},
    "ReinforcementTaken": {"seat", "winner"},
    "RevolutionRoundOpened": {"decision", "announcer", "asked"},
    "RevolutionAnswered": {"seat", "decision", "joined"},
    "RevolutionResolved": {"seat", "strength", "revolters", "victims"},
    "SeasonEnded": {"season"},
    "GeishaDrawn": {"purpose", "seat"},
    "GameEnded": {"reason", "ninja_victor", "scores", "ranks", "tiebreaks"},
    "DealProposed": {"deal", "proposer", "parties", "note", "counter_to", "why"},
    "DealAccepted": {"deal", "seat"},
    "DealClosed": {"deal", "seat", "reason", "why"},
    "DealExecuted": {"deal", "promise_ids"},
    "PromiseSettled": {"promise", "promiser", "status", "by"},
}


def event_classes() -> list[type]:
    return [obj for obj in vars(E).values()
            if isinstance(obj, type) and is_dataclass(obj) and obj.__module__ == E.__name__]


def schema_problems() -> list[str]:
    """Event fields this module does not know how to read."""
    problems = []
    for cls in event_classes():
        name = cls.__name__
        if name not in CARD_FIELDS:
            problems.append(f"unknown event type {name}")
            continue
        have = {f.name for f in fields(cls)}
        known = set(CARD_FIELDS[name]) | OTHER_FIELDS[name]
        if have != known:
            problems.append(f"{name}: fields {sorted(have ^ known)} are not classified")
    return problems


def _get(data: Any, key: str) -> Any:
    if isinstance(data, Mapping):
        return data.get(key)
    return getattr(data, key)


def card_items(type_name: str, data: Any) -> dict[tuple, Any]:
    """Every card-carrying slot of an event: label -> card id (or None where
    the slot holds no card or a hidden one). Works on the event's fields as
    a dataclass, on `dataclasses.asdict` of it, and on any projection."""
    out: dict[tuple, Any] = {}
    for name, shape in CARD_FIELDS[type_name].items():
        value = _get(data, name)
        if shape == "one":
            out[(name,)] = value
        elif shape == "list":
            for i, c in enumerate(value or ()):
                out[(name, i)] = c
        elif shape == "seat_list":
            for s, c in enumerate(value or ()):
                out[(name, s)] = c
        elif shape == "pairs":
            for s, c in value or ():
                out[(name, s)] = c
        elif shape == "indexed_pairs":
            for i, (s, c) in enumerate(value or ()):
                out[(name, i, s)] = c
        elif shape == "triples":
            for s, c, _side in value or ():
                out[(name, s)] = c
        elif shape == "loot":
            for s, cards in value or ():
                for i, c in enumerate(cards):
                    out[(name, s, i)] = c
        elif shape == "transfers":
            for i, t in enumerate(value or ()):
                out[(name, i)] = _get(t, "card")
        elif shape == "promises":
            for i, p in enumerate(value or ()):
                for j, c in enumerate(_get(p, "cards") or ()):
                    out[(name, i, j)] = c
        else:  # pragma: no cover - the table above is closed
            raise AssertionError(shape)
    return out


# -- the model ----------------------------------------------------------------------

DECK, BONUS, SET_ASIDE, OUT, GEISHA_OUT, IN_PLAY = "deck", "bonus", "set_aside", "out", "geisha_out", "in_play"


def slot_place(seat: int) -> str:
    return f"inhabitant:{seat}"


def pile_place(seat: int) -> str:
    return f"pile:{seat}"


class KnowledgeModel:
    """Where every card is and who knows it, from the events alone."""

    def __init__(self, started: E.GameStarted) -> None:
        if not isinstance(started, E.GameStarted):
            raise ModelMismatch(f"a game starts with GameStarted, not {type(started).__name__}")
        self.n = n = started.seats
        self.place: dict[int, str] = {}
        self._index: dict[str, list[int]] | None = None
        self.who: dict[int, Who] = {}
        self.slot: list[int | None] = [None] * n
        self.revealed: list[bool] = [False] * n
        self.bottom: list[int] = []  # the known bottom of the deck, lowest first
        self.seen: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(n)]
        self.season = 0
        self.over = False
        self.result: E.GameEnded | None = None
        self.geisha_drawn = False
        self.geisha_purpose: str | None = None
        # public pieces (R10.4)
        self.disc = [True] * n
        self.stone = started.stone_holder
        self.chain: list[int] = []
        self.supply, self.hut, self.square = 6, 0, 0
        self.hut_used = started.hut_used
        self.announcer: int | None = None
        self.action: Action | None = None
        self._expect_privilege: list[int] | None = None
        self._expect_revolution: list[int] | None = None
        self.turned: list[tuple[int, int]] = []  # reinforcements of the current fight, in turned order
        self.events = 0
        self._started_labels = self._setup(started)

    # -- queries --------------------------------------------------------------

    def knows(self, viewer: Any, card: int) -> bool:
        """Whether `viewer` knows that `card` lies at its current place."""
        if self.over:
            return True
        return may_know(self.who[card], viewer)

    def _set(self, card: int, place: str, who: Who | None = None) -> None:
        self.place[card] = place
        if who is not None:
            self.who[card] = who
        self._index = None

    def cards_at(self, place: str) -> list[int]:
        if self._index is None:
            index: dict[str, list[int]] = {}
            for c in sorted(self.place):
                index.setdefault(self.place[c], []).append(c)
            self._index = index
        return list(self._index.get(place, ()))

    def pile(self, seat: int) -> list[int]:
        return self.cards_at(pile_place(seat))

    def places(self) -> dict[int, str]:
        return dict(self.place)

    def public_cards(self) -> set[int]:
        """Inhabitant cards whose place everyone knows."""
        return {c for c in INHABITANTS if self.who[c] == PUBLIC}

    def max_hidden_rank(self) -> int:
        public = self.public_cards()
        return max((RANK[c] for c in INHABITANTS if c != GEISHA and c not in public), default=-1)

    def started_labels(self) -> dict[tuple, Who]:
        return self._started_labels

    # -- moves ------------------------------------------------------------------

    def _fail(self, message: str) -> NoReturn:
        raise ModelMismatch(f"event {self.events}: {message}")

    def _expect_at(self, card: Any, place: str) -> None:
        if not isinstance(card, int) or card not in ALL_CARDS:
            self._fail(f"{card!r} is not a card")
        if self.place.get(card) != place:
            self._fail(f"card {card} should be at {place}, the events put it at {self.place.get(card)}")
        if place == DECK and card in self.bottom:
            self._fail(f"card {card} was drawn from the known bottom of the deck, below the Geisha (R9.5)")

    def _move(self, card: int, src: str, dst: str, who: Who) -> None:
        self._expect_at(card, src)
        if src == DECK and card in self.bottom:
            self.bottom.remove(card)
        self._set(card, dst)
        self.who[card] = who

    def _take_slot(self, seat: int, card: int) -> None:
        if self.slot[seat] != card:
            self._fail(f"seat {seat}'s inhabitant is {self.slot[seat]}, the event says {card}")
        self.slot[seat] = None
        self.revealed[seat] = False

    def _put_slot(self, seat: int, card: int, src: str, *, revealed: bool) -> None:
        if self.slot[seat] is not None:
            self._fail(f"seat {seat} gets card {card} while it still holds {self.slot[seat]}")
        self._move(card, src, slot_place(seat), PUBLIC if revealed else frozenset({seat}))
        self.slot[seat] = card
        self.revealed[seat] = revealed

    def _reveal(self, seat: int, card: int) -> None:
        if self.slot[seat] != card:
            self._fail(f"seat {seat} reveals {card} but holds {self.slot[seat]}")
        self.who[card] = PUBLIC
        self.revealed[seat] = True

    def _to_pile(self, card: int, src: str, seat: int) -> None:
        self._move(card, src, pile_place(seat), PUBLIC)

    def _to_bottom(self, card: int, src: str) -> None:
        self._move(card, src, DECK, PUBLIC)
        self.bottom.insert(0, card)

    # -- setup ----------------------------------------------------------------------

    def _setup(self, ev: E.GameStarted) -> dict[tuple, Who]:
        n = self.n
        if len(ev.treasures) != n or len(set(ev.treasures)) != n or not set(ev.treasures) <= set(TREASURES):
            raise ModelMismatch(f"GameStarted gives treasures {ev.treasures} to {n} seats (R2.3)")
        for s, t in enumerate(ev.treasures):
            self._set(t, pile_place(s), PUBLIC)
        for t in TREASURES:
            if t not in ev.treasures:
                self._set(t, OUT, PUBLIC)
        dealt = [*ev.inhabitants, ev.bonus_card]
        if len(set(dealt)) != n + 1 or not set(dealt) <= set(INHABITANTS) or GEISHA in dealt:
            raise ModelMismatch(f"GameStarted deals {dealt} (R2.6, R2.7)")
        for s, c in enumerate(ev.inhabitants):
            self._set(c, slot_place(s), frozenset({s}))
            self.slot[s] = c
        self._set(ev.bonus_card, BONUS, NOBODY)
        for c in INHABITANTS:
            if c not in self.place:
                self._set(c, DECK, NOBODY)
        if len(self.cards_at(DECK)) != ev.deck_size:
            raise ModelMismatch(f"deck_size {ev.deck_size} but {len(self.cards_at(DECK))} cards are left")
        labels: dict[tuple, Who] = {}
        for i, _ in enumerate(ev.treasures):
            labels[("treasures", i)] = PUBLIC
        for s in range(n):
            labels[("inhabitants", s)] = frozenset({s})
        labels[("bonus_card",)] = NOBODY
        return labels

    # -- events -----------------------------------------------------------------------

    def apply(self, ev: Any) -> dict[tuple, Who]:
        """Follow one event; return who may know each of its card fields."""
        self.events += 1
        name = type(ev).__name__
        if self.over:
            self._fail(f"{name} after the game ended")
        if name == "GameStarted":
            self._fail("a second GameStarted")
        # An announcement is followed at once by its privilege round, or by the
        # fulfilment when nobody can be asked (R10.2a).
        if self._expect_privilege is not None and name != "PrivilegeRoundOpened":
            if self._expect_privilege:
                self._fail(f"public information asks seats {self._expect_privilege} in the privilege round,"
                           f" but no round opened ({name} followed) (R10.2a)")
            self._expect_privilege = None
        if self._expect_revolution is not None and name != "RevolutionRoundOpened":
            if self._expect_revolution:
                self._fail(f"public information asks seats {self._expect_revolution} in the revolution round,"
                           f" but no round opened ({name} followed) (R10.2c)")
            self._expect_revolution = None
        handler = getattr(self, "_on_" + name, None)
        if handler is None:
            self._fail(f"no knowledge rule for event {name}")
        labels = handler(ev) or {}
        expected = set(card_items(name, ev))
        if set(labels) != expected:
            self._fail(f"{name}: labels {sorted(map(str, set(labels) ^ expected))} unaccounted")
        return labels

    @staticmethod
    def _public(ev: Any) -> dict[tuple, Who]:
        return {label: PUBLIC for label in card_items(type(ev).__name__, ev)}

    def _on_SeasonBegan(self, ev: E.SeasonBegan) -> Labels | None:
        self.season = ev.season
        self.disc = [True] * self.n
        self.stone = ev.stone_holder
        self.chain = []
        if len(self.cards_at(BONUS)) != ev.bonus_size:
            self._fail(f"bonus_size {ev.bonus_size}, but the bonus pile holds {self.cards_at(BONUS)}")
        return None

    def _on_Passed(self, ev: Any) -> Labels | None:
        return None

    def _on_Announced(self, ev: E.Announced) -> Labels | None:
        self._reveal(ev.seat, ev.card)
        self.stone = ev.seat
        if ev.claim:
            self.chain.append(ev.seat)
        else:
            self.chain = [ev.seat]
        self.announcer, self.action = ev.seat, ev.action
        self._expect_privilege = self.privilege_asked()
        return self._public(ev)

    def effective_rank(self) -> int:
        assert self.announcer is not None and self.action is not None
        if self.action.kind is ActionKind.REVOLUTION:
            return 1 + self.square
        card = self.slot[self.announcer]
        assert card is not None
        return RANK[card]

    def privilege_asked(self) -> list[int]:
        """R10.2a from public information only."""
        n, announcer = self.n, self.announcer
        assert announcer is not None and self.action is not None
        rank = self.effective_rank()
        hidden_best = self.max_hidden_rank()
        asked = []
        for i in range(1, n):
            s = (announcer + i) % n
            if not self.disc[s] or s == self.action.target or s in self.chain:
                continue
            card = self.slot[s]
            if card is not None and self.revealed[s]:
                if RANK[card] < rank:
                    continue
            elif hidden_best < rank:
                continue
            asked.append(s)
        return asked

    def revolution_asked(self, announcer: int) -> list[int]:
        """R10.2c from public information only."""
        public = self.public_cards()
        all_nofu_public = all(c in public for c in NOFUS)
        asked = []
        for i in range(1, self.n):
            s = (announcer + i) % self.n
            if not self.disc[s]:
                continue
            card = self.slot[s]
            if card is not None and self.revealed[s]:
                if KIND[card] is not Kind.NOFU:
                    continue
            elif all_nofu_public:
                continue
            asked.append(s)
        return asked

    def _on_PrivilegeRoundOpened(self, ev: E.PrivilegeRoundOpened) -> Labels | None:
        expected, self._expect_privilege = self._expect_privilege, None
        if expected is None:
            self._fail("a privilege round opened without an announcement")
        if ev.announcer != self.announcer or ev.rank != self.effective_rank():
            self._fail(f"privilege round against seat {ev.announcer} rank {ev.rank}; public information says"
                       f" seat {self.announcer} rank {self.effective_rank()} (R4.3c)")
        if list(ev.asked) != expected:
            self._fail(f"privilege round asks {list(ev.asked)}; public information asks {expected} (R10.2a)")
        return None

    def _on_PrivilegePassed(self, ev: Any) -> Labels | None:
        return None

    def _on_Fulfilled(self, ev: E.Fulfilled) -> Labels | None:
        self.disc[ev.seat] = False
        if ev.bonus_set_aside:
            bonus = self.cards_at(BONUS)
            if len(bonus) != ev.bonus_set_aside:
                self._fail(f"{ev.bonus_set_aside} bonus cards set aside, the pile holds {bonus}")
            for c in bonus:
                self._move(c, BONUS, SET_ASIDE, NOBODY)
        if ev.action.kind is ActionKind.REVOLUTION:
            self._expect_revolution = self.revolution_asked(ev.seat)
        return None

    def _on_BonusAwarded(self, ev: E.BonusAwarded) -> Labels | None:
        src = BONUS if ev.blessing else SET_ASIDE
        if ev.cards and sorted(ev.cards) != self.cards_at(src):
            self._fail(f"bonus {ev.cards} awarded from {src}, which holds {self.cards_at(src)}")
        for c in ev.cards:
            self._to_pile(c, src, ev.seat)
        return self._public(ev)

    def _on_IncomeDrawn(self, ev: E.IncomeDrawn) -> Labels | None:
        self._to_pile(ev.card, DECK, ev.seat)
        return self._public(ev)

    def _on_SuccessionDone(self, ev: E.SuccessionDone) -> Labels | None:
        labels = self._public(ev)
        if ev.shogun != SHOGUN:
            self._fail(f"succession names {ev.shogun} as the Shogun")
        if not ev.done:
            if self.slot[ev.seat] != ev.daimyo or not self.revealed[ev.seat]:
                self._fail("a void succession names a Daimyo that is not the announcer's revealed inhabitant")
            return labels
        daimyo = ev.daimyo
        self._take_slot(ev.seat, daimyo)
        if ev.from_pile:
            self._move(daimyo, slot_place(ev.seat), pile_place(ev.target), PUBLIC)
            self._put_slot(ev.seat, SHOGUN, pile_place(ev.target), revealed=True)
        else:
            if not self.revealed[ev.target]:
                self._fail("Succession took a Shogun that was not revealed (R5.4)")
            self._take_slot(ev.target, SHOGUN)
            self._set(SHOGUN, "swap")
            self._put_slot(ev.target, daimyo, slot_place(ev.seat), revealed=True)
            self._put_slot(ev.seat, SHOGUN, "swap", revealed=True)
        return labels

    def _on_CreditTaken(self, ev: E.CreditTaken) -> Labels | None:
        for c in ev.cards:
            if KIND[c] is not Kind.NOFU:
                self._fail(f"Credit took card {c}, not a Nofu (R5.6)")
            self._to_pile(c, pile_place(ev.target), ev.seat)
        if any(KIND[c] is Kind.NOFU for c in self.pile(ev.target)):
            self._fail("Credit left a Nofu in the target's score pile (R5.6)")
        return self._public(ev)

    def _on_TradeDone(self, ev: E.TradeDone) -> Labels | None:
        if ev.given is not None:
            self._to_pile(ev.given, pile_place(ev.seat), ev.target)
        if ev.drawn is not None:
            if ev.drawn == ev.given:
                self._fail("Trade drew back the card just given (R5.6)")
            self._to_pile(ev.drawn, pile_place(ev.target), ev.seat)
        return self._public(ev)

    def _on_Incited(self, ev: E.Incited) -> Labels | None:
        self.supply, self.hut, self.square = ev.supply, ev.hut, ev.square
        return None

    def _on_Assassinated(self, ev: E.Assassinated) -> Labels | None:
        self._take_slot(ev.target, ev.card)
        self._to_pile(ev.card, slot_place(ev.target), ev.seat)
        return self._public(ev)

    def _on_InhabitantDrawn(self, ev: E.InhabitantDrawn) -> Labels | None:
        self._put_slot(ev.seat, ev.card, DECK, revealed=False)
        return {("card",): frozenset({ev.seat})}

    def _on_TransformationBegan(self, ev: E.TransformationBegan) -> Labels | None:
        seat = ev.seat
        self._take_slot(seat, ev.maho)
        if KIND[ev.maho] is not Kind.MAHO_TSUKAI:
            self._fail(f"Transformation by card {ev.maho}, not a Maho-Tsukai")
        self._to_bottom(ev.maho, slot_place(seat))
        expected_seats = [(seat + i) % self.n for i in range(1, self.n)]
        if [s for s, _ in ev.taken] != expected_seats:
            self._fail(f"Transformation takes from seats {[s for s, _ in ev.taken]}, not {expected_seats}")
        labels: dict[tuple, Who] = {("maho",): PUBLIC}
        for s, c in ev.taken:
            self._take_slot(s, c)
            self._move(c, slot_place(s), IN_PLAY, frozenset({seat}))
            labels[("taken", s)] = frozenset({seat})
        self.seen[seat].append((self.season, tuple(c for _, c in ev.taken)))
        return labels

    def _on_TransformationDone(self, ev: E.TransformationDone) -> Labels | None:
        seat = ev.seat
        pool = self.cards_at(IN_PLAY)
        if ev.kept not in pool:
            self._fail(f"kept card {ev.kept} was not among the taken {pool} (R5.3)")
        self._put_slot(seat, ev.kept, IN_PLAY, revealed=False)
        self._expect_at(ev.drawn, DECK)
        self._set(ev.drawn, IN_PLAY)
        rest = sorted(self.cards_at(IN_PLAY))
        if sorted(c for _, c in ev.dealt) != rest:
            self._fail(f"Transformation deals {ev.dealt}, the pool is {rest} (R5.3)")
        expected_seats = [(seat + i) % self.n for i in range(1, self.n)]
        if [s for s, _ in ev.dealt] != expected_seats:
            self._fail(f"Transformation deals to {[s for s, _ in ev.dealt]}, not {expected_seats} (R5.3)")
        labels: dict[tuple, Who] = {("kept",): frozenset({seat}), ("drawn",): NOBODY}
        for s, c in ev.dealt:
            self._put_slot(s, c, IN_PLAY, revealed=False)
            labels[("dealt", s)] = frozenset({s})
        return labels

    def _on_FightBegan(self, ev: E.FightBegan) -> Labels | None:
        self.turned = []
        self._reveal(ev.defender, ev.defender_card)
        n = self.n
        expected = [s for s in ((self.stone + i) % n for i in range(1, n))
                    if s not in (ev.attacker, ev.defender) and self.disc[s]]
        if list(ev.asked) != expected:
            self._fail(f"support round asks {list(ev.asked)}; public information asks {expected} (R6.2)")
        if (ev.decision is None) != (not expected):
            self._fail("a fight opens a negotiation window exactly when someone can be asked (R6.2)")
        return self._public(ev)

    def _on_NegotiationDone(self, ev: Any) -> Labels | None:
        return None

    def _on_NegotiationClosed(self, ev: Any) -> Labels | None:
        return None

    def _on_SupportDeclared(self, ev: E.SupportDeclared) -> Labels | None:
        if ev.side is not None:
            self.disc[ev.seat] = False
        return None

    def _on_SupportersRevealed(self, ev: Any) -> Labels | None:
        for s, c, _side in ev.supporters:
            self._reveal(s, c)
        return self._public(ev)

    def _on_ReinforcementTurned(self, ev: Any) -> Labels | None:
        self._move(ev.card, DECK, IN_PLAY, PUBLIC)
        self.turned.append((ev.seat, ev.card))
        return self._public(ev)

    def _on_FightResolved(self, ev: E.FightResolved) -> Labels | None:
        for s, c, _side in ev.supporters:
            if self.slot[s] != c or not self.revealed[s]:
                self._fail(f"supporter {s}'s card {c} was not revealed before the result (R6.3)")
        turned = [tuple(r) for r in ev.reinforcements]
        if turned != self.turned:
            self._fail(f"the result lists reinforcements {turned}, the events turned {self.turned} (R6.4)")
        for _s, c in ev.reinforcements:
            self._expect_at(c, IN_PLAY)
        self._take_slot(ev.loser, ev.captured)
        self._to_pile(ev.captured, slot_place(ev.loser), ev.winner)
        return self._public(ev)

    def _on_ReinforcementTaken(self, ev: E.ReinforcementTaken) -> Labels | None:
        self._put_slot(ev.seat, ev.card, IN_PLAY, revealed=True)
        for c in ev.to_bottom:
            self._to_bottom(c, IN_PLAY)
        for c in ev.to_winner:
            if c not in NINJAS:
                self._fail(f"reinforcement {c} went to the winner but is no Ninja (R6.7)")
            self._to_pile(c, IN_PLAY, ev.winner)
        if self.cards_at(IN_PLAY):
            self._fail(f"reinforcements {self.cards_at(IN_PLAY)} left in play (R6.7)")
        return self._public(ev)

    def _on_RevolutionRoundOpened(self, ev: E.RevolutionRoundOpened) -> Labels | None:
        expected, self._expect_revolution = self._expect_revolution, None
        if expected is None:
            self._fail("a revolution round opened without a fulfilled Revolution")
        if list(ev.asked) != expected:
            self._fail(f"revolution round asks {list(ev.asked)}; public information asks {expected} (R10.2c)")
        return None

    def _on_RevolutionAnswered(self, ev: E.RevolutionAnswered) -> Labels | None:
        if ev.joined:
            assert ev.card is not None  # a seat that joins reveals its inhabitant
            self._reveal(ev.seat, ev.card)
            self.disc[ev.seat] = False
            return self._public(ev)
        if ev.card is not None:
            self._fail("a seat that did not join revealed a card")
        return self._public(ev)

    def _on_RevolutionResolved(self, ev: E.RevolutionResolved) -> Labels | None:
        for s, c in ev.inhabitants:
            self._reveal(s, c)
        pooled = []
        for s, cards in ev.loot:
            for c in cards:
                self._expect_at(c, pile_place(s))
                pooled.append(c)
        for s in ev.revolters:
            pooled.extend(self.pile(s))
        if sorted(c for _, c in ev.dealt) != sorted(pooled):
            self._fail(f"the revolution deals {ev.dealt}, the pool was {pooled} (R7.5)")
        for s, c in ev.dealt:
            if s not in ev.revolters:
                self._fail(f"loot dealt to seat {s}, which did not revolt (R7.5)")
            self._set(c, pile_place(s), PUBLIC)
        self.supply, self.hut, self.square = 6, 0, 0
        return self._public(ev)

    def _on_SeasonEnded(self, ev: E.SeasonEnded) -> Labels | None:
        if ev.bonus_card is None:  # None only in a projection; the model reads the full events
            self._fail("a season ended without its bonus card")
        self._move(ev.bonus_card, DECK, BONUS, NOBODY)
        return {("bonus_card",): NOBODY}

    def _on_GeishaDrawn(self, ev: E.GeishaDrawn) -> Labels | None:
        self.geisha_drawn = True
        self.geisha_purpose = ev.purpose
        if ev.purpose == "transformation":
            if not self.place.get(GEISHA, "").startswith("inhabitant:"):
                self._fail("a Geisha drawn in a Transformation is dealt first (R5.3)")
            return None
        self._move(GEISHA, DECK, GEISHA_OUT, PUBLIC)
        return None

    def _on_GameEnded(self, ev: E.GameEnded) -> Labels | None:
        self.over = True
        self.result = ev
        for c in ALL_CARDS:
            self.who[c] = PUBLIC
        if list(ev.inhabitants) != self.slot:
            self._fail(f"the game ends with inhabitants {ev.inhabitants}, the events say {self.slot}")
        return self._public(ev)

    def _on_DealProposed(self, ev: E.DealProposed) -> Labels | None:
        for t in ev.transfers:
            self._expect_at(t.card, pile_place(t.giver))
        return self._public(ev)

    def _on_DealAccepted(self, ev: Any) -> Labels | None:
        return None

    def _on_DealClosed(self, ev: Any) -> Labels | None:
        return None

    def _on_DealExecuted(self, ev: E.DealExecuted) -> Labels | None:
        for t in ev.transfers:
            self._expect_at(t.card, pile_place(t.giver))
        for t in ev.transfers:
            self._to_pile(t.card, pile_place(t.giver), t.receiver)
        return self._public(ev)

    def _on_PromiseSettled(self, ev: Any) -> Labels | None:
        return None

    # -- scoring (R9.3, R9.4), from the places the events gave ----------------------------

    def scored_cards(self, seat: int) -> list[int]:
        cards = self.pile(seat)
        inhabitant = self.slot[seat]
        if inhabitant is not None and inhabitant != GEISHA:
            cards.append(inhabitant)
        return cards

    def ninja_holder(self) -> int | None:
        for s in range(self.n):
            if all(self.place[c] == pile_place(s) for c in NINJAS):
                return s
        return None

    def score_key(self, seat: int) -> tuple[int, tuple[int, ...]]:
        values = sorted((VALUE[c] for c in self.scored_cards(seat)), reverse=True)
        return sum(values), tuple(values)


def labels_str(labels: Iterable[tuple]) -> str:
    return ", ".join("/".join(map(str, label)) for label in labels)
