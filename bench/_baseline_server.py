"""The baseline server of bench/server.py: the cheapest websocket server that
could carry the same traffic as a table server (docs/benchmarks.md).

    python bench/_baseline_server.py FRAME_BYTES [SEATS]

A bot connects to /TABLE/SEAT. Once a table's seats are all connected, and
then on every message it receives from one of them, the server sends one
frame of FRAME_BYTES bytes to each connection of that table; the frame names
the seat whose turn it is to answer, so each table keeps exactly one message
in flight, like a table waiting on one seat. GET /metrics reports
`baseline_frames_out_total` and `baseline_frames_in_total`.

Listens on 127.0.0.1 with a free port, prints the port on stdout once it
accepts connections, and runs until SIGTERM or SIGINT.
"""

from __future__ import annotations

import functools
import signal
import sys

import msgspec
import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.server import ServerConnection, serve

_encoder = msgspec.msgpack.Encoder()


def make_frame(turn: int, size: int) -> bytes:
    """A msgpack map {"t": "events", "turn": turn, "pad": b"..."} of `size`
    bytes (or the smallest such map when `size` is smaller)."""
    empty = len(_encoder.encode({"t": "events", "turn": turn, "pad": b""}))
    pad = max(0, size - empty)
    frame = _encoder.encode({"t": "events", "turn": turn, "pad": b"x" * pad})
    # The bin header grows from 2 to 3 bytes past 255 bytes of padding.
    while len(frame) > size and pad > 0:
        pad -= 1
        frame = _encoder.encode({"t": "events", "turn": turn, "pad": b"x" * pad})
    return frame


class Baseline:
    def __init__(self, frame_bytes: int, seats: int) -> None:
        self.seats = seats
        self.frames = [make_frame(s, frame_bytes) for s in range(seats)]
        self.tables: dict[str, list[ServerConnection | None]] = {}
        self.turns: dict[str, int] = {}
        self.frames_out = 0
        self.frames_in = 0
        self.bytes_out = 0

    def process_request(self, connection: ServerConnection, request):  # type: ignore[no-untyped-def]
        if request.path.split("?", 1)[0] == "/metrics":
            return connection.respond(200, (
                f"baseline_frames_out_total {self.frames_out}\n"
                f"baseline_frames_in_total {self.frames_in}\n"
                f"baseline_bytes_out_total {self.bytes_out}\n"
                f"baseline_frame_bytes {len(self.frames[0])}\n"))
        return None

    async def _fan_out(self, table: str, conns: list[ServerConnection | None]) -> None:
        turn = (self.turns.get(table, -1) + 1) % self.seats
        self.turns[table] = turn
        frame = self.frames[turn]
        for ws in conns:
            if ws is None:
                continue
            try:
                await ws.send(frame)
            except ConnectionClosed:
                continue
            self.frames_out += 1
            self.bytes_out += len(frame)

    async def handler(self, ws: ServerConnection) -> None:
        try:
            path = ws.request.path if ws.request is not None else ""
            _, table, seat_text = path.split("?", 1)[0].split("/")
            seat = int(seat_text)
            if not 0 <= seat < self.seats:
                raise ValueError(seat)
        except (ValueError, AttributeError):
            await ws.aclose(1008, "connect to /TABLE/SEAT")
            return
        conns = self.tables.setdefault(table, [None] * self.seats)
        conns[seat] = ws
        try:
            if all(c is not None for c in conns):
                await self._fan_out(table, conns)
            async for _ in ws:
                self.frames_in += 1
                await self._fan_out(table, conns)
        except ConnectionClosed:
            pass
        finally:
            if conns[seat] is ws:
                conns[seat] = None
            if all(c is None for c in conns):
                self.tables.pop(table, None)
                self.turns.pop(table, None)


async def run(frame_bytes: int, seats: int) -> None:
    baseline = Baseline(frame_bytes, seats)
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async with trio.open_nursery() as nursery:
            server = await nursery.start(functools.partial(
                serve, baseline.handler, 0, host="127.0.0.1", compression=None,
                process_request=baseline.process_request, max_size=1024 * 1024,
                ping_interval=20, ping_timeout=20,
            ))
            print(server.listeners[0].socket.getsockname()[1], flush=True)
            async for _ in signals:
                break
            with trio.move_on_after(5):
                await server.aclose()
            nursery.cancel_scope.cancel()


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    frame_bytes = int(sys.argv[1])
    seats = int(sys.argv[2]) if len(sys.argv) == 3 else 6
    trio.run(run, frame_bytes, seats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
