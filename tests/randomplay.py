"""Random games for the tests: the random policy of docs/benchmarks.md on
the engine's state, the one bench/engine.py measures
(`oriente.games.oriente.bots.engine_random`)."""

from oriente.games.oriente.bots.engine_random import random_move

__all__ = ["random_move"]
