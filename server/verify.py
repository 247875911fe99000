"""Verify a finished game's record: that its cards are the ones the server
committed to before anyone joined, and that every shuffle and draw in it is
what those cards give (docs/table.md T7; `oriente verify RECORD`).

Pure (no I/O, no clock): a record in, a `Verdict` out. The game is known
only through its port (`server/game_port.py`), so every game the registry
serves is verified the same way:

1. **The commitment.** For a table dealt by commit and reveal
   (`dealing.DEAL_SCHEME`): the revealed salt, with the table's game, seat
   count and options, must give the commitment published when the table
   opened; then the seed must be `dealing.derive_seed(salt, nonces)`, the
   seat nonces in seat order. For a setup the server chose and committed to
   (`dealing.SETUP_SCHEME`, a tournament's duplicate setup): the salt must
   give the commitment over the record's config.
2. **The config.** The port, configured with the table's seat count,
   options and that seed, must give exactly the record's config: a changed
   seed or configured setup shows here.
3. **The replay.** The game restarted from that config, with every recorded
   command re-applied through the port, must give exactly the recorded
   events: a changed dealt card, draw or shuffle shows here, with the first
   event that differs.

A record with no commitment (written before commitments, or at a table
whose creator chose the seed) is replayed all the same, and is reported as
not verifiable, with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..protocol.codec import decode_any, encode
from . import dealing
from .game_port import GamePort, RulesRejection, SettingsError

__all__ = ["Verdict", "verify_record"]


@dataclass
class Verdict:
    """`ok`: True (every check passed), False (one failed: `problems` say
    which), None (the record cannot be verified: `problems` say why; its
    replay was still checked). `checked`: what was checked, for people."""

    ok: bool | None
    problems: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)

    def fail(self, why: str) -> Verdict:
        self.ok = False
        self.problems.append(why)
        return self

    def plain(self) -> dict[str, Any]:
        return {"ok": self.ok, "problems": self.problems, "checked": self.checked}


def _events_equal(replayed: list[dict[str, Any]], recorded: list[dict[str, Any]]) -> str | None:
    """None if equal, else a sentence naming the first event that differs."""
    for i, (a, b) in enumerate(zip(replayed, recorded, strict=False)):
        if a != b:
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            return (f"event {i} ({b.get('type', '?')}) is not what the cards gives: "
                    f"{', '.join(f'{k}: recorded {b.get(k)!r}, dealt {a.get(k)!r}' for k in keys)}")
    if len(replayed) != len(recorded):
        return f"the record holds {len(recorded)} game events, the replay gives {len(replayed)}"
    return None


def _replay(port: GamePort, record: Mapping[str, Any], verdict: Verdict) -> None:
    """Check 3: restart from the config and re-apply every command."""
    try:
        state, events = port.restart(record["config"])
        for seat, cmd in record.get("commands") or []:
            events.extend(port.apply(state, seat, cmd))
    except (RulesRejection, SettingsError, KeyError, TypeError, ValueError) as exc:
        verdict.fail(f"the recorded commands do not replay from the record's config: {exc}")
        return
    replayed = decode_any(encode(events))
    recorded = list(record.get("events") or [])
    problem = _events_equal(replayed, recorded)
    if problem is not None:
        verdict.fail(problem)
        return
    verdict.checked.append(f"every one of the {len(recorded)} game events replays from that seed "
                           "and the recorded commands")


def verify_record(record: Mapping[str, Any], ports: Mapping[str, GamePort]) -> Verdict:
    """Verify one finished game's record (see the module docstring)."""
    game = record.get("game", "oriente")
    port = ports.get(game)
    if port is None:
        return Verdict(ok=None, problems=[f"this program does not play {game!r}, so it cannot replay the record"])
    if record.get("result") is None:
        return Verdict(ok=None, problems=["the game did not finish: only a finished game's record is verified"])
    revealed = record.get("commitment")
    verdict = Verdict(ok=True)
    if not isinstance(revealed, Mapping):
        verdict.ok = None
        verdict.problems.append("not verifiable: the record predates commitments, or a player chose the "
                                "table's seed, so nothing bound the cards before play")
    elif revealed.get("scheme") == dealing.DEAL_SCHEME:
        _deal_scheme(port, game, record, revealed, verdict)
    else:
        if dealing.verify(str(revealed.get("sha256", "")), game, record.get("config") or {},
                          str(revealed.get("salt", ""))):
            verdict.checked.append("the setup is the one the server committed to before play")
        else:
            verdict.fail("the salt and config do not give the commitment published before play")
    if verdict.ok is not False:
        _replay(port, record, verdict)
    return verdict


def _deal_scheme(port: GamePort, game: str, record: Mapping[str, Any], revealed: Mapping[str, Any],
                 verdict: Verdict) -> None:
    """Checks 1 and 2 for a table dealt by commit and reveal."""
    salt, nonces = str(revealed.get("salt", "")), revealed.get("nonces")
    seats, options = revealed.get("seats"), revealed.get("options")
    if not isinstance(nonces, list) or not all(isinstance(n, str) for n in nonces) or not isinstance(seats, int) \
            or len(nonces) != seats or not isinstance(options, Mapping):
        verdict.fail("the record's commitment lacks its seats, options or one nonce per seat")
        return
    if not dealing.verify_deal(str(revealed.get("sha256", "")), game, seats, options, salt):
        verdict.fail("the revealed salt does not give the commitment published before anyone joined "
                     "(the salt, or the table's settings, were changed)")
        return
    verdict.checked.append("the salt is the one committed to before anyone joined")
    seed = dealing.derive_seed(salt, nonces)
    if revealed.get("seed") != seed:
        verdict.fail(f"the seed {revealed.get('seed')!r} is not the one the salt and the seats' nonces give "
                     f"({seed}): the seed or a nonce was changed")
        return
    verdict.checked.append(f"the seed comes from the salt and the {seats} seats' nonces")
    try:
        setup = port.configure(seats, seed, dict(options), {})
    except SettingsError as exc:
        verdict.fail(f"the committed options do not configure the game: {exc}")
        return
    if decode_any(encode(setup.record)) != record.get("config"):
        verdict.fail("the record's config is not what the committed settings and the seed give "
                     "(its seed or setup was changed)")
        return
    verdict.checked.append("the record's config is what that seed sets up")
