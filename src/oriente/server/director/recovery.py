"""A tournament as the store keeps it: written after every change, before
anyone is told (`Storage.save`), and read back after a restart or by
another process of the site (`loaded`, `Storage.stored`). The withheld
state of its duplicate boards' tables (TR3.2) is stored with it, so that
every process refuses their records, spectating and replays."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...protocol.codec import decode_any, encode
from ..lobby import Lobby
from ..stores import Store, StoreFenced
from ..tournament import Tournament
from ..tournament.standings import withheld
from .live import DirectorError, Live


def loaded(body: bytes, rounds: list[bytes]) -> Live:
    """A tournament read back from its stored head and rounds."""
    plain = decode_any(body)
    # An event stored without a seed key predates it: it goes on with its old seeds.
    key = plain.get("seed_key")
    t = Tournament.from_plain({**plain["tournament"], "rounds": [decode_any(r) for r in rounds]},
                              seed_key=bytes.fromhex(key) if isinstance(key, str) else None)
    return Live(t=t, secret=plain["secret"])


class Storage:
    """The store's side of the tournaments a process directs. `lose`: what
    to do with a tournament another process directs now (the store fenced
    this one's write)."""

    def __init__(self, store: Store, lobby: Lobby, wall: Callable[[], float], lose: Callable[[Live], None]) -> None:
        self.store = store
        self.lobby = lobby
        self.wall = wall
        self.lose = lose

    async def save(self, live: Live, *, head: bool = False, rounds: Iterable[int] = ()) -> None:
        """Store what changed: the head (settings, entrants, the finished
        mark, the secret and the seed key) and/or the rounds given, and the
        withheld state of the tables whose state changed, in one commit. On a
        site of many processes, refused (StoreFenced) once another process
        directs the tournament: this one lets it go and says so."""
        stored: dict[str, Any] = {"tournament": live.t.head_plain(), "secret": live.secret}
        if live.t.seed_key is not None:
            stored["seed_key"] = live.t.seed_key.hex()
        body = encode(stored) if head else None
        blobs = {n: encode(live.t.rounds[n - 1].to_plain()) for n in rounds}
        changed = self.withhold(live)
        try:
            await self.store.save_tournament(live.t.id, body, now=self.wall(), rounds=blobs, tables=changed)
        except StoreFenced:
            self.lose(live)
            raise DirectorError("tournament/moved", "another process of this site directs this tournament now: "
                                "send the request again") from None
        live.held.update(changed)

    def withhold(self, live: Live, *, clear: bool = False) -> dict[str, bool]:
        """TR3.2: duplicate boards still playing somewhere keep their tables'
        records and spectating closed. Updates this process's set and
        returns what changed since the state last stored (table -> withheld),
        for `save` to store with the tournament. `clear`: forget them here
        (the store keeps them: another process directs the tournament)."""
        all_ids = {x.table_id for r in live.t.rounds for x in r.tables if x.board and x.table_id}
        held = withheld(live.t) if not clear else set()
        self.lobby.withheld.difference_update(all_ids)
        self.lobby.withheld.update(held)
        now = {table_id: table_id in held for table_id in all_ids}
        return {table_id: h for table_id, h in now.items() if live.held.get(table_id) != h}

    async def stored(self, tournament_id: str, here: dict[str, Live]) -> Live | None:
        """A tournament directed here (in `here`), or read from the store
        (directed by another process of the site): for what anyone may read of it."""
        live = here.get(tournament_id)
        if live is not None or not 0 < len(tournament_id) <= 64:
            return live
        found = await self.store.tournament(tournament_id)
        return loaded(*found) if found is not None else None
