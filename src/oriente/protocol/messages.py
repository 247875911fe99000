"""The message catalogue of protocol oriente.v1, defined once.

Every WebSocket frame is a binary frame holding one msgpack map. The key
"t" names the message type. Client messages are typed here as msgspec
structs (decoded and validated in one pass); server messages are plain maps
built by the functions below, because they carry views and events that are
already plain data from the rules' one gate.

PROTOCOL.md documents every message with an example; `vectors/` holds
golden frames. Change this file, change those two.
"""

from __future__ import annotations

from typing import Annotated, Any, get_args
from urllib.parse import urlsplit

import msgspec

SUBPROTOCOL = "oriente.v1"
PROTOCOL_VERSION = 1
# The game of a table whose create_table names none (oriente.v1 served one
# game before tables named theirs), and of tables stored before then.
DEFAULT_GAME = "oriente"

# The protocol's own frame limit: larger frames get an error reply and the
# connection stays open. The websockets max_size above it is the hard ceiling.
MAX_FRAME = 64 * 1024
HARD_MAX_FRAME = 1024 * 1024

# A client's ids are echoed in replies and, for `act`, kept in the table's
# log: a string id is bounded (PROTOCOL.md 2, 12).
MAX_ID = 64
ClientId = int | Annotated[str, msgspec.Meta(max_length=MAX_ID)] | None


class _Msg(msgspec.Struct, tag_field="t", kw_only=True):
    """Base of client messages: `id` is chosen by the client and echoed in
    the reply; for `act` it also makes a retried command idempotent."""

    id: ClientId = None


class Hello(_Msg, tag="hello"):
    name: str = ""
    client: str = ""


class Ping(_Msg, tag="ping"):
    pass


class ListTables(_Msg, tag="list_tables"):
    """One page of the listing (PROTOCOL.md 3): after `cursor` (the `next`
    of the page before; null: from the start), at most `limit` tables."""

    cursor: str | None = None
    limit: int | None = None


class Timers(msgspec.Struct, kw_only=True):
    """Table timer settings, milliseconds (PROTOCOL.md 11)."""

    prompt_ms: int = 60_000
    window_ms: int = 30_000
    bank_ms: int = 120_000
    bank_refill_ms: int = 30_000
    zero_wait: bool = False
    away_after: int = 2
    turn_based: bool = False  # deadlines are wall-clock times in hours and days (docs/table.md T8)


class CreateTable(_Msg, tag="create_table"):
    """A new table of `game`; `options` are that game's own settings, which
    its port validates (PROTOCOL.md 3)."""

    seats: int
    name: str = ""
    public: bool = True
    seed: int | None = None
    timers: Timers | None = None
    auto_start: bool = True
    proxy_after: int | None = None
    game: str = DEFAULT_GAME
    options: dict[str, Any] = {}
    rated: bool = False


class Join(_Msg, tag="join"):
    """Take a seat. `views`: every events frame for this connection also
    carries the seat's full current view (bots and rich clients want it).
    `nonce`: a secret the client chose, which makes a retried join safe: the
    same nonce at the same table gets the same seat and token back."""

    table: str
    name: str
    seat: int | None = None
    views: bool = False
    nonce: str | None = None


class Leave(_Msg, tag="leave"):
    table: str
    token: str


class Start(_Msg, tag="start"):
    table: str
    token: str


class Resume(_Msg, tag="resume"):
    """Take one's seat again (after join, or on reconnect): the token
    authorises; `after` is the last sequence number the client saw.
    `nonce`: the seat's secret share of the table's seed, for a seat that
    has none yet at a table that has not started (a tournament's reserved
    seat, a join without a nonce); otherwise not looked at."""

    table: str
    token: str
    after: int | None = None
    views: bool = False
    nonce: str | None = None


class Spectate(_Msg, tag="spectate"):
    table: str
    after: int | None = None
    views: bool = False


class Unsubscribe(_Msg, tag="unsubscribe"):
    table: str


class Act(_Msg, tag="act"):
    """A game command (plain data, PROTOCOL.md 7) for a table this
    connection holds a seat at."""

    table: str
    cmd: dict[str, Any]


class Back(_Msg, tag="back"):
    """The seat this connection holds is attended again: an away seat gets
    its deadlines back and a proxied one its owner, without a game command."""

    table: str


class Chat(_Msg, tag="chat"):
    table: str
    text: str


class GetRecord(_Msg, tag="record"):
    table: str


class AddBots(_Msg, tag="add_bots"):
    """Fill free seats of an open table with the server's own bots, on
    behalf of a seated player (the token). `count` null: every free seat.
    `policy` names one of the kinds the welcome frame lists in `bots` for
    the table's game; null: the first of them (the game's default)."""

    table: str
    token: str
    policy: str | None = None
    count: int | None = None


class Rematch(_Msg, tag="rematch"):
    """Play an ended table's game again, on behalf of one of its players
    (the token): a new table with the same settings and a new seed, the
    server's bots at their seats again. The first request creates it and
    the old table's viewers hear of it (RematchOffered); every request is
    answered as a join of the requester's own seat at the new table, with
    `nonce` as that join's (its retry nonce, and the seat's share of the
    new table's seed)."""

    table: str
    token: str
    views: bool = False
    nonce: str | None = None


class SignUp(_Msg, tag="sign_up"):
    """Make a person's account and sign this connection in to it (PROTOCOL.md 19)."""

    name: str
    password: str


class SignIn(_Msg, tag="sign_in"):
    """Sign this connection in: a person with `name` and `password`, or
    anyone with a session or API `token` from before."""

    name: str = ""
    password: str = ""
    token: str | None = None


class SignOut(_Msg, tag="sign_out"):
    """Sign this connection out; a session token is revoked, an API token kept."""


class Sessions(_Msg, tag="sessions"):
    """The signed-in person's live sessions: when and where each began and
    was last used, when it ends, and which one is this connection's."""


class SignOutEverywhere(_Msg, tag="sign_out_everywhere"):
    """End every session of the signed-in person (this connection's too,
    unless `keep_current`); bots' API tokens are left alone."""

    keep_current: bool = False


class BotToken(_Msg, tag="bot_token"):
    """A new API token for the signed-in person's bot `bot` (the bot's
    account is made on first use)."""

    bot: str
    label: str = ""


class Tokens(_Msg, tag="tokens"):
    """The signed-in person's bots' API tokens (ids and labels)."""


class RevokeToken(_Msg, tag="revoke_token"):
    token_id: str


class SetEmail(_Msg, tag="set_email"):
    """Give the signed-in person's e-mail address ("" removes it): the
    server mails a confirmation link to it, and once it is opened mails the
    person when a turn-based table awaits them (docs/accounts.md, "E-mail")."""

    address: str


class Leaderboard(_Msg, tag="leaderboard"):
    game: str = DEFAULT_GAME
    limit: int = 50


class Profile(_Msg, tag="profile"):
    """An account's ratings, their history and its reputation."""

    name: str


# -- tournaments (PROTOCOL.md 21) ------------------------------------------------

class TournamentCreate(_Msg, tag="tournament_create"):
    """Create a tournament with `settings` (docs/tournaments.md TR1.1); the
    reply holds its id and the organiser token, given this once."""

    settings: dict[str, Any]


class TournamentRegister(_Msg, tag="tournament_register"):
    """Enter a tournament as `name` (`kind` "player" or "bot"); the reply
    holds the entrant's id and entry token. With `policy` the organiser
    (`organiser_token`) enters one of the server's own bots."""

    tournament: str
    name: str
    kind: str = "player"
    policy: str | None = None
    organiser_token: str | None = None


class TournamentWatch(_Msg, tag="tournament_watch"):
    """Follow a tournament: the reply and every change after it bring a
    `tournament` frame. With an entry token, as that entrant: the frame
    says its current table, seat and seat token; in an arena the entrant
    waits to be seated for as long as it follows. `full` false (bots):
    brief frames, only when the entrant's table changes; true: the whole
    public state, at most once a second."""

    tournament: str
    token: str | None = None
    full: bool = True


class TournamentWithdraw(_Msg, tag="tournament_withdraw"):
    """Withdraw an entry: the entrant's own token, or the organiser token
    and the `entrant`'s id."""

    tournament: str
    token: str
    entrant: str | None = None


class TournamentDirect(_Msg, tag="tournament_direct"):
    """One of the organiser's actions (docs/tournaments.md TR5): start_round,
    pause, resume, reseat, adjudicate (`round`, `table`, `ranks`),
    disqualify or withdraw (`entrant`), finish, collusion."""

    tournament: str
    token: str
    action: str
    round: int | None = None
    table: int | None = None
    ranks: list[int] | None = None
    entrant: str | None = None


class ListTournaments(_Msg, tag="list_tournaments"):
    pass


class MyTables(_Msg, tag="my_tables"):
    """A person's tables (PROTOCOL.md 3, my_tables): those of `tables` (the
    ids a client keeps, at most MY_TABLES_ASKED) that exist, and, signed in,
    those where the account holds a seat, at most `limit` in all."""

    tables: list[str] = msgspec.field(default_factory=list)
    limit: int = 20


ClientMessage = (
    Hello | Ping | ListTables | CreateTable | Join | Leave | Start | Resume | Spectate | Unsubscribe
    | Act | Back | Chat | GetRecord | AddBots | Rematch
    | SignUp | SignIn | SignOut | BotToken | Tokens | RevokeToken | Leaderboard | Profile
    | Sessions | SignOutEverywhere | SetEmail
    | TournamentCreate | TournamentRegister | TournamentWatch | TournamentWithdraw | TournamentDirect
    | ListTournaments | MyTables
)

TournamentMessage = (
    TournamentCreate | TournamentRegister | TournamentWatch | TournamentWithdraw | TournamentDirect | ListTournaments
)

CLIENT_TYPES = tuple(
    cls.__struct_config__.tag for cls in get_args(ClientMessage)
)


# -- server messages ------------------------------------------------------------

def welcome(server: str, limits: dict[str, Any], bots: dict[str, list[str]] | None = None,
            games: list[str] | None = None, origins: list[str] | None = None,
            bot_about: dict[str, dict[str, Any]] | None = None,
            game_info: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """`bots`: per game, the kinds of server bots `add_bots` offers (absent:
    the server runs none); `bot_about`: per game and bot, what the bot is
    (PROTOCOL.md 5). `games`: the games `create_table` accepts, so a
    client offers only those (absent from servers that predate it: the
    default game alone); `game_info`: per game, what it says of itself
    (its seats, options and windows, `games.kit.describe`). `origins`: on a site of many processes, the
    origins (scheme, host and port) of its processes, the only places a
    client follows a `moved` frame's `url` to (PROTOCOL.md 4)."""
    frame: dict[str, Any] = {"t": "welcome", "protocol": SUBPROTOCOL, "version": PROTOCOL_VERSION,
             "server": server, "limits": limits}
    if games:
        frame["games"] = games
    if game_info:
        frame["game_info"] = game_info
    if bots:
        frame["bots"] = bots
    if bot_about:
        frame["bot_about"] = bot_about
    if origins:
        frame["origins"] = origins
    return frame


DEFAULT_PORTS = {"ws": 80, "wss": 443, "http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """A URL's origin as a browser writes it (scheme://host[:port], the port
    left out when it is the scheme's default), or None if it has none.
    Two URLs are the same site only if their origins are equal: the same
    host on another port is another site."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != DEFAULT_PORTS[scheme] else "")


def ok(re: ClientId, **data: Any) -> dict[str, Any]:
    return {"t": "ok", "re": re, **data}


def error(re: ClientId, code: str, message: str, *, retry_after: float | None = None) -> dict[str, Any]:
    """A refusal; `retry_after`: seconds after which the same request may
    pass (a sign-in backing off, a budget spent), for refusals that pass
    with time."""
    frame: dict[str, Any] = {"t": "error", "re": re, "code": code, "message": message}
    if retry_after is not None:
        frame["retry_after"] = float(retry_after)
    return frame


def snapshot(table: str, seq: int, you: int | str, view: dict[str, Any] | None, info: dict[str, Any],
             prompt: dict[str, Any] | None) -> dict[str, Any]:
    """The full current view: first thing after (re)subscribing."""
    return {"t": "snapshot", "table": table, "seq": seq, "you": you, "view": view,
            "table_info": info, "prompt": prompt}


def events(table: str, items: list[dict[str, Any]], prompt: dict[str, Any] | None,
           *, history: bool = False, view: dict[str, Any] | None = None,
           prompt_changed: bool | None = None) -> dict[str, Any]:
    """Every event of one actor step for one viewer, coalesced into one frame;
    each item carries its `seq`. `prompt` is the viewer's open decision, in
    every frame (clients of the first revision read it there);
    `prompt_changed`, in live frames, says whether it differs from the one
    the subscriber got last, but for its countdown. `view` is the full view
    after the step, for subscribers that asked for views."""
    frame: dict[str, Any] = {"t": "events", "table": table, "events": items, "prompt": prompt}
    if prompt_changed is not None:
        frame["prompt_changed"] = prompt_changed
    frame["history"] = history
    if view is not None:
        frame["view"] = view
    return frame


def tournament(tournament_id: str, state: dict[str, Any]) -> dict[str, Any]:
    """A tournament's state as its follower may see it (PROTOCOL.md 21)."""
    return {"t": "tournament", "tournament": tournament_id, "state": state}


def goodbye(code: str, message: str) -> dict[str, Any]:
    return {"t": "goodbye", "code": code, "message": message}


def moved(table: str, url: str | None = None) -> dict[str, Any]:
    """The table is served by another process of the site from now on
    (PROTOCOL.md 4, moved): the server closes this connection (1012) and the
    client reconnects (to `url` when given) and resumes every table from its
    last seq, re-sending what was not answered."""
    frame: dict[str, Any] = {"t": "moved", "table": table,
                             "message": "this table moved to another server process: reconnect and resume"}
    if url:
        frame["url"] = url
    return frame
