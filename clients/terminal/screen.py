"""The terminal itself: full-screen drawing with plain ANSI codes and a small
line editor, so that news arriving while the person types neither scrolls
the screen away nor eats what they typed.

On a real terminal (stdin and stdout are ttys) the screen is redrawn in
place on the alternate screen, and keys are read one by one (cbreak mode)
by a worker thread; every write happens on the trio thread. Otherwise (a
pipe, a file) it falls back to printing each changed screen and reading
whole lines.
"""

from __future__ import annotations

import codecs
import os
import shutil
import sys
from collections.abc import Callable
from typing import Any, TextIO

import trio

__all__ = ["Terminal"]

_ENTER_ALT = "\x1b[?1049h\x1b[H\x1b[2J"
_LEAVE_ALT = "\x1b[?1049l"
_HOME = "\x1b[H"
_CLEAR_EOL = "\x1b[K"
_CLEAR_EOS = "\x1b[J"
_CONTROLS = {c: "?" for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]}


class Terminal:
    """Draws screens and delivers typed lines.

    `read_lines(send)` sends `(line, mark)` pairs, where `mark` is what the
    `mark` callback returned when the first key of that line was pressed
    (so the caller can tell if the question changed while the person typed).
    """

    PROMPT = "> "

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None, *, ansi: bool | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        if ansi is None:
            ansi = _isatty(self.stdin) and _isatty(self.stdout) and os.environ.get("TERM") != "dumb"
        self.ansi = ansi
        self.buffer = ""
        self.history: list[str] = []
        self._hist_pos = 0
        self._mark: Any = None
        self._mark_fn: Callable[[], Any] = lambda: None
        self._saved_tty: Any = None
        self._last_plain: list[str] | None = None
        self._lines: list[str] = []

    # -- setup and teardown -----------------------------------------------------

    def __enter__(self) -> Terminal:
        if self.ansi:
            try:
                import termios
                import tty

                fd = self.stdin.fileno()
                self._saved_tty = termios.tcgetattr(fd)
                tty.setcbreak(fd)
            except (ImportError, OSError, ValueError):
                self._saved_tty = None
            self._write(_ENTER_ALT)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.restore()

    def restore(self) -> None:
        """Give the terminal back as it was (idempotent)."""
        if not self.ansi:
            return
        if self._saved_tty is not None:
            try:
                import termios

                termios.tcsetattr(self.stdin.fileno(), termios.TCSADRAIN, self._saved_tty)
            except (ImportError, OSError, ValueError):
                pass
            self._saved_tty = None
        self._write(_LEAVE_ALT)
        self.ansi = False

    def size(self) -> tuple[int, int]:
        """(columns, lines)."""
        size = shutil.get_terminal_size((100, 40))
        return max(size.columns, 20), max(size.lines, 10)

    # -- output ---------------------------------------------------------------------

    def _write(self, text: str) -> None:
        try:
            self.stdout.write(text)
            self.stdout.flush()
        except (OSError, ValueError):
            pass

    def draw(self, lines: list[str], *, force: bool = False) -> None:
        """Show `lines` (already fitted to the screen) with the input line below."""
        # Names, chat and deal texts come from other people: no control
        # character of theirs reaches the terminal (no escape sequences).
        lines = [line.translate(_CONTROLS) for line in lines]
        self._lines = lines
        if self.ansi:
            body = "".join(line + _CLEAR_EOL + "\n" for line in lines)
            self._write(_HOME + body + _CLEAR_EOS + self._input_text())
        elif force or lines != self._last_plain:
            self._last_plain = list(lines)
            self._write("\n" + "\n".join(lines) + "\n" + self.PROMPT)

    def redraw_input(self) -> None:
        if self.ansi:
            self._write("\r" + _CLEAR_EOL + self._input_text())

    def _input_text(self) -> str:
        width, _ = self.size()
        room = max(5, width - len(self.PROMPT) - 1)
        shown = self.buffer if len(self.buffer) <= room else "<" + self.buffer[-(room - 1):]
        return self.PROMPT + shown

    # -- input ------------------------------------------------------------------------

    async def read_lines(self, send: trio.MemorySendChannel, mark: Callable[[], Any] = lambda: None) -> None:
        """Deliver typed lines until end of input, which is delivered as '/quit'."""
        self._mark_fn = mark
        async with send:
            if self.ansi:
                await self._read_keys(send, mark)
            else:
                while True:
                    line = await trio.to_thread.run_sync(self.stdin.readline, abandon_on_cancel=True)
                    if not line:
                        await send.send(("/quit", None))
                        return
                    await send.send((line.rstrip("\r\n"), mark()))

    async def _read_keys(self, send: trio.MemorySendChannel, mark: Callable[[], Any]) -> None:
        fd = self.stdin.fileno()
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        escape = ""
        while True:
            data = await trio.to_thread.run_sync(os.read, fd, 1024, abandon_on_cancel=True)
            if not data:
                await send.send(("/quit", None))
                return
            for ch in decoder.decode(data):
                if escape:
                    escape += ch
                    if len(escape) == 2 and ch != "[" and ch != "O":
                        escape = ""
                    elif len(escape) > 2 and (ch.isalpha() or ch == "~"):
                        self._escape_key(escape)
                        escape = ""
                    continue
                if ch == "\x1b":
                    escape = ch
                elif ch in ("\r", "\n"):
                    line, self.buffer = self.buffer, ""
                    if line.strip():
                        self.history.append(line)
                    self._hist_pos = len(self.history)
                    self.redraw_input()
                    await send.send((line, self._mark if line else mark()))
                    self._mark = None
                elif ch in ("\x7f", "\x08"):
                    self.buffer = self.buffer[:-1]
                    self.redraw_input()
                elif ch == "\x15":  # ctrl-U
                    self.buffer = ""
                    self.redraw_input()
                elif ch == "\x17":  # ctrl-W
                    self.buffer = self.buffer.rstrip()
                    self.buffer = self.buffer[: self.buffer.rfind(" ") + 1] if " " in self.buffer else ""
                    self.redraw_input()
                elif ch == "\x0c":  # ctrl-L
                    self._write("\x1b[2J")
                    self.draw(self._lines)
                elif ch == "\x04":  # ctrl-D
                    if not self.buffer:
                        await send.send(("/quit", None))
                        return
                elif ch.isprintable():
                    if not self.buffer:
                        self._mark = mark()
                    self.buffer += ch
                    self.redraw_input()

    def _escape_key(self, seq: str) -> None:
        """Up and down walk through the lines typed before."""
        if seq.endswith("A") and self.history:
            self._hist_pos = max(0, self._hist_pos - 1)
            self.buffer = self.history[self._hist_pos]
        elif seq.endswith("B") and self.history:
            self._hist_pos = min(len(self.history), self._hist_pos + 1)
            self.buffer = self.history[self._hist_pos] if self._hist_pos < len(self.history) else ""
        else:
            return
        self._mark = self._mark_fn()
        self.redraw_input()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
