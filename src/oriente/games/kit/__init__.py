"""What every game needs and none of them owns.

A rules package (`games/<name>/rules/`) is a pure state machine: the same seed and commands give
the same events on every machine and Python version. The parts of that
which are not any one game's rules live here, once:

- `rng`: the seeded generator (PCG32 seeded through SplitMix64) and the
  derivation of one independent stream per kind of random event;
- `errors`: `Rejected` (a refused command: a stable namespaced code and a
  sentence) and `ConfigError` (a configuration the rules refuse), so a table
  server catches one type whatever game it hosts;
- `decisions`: the kinds of decision and the timer names the table actor
  switches on, and `TABLE`, the seat number the table's own commands (a
  timeout) come from;
- `plain`: dataclasses, enums and tuples as plain data for any codec.

Pure like the rules that import it (tests/test_purity.py): no I/O, no
clock, no global randomness. Nothing here names a game's concepts.

Beside them, what a game's port uses and its rules never import:

- `port`: the contract a game's port keeps with the table server
  (`GamePort`, and what crosses the seam), and `Port`, the base every
  port derives from;
- `projection`: what a viewer gets of an event its game's projection does
  not list (nothing of it: projections are fail-closed);
- `describe`: what a game says of itself (seats, options, windows), as
  `welcome.game_info` announces it;
- `waiting`: the open decision as the table's clock needs it, the same way
  for every game whose decisions use the shape of `decisions`.
"""

from .decisions import TABLE, DecisionKind, Timer
from .errors import ConfigError, Rejected
from .plain import plain
from .rng import MASK32, MASK64, Pcg32, derive_streams, splitmix64

__all__ = [
    "MASK32",
    "MASK64",
    "TABLE",
    "ConfigError",
    "DecisionKind",
    "Pcg32",
    "Rejected",
    "Timer",
    "derive_streams",
    "plain",
    "splitmix64",
]

# Old module names -> new ones, importable for one release (oriente.legacy).
LEGACY = {
    "oriente.server.gamekit": "oriente.games.kit",
    "oriente.server.game_port": "oriente.games.kit.port",
    "oriente.server.games.decisions": "oriente.games.kit.waiting",
}
