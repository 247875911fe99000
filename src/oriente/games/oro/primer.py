"""Oro in a few sentences, for someone about to watch a game (oriente demo).
The rules are docs/rules-oro.md."""

PRIMER = """\
Oro, in a few lines. Islands joined by bridges; each card names an island.
On its turn a seat plays cards to build bridges from those islands, or two at
once to replace an opponent's bridge, then draws. Whoever holds more than half
of an island's places controls it, and an island scores for its controller the
places it does not fill. The deck runs out twice, with a scoring each time and
one last turn each; the most points win - or, at once, the seat that takes an
eleventh island. (The whole rules: docs/rules-oro.md.)
"""
