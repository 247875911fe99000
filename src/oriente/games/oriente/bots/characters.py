"""Bot characters: what a negotiating bot's word is worth (R8.1, R8.6).

Promises are not binding (R8.1); the ledger makes every seat's record
public (R8.6). A character is the one rule a negotiating bot follows for
its own promises, and it is named and described truthfully wherever bots
are offered (the lobby, `welcome.bot_about`, docs/bots.md):

- **honest** keeps every promise it is able to keep: a support promise, a
  promise not to attack, a payment. It prices a promise it is asked for at
  what keeping it costs, so it never takes a card for a promise it means to
  break.
- **shrewd** weighs its public record. Breaking a promise costs it the
  trust its record earns (reputation.trust): within this game, every later
  deal it makes is worth that much less to its partners, for every season
  likely left; across games, where it plays under an account, its
  account's lifetime record drops too (the `lifetime` record its caller
  gives it). It breaks a promise only when breaking gains more than that
  (plus a margin): in practice in the last season of a game, or for a gain
  that decides the game (a third Ninja, R9.1). The server's own bots have
  no accounts (docs/accounts.md): their record is the game's.
- **ruthless** keeps a promise only while breaking it gains less than one
  more broken promise costs its trust for the rest of this game
  (reputation.keep): early in a game that is about a point and a half, less
  than most fights, so it breaks most promises that cost it something to
  keep. It says so in its description: take its word at its record.

Why keeping one's word would make a bot weak, and what was fixed. The old
rule (now the ruthless one) priced a promise at the smaller of keeping it
and breaking it, and valued a good record only as what one break would
lose: `reputation_cost`, about 1.4 points early in a game, less than most
won fights, so it broke nearly every paid support promise. Measured in
self-play (bench/bots.py), keeping every promise does not by itself make a
bot weaker against the heuristic; what does is pricing one's word badly.
Counting the trust a kept promise earns in full had the honest bot sell
its support too cheap (1.24x the heuristic's win rate at mixed tables,
against 1.55 without it); not counting it at all left people's fair offers
just under even odds. So a kept promise's trust counts for a share
(`keep_gain`, `KEEP_SHARE`), a break costs the shrewd character the trust
it loses at `WORD_WORTH` points a season for the seasons left (at least
`DECISIVE`), and the negotiator weighs competing offers for the same
promise against each other rather than taking the first (negotiator.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import reputation
from .model import Board

# Points a season that the others' trust in our word brings us: the deals
# they make with us at a fair price (bench/bots.py measures ~3.4 executed
# deals a game at negotiator tables, over ~7 seasons, each worth a point or
# two to us). The shrewd character's cost of one broken promise is the trust
# it loses times this, for this season and every season likely left.
WORD_WORTH = 4.0
LAST_SEASON = 1.0  # fewer seasons likely left than this: the last season
DECISIVE = 6.0  # points: a gain that decides the game (a third Ninja is worth ~10, valuation.NINJA_STEP)
LIFETIME_WORTH = 20.0  # points: what a whole account record's trust is worth across its later games
MIN_PROMISE_COST = 0.1  # points: a promise is never free to make, whatever keeping it earns
# The share of that trust a kept promise is counted for when pricing one:
# a raised trust pays only through the partners that read the ledger (the
# heuristic reads only whether a seat broke more than it kept), and counted
# whole it had the honest character sell its word too cheap (bench/bots.py:
# 1.24x the heuristic's win rate at mixed tables at 1, 1.33 at 0.5, 1.38 at
# 0.25, 1.55 at 0; bench/people.py: fair offers accepted 0.49 at 0, ~0.57 at 0.25).
# Measured again at 0.25 once the heuristic said done in windows: 1.34x over
# the 600 mixed games of bench/bots.py's seeds, 1.44x over 1,200 others, and
# 1.37x with the proposal caps of bargain.py (a figure from 600 games has a
# standard error of about 0.1).
KEEP_SHARE = 0.25


@dataclass(frozen=True)
class Record:
    """A kept/broken record: the account's lifetime record of a bot that
    plays under an account (PROTOCOL.md 19), or none."""

    kept: int = 0
    broken: int = 0

    def trust(self) -> float:
        return (self.kept + reputation.PRIOR_KEPT) / (self.kept + self.broken + reputation.PRIOR_KEPT
                                                      + reputation.PRIOR_BROKEN)

    def rise(self) -> float:
        """How much one more kept promise raises this record's trust."""
        after = (self.kept + 1 + reputation.PRIOR_KEPT) / (self.kept + self.broken + 1 + reputation.PRIOR_KEPT
                                                           + reputation.PRIOR_BROKEN)
        return after - self.trust()

    def drop(self) -> float:
        """How much one more broken promise lowers this record's trust."""
        after = (self.kept + reputation.PRIOR_KEPT) / (self.kept + self.broken + 1 + reputation.PRIOR_KEPT
                                                       + reputation.PRIOR_BROKEN)
        return self.trust() - after


@dataclass(frozen=True)
class Character:
    """A negotiating bot's rule for its own word. `word` is the short fact
    clients word in their reader's language ("keeps", "weighs", "breaks");
    `about` says it in English (docs, logs, `welcome.bot_about`)."""

    name: str
    word: str
    about: str

    def break_cost(self, b: Board, seasons_left: float, lifetime: Record | None = None) -> float:
        """What breaking one promise now costs this character, in points;
        infinite for a character that never breaks its word."""
        if self.word == "keeps":
            return float("inf")
        if self.word == "breaks":
            return reputation.reputation_cost(b, seasons_left) + reputation.BREAK_MARGIN
        cost = lifetime.drop() * LIFETIME_WORTH if lifetime is not None else 0.0
        if seasons_left < LAST_SEASON:
            return cost + reputation.BREAK_MARGIN
        in_game = reputation.trust_drop(b, b.me) * WORD_WORTH * (1.0 + seasons_left)
        return cost + max(DECISIVE, in_game) + reputation.BREAK_MARGIN

    def keep_gain(self, b: Board, seasons_left: float, lifetime: Record | None = None) -> float:
        """What one more kept promise on our record is worth to a character
        that counts on its record (honest, shrewd): the trust it earns,
        priced as `break_cost` prices the trust a break loses; nothing for
        the ruthless, whose word is not what it sells."""
        if self.word == "breaks":
            return 0.0
        gain = reputation.trust_rise(b, b.me) * WORD_WORTH * (1.0 + max(0.0, seasons_left))
        return KEEP_SHARE * (gain + (lifetime.rise() * LIFETIME_WORTH if lifetime is not None else 0.0))

    def keep(self, b: Board, gain_if_broken: float, seasons_left: float, lifetime: Record | None = None) -> bool:
        """Keep our promise unless breaking it gains more than it costs us."""
        return gain_if_broken <= self.break_cost(b, seasons_left, lifetime)

    def promise_cost(self, b: Board, keeping: float, seasons_left: float, lifetime: Record | None = None) -> float:
        """What a promise of ours costs: keeping it costs `keeping`, less
        the trust one more kept promise earns us (`keep_gain`); when keeping
        costs more than this character bears, it would break it, which costs
        its reputation instead."""
        broken = self.break_cost(b, seasons_left, lifetime)
        if keeping > broken:
            return broken
        return max(keeping - self.keep_gain(b, seasons_left, lifetime), MIN_PROMISE_COST)


HONEST = Character("honest", "keeps", "Bargains and keeps every promise it is able to keep.")
SHREWD = Character("shrewd", "weighs", "Bargains and keeps its word while its record is worth more to it than "
                                       "breaking: it breaks a promise only in the last season or to win the game.")
RUTHLESS = Character("ruthless", "breaks", "Bargains and breaks a promise whenever breaking pays more than one "
                                           "broken promise costs its record: read its record before you pay it.")
CHARACTERS: dict[str, Character] = {c.name: c for c in (HONEST, SHREWD, RUTHLESS)}
DEFAULT = SHREWD  # the character of the server's default bot, and of tables where people sit
# Old names that still work (add_bots, stored seats): the character each one plays.
ALIASES: dict[str, str] = {"negotiator": DEFAULT.name}


def lifetime_record(memo: dict | None) -> Record | None:
    """The account record a caller gave the policy in its memo (`memo["lifetime"]
    = {"kept": k, "broken": b}`), for a bot that plays under an account."""
    raw = (memo or {}).get("lifetime")
    if not isinstance(raw, dict):
        return None
    kept, broken = raw.get("kept", 0), raw.get("broken", 0)
    if not isinstance(kept, int) or not isinstance(broken, int) or kept < 0 or broken < 0:
        return None
    return Record(kept, broken)


__all__ = ["ALIASES", "CHARACTERS", "DEFAULT", "HONEST", "RUTHLESS", "SHREWD", "Character", "Record",
           "lifetime_record"]
