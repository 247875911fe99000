"""Ratings: openskill's Plackett–Luce model over finished multiplayer games.

Pure: no store, no clock. A rating is openskill's (mu, sigma): the skill
estimate and its uncertainty. A new account starts at the model's defaults
(mu 25, sigma 25/3). One finished game moves every seated account's rating
at once from the game's ranks (1 is first); seats that share a rank tie, and
openskill treats equal ranks as a tie (docs/accounts.md).

Why Plackett–Luce: it is a model of a whole finishing order among any number
of players (up to 12 at a table), not of pairs, and openskill is a
maintained implementation of it, published with its derivations (Weng and
Lin, 2011), that needs no solver.

The leaderboard orders by the *ordinal* mu - 3 sigma (a conservative
estimate: a rating is believed only as far as it is known). A rating stays
*provisional* while sigma is above PROVISIONAL_SIGMA (from 25/3 at the
start): about the first dozen four-seat games among newcomers, fewer at
larger tables or against established ratings (tests/server/test_ratings.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

__all__ = ["MODEL", "PROVISIONAL_SIGMA", "Rating", "initial", "rate"]

MODEL: Final = PlackettLuce()
PROVISIONAL_SIGMA: Final = 6.5


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate (mu) and its uncertainty (sigma), after `games` rated games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: what the leaderboard sorts by."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def plain(self) -> dict[str, Any]:
        """As the protocol shows it (PROTOCOL.md 19)."""
        return {"rating": round(self.ordinal, 2), "mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                "games": self.games, "provisional": self.provisional}


def initial() -> Rating:
    """The rating of an account before its first rated game of a game."""
    r = MODEL.rating()
    return Rating(mu=r.mu, sigma=r.sigma, games=0)


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings after one game, in seat order: `ranks[i]` is seat i's
    rank (1 is first; equal ranks are ties). Each seat is a team of one."""
    if len(before) != len(ranks) or len(before) < 2:
        raise ValueError("a rated game has at least two seats, each with a rank")
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(x) for x in ranks])
    return [Rating(mu=t[0].mu, sigma=t[0].sigma, games=r.games + 1) for t, r in zip(after, before, strict=True)]
