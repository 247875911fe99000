"""The games this server plays: one port per game (see `..game_port`), by
the name tables give in `create_table.game`. Adding a game is adding its
pure rules package, its port module here and a line below."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..game_port import GamePort
from .oriente import OrientePort
from .oro import OroPort
from .samurai import SamuraiPort

PORTS: Mapping[str, GamePort] = MappingProxyType(
    {port.name: port for port in (OrientePort(), OroPort(), SamuraiPort())})

__all__ = ["PORTS"]
