"""Oriente in a few sentences, for someone about to watch a game (oriente demo).

The rules are docs/rules.md; this says only what a newcomer needs to follow
the story: who is at the table, what happens in a season, how one wins."""

PRIMER = """\
Oriente, in a few lines. Every seat holds one hidden inhabitant of old Japan,
from the Shogun (rank 7) down to the Nofu peasants, and the Ninjas (rank 0).
Season after season the seats, in turn, may announce an action: an attack on
another seat, or their inhabitant's ability. A seat of higher rank may claim
privilege and announce in its place. A fight is won by the stronger side,
supporters counted, so seats bargain at any time: cards for support, promises
kept or broken in public. Beaten inhabitants and bonus cards go to score piles.
When the Geisha is drawn the game ends and the highest score wins - unless a
seat has all three Ninjas in its score pile at a season's end: it wins at once.
(The whole rules: docs/rules.md.)
"""
