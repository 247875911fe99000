"""The golden frames of protocol/vectors/vectors.json, checked against the
codec, the message catalogue, the rules' command parser and an independent
msgpack implementation; and the file against its generator."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import msgpack
import msgspec
import pytest

from oriente.protocol import messages as M
from oriente.protocol.codec import ProtocolError, client_id_of, decode_any, decode_client, encode
from oriente.server import oro, samurai
from oriente.server.game_port import RulesRejection
from oriente.server.games.oriente import OrientePort
from oriente.server.rules import GameConfig, command_from_plain, new_game, plain
from oriente.server.rules.serial import COMMAND_TYPES

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
VECTORS: list[dict[str, Any]] = json.loads((VECTOR_DIR / "vectors.json").read_text(encoding="utf-8"))

CLIENT = [v for v in VECTORS if v["direction"] == "client"]
SERVER = [v for v in VECTORS if v["direction"] == "server"]
VALID = [v for v in CLIENT if v["valid"]]
INVALID = [v for v in CLIENT if not v["valid"]]
LISTED = [v for v in VECTORS if v["hex"] is not None]
ACTS = [v for v in VALID if v["decoded"] is not None and v["decoded"].get("t") == "act"]
SERVER_TYPES = ("welcome", "ok", "error", "snapshot", "events", "goodbye", "tournament", "moved")
CODEC_CODES = ("frame/not_binary", "frame/too_large", "frame/malformed", "message/invalid",
               "message/unknown_type")


def _names(vectors: list[dict[str, Any]]) -> list[str]:
    return [v["name"] for v in vectors]


def _frame(v: dict[str, Any]) -> bytes | str:
    """The frame a vector describes: its bytes, its text, or the generated frame."""
    if v["hex"] is None:
        g = v["generator"]
        return encode({**g["message"], g["pad_field"]: g["pad_char"] * g["pad_length"]})
    raw = bytes.fromhex(v["hex"])
    return raw.decode("utf-8") if v["frame"] == "text" else raw


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (1, 1.0 and True differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def test_vectors_are_well_formed() -> None:
    names = _names(VECTORS)
    assert len(names) == len(set(names))
    for v in VECTORS:
        assert v["direction"] in ("client", "server")
        assert v["frame"] in ("binary", "text")
        assert v["name"].startswith(v["direction"] + "/")
        assert v["note"]
        if v["direction"] == "client":
            assert isinstance(v["valid"], bool)
            assert ("error_code" in v) is (not v["valid"])
        if v["hex"] is None:
            assert v["direction"] == "client" and "generator" in v


@pytest.mark.parametrize("v", LISTED, ids=_names(LISTED))
def test_hex_decodes_with_independent_msgpack(v: dict[str, Any]) -> None:
    raw = bytes.fromhex(v["hex"])
    if v["decoded"] is None:
        with pytest.raises(ValueError):  # every msgpack unpacking error is a ValueError
            msgpack.unpackb(raw, raw=False)
    else:
        assert _same(msgpack.unpackb(raw, raw=False), v["decoded"])


@pytest.mark.parametrize("v", VALID, ids=_names(VALID))
def test_valid_client_frames_decode(v: dict[str, Any]) -> None:
    frame = _frame(v)
    struct = decode_client(frame)
    assert struct.__struct_config__.tag == msgspec.msgpack.decode(frame)["t"]
    if v["hex"] is None:
        assert len(frame) == v["generator"]["frame_bytes"] <= M.MAX_FRAME
        return
    assert _same(msgspec.to_builtins(struct), v["normalized"])
    assert encode(v["decoded"]) == frame  # the bytes are what the codec writes for this value
    assert (encode(struct) == frame) is v["canonical"]
    if v["canonical"]:
        assert _same(msgspec.to_builtins(struct), v["decoded"])


@pytest.mark.parametrize("v", INVALID, ids=_names(INVALID))
def test_invalid_client_frames_are_refused(v: dict[str, Any]) -> None:
    frame = _frame(v)
    with pytest.raises(ProtocolError) as caught:
        decode_client(frame)
    assert caught.value.code == v["error_code"]
    assert caught.value.message
    assert client_id_of(frame) == v["error_re"]
    if v["hex"] is None:
        assert len(frame) == v["generator"]["frame_bytes"] > M.MAX_FRAME


@pytest.mark.parametrize("v", ACTS, ids=_names(ACTS))
def test_act_commands(v: dict[str, Any]) -> None:
    cmd = v["decoded"]["cmd"]
    if v.get("game") == "oro":  # an act at an Oro table (PROTOCOL.md 18)
        parsed = oro.command_from_plain(cmd)
        assert type(parsed).__name__ == cmd["type"] and (oro.plain(parsed) == cmd) is v["cmd_canonical"]
        return
    if v.get("game") == "samurai":  # an act at a Samurai table (PROTOCOL.md 20)
        parsed = samurai.command_from_plain(cmd)
        assert type(parsed).__name__ == cmd["type"] and (samurai.plain(parsed) == cmd) is v["cmd_canonical"]
        return
    assert "game" not in v
    if "cmd_error_code" in v:
        state, _ = new_game(GameConfig(seats=4, seed=0))
        with pytest.raises(RulesRejection) as caught:
            OrientePort().apply(state, 0, cmd)
        assert caught.value.code == v["cmd_error_code"]
    else:
        parsed = command_from_plain(cmd)
        assert type(parsed).__name__ == cmd["type"] != "Timeout"
        assert (plain(parsed) == cmd) is v["cmd_canonical"]


@pytest.mark.parametrize("v", SERVER, ids=_names(SERVER))
def test_server_frames(v: dict[str, Any]) -> None:
    raw = bytes.fromhex(v["hex"])
    assert v["frame"] == "binary"
    assert encode(v["decoded"]) == raw
    assert _same(decode_any(raw), v["decoded"])
    # Canonical msgpack: another implementation packs the same value to the same bytes.
    assert msgpack.packb(v["decoded"], use_bin_type=True) == raw


def test_coverage() -> None:
    valid_types = {v["decoded"]["t"] for v in VALID if v["decoded"] is not None}
    assert valid_types == set(M.CLIENT_TYPES)
    assert {v["decoded"]["t"] for v in SERVER} == set(SERVER_TYPES)
    commands = {v["decoded"]["cmd"].get("type") for v in ACTS if "game" not in v}
    assert set(COMMAND_TYPES) <= commands
    oro_commands = {v["decoded"]["cmd"]["type"] for v in ACTS if v.get("game") == "oro"}
    assert {"GiveUp", "Build", "Draw"} <= oro_commands
    samurai_commands = {v["decoded"]["cmd"]["type"] for v in ACTS if v.get("game") == "samurai"}
    assert {"ChooseTiles", "PlaceFigure", "PlaceTile", "EndTurn"} <= samurai_commands
    assert len(INVALID) >= 8
    assert set(CODEC_CODES) <= {v["error_code"] for v in INVALID}
    assert any(v["frame"] == "text" for v in INVALID)


def _load_generator() -> Any:
    spec = importlib.util.spec_from_file_location("oriente_vectors_generate", VECTOR_DIR / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generator_reproduces_the_file() -> None:
    generator = _load_generator()
    text = (VECTOR_DIR / "vectors.json").read_text(encoding="utf-8")
    assert generator.render(generator.generate()) == text, (
        "vectors.json is out of date: run protocol/vectors/generate.py and review the diff")
