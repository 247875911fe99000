"""Verify a finished game's record: that its cards are the ones the server
committed to before anyone joined, that every shuffle and draw in it is
what those cards give, and that the record says what the game gave
(docs/table.md T7; `oriente verify RECORD`).

Pure (no I/O, no clock): a record in, a `Verdict` out. The game is known
only through its port (`games/kit/port.py`), so every game the registry
serves is verified the same way:

1. **The commitment.** The record's commitment must be the one the
   verifier saw before the joins (`commitment`, when it kept it: a record
   rewritten later carries another), and the one the record's own
   `TableOpened` shows. For a table dealt by commit and reveal
   (`dealing.DEAL_SCHEME`): the revealed salt, with the table's game, seat
   count and options, must give it; each nonce the server supplied
   (`supplied`) must be the one the salt fixes for its seat, and the
   server's own bots must be among them; the verifier's own seat must hold
   its nonce (`seat`, `nonce`); then the seed must be
   `dealing.derive_seed(salt, nonces)`. For a setup the server chose and
   committed to (`dealing.SETUP_SCHEME`, a tournament's duplicate setup):
   the salt must give the commitment over the record's config.
2. **The config.** The port, configured with the table's seat count,
   options and that seed, must give exactly the record's config: a changed
   seed or configured setup shows here.
3. **The replay.** The game restarted from that config, with every recorded
   command re-applied through the port, must give exactly the recorded
   events and the recorded result: a changed dealt card, draw, shuffle or
   rank shows here, with the first event that differs.
4. **The table events, as far as the record proves them.** They are
   numbered with the game events without a gap up to the end; the names
   are the ones they seated; `TableStarted` shows the nonces revealed;
   `TableFinished` shows the result.

What no record can prove is said in `unproven`: who stood behind a name,
what chat and presence events say, and, when the verifier gave nothing it
saw live, that the record is the one the table showed. When no seat
brought a nonce of its own the cards were the server's to choose: that too.

A record with no commitment (written before commitments, or at a table
whose creator chose the seed) is replayed all the same, and is reported as
not verifiable, with the reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games.kit.port import GamePort, RulesRejection, SettingsError
from ..games.kit.replay import record_game, replay
from ..protocol.codec import decode_any, encode
from ..protocol.messages import DEFAULT_GAME
from . import dealing

__all__ = ["Verdict", "verify_record"]

SERVERS_CHOICE = ("no seat brought a nonce of its own: every nonce is the server's, made from the salt it "
                  "chose, so the cards were the server's to choose")


@dataclass
class Verdict:
    """`ok`: True (every check passed), False (one failed: `problems` say
    which), None (the record cannot be verified: `problems` say why; its
    replay was still checked). `checked`: what was checked, for people.
    `unproven`: what the checks do not prove, whatever `ok` says."""

    ok: bool | None
    problems: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    unproven: list[str] = field(default_factory=list)

    def fail(self, why: str) -> Verdict:
        self.ok = False
        self.problems.append(why)
        return self

    def plain(self) -> dict[str, Any]:
        return {"ok": self.ok, "problems": self.problems, "checked": self.checked, "unproven": self.unproven}


def _events_equal(replayed: list[dict[str, Any]], recorded: list[dict[str, Any]]) -> str | None:
    """None if equal, else a sentence naming the first event that differs."""
    for i, (a, b) in enumerate(zip(replayed, recorded, strict=False)):
        if a != b:
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            return (f"event {i} ({b.get('type', '?')}) is not what the cards give: "
                    f"{', '.join(f'{k}: recorded {b.get(k)!r}, dealt {a.get(k)!r}' for k in keys)}")
    if len(replayed) != len(recorded):
        return f"the record holds {len(recorded)} game events, the replay gives {len(replayed)}"
    return None


def _replay(port: GamePort, record: Mapping[str, Any], verdict: Verdict) -> None:
    """Check 3: restart from the config and re-apply every command; the end
    reached must be the record's result."""
    try:
        played = replay(port, record)
        result = played.result
    except (RulesRejection, SettingsError, KeyError, TypeError, ValueError) as exc:
        verdict.fail(f"the recorded commands do not replay from the record's config: {exc}")
        return
    replayed = decode_any(encode(played.events))
    recorded = list(record.get("events") or [])
    problem = _events_equal(replayed, recorded)
    if problem is not None:
        verdict.fail(problem)
        return
    verdict.checked.append(f"every one of the {len(recorded)} game events replays from that seed "
                           "and the recorded commands")
    if decode_any(encode(result)) != record.get("result"):
        verdict.fail(f"the record's result {record.get('result')!r} is not the end the replay reaches "
                     f"({decode_any(encode(result))!r})")
        return
    verdict.checked.append("the record's result is the end the replay reaches")


def verify_record(record: Mapping[str, Any], ports: Mapping[str, GamePort], *, commitment: str | None = None,
                  seat: int | None = None, nonce: str | None = None) -> Verdict:
    """Verify one finished game's record (see the module docstring).
    `commitment`: the digest the verifier saw before the joins (the
    table's `settings.commitment`, or a rematch's announced one); `seat`
    and `nonce`: the verifier's own seat and the secret nonce it sent for
    it (its join's, rematch's or resume's); a seat without a nonce says
    the verifier brought none, so the server must have supplied it."""
    game = record_game(record, ports, DEFAULT_GAME)
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
        if commitment is not None:
            verdict.fail(f"the table showed the commitment {commitment} before the joins, but the record has none")
    else:
        _live_commitment(record, revealed, commitment, verdict)
        if verdict.ok is not False and revealed.get("scheme") == dealing.DEAL_SCHEME:
            _deal_scheme(port, game, record, revealed, verdict, seat, nonce)
        elif verdict.ok is not False:
            if dealing.verify(str(revealed.get("sha256", "")), game, record.get("config") or {},
                              str(revealed.get("salt", ""))):
                verdict.checked.append("the setup is the one the server committed to before play")
            else:
                verdict.fail("the salt and config do not give the commitment published before play")
            if seat is not None:
                verdict.unproven.append("a setup the server chose takes no nonce: no seat's share is in it")
    if verdict.ok is not False:
        _replay(port, record, verdict)
    if verdict.ok is not False:
        _table_events(record, verdict)
    verdict.unproven.append("who stood behind each name, and what chat, presence and timing events say: "
                            "the record holds the server's word for them, which no replay can check")
    return verdict


def _live_commitment(record: Mapping[str, Any], revealed: Mapping[str, Any], seen: str | None,
                     verdict: Verdict) -> None:
    """The commitment the record reveals against the one shown before the
    joins: the verifier's own copy when it kept one, and the record's
    TableOpened (which proves nothing on its own: the record carries both)."""
    sha = str(revealed.get("sha256", ""))
    if seen is not None:
        if seen.strip().lower() != sha:
            verdict.fail(f"the record's commitment {sha} is not the one shown before the joins ({seen}): "
                         "the record was rewritten, or is another table's")
            return
        verdict.checked.append("the record's commitment is the one shown before the joins")
    else:
        verdict.unproven.append("that the commitment is the one shown before anyone joined: only the record's "
                                "own copy was compared (give the digest you saw: --commitment)")
    opened = next((e for e in record.get("table_events") or [] if e.get("type") == "TableOpened"), None)
    if opened is not None and (opened.get("settings") or {}).get("commitment") != sha:
        verdict.fail("the record's TableOpened shows another commitment than the one it reveals")


def _deal_scheme(port: GamePort, game: str, record: Mapping[str, Any], revealed: Mapping[str, Any],
                 verdict: Verdict, seat: int | None, nonce: str | None) -> None:
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
    supplied = _supplied(record, revealed, salt, nonces, verdict)
    if verdict.ok is False:
        return
    if not _own_seat(record, nonces, supplied, seat, nonce, verdict):
        return
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


def _bot_seats(record: Mapping[str, Any]) -> set[int]:
    """The seats the server's own bots held at the start, from the table events."""
    bots: dict[int, bool] = {}
    for e in record.get("table_events") or []:
        if e.get("type") == "SeatTaken" and isinstance(e.get("seat"), int):
            bots[e["seat"]] = bool(e.get("bot"))
        elif e.get("type") == "SeatLeft" and isinstance(e.get("seat"), int):
            bots.pop(e["seat"], None)
        elif e.get("type") == "TableStarted":
            break
    return {s for s, bot in bots.items() if bot}


def _supplied(record: Mapping[str, Any], revealed: Mapping[str, Any], salt: str, nonces: list[str],
              verdict: Verdict) -> list[int] | None:
    """T7.2: each nonce the server supplied is the one the committed salt
    fixes for its seat, and the server's bots brought none of their own.
    None: a record from before `supplied`."""
    if "supplied" not in revealed:
        verdict.unproven.append("which seats' nonces the server supplied: the record predates saying so, and "
                                "a nonce the server drew itself could have been chosen to steer the cards")
        return None
    supplied = revealed["supplied"]
    if not isinstance(supplied, list) or not all(isinstance(s, int) and 0 <= s < len(nonces) for s in supplied) \
            or len(set(supplied)) != len(supplied):
        verdict.fail("the record's list of the seats whose nonce the server supplied is not a list of its seats")
        return None
    for s in supplied:
        if nonces[s] != dealing.supplied_nonce(salt, s):
            verdict.fail(f"seat {s}'s nonce is not the one the server must supply for it (from the committed salt "
                         "and the seat): the server chose it")
            return None
    claimed = sorted(_bot_seats(record) - set(supplied))
    if claimed:
        verdict.fail(f"the server's own bots at seats {claimed} are said to have brought nonces of their own: "
                     "the server chose them")
        return None
    if supplied:
        verdict.checked.append(f"the nonces the server supplied (seats {sorted(supplied)}) are the ones the "
                               "committed salt fixes for them")
    if len(supplied) == len(nonces):
        verdict.unproven.append(SERVERS_CHOICE)
    return supplied


def _own_seat(record: Mapping[str, Any], nonces: list[str], supplied: list[int] | None, seat: int | None,
              nonce: str | None, verdict: Verdict) -> bool:
    """The verifier's own seat holds its nonce (or, without one, the server's)."""
    if seat is None:
        if nonce is not None:
            verdict.fail("a nonce without its seat: give --seat too")
            return False
        verdict.unproven.append("that your own nonce is in the seed: give your seat and the nonce you sent "
                                "(--seat, --nonce)")
        return True
    if not 0 <= seat < len(nonces):
        verdict.fail(f"there is no seat {seat}: the table had {len(nonces)}")
        return False
    if nonce is not None:
        if nonces[seat] != dealing.seat_nonce(str(record.get("table", "")), nonce):
            where = " (the record says the server supplied it)" if supplied and seat in supplied else ""
            verdict.fail(f"seat {seat}'s nonce in the record is not the one your nonce gives{where}: "
                         "your share of the seed was left out")
            return False
        verdict.checked.append(f"seat {seat}'s nonce is the one your nonce gives")
        return True
    if supplied is None:
        verdict.unproven.append(f"that the server supplied seat {seat}'s nonce without choosing it: "
                                "the record predates saying which nonces it supplied")
    elif seat not in supplied:
        verdict.fail(f"seat {seat} brought no nonce, yet the record says it did: the server chose that nonce")
        return False
    return True


def _table_events(record: Mapping[str, Any], verdict: Verdict) -> None:
    """Check 4: what the record can prove of its table events and names."""
    table_events = [e for e in record.get("table_events") or [] if isinstance(e, Mapping)]
    seqs = [e.get("seq") for e in table_events]
    if not table_events or not all(isinstance(s, int) for s in seqs):
        verdict.unproven.append("the table events: the record holds none with their numbers")
        return
    if any(b <= a for a, b in itertools.pairwise(s for s in seqs if isinstance(s, int))):
        verdict.fail("the table events are not in the order of their numbers")
        return
    # A record from before records ended at the end may hold events after it.
    end = next((i for i, e in enumerate(table_events) if e.get("type") in ("TableFinished", "TableFailed")),
               len(table_events) - 1)
    ending = table_events[end]
    total = end + 1 + len(record.get("events") or [])
    opened_first = table_events[0].get("type") != "TableOpened" or seqs[0] == 1
    if ending.get("type") not in ("TableFinished", "TableFailed") or ending.get("seq") != total or not opened_first:
        verdict.fail(f"the table events and the {len(record.get('events') or [])} game events are not the "
                     f"table's whole log up to its end (numbered 1 to {total}): an event was added or removed")
        return
    if ending.get("type") == "TableFinished" and ending.get("result") != record.get("result"):
        verdict.fail("the record's result is not the one its TableFinished event announced")
        return
    names: dict[int, Any] = {}
    for e in table_events:
        if e.get("type") == "SeatTaken":
            names[e.get("seat")] = e.get("name")  # type: ignore[index]
        elif e.get("type") == "SeatLeft":
            names.pop(e.get("seat"), None)  # type: ignore[arg-type]
        elif e.get("type") == "TableStarted":
            revealed = record.get("commitment") or {}
            if "nonces" in revealed and e.get("nonces") != revealed.get("nonces"):
                verdict.fail("the nonces TableStarted made public are not the ones the record reveals")
                return
            if "supplied" in revealed and e.get("supplied") != revealed.get("supplied"):
                verdict.fail("the seats TableStarted said the server supplied are not the ones the record says")
                return
    recorded = list(record.get("names") or [])
    if [names.get(i) for i in range(len(recorded))] != recorded:
        verdict.fail("the record's names are not the ones its SeatTaken events seated")
        return
    verdict.checked.append("the table events and the game events make the table's whole log up to its end, "
                           "and the names are the ones they seated")
