"""protocol/PROTOCOL.md's tables against a running server, as the vectors check
its bytes: the contents and section numbers, each game's seat range and bot
kinds, the fields of every game's view and of the record, the large
integers, and the verify recipe followed as written (steps 1 to 3)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import trio

from oriente.clients.sdk import Client, ServerError
from oriente.server.app import App

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "protocol" / "PROTOCOL.md").read_text(encoding="utf-8")
FAST = {"prompt_ms": 100, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": True, "away_after": 1}


def _section(title: str, level: str = "##") -> str:
    start = DOC.index(f"\n{level} {title}\n")
    ends = [i for i in (DOC.find("\n## ", start + 1), DOC.find(f"\n{level} ", start + 1)) if i != -1]
    return DOC[start:min(ends)]


def _slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _table_rows(text: str) -> dict[str, str]:
    return {line.split("|")[1].strip().replace("`", ""): line for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("|---")}


def test_the_contents_list_every_numbered_section_in_order_and_links_resolve() -> None:
    headings = re.findall(r"^## (.+)$", DOC, flags=re.M)
    numbered = [h for h in headings if re.match(r"\d+ ", h)]
    assert [int(h.split()[0]) for h in numbered] == list(range(1, len(numbered) + 1))
    contents = DOC[DOC.index("Contents:"):DOC.index("\n---\n")]
    listed = re.findall(r"\[([^\]]+)\]\(#([^)]+)\)", contents)
    assert [anchor for _, anchor in listed] == [_slug(h) for h in headings if h != "Cards"] + ["cards"]
    anchors = {_slug(h) for h in re.findall(r"^#{2,3} (.+)$", DOC, flags=re.M)}
    for label, anchor in re.findall(r"\[([^\]]+)\]\(#([^)]+)\)", DOC):
        assert anchor in anchors, f"[{label}](#{anchor}) leads nowhere"
        if re.fullmatch(r"\d+", label) and re.match(r"\d+-", anchor):
            assert anchor.split("-")[0] == label, f"[{label}](#{anchor}) names another section's number"


@pytest.fixture
async def server(tmp_path: Path, nursery: trio.Nursery) -> Any:
    app = App(str(tmp_path / "store.sqlite"), port=0, bot_delay=0.0)
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def _play(url: str, game: str, seats: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict, dict]:
    """One whole game of the server's random bots with this client at seat 0
    (played by the proxy after its first timeout): the views and prompts it
    saw, the table information and the record."""
    views: list[dict[str, Any]] = []
    prompts: list[dict[str, Any]] = []
    async with Client.connect(url) as client:
        table = await client.create_table(seats, game=game, timers=FAST, proxy_after=1, name="doc")
        info = (await client.request({"t": "list_tables"}))["tables"]
        seat = await client.join(table, "doc", views=True)
        assert seat.token is not None
        await client.add_bots(table, seat.token, policy="random")
        with trio.fail_after(120):  # a guard against a hang, not a budget
            async for update in seat.updates():
                if update.view is not None:
                    views.append(update.view)
                if update.prompt is not None:
                    prompts.append(update.prompt)
                if any(e["type"] == "TableFinished" for e in update.events):
                    break
        record = await client.record(table)
    return views, prompts, next(t for t in info if t["table"] == table), record


GAMES = {"oriente": ("10 The view and the table information", "### The view"),
         "oro": ("18 Oro", "### Oro's view"), "samurai": ("20 Samurai", "### Samurai's view")}


@pytest.mark.trio
async def test_seat_ranges_and_bot_kinds_are_the_servers(server: App) -> None:
    create_rows = _table_rows(_section("create_table", "###"))
    bot_rows = _table_rows(_section("add_bots", "###"))
    async with Client.connect(f"ws://127.0.0.1:{server.port}") as client:
        assert client.welcome is not None
        info, bots = client.welcome["game_info"], client.welcome["bots"]
        assert sorted(info) == sorted(GAMES)
        for game, told in info.items():
            low, high = told["seats"]["min"], told["seats"]["max"]
            assert f"{low} to {high} for {game}" in create_rows["seats"], game
            assert f'"{game}"' in create_rows["game"]
            assert f"{low} to {high}" in DOC[:DOC.index("\n---\n")], game  # the introduction says it too
            for wrong in (low - 1, high + 1):
                with pytest.raises(ServerError) as refused:
                    await client.create_table(wrong, game=game)
                assert refused.value.code == "table/bad_settings"
            assert all(f"`{kind}`" in bot_rows[game] for kind in bots[game]), (game, bots[game])
            assert f"`{bots[game][0]}` (the default)" in bot_rows[game]
    assert "rated" in create_rows


@pytest.mark.trio
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_field_of_a_games_view_is_described_as_it_is(server: App, game: str) -> None:
    seats = {"oriente": 4, "oro": 2, "samurai": 2}[game]
    views, prompts, _, record = await _play(f"ws://127.0.0.1:{server.port}", game, seats)
    view_doc = _section(GAMES[game][1].removeprefix("### "), "###")
    rows = _table_rows(view_doc)
    documented = {name.strip("` ") for row in rows for name in row.replace("`", "").split(",")}
    seen = {key for view in views for key in view}
    assert seen <= documented, f"{game}: undocumented view fields {seen - documented}"
    # The shape the document gives `seats` and `game`.
    if game == "oriente":
        assert all(isinstance(v["seats"], list) and "game" not in v for v in views)
        assert "a **list**" in rows["seats"] and "no `game` field" in view_doc
        deals = [d for v in views for d in v.get("deals") or []]
        assert all(isinstance(d["accepted"], list) for d in deals)
        assert all(isinstance(s["kept"], int) and isinstance(s["broken"], int) for v in views for s in v["seats"])
    else:
        assert all(isinstance(v["seats"], int) and v["game"] == game for v in views)
        first = next(row for name, row in rows.items() if name.startswith("viewer, seats"))
        assert rows["game"].count(f'"{game}"') == 1 and "the number of seats" in first
    if game == "samurai":
        placed = [v["current"]["placed"] for v in views if v.get("current")]
        assert placed and all(isinstance(n, int) for n in placed)
        assert "how many tiles" in rows["current"] and "how many tiles" in _table_rows(
            _section("Samurai's prompt", "###"))["placed, plain_used"]
    # Large integers: what the document names is what comes, as an integer.
    at = [p["deadline_at_ms"] for p in prompts if "deadline_at_ms" in p]
    assert at and all(isinstance(x, int) and x >= 2**32 for x in at)
    assert "`deadline_at_ms`" in _section("2 Frames and the envelope") and "useBigInt64" in DOC
    assert record["game"] == game


@pytest.mark.trio
async def test_the_record_and_the_verify_recipe_as_written(server: App) -> None:
    _, _, info, record = await _play(f"ws://127.0.0.1:{server.port}", "oriente", 4)
    rows = _table_rows(_section("The record", "###"))
    assert set(record) <= set(rows), set(record) - set(rows)
    assert "accounts" in rows and "2,000" in _table_rows(_section("14 Error codes"))["deal/too_long"]
    c = record["commitment"]
    assert c["scheme"] == "reveal.v1" and re.fullmatch(r"[0-9a-f]{64}", c["salt"])
    # Step 1, as written: the committed options are the record's, not settings.options.
    assert c["options"] != info["settings"]["options"] and "deal" in c["options"]
    text = json.dumps({"config": {"options": c["options"], "seats": c["seats"]}, "game": record["game"]},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    digest = hashlib.sha256(b"oriente.reveal.v1\0" + c["salt"].encode("ascii") + b"\0" + text.encode()).hexdigest()
    assert digest == c["sha256"] == info["settings"]["commitment"]
    # Step 2: the nonces the server supplied follow from the salt.
    for s in c["supplied"]:
        fixed = hashlib.sha256(b"oriente.server-nonce.v1\0" + c["salt"].encode() + b"\0" + str(s).encode())
        assert c["nonces"][s] == fixed.hexdigest()
    # Step 3: the seed from the salt and the nonces, 63 bits.
    h = hashlib.sha256(b"oriente.seed.v1\0" + c["salt"].encode() + b"".join(b"\0" + n.encode() for n in c["nonces"]))
    assert int.from_bytes(h.digest()[:8], "big") >> 1 == c["seed"] == record["config"]["seed"]
