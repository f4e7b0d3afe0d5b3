"""What a sweep counts (cases run and each kind of failure), and its one-line report (``SWEEP_REPORT=1``)."""

from __future__ import annotations

import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

T = TypeVar("T")


class Hang(Exception):
    """A case ran past its time."""


class Tally:
    """Cases run, failures by kind (each with its first example), for one sweep."""

    def __init__(self, name: str, kinds: tuple[str, ...]) -> None:
        self.name, self.kinds = name, kinds
        self.cases = 0
        self.found: Counter[str] = Counter()
        self.examples: dict[str, str] = {}

    def case(self) -> None:
        """Count one case run."""
        self.cases += 1

    def failed(self, kind: str, example: str) -> None:
        """Count one failure of ``kind`` (one of :attr:`kinds`)."""
        assert kind in self.kinds, kind
        self.found[kind] += 1
        self.examples.setdefault(kind, example)

    def line(self) -> str:
        """``name: N cases; 0 tracebacks, 0 hangs, ...``."""
        counts = ", ".join(f"{self.found[k]} {k}" for k in self.kinds)
        return f"{self.name}: {self.cases} cases; {counts}"

    def problems(self) -> list[str]:
        """Each kind that failed, with its count and first example (empty when the sweep is clean)."""
        return [f"{k}: {self.found[k]}, e.g. {self.examples[k]}" for k in self.kinds if self.found[k]]

    def report(self) -> None:
        """Print :meth:`line` to the terminal when ``SWEEP_REPORT`` is set (run with ``-s`` to see it under pytest)."""
        if os.environ.get("SWEEP_REPORT"):
            sys.__stderr__.write(f"\nSWEEP {self.line()}\n")


def _alarm(number: int, frame: FrameType | None) -> None:
    raise Hang()


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Raise :class:`Hang` in the block once ``seconds`` have passed (the main thread's SIGALRM)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def timed(seconds: int, run: Callable[[], T]) -> T | Hang:
    """``run()``, or the :class:`Hang` it became after ``seconds``."""
    try:
        with deadline(seconds):
            return run()
    except Hang as hang:
        return hang
