"""Who watches a table, and what each of them is sent.

Every subscriber (a connection's outbox) watches as a seat or as a
spectator; each step goes out as one frame per subscriber, its projection
of every new event and its prompt, encoded once per kind of viewer. A
snapshot and the history a subscription asks for come from here too. The
table never awaits a viewer: a frame goes into the viewer's bounded outbox,
and a viewer whose outbox refuses it is dropped (the actor then tells the
seat's presence, `dropped`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import trio

from ...games.kit.port import SPECTATOR, GamePort
from ...protocol import messages as M
from ...protocol.codec import decode_any, encode
from ..outbox import Outbox
from .inbox import Refused
from .journal import TABLE_EVENTS, Journal
from .play import Play
from .settings import Seats

HISTORY_CHUNK = 256
# A prompt's fields that move with the clock alone, not with the decision.
_TIMING = frozenset({"deadline_ms", "deadline_at_ms"})

Viewer = int | str


def history_frames(after: int | None, seq: int) -> int:
    """How many history frames a subscription with `after` brings at `seq`:
    chunks of HISTORY_CHUNK events aligned on its multiples (`Viewers.history`)."""
    if after is None or after >= seq:
        return 0
    start = max(0, after)
    return (seq - 1) // HISTORY_CHUNK - start // HISTORY_CHUNK + 1


def same_prompt(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    """The same decision, seen the same way: equal but for the countdown."""
    if a is None or b is None:
        return a is b
    return a.keys() == b.keys() and all(a[k] == b[k] for k in a if k not in _TIMING)


class Stage(Protocol):
    """What the viewers read of their table (the actor is one)."""

    id: str
    port: GamePort
    status: str
    play: Play
    wall: Callable[[], float]
    journal: Journal

    def info(self) -> dict[str, Any]: ...


class Viewers:
    """The subscribers of one table and what each was last shown."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.subscribers: dict[Outbox, Viewer] = {}
        self.wants_views: set[Outbox] = set()
        # The prompt each subscriber last got (in a snapshot or a live frame),
        # to tell it whether the next one changed (PROTOCOL.md 4, events).
        self.shown: dict[Outbox, dict[str, Any] | None] = {}
        self.dropped: list[Viewer] = []  # viewers of outboxes dropped while publishing
        self.held: dict[Outbox, None] = {}  # outboxes with frames put and not yet flushed (`flush`)
        # (log position, status), a spectator's view and untimed prompt there (`spectators_view`)
        self._spectators: tuple[tuple[int, str], dict[str, Any] | None, dict[str, Any] | None] | None = None
        # A spectator's history frames of full chunks, by chunk (`history`), and how many
        # events history requests have projected afresh.
        self._history_frames: dict[int, bytes] = {}
        self.history_built = 0

    # -- who watches ---------------------------------------------------------------

    def of(self, outbox: Outbox) -> Viewer | None:
        return self.subscribers.get(outbox)

    def seat(self, outbox: Outbox, refusal: str) -> int:
        """The seat `outbox` watches as; refused (`auth/not_seated`, saying
        `refusal`) if it watches as none."""
        seat = self.subscribers.get(outbox)
        if not isinstance(seat, int):
            raise Refused("auth/not_seated", refusal)
        return seat

    def watch(self, outbox: Outbox, viewer: Viewer, views: bool) -> Viewer | None:
        """`outbox` watches as `viewer` (with views or without) from now on;
        returns what it watched as before, if anything."""
        previous = self.subscribers.get(outbox)
        self.subscribers[outbox] = viewer
        if views:
            self.wants_views.add(outbox)
        else:
            self.wants_views.discard(outbox)
        return previous

    def forget(self, outbox: Outbox) -> Viewer | None:
        """`outbox` watches no more; returns what it watched as."""
        self.wants_views.discard(outbox)
        self.shown.pop(outbox, None)
        return self.subscribers.pop(outbox, None)

    def gone(self, outbox: Outbox, seats: Seats) -> None:
        """A connection ended while the table writes nothing (its store
        refuses writes): it watches no more, and its seat has one connection
        fewer, in memory only (no SeatPresence is logged)."""
        viewer = self.forget(outbox)
        if isinstance(viewer, int):
            seats.connect(viewer, -1)

    def seat_left(self, seat: int) -> None:
        """The seat is free again: whoever watched as it watches as a spectator."""
        for o, v in list(self.subscribers.items()):
            if v == seat:
                self.subscribers[o] = SPECTATOR

    def hand_over(self, url: str | None, *, also: Outbox | None = None) -> None:
        """Tell every viewer (and `also`, the sender of an unanswered
        message) that the table moved, and close their connections: they
        reconnect and resume from their last seq (PROTOCOL.md 4, moved)."""
        frame = encode(M.moved(self.stage.id, url))
        for outbox in {*self.subscribers, *([also] if also is not None else [])}:
            outbox.put(frame)
            outbox.evict("server/moved")
        self.subscribers.clear()
        self.wants_views.clear()
        self.shown.clear()

    # -- what they are sent -------------------------------------------------------

    def put(self, outbox: Outbox, frame: bytes) -> None:
        """Queue `frame` for `outbox`, sent at the next `flush`."""
        if not outbox.put(frame, hold=True):
            viewer = self.forget(outbox)
            if viewer is not None:
                self.dropped.append(viewer)
            return
        self.held[outbox] = None

    def flush(self) -> None:
        """Send what was put since the last flush: each connection's frames
        of a step (its events, the answer to its command) in one write, and
        from the table's task when the connection's writer is idle
        (`Outbox.flush`). The actor flushes before it waits (on the store,
        on its inbox), so nothing put waits longer than before."""
        if self.held:
            held, self.held = self.held, {}
            for outbox in held:
                outbox.flush()

    def reply(self, outbox: Outbox, message: dict[str, Any]) -> None:
        self.put(outbox, encode(message))

    def project(self, event: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        if event["type"] in TABLE_EVENTS:
            return event
        projected = self.stage.port.project(event, viewer)
        if projected is event:
            return event
        return {**projected, "seq": event["seq"]}

    def view(self, viewer: Viewer) -> dict[str, Any] | None:
        """The viewer's view; None before the game and after a failure (the
        state may be half-changed by whatever failed)."""
        stage = self.stage
        if stage.play.state is None or stage.status == "failed":
            return None
        return stage.port.view(stage.play.state, viewer)

    def views(self, viewers: list[Viewer], untimed: dict[Viewer, dict[str, Any] | None],
              ) -> Mapping[Viewer, dict[str, Any] | None]:
        """`view` for several viewers, built in one pass (read-only: they
        share parts); `untimed` are their prompts before `timed`, which the
        game may reuse rather than build the decision again."""
        stage = self.stage
        if stage.play.state is None or stage.status == "failed":
            return dict.fromkeys(viewers)
        return stage.port.views(stage.play.state, viewers, untimed if stage.status == "running" else None)

    def prompts(self, viewers: list[Viewer]) -> dict[Viewer, dict[str, Any] | None]:
        """Each viewer's open decision with its deadline, built in one pass."""
        return self.timed(self.untimed(viewers))

    def untimed(self, viewers: list[Viewer]) -> dict[Viewer, dict[str, Any] | None]:
        """Each viewer's open decision, without its deadline yet."""
        stage = self.stage
        if stage.play.state is None or stage.status != "running":
            return dict.fromkeys(viewers)
        return stage.port.prompts(stage.play.state, viewers)

    def timed(self, prompts: dict[Viewer, dict[str, Any] | None]) -> dict[Viewer, dict[str, Any] | None]:
        """The prompts with the deadline as it stands now (they are updated in place)."""
        clock = self.stage.play.clock
        d = clock.deadline
        if d is not None:
            remaining = max(0.0, d.at - trio.current_time())
            timing = {"deadline_ms": int(remaining * 1000),
                      "deadline_at_ms": int((self.stage.wall() + remaining) * 1000)}
            for viewer, p in prompts.items():
                if p is not None:
                    p.update(timing)
                    if isinstance(viewer, int) and 0 <= viewer < len(clock.seats):
                        p["bank_ms"] = clock.seats[viewer].bank_ms
        return prompts

    def publish(self, new: list[dict[str, Any]], *, also: Outbox | None = None) -> None:
        """One frame per subscriber for this step: its projection of every
        new event, and its prompt. Frames are encoded once per viewer."""
        if not new and also is None:
            return
        targets = [(o, v) for o, v in self.subscribers.items() if new or o is also]
        untimed = self.untimed(list({v for _, v in targets}))
        # Views before the deadline goes into the prompts (`timed` updates them in place).
        watching = list({v: None for o, v in targets if o in self.wants_views})
        views_of = self.views(watching, {v: untimed[v] for v in watching}) if watching else {}
        prompts = self.timed(untimed)
        frames: dict[tuple[Viewer, bool, bool], bytes] = {}
        changes: dict[tuple[Viewer, int], bool] = {}  # (viewer, id of the prompt it had) -> changed
        for outbox, viewer in targets:
            views = outbox in self.wants_views
            prompt, shown = prompts[viewer], self.shown.get(outbox)
            # The outboxes of one viewer usually share the prompt they had: compare it once.
            changed = changes.get((viewer, id(shown)))
            if changed is None:
                changed = changes[(viewer, id(shown))] = not same_prompt(shown, prompt)
            frame = frames.get((viewer, views, changed))
            if frame is None:
                items = [self.project(e, viewer) for e in new]
                frame = frames[(viewer, views, changed)] = encode(M.events(
                    self.stage.id, items, prompt, view=views_of[viewer] if views else None, prompt_changed=changed))
            self.shown[outbox] = prompt
            self.put(outbox, frame)

    def snapshot(self, outbox: Outbox, viewer: Viewer) -> None:
        if viewer == SPECTATOR:
            view, untimed = self.spectators_view()
            prompt = self.timed({viewer: dict(untimed)})[viewer] if untimed is not None else None
        else:
            view = self.view(viewer)
            prompt = self.prompts([viewer])[viewer]
        self.shown[outbox] = prompt
        self.reply(outbox, M.snapshot(self.stage.id, self.stage.journal.seq, viewer, view, self.stage.info(), prompt))

    def spectators_view(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """A spectator's view and prompt (without its deadline), built once per
        log position: every state change logs a command or an event, so a
        crowd that arrives together (a new game, a popular table) costs one
        view, not one per spectator. Both are shared: read-only."""
        stage = self.stage
        key = (stage.journal.pos, stage.status)
        cached = self._spectators
        if cached is None or cached[0] != key:
            prompt = None
            if stage.play.state is not None and stage.status == "running":
                prompt = stage.port.prompts(stage.play.state, [SPECTATOR])[SPECTATOR]
            cached = self._spectators = (key, self.view(SPECTATOR), prompt)
        return cached[1], cached[2]

    def history(self, outbox: Outbox, viewer: Viewer, after: int | None) -> None:
        """The events after `after`, projected for `viewer`, in frames of at
        most HISTORY_CHUNK events aligned on multiples of it (PROTOCOL.md 5).
        A spectator's full chunks never change once the log has passed them,
        so each is built once and its encoded frame served to every later
        spectator: many watchers replaying a long log cost the table no more
        than one. Fresh work per request is at most the two partial chunks at
        its ends; the transport charges the requester's rate budget for the
        rest (PROTOCOL.md 12)."""
        journal = self.stage.journal
        if after is None or after >= journal.seq:
            return
        i, end = max(0, after), journal.seq
        while i < end:
            chunk = i // HISTORY_CHUNK
            stop = min(end, (chunk + 1) * HISTORY_CHUNK)
            shared = viewer == SPECTATOR and i == chunk * HISTORY_CHUNK and stop - i == HISTORY_CHUNK
            frame = self._history_frames.get(chunk) if shared else None
            if frame is None:
                items = [self.project(decode_any(b), viewer) for b in journal.raw_events.between(i, stop)]
                self.history_built += stop - i
                frame = encode(M.events(self.stage.id, items, None, history=True))
                if shared and self.stage.status != "failed":
                    self._history_frames[chunk] = frame
            self.put(outbox, frame)
            if not outbox.alive:
                return
            i = stop
