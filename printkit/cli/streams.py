"""The command line's stdout and stderr, escaping what a terminal would obey: the one place every line passes.

While a command runs (:func:`escaping`), ``sys.stdout`` and ``sys.stderr`` are
:class:`Escaping` streams: whatever is printed, by a command, by the one error
handler or by Click itself, reaches the terminal with its control, format and
lone surrogate characters written as ``\\x1b`` or ``\\u202e``
(:func:`printkit.model.names.escaped`). A file name holding an OSC title or
clipboard sequence, a bidi override or a newline is shown, never obeyed. Bytes
(a sheet written to ``-o -``) go to the stream's ``buffer`` as they are: they are
a file's content, not a message. In a non-UTF-8 locale (``LC_ALL=C``) ``Zoë`` is
printed, never an encoding error (see :class:`Escaping`).
"""

from __future__ import annotations

import codecs
import contextlib
import io
import sys
from collections.abc import Iterator
from typing import Any, TextIO, cast

from printkit.model.names import escaped


class Escaping(io.TextIOBase):
    """A text stream writing to ``target`` with every control and format character escaped (see the module).

    It is UTF-8 to whoever writes to it, so Click never wraps it again: to an
    ASCII stream (a ``C`` locale) it writes UTF-8 bytes, as Click would; to any
    other encoding, what that encoding lacks as ``\\xeb``-style escapes.
    """

    def __init__(self, target: TextIO) -> None:
        super().__init__()
        self.target = target
        encoding = codecs.lookup(getattr(target, "encoding", None) or "utf-8").name
        self.utf8 = encoding == "utf-8"
        self.binary = getattr(target, "buffer", None) if encoding == "ascii" else None

    def write(self, text: str) -> int:
        """Write ``text`` escaped; bytes are refused (Click then finds :attr:`buffer` for them)."""
        shown = escaped(text)
        if self.binary is not None:
            self.target.flush()
            self.binary.write(shown.encode("utf-8"))
        elif self.utf8:
            self.target.write(shown)
        else:
            encoding = self.target.encoding
            self.target.write(shown.encode(encoding, "backslashreplace").decode(encoding))
        return len(text)

    def flush(self) -> None:
        """Flush the stream underneath."""
        self.target.flush()
        if self.binary is not None:
            self.binary.flush()

    def isatty(self) -> bool:
        """Whether the stream underneath is a terminal."""
        return self.target.isatty()

    def fileno(self) -> int:
        """The file descriptor underneath."""
        return self.target.fileno()

    def writable(self) -> bool:
        """Always: this is an output stream."""
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """UTF-8: any text can be written (see the class)."""
        return "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]
        """Strict: nothing written is lost (what no encoding can take was escaped)."""
        return "strict"

    @property
    def buffer(self) -> Any:
        """The binary stream underneath, for a file's bytes written to stdout."""
        return self.target.buffer


def raw(stream: TextIO) -> TextIO:
    """The stream under an :class:`Escaping` one, for output printkit itself controls (a progress bar's codes)."""
    return stream.target if isinstance(stream, Escaping) else stream


def _escaping(stream: TextIO | None) -> TextIO:
    if stream is None or isinstance(stream, Escaping):
        return stream  # type: ignore[return-value]  # no stream (pythonw) stays none
    return cast("TextIO", Escaping(stream))


@contextlib.contextmanager
def escaping() -> Iterator[None]:
    """Run a block with ``sys.stdout`` and ``sys.stderr`` escaping; afterwards they are as before."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _escaping(sys.stdout), _escaping(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
