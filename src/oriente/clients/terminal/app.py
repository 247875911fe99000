"""`oriente play`: the lobby and the table screen, driven by trio.

The client talks to the server only through the SDK (`oriente.clients.sdk`).
One task reads what the person types (screen.Terminal), one paints the
screen when something changed (and once a second for the countdown), and
while at a table one more consumes the table's updates.

Hidden information (R10.2d): every seat gets the same controls, taken from
the prompt's `legal` list; nothing is ever answered on the strength of the
hidden card. The only automatic answers are the ones the person switches on
with /auto, and they pass every round of a kind, whatever the cards.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from oriente.clients.game_story import TableStory, story_for
from oriente.clients.progname import command_name
from oriente.clients.quickdeals import deals_of, quick_commands, quick_options
from oriente.clients.sdk import Client, Disconnected, Seat, ServerError, Watch
from oriente.clients.timerwords import preset_text
from oriente.protocol.messages import DEFAULT_GAME
from oriente.protocol.presets import ALIASES, TIMER_PRESETS, TURN_PRESETS, preset

from .alerts import awaits_me, bell_text, email_text
from .commands import (
    AUTO_TOPICS,
    ORIENTE_ONLY,
    TABLE_HELP,
    DealError,
    Intent,
    build_deal,
    deal_sentence,
    parse_game_input,
    parse_lobby_input,
    parse_table_input,
    resolve_card,
    resolve_seat,
)
from .games import GameScreen, render_overlay, screen_for
from .render import (
    card_reference,
    choice_label,
    deal_parts,
    decision_choices,
    render_deals,
    render_ledger,
    render_lobby,
    render_piles,
    render_result,
    render_table,
    seat_ref,
    ui_words,
    wants_answer,
)
from .screen import Terminal
from .served import games_text, seat_range, served_games

__all__ = ["PRESETS", "PlayApp", "run_play"]

# The timers of docs/table.md T1.8, the same in every client: each gives
# people at least 45 s to bargain, and a window closes early once the
# fighters say /done (R10.2b1). `people`, the older word, means `normal`.
PRESETS: dict[str, dict[str, Any]] = {**{name: preset(name) for name in (*TIMER_PRESETS, *TURN_PRESETS)},
                                      **{old: preset(old) for old in ALIASES}}

_AUTO_OF_TOPIC = {"privilege": "privilege", "negotiation": "support", "support": "support",
                  "revolution": "revolution"}
STATUS_SECONDS = 15.0
# The end of a game whose server ends with this program (oriente demo --play).
DEMO_END = "Type /quit to leave: the demo then prints the scores and where it wrote the game's record."
# The events that tell what became of a deal (quickdeals.deals_of).
_DEAL_EVENTS = frozenset({"SeasonBegan", "DealProposed", "DealAccepted", "DealClosed", "DealExecuted"})
_STATUS_ORDER = {"open": 0, "running": 1, "finished": 2}


@dataclass
class TableState:
    """What the table screen shows: the latest view and prompt, the feed."""

    table: str
    watch: Watch
    you: int | str
    names: dict[int, str] = field(default_factory=dict)
    info: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    prompt: dict[str, Any] | None = None
    prompt_at: float = 0.0
    feed: deque = field(default_factory=lambda: deque(maxlen=2000))
    result: dict[str, Any] | None = None
    sending: str | None = None
    auto: set[str] = field(default_factory=set)
    auto_done: set[Any] = field(default_factory=set)
    ended: bool = False
    scroll: int = 0  # feed lines scrolled back from the latest (PgUp, PgDn)
    game: str = DEFAULT_GAME
    overlay: list[str] | None = None  # a whole-screen board (/map, /board) until the next Enter
    deal_events: list[dict[str, Any]] = field(default_factory=list)  # what quickdeals.deals_of reads
    story: TableStory = field(init=False)

    def __post_init__(self) -> None:
        self.set_game(self.game)

    def set_game(self, game: str) -> None:
        """The table's game decides the screen and the story (games/GAME.py; the game's story)."""
        self.game = game
        screen = self.screen
        if screen is not None:
            self.story = screen.story(self.you, self.names)
        else:
            viewer = self.you if self.seated else None
            self.story = story_for(game, viewer, lambda seat: seat_ref(seat, self.names, self.you))

    @property
    def screen(self) -> GameScreen | None:
        """The game's screen; None for a game whose table render.py draws whole (games/__init__.py)."""
        return screen_for(self.game)

    @property
    def seated(self) -> bool:
        return isinstance(self.you, int) and not isinstance(self.you, bool)

    def seconds_left(self, now: float) -> float | None:
        if not self.prompt or "deadline_ms" not in self.prompt:
            return None
        return self.prompt["deadline_ms"] / 1000 - (now - self.prompt_at)

    def choice_key(self) -> Any:
        """What a typed number refers to: the decision and its choices."""
        if not self.prompt:
            return None
        screen = self.screen
        choices = decision_choices(self.prompt) if screen is None else [c.command for c in screen.choices(self.prompt)]
        return (self.prompt.get("id"), json.dumps(choices, sort_keys=True))


def _utc(ms: float) -> str:
    """A deadline in milliseconds since the epoch, as a person reads it: '2026-12-02 14:32 UTC'."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(ms / 1000))


def decision_of(prompt: dict[str, Any] | None) -> tuple[Any, Any] | None:
    """Which decision a prompt is: its id and kind (a negotiation window and
    the support round after it are two), None when nothing is open."""
    if not prompt:
        return None
    return (prompt.get("id"), prompt.get("kind"))


class _FeedHandler(logging.Handler):
    """SDK log lines (reconnects, dropped updates) go to the status line,
    not over the screen."""

    def __init__(self, app: PlayApp) -> None:
        super().__init__(logging.INFO)
        self.app = app

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):  # a log line must never break the screen
            self.app.set_status(f"[{record.levelname.lower()}] {record.getMessage()}")


class PlayApp:
    def __init__(self, client: Client, term: Terminal, url: str, name: str, *, resumable: bool = True) -> None:
        self.client = client
        self.resumable = resumable  # False: the server ends with this program (oriente demo --play)
        self.term = term
        self.url = url
        self.name = name
        self.mode = "lobby"
        self.tables: list[dict[str, Any]] = []
        self.status = ""
        self.tokens: dict[str, str] = {}
        self.account_seats: set[str] = set()  # tables where the signed-in account holds a seat (`mine`)
        self.state: TableState | None = None
        self._status_at = 0.0
        self._status_about: Any = None  # the decision the status line is about (decision_of); None: none
        self._dirty = trio.Event()
        self._lines: trio.MemoryReceiveChannel | None = None
        self.bell = False  # ring when a decision awaits one of our seats (`bell on`)
        self._rung: Any = None  # the decision the bell last rang for
        term.on_key = self._key

    @property
    def account_name(self) -> str | None:
        """The account this client is signed in to (--token), whose name the
        server gives every seat it takes (PROTOCOL.md 19); None if none."""
        account = getattr(self.client, "account", None)
        return str(account["name"]) if isinstance(account, dict) and account.get("name") else None

    @property
    def shown_name(self) -> str:
        """The name seats are taken under: the account's when signed in."""
        return self.account_name or self.name

    # -- painting -----------------------------------------------------------------

    def dirty(self) -> None:
        self._dirty.set()

    def set_status(self, text: str, about: Any = None) -> None:
        """The status line. `about`: the decision it is about (decision_of
        the prompt it answered), so that it goes when that decision does."""
        self.status = text
        self._status_at = time.monotonic()
        self._status_about = about
        self.dirty()

    def _decision_moved(self, st: TableState) -> None:
        """A line about an answer ("You chose ...", "You are done
        bargaining") says nothing true once its decision has closed or the
        next one is open: it goes then, not 15 s later."""
        if self._status_about is not None and decision_of(st.prompt) != self._status_about:
            self.status = ""
            self._status_about = None
            self.dirty()

    def current_status(self) -> str:
        """A message stays a while, then makes room again."""
        if self.status and time.monotonic() - self._status_at > STATUS_SECONDS:
            self.status = ""
        return self.status

    def link(self) -> str:
        """What the header says about the connection: nothing while it is up."""
        if self.client.lost is not None:
            return "DISCONNECTED: the server cannot be reached; /quit and start again"
        down = self.client.down_for
        if down is not None:
            return f"CONNECTION LOST {int(down)} s ago: reconnecting, nothing is sent meanwhile"
        return ""

    def screen(self) -> list[str]:
        width, height = self.term.size()
        height -= 1  # the input line
        link = self.link()
        if self.mode == "table" and self.state is not None and self.state.overlay is not None:
            return render_overlay(self.state.overlay, width, height)
        if self.mode == "table" and self.state is not None:
            st = self.state
            return render_table(
                table=st.table, view=st.view, prompt=st.prompt, you=st.you, names=st.names, info=st.info,
                feed=list(st.feed), seconds_left=st.seconds_left(time.monotonic()) if self.term.ansi else None,
                sending=st.sending, result=st.result, status=self.current_status(), auto=sorted(st.auto),
                width=width, height=height, scroll=st.scroll, link=link, screen=st.screen,
                fates=deals_of(st.deal_events, st.you) if isinstance(st.you, int) else (),
                **({} if self.resumable else {"after_end": DEMO_END}))
        status = self.current_status()
        if link:
            status = f"[{link}] {status}"
        return render_lobby(self.tables, url=self.url, name=self.shown_name, status=status, width=width,
                            height=height, mine=self.tokens, games=games_text(self.client.welcome),
                            signed_in=self.account_name is not None)

    def _key(self, key: str) -> None:
        """PgUp and PgDn scroll the feed by half a screen."""
        st = self.state
        if self.mode != "table" or st is None:
            return
        step = max(3, self.term.size()[1] // 2)
        st.scroll = st.scroll + step if key == "pgup" else max(0, st.scroll - step)
        # Never further back than the feed goes (render_table clamps the view, this the count).
        st.scroll = min(st.scroll, sum(entry.count("\n") + 1 for entry in st.feed))
        self.dirty()

    async def _resizes(self) -> None:
        """Repaint at once when the terminal changes size."""
        if (not self.term.ansi or not hasattr(signal, "SIGWINCH")
                or threading.current_thread() is not threading.main_thread()):
            return
        with trio.open_signal_receiver(signal.SIGWINCH) as sizes:
            async for _ in sizes:
                self.dirty()

    async def _painter(self) -> None:
        while True:
            with trio.move_on_after(1.0):
                await self._dirty.wait()
            changed = self._dirty.is_set()
            self._dirty = trio.Event()
            if changed or self.term.ansi:
                try:
                    lines = self.screen()
                except Exception as exc:  # shown, not hidden: the game goes on and the person can report it
                    lines = [f"[the screen could not be drawn: {type(exc).__name__}: {exc}]"]
                self.term.draw(lines)
            await trio.sleep(0.03)

    # -- main loop ------------------------------------------------------------------

    async def run(self, resume: tuple[str, str] | None = None) -> str:
        """Lobby and tables until the person quits; returns a goodbye line."""
        send, receive = trio.open_memory_channel[tuple[str, Any]](100)
        self._lines = receive
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self.term.read_lines, send, self._mark)
            nursery.start_soon(self._painter)
            nursery.start_soon(self._resizes)
            target: tuple[str, Any] | None = None
            if resume is not None:
                table, token = resume
                self.tokens[table] = token
                target = await self._enter(("join", (table, None)))
            while True:
                if target is None:
                    target = await self._lobby()
                if target is None:
                    break
                kind, watch = target
                back = await self._table(watch, kind)
                target = None
                if not back:
                    break
            nursery.cancel_scope.cancel()
        return self._goodbye()

    def _goodbye(self) -> str:
        """The last words, printed after the screen is gone: the final table
        of a game that ended (unless the caller prints it, as the demo does)
        and how to sit down again at a game that goes on."""
        st = self.state
        lines = []
        if st is not None and st.result is not None and self.resumable:
            lines += render_result(st.result)
        finished = {t.get("table") for t in self.tables if t.get("status") == "finished"}
        if st is not None and st.ended:
            finished.add(st.table)
        for table, token in self.tokens.items():
            if table not in finished and self.resumable:
                lines.append(f"Your seat stays at table {table}; while you are gone, silence answers for it. "
                             f"To sit down again: {command_name()} play --server {self.url} --resume {table} {token}")
        return "\n".join(lines) or ("Goodbye." if self.resumable else "")

    def _mark(self) -> Any:
        """What the screen showed when the person began a line: the decision
        at a table, the numbered list in the lobby."""
        if self.mode == "table" and self.state is not None:
            return self.state.choice_key()
        return tuple(t.get("table") for t in self.tables)

    async def _next_line(self) -> tuple[str, Any]:
        assert self._lines is not None
        try:
            return await self._lines.receive()
        except trio.EndOfChannel:
            return ("/quit", None)

    # -- lobby --------------------------------------------------------------------------

    async def _mine(self) -> None:
        """`mine`: the tables this client sat at and, signed in, the
        account's, as the server has them now (PROTOCOL.md 3, my_tables)."""
        try:
            tables = await self.client.my_tables(list(self.tokens)[-50:])
        except ServerError as exc:
            self.set_status(f"Refused: {exc.message} ({exc.code})")
            return
        if not tables:
            self.set_status("No tables of yours: join or create one.")
            return
        self.account_seats = {str(t.get("table")) for t in tables if isinstance(t.get("you"), int)}
        tables = sorted(tables, key=lambda t: not t.get("awaits"))  # the tables that await you first
        words = []
        for t in tables:
            result = t.get("result") or {}
            ranks = result.get("ranks") if isinstance(result, dict) else None
            seat = t.get("you")
            seat_note = f", seat {seat}" if isinstance(seat, int) else ""
            rank_note = (f", rank {ranks[seat]}" if isinstance(seat, int) and isinstance(ranks, list)
                         and seat < len(ranks) else "")
            turn_note = ""
            if t.get("awaits"):
                until = t.get("until_ms")
                turn_note = ", your turn" + (f" until {_utc(until)}" if isinstance(until, (int, float)) else "")
            words.append(f"{t.get('table')} ({t.get('status')}{seat_note}{rank_note}{turn_note})")
        self.set_status("Your tables: " + "; ".join(words) + ". join ID goes back to one.")

    async def _refresh(self) -> None:
        try:
            tables = await self.client.list_tables(most=1000)
        except (ServerError, Disconnected) as exc:
            self.set_status(f"Cannot list the tables: {exc}")
            return
        self.tables = sorted(tables, key=lambda t: _STATUS_ORDER.get(t.get("status", ""), 3))
        self.dirty()

    async def _lobby(self) -> tuple[str, Watch] | None:
        self.mode = "lobby"
        self.state = None
        self.dirty()
        async with trio.open_nursery() as nursery:
            async def refresher() -> None:
                while True:
                    await self._refresh()
                    await trio.sleep(3)

            nursery.start_soon(refresher)
            try:
                while True:
                    line, mark = await self._next_line()
                    intent = parse_lobby_input(line, served_games(self.client.welcome))
                    if intent.verb == "quit":
                        return None
                    result = await self._lobby_intent(intent, mark)
                    if result is not None:
                        return result
            finally:
                nursery.cancel_scope.cancel()

    def _table_id(self, ref: str, shown: Any = None) -> str:
        """A number of the list as it was on screen when the person began
        typing (the list refreshes by itself), or a table id."""
        listed = list(shown) if isinstance(shown, tuple) else [t.get("table") for t in self.tables]
        if ref.isdigit() and 1 <= int(ref) <= len(listed):
            return str(listed[int(ref) - 1])
        return ref

    async def _lobby_intent(self, intent: Intent, mark: Any = None) -> tuple[str, Watch] | None:
        verb = intent.verb
        if verb == "none":
            return None
        if verb == "error":
            self.set_status(intent.arg)
        elif verb == "help":
            self.set_status(f"join N, watch N, create [GAME] SEATS [{'|'.join(TIMER_PRESETS)}] [NAME], "
                            "refresh, mine (your tables), name NEW-NAME, email [ADDRESS|off], bell on|off, quit. "
                            "Games: "
                            + games_text(self.client.welcome) + ". Timers: "
                            + "; ".join(preset_text(name) for name in TIMER_PRESETS))
        elif verb == "refresh":
            self.set_status("")
            await self._refresh()
        elif verb == "mine":
            await self._mine()
        elif verb == "email":
            await self._email(intent.arg)
        elif verb == "bell":
            self._set_bell(intent.arg)
        elif verb == "name":
            if self.account_name is not None:
                self.set_status(f"You are signed in as {self.account_name}: every seat you take carries the "
                                "account's name.")
                return None
            self.name = intent.arg
            self.set_status(f"You will join as {self.name}.")
        elif verb == "create":
            seats, preset, label, game = intent.arg
            told = seat_range(self.client.welcome, game)  # no game: the one a table that names none plays
            if told is not None and not told[0] <= seats <= told[1]:
                self.set_status(f"A table of {game or DEFAULT_GAME} has {told[0]} to {told[1]} seats.")
                return None
            try:
                table = await self.client.create_table(seats, name=label or f"{self.shown_name}'s table",
                                                       timers=PRESETS[preset], **({"game": game} if game else {}))
            except (ServerError, Disconnected) as exc:
                self.set_status(f"Could not create the table: {exc}")
                return None
            return await self._enter(("join", (table, None)))
        elif verb in ("join", "watch"):
            return await self._enter((verb, intent.arg), mark)
        return None

    async def _enter(self, what: tuple[str, Any], shown: Any = None) -> tuple[str, Watch] | None:
        verb, arg = what
        table = ""
        try:
            if verb == "watch":
                table = self._table_id(arg, shown)
                status = next((t.get("status") for t in self.tables if t.get("table") == table), None)
                # A finished table: the snapshot alone (its view holds the result).
                watch = await self.client.spectate(table, after=None if status == "finished" else 0, views=True)
                return ("watch", watch)
            ref, seat = arg
            table = self._table_id(ref, shown)
            if table in self.tokens:
                # after=0: the story so far fills the feed again.
                return ("join", await self.client.resume(table, self.tokens[table], after=0, views=True))
            if self.client.account is not None and table in self.account_seats:
                # The account's seat, taken on another device: signed in, no token is needed (T8.8).
                return ("join", await self.client.resume_seat(table, after=0, views=True))
            joined = await self.client.join(table, self.name, seat, views=True)
            if joined.token:
                self.tokens[table] = joined.token
            return ("join", joined)
        except ServerError as exc:
            hint = {"table/started": " The game has begun: watch it instead.",
                    "table/full": " Every seat is taken: watch it instead.",
                    "table/unknown": " Check the number or id (refresh the list)."}.get(exc.code, "")
            if exc.code == "auth/bad_token":
                self.tokens.pop(table, None)
                hint = " That seat is not yours any more; join again."
            self.set_status(f"{exc.message} ({exc.code}).{hint}")
        except Disconnected as exc:
            self.set_status(f"Connection problem: {exc}")
        return None

    # -- the table ----------------------------------------------------------------------

    async def _table(self, watch: Watch, kind: str) -> bool:
        """Play or watch one table. True: back to the lobby; False: quit."""
        you: int | str = watch.seat if kind == "join" else "spectator"  # type: ignore[attr-defined]
        game = (watch.info or {}).get("game") or next(
            (t.get("game") for t in self.tables if t.get("table") == watch.table), None) or DEFAULT_GAME
        st = TableState(table=watch.table, watch=watch, you=you, game=str(game))
        self.state = st
        self.mode = "table"
        self.status = ""
        self.dirty()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._consume, st, nursery)
            try:
                while True:
                    line, mark = await self._next_line()
                    if st.overlay is not None:  # Enter (or anything typed) closes the board first
                        st.overlay = None
                        self.dirty()
                    if line.strip():
                        st.scroll = 0  # back to the latest news
                    intent = self._read(st, line)
                    if intent.verb in ("quit", "lobby"):
                        await self._leave_table(st)
                        return intent.verb == "lobby"
                    await self._table_intent(st, intent, mark, nursery)
            finally:
                nursery.cancel_scope.cancel()

    @staticmethod
    def _read(st: TableState, line: str) -> Intent:
        """A typed line: first as the game's own (another game's screen), then as at any table."""
        screen = st.screen
        if screen is not None:
            choosing = bool((st.prompt or {}).get("choose")) and screen.wants_answer(st.prompt, st.you)
            intent = parse_game_input(line, screen.tells, choosing)
            if intent is not None:
                return intent
            intent = parse_table_input(line)
            if intent.verb in ORIENTE_ONLY:
                return Intent("error", f"/{intent.verb} is not a word of this game; at this table: " + screen.commands)
            return intent
        return parse_table_input(line)

    async def _leave_table(self, st: TableState) -> None:
        """Before the start a seat is given up (others may take it); once the
        game runs it stays yours, and you can come back to it."""
        token = self.tokens.get(st.table)
        try:
            with trio.move_on_after(3):
                if st.seated and st.view is None and not st.ended and token is not None:
                    try:
                        await self.client.request({"t": "leave", "table": st.table, "token": token})
                        self.tokens.pop(st.table, None)
                    except ServerError:  # the game started meanwhile: keep the seat
                        pass
                await self.client.request({"t": "unsubscribe", "table": st.table})
        except (ServerError, Disconnected):
            pass

    async def _consume(self, st: TableState, nursery: trio.Nursery) -> None:
        try:
            async for update in st.watch.updates():
                game = (st.watch.info or {}).get("game")
                if game and game != st.game:  # known from the first snapshot, which may follow history
                    st.set_game(str(game))
                if update.kind == "snapshot" and st.watch.info is not None:
                    st.info = json.loads(json.dumps(st.watch.info))
                    for s in st.info.get("seats") or []:
                        if s:
                            st.names[s["seat"]] = s.get("name", "")
                    if st.info.get("result") and not st.result:
                        st.result = st.info["result"]
                for e in update.events:
                    self._note_event(st, e)
                    if e.get("type") in _DEAL_EVENTS:
                        st.deal_events.append(e)
                view = update.view if update.kind != "history" else None
                if view is None and st.screen is not None:
                    # A screen's story reads only the board from a view: the table's own board
                    # (a map at this seat count) names the places of the history too.
                    view = st.watch.view
                lines = st.story.tell([{k: v for k, v in e.items() if k != "seq"} for e in update.events],
                                      view, merge=True)
                if st.story.replaces_last and st.feed:
                    st.feed.pop()  # "Seats 1 and 2 do not claim privilege." instead of one line each
                st.feed.extend(lines)
                if update.kind != "history":
                    st.prompt = update.prompt
                    st.prompt_at = time.monotonic()
                    self._decision_moved(st)
                    self._ring(st)
                if update.view is not None:
                    st.view = update.view
                    if st.view.get("result") and not st.result:
                        st.result = st.view["result"]
                self._auto_answer(st, nursery)
                self.dirty()
        except Disconnected as exc:
            self.set_status(f"Connection lost: {exc}")
        if st.watch.result and not st.result:
            st.result = st.watch.result
        st.ended = st.result is not None
        if not st.ended:
            self.set_status("The connection to the table ended. /lobby to go back, /quit to leave.")
        st.prompt = None
        self._decision_moved(st)
        self.dirty()

    def _ring(self, st: TableState) -> None:
        """With `bell on`, ring once for each decision that awaits our seat."""
        key = awaits_me(st.prompt, st.you)
        if key is not None and key != self._rung and self.bell:
            self.term.bell()
        self._rung = key

    def _set_bell(self, what: str) -> None:
        if what != "status":
            self.bell = what == "on"
        self.set_status(bell_text(self.bell))

    async def _email(self, address: str | None) -> None:
        """`email`: how the account's address stands (read again from the
        server: a link opened since changes it), or give one ("": remove)."""
        if self.account_name is None:
            self.set_status("Sign in first to give an e-mail address: oriente play --token TOKEN.")
            return
        try:
            if address is None:
                await self.client.sign_in(token=self.client.auth_token)
                email = self.client.email
            else:
                email = await self.client.set_email(address)
        except ServerError as exc:
            wait = f" Try again in {exc.retry_after:.0f} s." if exc.retry_after else ""
            self.set_status(f"Refused: {exc.message} ({exc.code}).{wait}")
            return
        except Disconnected as exc:
            self.set_status(f"Not sent: {exc}")
            return
        if address:
            self.set_status(f"A link to confirm {address} was mailed to it: open it, and you will be mailed "
                            "when a turn-based table awaits you.")
        else:
            self.set_status(email_text(email))

    def _note_event(self, st: TableState, e: dict[str, Any]) -> None:
        kind = e.get("type")
        if kind == "SeatTaken":
            st.names[e["seat"]] = e.get("name", "")
            if st.info and 0 <= e["seat"] < len(st.info.get("seats") or []):
                st.info["seats"][e["seat"]] = {"seat": e["seat"], "name": e.get("name", "")}
        elif kind == "SeatLeft":
            st.names.pop(e["seat"], None)
            if st.info and 0 <= e["seat"] < len(st.info.get("seats") or []):
                st.info["seats"][e["seat"]] = None
        elif kind == "TableFinished":
            st.result = e.get("result")
        elif kind in ("SeatAway", "ProxyOn") and e.get("seat") == st.you:
            self.set_status("You are marked away: the table no longer waits for you. "
                            "Type /back (or anything) to be waited for again.")

    def _auto_answer(self, st: TableState, nursery: trio.Nursery) -> None:
        """/auto: pass every round of the chosen kinds, unconditionally (R10.2d)."""
        p = st.prompt
        if st.screen is not None or not st.auto or not p or not wants_answer(p, st.you) or p.get("sealed"):
            return
        topic = _AUTO_OF_TOPIC.get(p.get("topic", ""))
        key = (p.get("id"), p.get("pivot"))
        if topic in st.auto and key not in st.auto_done:
            st.auto_done.add(key)
            nursery.start_soon(self._send, st, {"type": "Pass", "decision": p["id"]}, f"pass (auto: {topic})")

    async def _send(self, st: TableState, cmd: dict[str, Any], label: str) -> None:
        st.sending = label
        about = decision_of(st.prompt)
        self.dirty()
        try:
            reply = await st.watch.act(cmd)  # type: ignore[attr-defined]
            if reply is None:
                self.set_status(f"Too late: that decision had already closed ({label}).")
            else:
                self.set_status(f"You chose: {label}.", about)
                self._decision_moved(st)  # the answer may have closed it already: the story tells it then
        except ServerError as exc:
            if exc.code == "decision/answered":
                self.set_status("Your answer in this round had already become final.")
            else:
                self.set_status(f"Refused: {exc.message} ({exc.code})")
        except Disconnected as exc:
            self.set_status(f"Not sent, the connection is gone: {exc}")
        finally:
            st.sending = None
            self.dirty()

    def _moves(self, st: TableState, words: str) -> None:
        """/moves [WORDS]: the legal moves (with those words), numbered, into the story."""
        screen = st.screen
        assert screen is not None
        if not screen.wants_answer(st.prompt, st.you):
            self.set_status("There is nothing for you to answer right now.")
            return
        found = screen.match(words, st.prompt, st.view, st.you, st.names) if words.strip() else \
            screen.choices(st.prompt, st.view, st.you, st.names)
        if not found:
            self.set_status(f"No legal move has the words {words!r}." if words else "No move to list.")
            return
        head = f"Moves with {words!r}:" if words.strip() else "Your legal moves:"
        st.feed.append("\n".join([head, *(f"  {c.number:>3}) {c.label}" for c in found)]))
        st.scroll = 0
        self.set_status(f"{len(found)} moves listed above: type the number of one.")

    def _game_answer(self, st: TableState, screen: GameScreen, verb: str, arg: Any, mark: Any,
                     nursery: trio.Nursery) -> None:
        """A number, numbers (a `choose` prompt) or words, at another game's table."""
        p = st.prompt
        if p is None or not screen.wants_answer(p, st.you):
            self.set_status("There is nothing for you to answer right now.")
            return
        if verb == "pick" or (verb == "choose" and p.get("choose")):
            numbers = arg if verb == "pick" else [arg]
            cmd = screen.choose_command(p, numbers)
            if isinstance(cmd, str):
                self.set_status(cmd)
                return
            nursery.start_soon(self._send, st, cmd, screen.choose_label(p, st.view, cmd.get("tiles") or []))
            return
        if verb == "choose":
            if mark != st.choice_key():
                self.set_status("The question changed while you typed: look again, then type your number.")
                return
            choices = screen.choices(p, st.view, st.you, st.names)
            if not 1 <= arg <= len(choices):
                self.set_status(f"Pick a number from 1 to {len(choices)}.")
                return
            nursery.start_soon(self._send, st, choices[arg - 1].command, choices[arg - 1].label)
            return
        found = screen.find(arg, p, st.view, st.you, st.names)
        if len(found) == 1:
            nursery.start_soon(self._send, st, found[0].command, found[0].label)
        elif not found:
            self.set_status(f"No legal move has the words {arg!r}. /moves lists them all; /help for more.")
        else:
            self._moves(st, arg)

    async def _deal_command(self, st: TableState, cmd: dict[str, Any], done: str, about: Any = None) -> None:
        """A command that answers no decision (a deal's, or a window's
        Done); `about`: the decision its status line goes with."""
        try:
            await st.watch.act(cmd)  # type: ignore[attr-defined]
            self.set_status(done, about)
            self._decision_moved(st)
        except ServerError as exc:
            self.set_status(f"Refused: {exc.message} ({exc.code})")
        except Disconnected as exc:
            self.set_status(f"Not sent, the connection is gone: {exc}")

    def _offer(self, st: TableState, number: int, to: str | None, card: str | None, *, nursery: trio.Nursery) -> None:
        """/offer N [to SEATS] [card CARD]: quick deal N as listed under the
        decision, pre-filled from the fight; one proposal per seat."""
        options = quick_options(st.view, st.prompt, st.you)
        if not options:
            self.set_status("No quick deal now: one needs a fight, a seat to deal with and a card to pay with.")
            return
        if not 1 <= number <= len(options):
            self.set_status(f"Quick deals are numbered 1 to {len(options)} (listed under the decision).")
            return
        option = options[number - 1]
        assert st.view is not None and isinstance(st.you, int)
        try:
            seats = [resolve_seat(x, len(st.view["seats"]), st.names) for x in re.split(r"\s*,\s*|\s+and\s+", to)
                     if x.strip()] if to else list(option.chosen)
            chosen = resolve_card(card, list(option.cards)) if card else option.card
        except DealError as exc:
            self.set_status(str(exc))
            return
        wrong = [s for s in seats if s not in option.seats]
        if wrong or not seats:
            self.set_status(f"This quick deal goes to {', '.join(str(s) for s in option.seats)}, "
                            f"not {', '.join(str(s) for s in wrong) or 'nobody'}.")
            return
        cmds = quick_commands(option, chosen, seats, st.view, st.you, ui_words, lambda s: seat_ref(s, st.names, st.you))
        for cmd, seat in zip(cmds, seats, strict=True):
            nursery.start_soon(self._deal_command, st, cmd,
                               f"Quick deal proposed to {seat_ref(seat, st.names, st.you)}: it is carried out once "
                               "every party accepts.")

    def _counter(self, st: TableState, number: int, parts: str, *, nursery: trio.Nursery) -> None:
        """/counter N [PARTS]: a counter-offer to deal #N (R8.8); without
        PARTS the offer's own terms go on the input line, to change."""
        deal = next((d for d in (st.view or {}).get("deals") or [] if d.get("deal") == number), None)
        if not parts:
            if deal is None or not isinstance(st.you, int):
                self.set_status(f"No open deal #{number} to start from: /counter {number} PARTS says the terms.")
                return
            line = f"/counter {number} {deal_sentence(deal, st.you)}"
            if self.term.ansi:
                self.term.prefill(line)
                self.set_status(f"The terms of deal #{number} are on the input line: change them and press Enter.")
            else:
                self.set_status(f"Its terms, to change and send: {line}")
            return
        try:
            cmd = build_deal(parts, st.view or {}, st.you, st.names)  # type: ignore[arg-type]
        except DealError as exc:
            self.set_status(str(exc))
            return
        cmd.update(counter_to=number, why={"code": "counter", "deal": number})
        nursery.start_soon(self._deal_command, st, cmd, f"Counter-offer to deal #{number} proposed.")

    def _tell(self, st: TableState, what: str) -> None:
        """/deals, /ledger, /piles, /cards: written into the story, where
        there is room for them (and PgUp finds them again)."""
        if what == "cards":
            lines = card_reference()
        elif not st.view:
            self.set_status("The game has not begun.")
            return
        elif what == "deals":
            lines = render_deals(st.view, st.you, st.names, width=10_000) or ["No deal is open."]
        elif what == "ledger":
            lines = render_ledger(st.view, st.you, st.names)
        else:
            lines = render_piles(st.view, st.you, st.names)
        st.feed.append("\n".join(lines))
        st.scroll = 0
        self.dirty()

    async def _bots(self, st: TableState, arg: int | str | tuple[int | None, str] | None) -> None:
        """/bots [COUNT] [KIND]: the server's own bots (the game's default, or
        KIND) take the free seats (all of them, or COUNT) of this table
        before it starts; /bots ? says what each kind is (welcome.bot_about)."""
        game = st.game
        welcome = self.client.welcome or {}
        kinds = (welcome.get("bots") or {}).get(game) or []
        if arg == "?":
            about = (welcome.get("bot_about") or {}).get(game) or {}
            st.feed.append("\n".join(f"{k}{' (default)' if i == 0 else ''}: {(about.get(k) or {}).get('about', '')}"
                                     for i, k in enumerate(kinds)) or "This server runs no bots for this game.")
            self.dirty()
            return
        count, policy = arg if isinstance(arg, tuple) else (arg if isinstance(arg, int) else None, None)
        token = self.tokens.get(st.table)
        if st.view is not None or token is None:
            self.set_status("Bots fill free seats before the game starts, at a table where you sit.")
            return
        try:
            seats = await self.client.add_bots(st.table, token, policy, count)
        except ServerError as exc:
            self.set_status(f"No bots: {exc.message} ({exc.code})")
            return
        except Disconnected as exc:
            self.set_status(f"No bots, the connection is gone: {exc}")
            return
        self.set_status(f"Bots took seats {', '.join(map(str, seats))}." if seats else "No seat was free.")

    async def _save(self, st: TableState, path: str) -> None:
        """/save [PATH]: the finished game's record (full reveal), as
        `oriente replay` reads it."""
        try:
            record = await self.client.record(st.table)
        except ServerError as exc:
            hint = " /save again at the end." if exc.code == "record/not_finished" else ""
            self.set_status(f"No record yet: {exc.message}.{hint}")
            return
        except Disconnected as exc:
            self.set_status(f"Not saved, the connection is gone: {exc}")
            return
        target = Path(path) if path else Path("records") / f"{st.table}.json"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
        except OSError as exc:
            self.set_status(f"Could not write {target}: {exc.strerror or exc}")
            return
        self.set_status(f"Saved the record to {target}. Replay it with: {command_name()} replay {target} --as all")

    async def _table_intent(self, st: TableState, intent: Intent, mark: Any, nursery: trio.Nursery) -> None:
        verb, arg = intent.verb, intent.arg
        if verb == "none":
            return
        if verb == "error":
            self.set_status(arg)
            return
        if verb == "help":
            screen = st.screen
            if screen is not None:
                words = "".join(f" | /{w}: {what}" for w, what in screen.tells.items())
                self.set_status("NUMBER: answer | WORDS: the move with those words (e.g. the start of a place's name) "
                                f"| /moves WORDS: list the moves with those words, numbered{words} | /say TEXT: chat "
                                "| /save [PATH] | /bots [N] [KIND] | /back | PgUp/PgDn: the story | /lobby | /quit"
                                + (f" | If time runs out: {(st.prompt or {})['silence']}"
                                   if (st.prompt or {}).get("silence") else ""))
            else:
                self.set_status(TABLE_HELP)
            return
        if verb == "tell" and st.screen is not None:
            if not st.view:
                self.set_status("The game has not begun.")
                return
            lines = st.screen.tell(arg, st.view, st.you, st.names, self.term.size()[0])
            st.feed.append("\n".join(lines))  # PgUp finds it again
            st.overlay = lines
            st.scroll = 0
            self.dirty()
            return
        if verb == "moves" and st.screen is not None:
            self._moves(st, arg)
            return
        if verb == "bell":
            self._set_bell(arg)
            return
        if verb in ("deals", "ledger", "piles", "cards"):
            self._tell(st, verb)
            return
        if verb == "save":
            nursery.start_soon(self._save, st, arg)
            return
        if not st.seated:
            self.set_status("Spectators only watch: /lobby or /quit.")
            return
        if st.ended:
            self.set_status("The game is over: /save, /lobby or /quit.")
            return
        if verb == "bots":
            nursery.start_soon(self._bots, st, arg)
            return
        seat = st.watch
        if verb == "back" or (isinstance(seat, Seat) and seat.away):
            # Typing at the table is being there: an away seat is back first
            # (PROTOCOL.md 11), so what follows is not refused as too late.
            try:
                await seat.back()  # type: ignore[attr-defined]
                self.set_status("You are back: the table waits for you again.")
            except (ServerError, Disconnected) as exc:
                self.set_status(f"Not back: {exc}")
            if verb == "back":
                return
        screen = st.screen
        if screen is not None and verb in ("choose", "pick", "match"):
            self._game_answer(st, screen, verb, arg, mark, nursery)
        elif verb == "choose":
            p = st.prompt
            if p is None or not wants_answer(p, st.you):
                self.set_status("There is nothing for you to answer right now.")
                return
            if mark != st.choice_key():
                self.set_status("The question changed while you typed: look again, then type your number.")
                return
            choices = decision_choices(p)
            if not 1 <= arg <= len(choices):
                self.set_status(f"Pick a number from 1 to {len(choices)}.")
                return
            cmd = choices[arg - 1]
            label = choice_label(cmd, p.get("topic"), st.names, st.view, st.you)
            nursery.start_soon(self._send, st, cmd, label)
        elif verb == "done":
            p = st.prompt
            done = next((c for c in (p or {}).get("legal") or [] if c.get("type") == "Done"), None)
            if done is None:
                self.set_status("Only the attacker and the defender say done, once, in a negotiation window "
                                "(R10.2b1).")
                return
            nursery.start_soon(self._deal_command, st, done,
                               "You are done bargaining: the window closes once the other fighter is done too and "
                               "every asked seat has declared.", decision_of(p))
        elif verb == "say":
            if not self.client.connected:
                self.set_status("Not sent: the connection is down (see the top line). Say it again once it is back.")
                return
            try:
                await st.watch.chat(arg)  # type: ignore[attr-defined]
                self.set_status("")
            except (ServerError, Disconnected) as exc:
                self.set_status(f"Chat not sent: {exc}")
        elif verb == "deal":
            if not st.view:
                self.set_status("Deals are made once the game runs.")
                return
            can = (st.prompt or {}).get("deal")
            if can is not None and not can.get("propose"):
                self.set_status(f"You have {can.get('open')} open proposals, the table's limit: "
                                "/withdraw one before you propose another.")
                return
            try:
                cmd = build_deal(arg, st.view, st.you, st.names)  # type: ignore[arg-type]
            except DealError as exc:
                self.set_status(str(exc))
                return
            words = "; ".join(deal_parts(cmd, st.names, st.you))
            nursery.start_soon(self._deal_command, st, cmd,
                               f"Deal proposed ({words}): it is carried out once every party accepts.")
        elif verb == "offer":
            self._offer(st, *arg, nursery=nursery)
        elif verb == "counter":
            self._counter(st, *arg, nursery=nursery)
        elif verb == "decline" and isinstance(arg, tuple):
            number, code = arg
            why: dict[str, Any] = {"code": code}
            if code == "record":  # the proposer's public record (R8.6), as the view has it
                deal = next((d for d in (st.view or {}).get("deals") or [] if d.get("deal") == number), None)
                if deal is None:
                    self.set_status(f"No open deal #{number}.")
                    return
                seat = (st.view or {})["seats"][deal["proposer"]]
                why.update(seat=deal["proposer"], kept=seat.get("kept", 0), broken=seat.get("broken", 0))
            nursery.start_soon(self._deal_command, st, {"type": "DeclineDeal", "deal": number, "why": why},
                               f"Deal #{number}: decline sent, with your reason.")
        elif verb in ("accept", "decline", "withdraw"):
            cmd = {"type": verb.capitalize() + "Deal", "deal": arg}
            nursery.start_soon(self._deal_command, st, cmd, f"Deal #{arg}: {verb} sent.")
        elif verb in ("kept", "broken"):
            cmd = {"type": "SettlePromise", "promise": arg, "kept": verb == "kept"}
            nursery.start_soon(self._deal_command, st, cmd, f"Promise #{arg} marked {verb}.")
        elif verb == "auto":
            if arg == "off":
                st.auto.clear()
                self.set_status("Auto-answer is off.")
            elif arg == "status":
                self.set_status("Auto-answer: " + (", ".join(sorted(st.auto)) or "off")
                                + ". /auto privilege|support|revolution|all|off")
            else:
                st.auto.update(AUTO_TOPICS if arg == "all" else (arg,))
                self.set_status("From now on every such round is passed at once, whatever the cards.")
                self._auto_answer(st, nursery)
        else:
            self.set_status(f"Not understood: {verb}")


# -- entry point --------------------------------------------------------------------

def _flatten(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        out: list[BaseException] = []
        for e in exc.exceptions:
            out.extend(_flatten(e))
        return out
    return [exc]


async def _main(url: str, name: str, resume: tuple[str, str] | None, term: Terminal, resumable: bool,
                token: str | None = None, account: Account | None = None) -> str:
    async with Client.connect(url, token=token) as client:
        if account is not None:
            if account.new:
                await client.sign_up(account.name, account.password)
            else:
                await client.sign_in(account.name, account.password)
        app = PlayApp(client, term, url, name, resumable=resumable)
        handler = _FeedHandler(app)
        sdk_log = logging.getLogger("oriente")
        sdk_log.addHandler(handler)
        sdk_log.propagate = False
        try:
            return await app.run(resume)
        finally:
            sdk_log.removeHandler(handler)


@dataclass(frozen=True)
class Account:
    """An account to sign in to (or make, `new`) before the lobby, by name
    and password: a turn-based table seats accounts only, and signed in on
    any device a person takes their seats again (docs/table.md T8.8)."""

    name: str
    password: str = field(repr=False)
    new: bool = False


def run_play(url: str, name: str, resume: tuple[str, str] | None = None, *, resumable: bool = True,
             token: str | None = None, account: Account | None = None) -> int:
    """Run the terminal client until the person quits; the process exit code.
    `resumable=False`: the server ends with the caller (oriente demo --play),
    so no way back to a seat is printed, and the caller prints the result.
    `token`: an account's session or API token to sign in with (seats taken
    are then the account's; PROTOCOL.md 19); `account`: a name and
    password to sign in with instead (or to make the account)."""
    term = Terminal()
    message = ""
    code = 0
    try:
        with term:
            message = trio.run(_main, url, name, resume, term, resumable, token, account)
    except KeyboardInterrupt:
        message = "Interrupted."
        code = 130
    except BaseException as exc:
        errors = _flatten(exc)
        if errors and all(isinstance(e, ServerError) and e.code.startswith("auth/") for e in errors):
            what = "the sign-in" if account is not None else "the token"
            message = f"oriente play: the server refused {what}: {errors[0]}"
            code = 1
        elif errors and all(isinstance(e, (Disconnected, OSError)) for e in errors):
            message = f"oriente play: cannot reach the server at {url}: {errors[0]}"
            code = 1
        elif errors and all(isinstance(e, KeyboardInterrupt) for e in errors):
            message = "Interrupted."
            code = 130
        else:
            raise
    finally:
        term.restore()
    if message:
        print(message)
    return code
