"""Samurai in a few sentences, for someone about to watch a game (oriente demo).
The rules are docs/rules-samurai.md."""

PRIMER = """\
Samurai, in a few lines. The villages and cities of Japan hold helmets,
Buddhas and rice fields. On its turn a seat lays tiles of influence around
them; when a settlement is surrounded, each of its figures goes to the seat
with the most influence on that kind. When one kind runs out the game ends.
Only a seat with more of a kind than every other seat is in contention: two
such majorities win outright, else the most other figures among the seats in
contention win. (The whole rules: docs/rules-samurai.md.)
"""
