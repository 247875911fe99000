"""Configured deals (R2.8) written by card name, for tests, puzzles, bug
reports and duplicate tournaments.

A configured deal fixes the deck order, the treasures and the stone holder;
writing 41 card ids by hand is error-prone, so `configured_deal` takes the
cards that matter (each seat's inhabitant, the bonus card, the next cards
drawn) by name or by id and fills every other place with the weakest unused
cards, the Geisha at the very bottom unless it is placed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .cards import CARDS, GEISHA, INHABITANTS, NOFUS, TREASURES, Kind
from .config import GameConfig
from .errors import ConfigError

CardRef = int | str  # a card id, or a name: "Shogun", "Nofu", "Maho-Tsukai", "Treasure 3"

# Cards that fill the places nobody named, weakest first (the Ninjas last: a
# Ninja drawn by chance would change a game written for something else).
_FILL_ORDER = (*NOFUS, *(c for k in (Kind.AKINDO, Kind.SAMURAI, Kind.DAIMYO, Kind.MAHO_TSUKAI, Kind.SORYO,
                                     Kind.SHOGUN, Kind.NINJA)
                        for c in INHABITANTS if CARDS[c].kind is k))
_NAMES = {card.name.lower(): card.name for card in CARDS}


def card_ids(refs: Iterable[CardRef], *, taken: Iterable[int] = ()) -> list[int]:
    """Card ids for ids or names. A name stands for the lowest id of that
    name not yet used (in `taken` or earlier in `refs`): ["Nofu", "Nofu"] is
    [25, 26]. Raises ConfigError for an unknown name, or a name with no card
    left."""
    refs = list(refs)
    # Ids given as such are spoken for before any name is resolved.
    used = set(taken) | {r for r in refs if isinstance(r, int) and not isinstance(r, bool)}
    out = []
    for ref in refs:
        if isinstance(ref, int) and not isinstance(ref, bool):
            card = ref
        elif isinstance(ref, str) and ref.strip().lower() in _NAMES:
            name = _NAMES[ref.strip().lower()]
            free = [c.id for c in CARDS if c.name == name and c.id not in used]
            if not free:
                raise ConfigError(f"no {name} is left to place")
            card = free[0]
        else:
            raise ConfigError(f"{ref!r} names no card; names are {', '.join(sorted(set(_NAMES.values())))}")
        used.add(card)
        out.append(card)
    return out


def build_deck(seats: int, inhabitants: Sequence[CardRef] | Mapping[int, CardRef] | None = None, *,
               bonus: CardRef | None = None, draws: Sequence[CardRef] = ()) -> tuple[int, ...]:
    """A valid 41-card deck, top first (R2.5-R2.7): the bonus card, each
    seat's inhabitant in seat order (`inhabitants` lists them all, or maps
    some seats to theirs), then `draws` (the next cards drawn, in order),
    then the unused cards. Places nobody named get the weakest unused cards
    (Nofus first); the Geisha lies at the bottom unless placed."""
    wanted_refs = dict(enumerate(inhabitants)) if isinstance(inhabitants, Sequence) else dict(inhabitants or {})
    if any(not 0 <= s < seats for s in wanted_refs):
        raise ConfigError(f"seats are 0..{seats - 1}")
    named = card_ids([*wanted_refs.values(), *draws, *([bonus] if bonus is not None else [])])
    if len(set(named)) != len(named):
        raise ConfigError(f"a card is placed twice: {named}")
    if any(c not in INHABITANTS for c in named):
        raise ConfigError("only inhabitants (ids 0-40) lie in the deck (R2.5)")
    wanted = dict(zip(wanted_refs, named, strict=False))
    rest = named[len(wanted):len(wanted) + len(draws)]
    spare = [c for c in _FILL_ORDER if c not in named]
    top = [named[-1] if bonus is not None else spare.pop(0)]
    top += [wanted[s] if s in wanted else spare.pop(0) for s in range(seats)]
    deck = top + rest + spare
    if GEISHA not in deck:
        deck.append(GEISHA)
    return tuple(deck)


def configured_deal(seats: int, inhabitants: Sequence[CardRef] | Mapping[int, CardRef] | None = None, *,
                    bonus: CardRef | None = None, draws: Sequence[CardRef] = (), stone: int = 0,
                    treasures: Sequence[CardRef] | None = None, seed: int = 0,
                    max_open_proposals: int = 3) -> GameConfig:
    """A GameConfig for a configured deal (R2.8), the deck from `build_deck`;
    treasures by id or name ("Treasure 3"), by default 41, 42, ... (seat s
    gets 41 + s). The config validates itself (ConfigError)."""
    deck = build_deck(seats, inhabitants, bonus=bonus, draws=draws)
    chosen = card_ids(treasures) if treasures is not None else list(TREASURES)[:seats]
    return GameConfig(seats=seats, seed=seed, deck=deck, treasures=tuple(chosen), stone_holder=stone,
                      max_open_proposals=max_open_proposals)
