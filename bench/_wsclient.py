"""A lean websocket client for the benchmark's bots (RFC 6455, no extensions).

The bots of bench/server.py share one process and must cost that process
less per frame than any server under test costs its own, or the benchmark
measures the bots. A full client library pays for a reader task, a message
assembler and two receive calls per frame; this one reads straight from a
non-blocking socket into a buffer and parses frames in place, one receive
call per readiness, and writes each message with a single send.

Scope: client side of a plain ws:// connection on a trusted local network;
binary and text messages, fragmented messages, ping (answered), pong, close.
No compression, no TLS, no proxies.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import socket
import struct

import trio

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_RECV = 262144


class Closed(Exception):
    """The connection is closed (by either side); `code` is the close code."""

    def __init__(self, code: int | None = None, reason: str = "") -> None:
        super().__init__(f"connection closed ({code}): {reason}")
        self.code = code
        self.reason = reason


def _mask(payload: bytes, key: bytes) -> bytes:
    n = len(payload)
    if not n:
        return payload
    repeated = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(repeated, "little")).to_bytes(n, "little")


def _frame(opcode: int, payload: bytes) -> bytes:
    n = len(payload)
    key = os.urandom(4)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + key + _mask(payload, key)


class WebSocket:
    """One open connection: `await WebSocket.open(host, port, path)`."""

    def __init__(self, sock: socket.socket, buffered: bytes) -> None:
        self.sock = sock
        self._buf = bytearray(buffered)
        self._out = bytearray()
        self._fragments: list[bytes] = []
        self._text = False
        self._closed: Closed | None = None

    @classmethod
    async def open(cls, host: str, port: int, path: str = "/", subprotocols: list[str] | None = None,
                   timeout: float = 60.0, source: str | None = None) -> WebSocket:
        """`source`: the local address to connect from (another 127.0.0.x
        spreads thousands of connections over more ephemeral ports)."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            if source is not None:
                sock.bind((source, 0))
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with trio.fail_after(timeout):
                err = sock.connect_ex((host, port))
                if err not in (0, 115):  # EINPROGRESS
                    raise OSError(err, os.strerror(err))
                await trio.lowlevel.wait_writable(sock)
                err = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    raise OSError(err, os.strerror(err))
                key = base64.b64encode(os.urandom(16))
                lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket",
                         "Connection: Upgrade", f"Sec-WebSocket-Key: {key.decode()}", "Sec-WebSocket-Version: 13"]
                if subprotocols:
                    lines.append(f"Sec-WebSocket-Protocol: {', '.join(subprotocols)}")
                ws = cls(sock, b"")
                await ws._send_raw(("\r\n".join(lines) + "\r\n\r\n").encode())
                while b"\r\n\r\n" not in ws._buf:
                    await ws._fill()
                head, _, rest = bytes(ws._buf).partition(b"\r\n\r\n")
            status, *header_lines = head.decode("latin-1").split("\r\n")
            if not status.startswith("HTTP/1.1 101"):
                raise ConnectionError(f"handshake refused: {status}")
            headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
            expected = base64.b64encode(hashlib.sha1(key + _GUID).digest()).decode()
            if headers.get("sec-websocket-accept") != expected:
                raise ConnectionError("handshake: bad Sec-WebSocket-Accept")
            ws._buf = bytearray(rest)
            return ws
        except BaseException:
            sock.close()
            raise

    # -- bytes in and out ----------------------------------------------------------

    async def _fill(self) -> None:
        while True:
            try:
                data = self.sock.recv(_RECV)
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self.sock)
                continue
            except OSError as exc:
                raise self._close_with(Closed(None, str(exc))) from None
            if not data:
                raise self._close_with(Closed(1006, "connection lost"))
            self._buf += data
            return

    async def _send_raw(self, data: bytes) -> None:
        if self._out:  # another task is flushing: queue behind it, in order
            self._out += data
            return
        try:
            n = self.sock.send(data)
        except BlockingIOError:
            n = 0
        except OSError as exc:
            raise self._close_with(Closed(None, str(exc))) from None
        if n == len(data):
            return
        self._out += data[n:]
        while self._out:
            await trio.lowlevel.wait_writable(self.sock)
            try:
                n = self.sock.send(self._out)
            except BlockingIOError:
                continue
            except OSError as exc:
                self._out.clear()
                raise self._close_with(Closed(None, str(exc))) from None
            del self._out[:n]

    def _close_with(self, exc: Closed) -> Closed:
        if self._closed is None:
            self._closed = exc
        return self._closed

    # -- messages ------------------------------------------------------------------

    async def send(self, message: bytes | str) -> None:
        if self._closed is not None:
            raise self._closed
        if isinstance(message, str):
            await self._send_raw(_frame(0x1, message.encode()))
        else:
            await self._send_raw(_frame(0x2, message))

    async def recv(self) -> bytes | str:
        """The next message (bytes for binary, str for text)."""
        while True:
            if self._closed is not None:
                raise self._closed
            buf = self._buf
            if len(buf) >= 2:
                b0, b1 = buf[0], buf[1]
                n = b1 & 0x7F
                start = 2
                if n == 126:
                    if len(buf) < 4:
                        await self._fill()
                        continue
                    n = int.from_bytes(buf[2:4], "big")
                    start = 4
                elif n == 127:
                    if len(buf) < 10:
                        await self._fill()
                        continue
                    n = int.from_bytes(buf[2:10], "big")
                    start = 10
                if b1 & 0x80:
                    raise self._close_with(Closed(1002, "masked frame from the server"))
                end = start + n
                if len(buf) >= end:
                    payload = bytes(buf[start:end])
                    del buf[:end]
                    message = await self._handle(b0, payload)
                    if message is not None:
                        return message
                    continue
            await self._fill()

    async def _handle(self, b0: int, payload: bytes) -> bytes | str | None:
        opcode = b0 & 0x0F
        fin = b0 & 0x80
        if opcode in (0x1, 0x2, 0x0):
            if opcode:
                self._text = opcode == 0x1
            if not fin:
                self._fragments.append(payload)
                return None
            if self._fragments:
                self._fragments.append(payload)
                payload = b"".join(self._fragments)
                self._fragments = []
            return payload.decode() if self._text else payload
        if opcode == 0x9:  # ping
            await self._send_raw(_frame(0xA, payload))
            return None
        if opcode == 0xA:  # pong
            return None
        if opcode == 0x8:  # close: answer, then report it
            code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            reason = payload[2:].decode(errors="replace")
            if self._closed is None:
                with contextlib.suppress(Closed):
                    await self._send_raw(_frame(0x8, payload[:2]))
            raise self._close_with(Closed(code, reason))
        raise self._close_with(Closed(1002, f"unknown opcode {opcode}"))

    async def aclose(self, code: int = 1000, timeout: float = 2.0) -> None:
        """Close handshake (bounded by `timeout`), then close the socket."""
        try:
            if self._closed is None:
                await self._send_raw(_frame(0x8, code.to_bytes(2, "big")))
                self._closed = Closed(code, "closed by the client")
                with trio.move_on_after(timeout):
                    while True:  # until the server answers the close or drops the connection
                        await self._fill()
                        self._buf.clear()
        except Closed:
            pass
        finally:
            trio.lowlevel.notify_closing(self.sock)
            self.sock.close()
