"""Tournaments, pure (no I/O, no clock, no global randomness): the event's
state machine (`model`), seating (`seating`), points (`scoring`),
standings and tie-breaks (`standings`) and the collusion report
(`collusion`). The server's director (server/director.py) stores and
drives it; docs/tournaments.md gives the rules it follows (TR ids)."""

from .model import Config, Entrant, Round, RoundTable, Tournament, TournamentError

__all__ = ["Config", "Entrant", "Round", "RoundTable", "Tournament", "TournamentError"]
