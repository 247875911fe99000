"""The games this server plays: one port per game (see `oriente.games.kit.port`),
by the name tables give in `create_table.game`. Adding a game is adding its
home (`oriente.games.<name>`: its pure rules package and its port) and a
line below."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ...games.kit.port import GamePort
from ...games.oriente.port import OrientePort
from ...games.oro.port import OroPort
from ...games.samurai.port import SamuraiPort

PORTS: Mapping[str, GamePort] = MappingProxyType(
    {port.name: port for port in (OrientePort(), OroPort(), SamuraiPort())})

__all__ = ["PORTS"]
