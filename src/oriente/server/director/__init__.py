"""The tournament director (docs/tournaments.md), in parts that each own
their job: the registry (`registry.Director`), the rounds played on tables,
the store's side and recovery, the followers, the reports and exports."""

from .live import MAX_TOURNAMENTS, DirectorError
from .registry import Director

__all__ = ["MAX_TOURNAMENTS", "Director", "DirectorError"]
