"""The terminal itself: full-screen drawing with plain ANSI codes and a small
line editor, so that news arriving while the person types neither scrolls
the screen away nor eats what they typed.

On a real terminal (stdin and stdout are ttys) the screen is redrawn in
place on the alternate screen, and keys are read one by one (cbreak mode)
by a worker thread; every write happens on the trio thread. Otherwise (a
pipe, a file) it falls back to printing each changed screen and reading
whole lines.

Why not a terminal UI library (Textual, or prompt_toolkit with trio as a
guest of its asyncio loop): both were weighed for scrollback, resizing,
the 80x24 layout and the lost-connection indicator. None of the four is
the screen's job here: what fits at 80x24, what the scrollback holds and
what the header says when the link is down are decisions of the table
screen (render.py), the same with either library; resizing is a SIGWINCH
that repaints (app.py). A library would replace the ~200 lines below
with as many of layout code and an asyncio host loop under trio, and the
plain-pipe mode (used by scripts and tests) would need a second path. The
line editor gained what people missed (cursor keys, Home/End, Delete)
instead.
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
        self.cursor = 0  # where in `buffer` the next key goes
        self.on_key: Callable[[str], None] = lambda key: None  # "pgup", "pgdn": the caller scrolls

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

    def bell(self) -> None:
        """Ring the terminal's bell (a terminal emulator may show it as a
        notification, or mark its window)."""
        self._write("\a")

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
        """The prompt and the line typed so far, scrolled so the cursor shows,
        with the terminal's cursor put back where the next key goes."""
        width, _ = self.size()
        room = max(5, width - len(self.PROMPT) - 1)
        start = max(0, self.cursor - room + 1)
        shown = self.buffer[start:start + room]
        if start:
            shown = "<" + shown[1:]
        back = len(shown) - (self.cursor - start)
        return self.PROMPT + shown + (f"\x1b[{back}D" if back > 0 else "")

    def _insert(self, text: str) -> None:
        self.buffer = self.buffer[: self.cursor] + text + self.buffer[self.cursor:]
        self.cursor += len(text)

    def _set(self, text: str) -> None:
        self.buffer = text
        self.cursor = len(text)

    def prefill(self, text: str) -> None:
        """Put `text` on the input line, the cursor at its end, for the
        person to change and send (a counter-offer's terms)."""
        self._set(text)
        self.redraw_input()

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
                    line = self.buffer
                    self._set("")
                    if line.strip():
                        self.history.append(line)
                    self._hist_pos = len(self.history)
                    self.redraw_input()
                    await send.send((line, self._mark if line else mark()))
                    self._mark = None
                elif ch in ("\x7f", "\x08"):
                    if self.cursor:
                        self.buffer = self.buffer[: self.cursor - 1] + self.buffer[self.cursor:]
                        self.cursor -= 1
                    self.redraw_input()
                elif ch == "\x15":  # ctrl-U
                    self._set("")
                    self.redraw_input()
                elif ch == "\x17":  # ctrl-W: the word before the cursor
                    head = self.buffer[: self.cursor].rstrip()
                    head = head[: head.rfind(" ") + 1] if " " in head else ""
                    self.buffer, self.cursor = head + self.buffer[self.cursor:], len(head)
                    self.redraw_input()
                elif ch in ("\x01", "\x05"):  # ctrl-A, ctrl-E
                    self.cursor = 0 if ch == "\x01" else len(self.buffer)
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
                    self._insert(ch)
                    self.redraw_input()

    def _escape_key(self, seq: str) -> None:
        """Up and down walk through the lines typed before; left, right,
        Home, End and Delete edit the line; PgUp and PgDn go to the caller."""
        key = seq[2:]
        if key in ("5~", "6~"):
            self.on_key("pgup" if key == "5~" else "pgdn")
            return
        if key in ("D", "C"):
            self.cursor = max(0, self.cursor - 1) if key == "D" else min(len(self.buffer), self.cursor + 1)
        elif key in ("H", "1~", "7~", "F", "4~", "8~"):
            self.cursor = 0 if key in ("H", "1~", "7~") else len(self.buffer)
        elif key == "3~":
            self.buffer = self.buffer[: self.cursor] + self.buffer[self.cursor + 1:]
        elif key == "A" and self.history:
            self._hist_pos = max(0, self._hist_pos - 1)
            self._set(self.history[self._hist_pos])
            self._mark = self._mark_fn()
        elif key == "B" and self.history:
            self._hist_pos = min(len(self.history), self._hist_pos + 1)
            self._set(self.history[self._hist_pos] if self._hist_pos < len(self.history) else "")
            self._mark = self._mark_fn()
        else:
            return
        self.redraw_input()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
