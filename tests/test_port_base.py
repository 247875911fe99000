"""The base every port derives from (games/kit/port.py `Port`): the plain
case of every member a port may leave out, one pass-through to a game's
rules package, and the server reading each member straight from the port
(no `getattr` with a default anywhere: a port that does not derive from
the base is refused when the lobby is built)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from oriente import games
from oriente.games.kit.port import SPECTATOR, GameSetup, Port, RulesRejection, Waiting
from oriente.server.lobby import Lobby
from tests.toy_game import ToyPort

SERVER = Path(__file__).resolve().parents[1] / "src" / "oriente" / "server"
OPTIONAL = ("policy_aliases", "policy_about", "new_table_options", "talk_commands", "promises", "rules_version",
            "replays", "words_dir", "interactions", "default_seats", "options", "windows")


class Bare(Port):
    name = "bare"
    seats = range(2, 4)


def test_a_port_that_leaves_everything_out_gets_the_plain_case() -> None:
    port = Bare()
    assert port.policies == () and dict(port.policy_aliases) == {} and dict(port.policy_about) == {}
    assert dict(port.new_table_options) == {} and port.talk_commands == frozenset()
    assert port.replays == frozenset({"bare"})
    assert port.rules_version(GameSetup(options={}, public={}, record={}, config=None)) == "bare"
    assert port.promises([{"type": "X"}], 2) is None and port.interactions([{"type": "X"}]) == []
    assert port.words_dir is None and port.describe().default_seats == 2
    with pytest.raises(NotImplementedError, match="names no rules package"):
        port.start(None)


def test_the_pass_through_reaches_the_rules_package() -> None:
    """A port that names its rules package plays through it: the same
    events, prompts, views and refusals as the package itself gives."""
    port = games.load("samurai")
    rules = port.rules
    assert rules is not None
    config = port.configure(3, 5, {}, {}).config
    state, events = port.start(config)
    assert events == [rules.plain(e) for e in rules.new_game(config)[1]]
    waiting = port.waiting(state)
    assert isinstance(waiting, Waiting)
    assert port.timeout_command(waiting) == {"type": "Timeout", "decision": waiting.key[0], "pivot": waiting.pivot}
    assert port.prompts(state, [0, SPECTATOR]) == rules.decision_views(state, [0, SPECTATOR])
    assert port.view(state, 1) == rules.view(state, 1)
    assert port.views(state, [1, SPECTATOR]) == {1: rules.view(state, 1), SPECTATOR: rules.view(state, SPECTATOR)}
    assert port.project(events[0], 2) == rules.project(events[0], 2)
    assert port.result(state) is None
    with pytest.raises(RulesRejection) as refused:
        port.apply(state, 0, {"type": "NoSuchCommand"})
    assert refused.value.code and refused.value.message


@pytest.mark.parametrize("name", [*games.registered(), "highcard"])
def test_every_port_derives_from_the_base(name: str) -> None:
    port = ToyPort() if name == "highcard" else games.load(name)
    assert isinstance(port, Port)
    for member in OPTIONAL:
        assert hasattr(port, member), member


def test_the_lobby_refuses_a_port_that_does_not_derive_from_the_base() -> None:
    class Loose:
        name = "loose"

    with pytest.raises(TypeError, match="does not derive"):
        Lobby({"loose": Loose()}, None, None)  # type: ignore[dict-item,arg-type]


def _reads_with_a_default(path: Path) -> list[str]:
    """getattr(x, "member", ...) or hasattr(x, "member") of a port's optional member."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value in OPTIONAL:
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_the_server_reads_the_ports_members_straight() -> None:
    found: list[Any] = [hit for path in sorted(SERVER.rglob("*.py")) for hit in _reads_with_a_default(path)]
    found += _reads_with_a_default(SERVER.parent / "games" / "kit" / "port.py")
    assert not found, found


def test_views_in_one_pass_reuse_the_prompts_given() -> None:
    """A rules package with `views_of` builds several views at once, and
    takes the open decision from the prompts the server built already."""
    port = games.load("oriente")
    state, _ = port.start(port.configure(5, 3, dict(port.new_table_options), {}).config)
    viewers = [0, 3, SPECTATOR]
    prompts = port.prompts(state, viewers)
    prompts[0] = {"id": "marked"}  # not what the rules would build: it shows the view took it
    views = port.views(state, viewers, prompts)
    assert views[0]["decision"] == {"id": "marked"}
    assert views[3] == port.view(state, 3) and views[SPECTATOR] == port.view(state, SPECTATOR)
    assert port.views(state, viewers) == {v: port.view(state, v) for v in viewers}
