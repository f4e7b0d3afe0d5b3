"""printkit's command line: the console script's entry point; the group is :mod:`printkit.cli.group`.

:func:`main` runs the group with Python's cyclic garbage collector paused,
from before Click (and ``typing``) are imported: start-up creates tens of
thousands of objects and no garbage cycles, and each collection walks them
again (about 2.5 ms of ``printkit roll``, 3-4 ms of ``printkit score FILE``;
docs/performance.md). At the end everything made so far is moved to the
collector's permanent generation (``gc.freeze``), so turning it on again (the
console script exits right after) does not walk it all at once either. The
commands in :data:`COLLECTED` make pages and pictures: the collector is on
again once their module is loaded; ``render`` turns it on only for a pack of
more than :data:`PAUSED_PAGES` pages (a sheet or a small pack makes no garbage
cycles worth a collection before the process ends). SIGINT and SIGTERM raise
:class:`KeyboardInterrupt` (:func:`interruptible`), reported by the group as
``Error: interrupted``. This module imports only ``gc``, ``sys``
and (in :func:`main`) ``signal``; ``printkit.cli.cli`` (the group) and its
helpers are loaded from :mod:`printkit.cli.group` on first use.
"""

from __future__ import annotations

import gc
import sys

TYPE_CHECKING = False  # typing itself is imported inside the pause, by Click
if TYPE_CHECKING:
    from types import TracebackType
    from typing import Any

COLLECTED = frozenset({"scan", "host"})
"""Commands that run with the garbage collector on; every other one does a small, bounded piece of work."""
PAUSED_PAGES = 32
"""``render`` keeps the collector paused for at most this many pages (a bigger pack turns it on: bounded memory)."""

_before: list[bool] = []  # whether the collector was on before each pause still in force, innermost last


class collector_paused:  # noqa: N801 - used like a function: `with collector_paused():`
    """Run a ``with`` block with the cyclic garbage collector off; afterwards it is on or off as before."""

    def __enter__(self) -> None:
        """Pause the collector, remembering whether it was on."""
        _before.append(gc.isenabled())
        gc.disable()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        """Put the collector back as it was before the pause."""
        if _before.pop():
            gc.enable()
        else:
            gc.disable()


def resume_collector() -> None:
    """Inside :class:`collector_paused`, turn the collector on again if it was on before (see :data:`COLLECTED`)."""
    if _before and _before[-1]:
        gc.enable()


class Terminated(KeyboardInterrupt):
    """``kill`` (SIGTERM), raised in the main thread as Ctrl-C's KeyboardInterrupt is, so every cleanup runs."""

    signal_name = "SIGTERM"


def _interrupt(number: int, frame: object) -> None:
    """Ctrl-C or ``kill``: raise in the main thread; any later signal is ignored, so the cleanup is not cut short."""
    import signal

    for other in (signal.SIGINT, signal.SIGTERM):
        signal.signal(other, signal.SIG_IGN)
    raise Terminated() if number == signal.SIGTERM else KeyboardInterrupt()


class interruptible:  # noqa: N801 - used like a function: `with interruptible():`
    """Run a ``with`` block where SIGINT and SIGTERM raise (unless ignored when it began); then restore them.

    The group reports either as ``Error: interrupted`` (exit 130 or 143), after
    every write has removed its temp files on the way out.
    """

    def __enter__(self) -> None:
        """Install :func:`_interrupt` for each signal still at its default."""
        import signal

        self.saved: dict[int, Any] = {}
        for number, default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL)):
            if signal.getsignal(number) is default:
                try:
                    signal.signal(number, _interrupt)
                except ValueError:  # not the main thread: signals stay as they are
                    return
                self.saved[number] = default

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        """Put the handlers back as they were."""
        import signal

        for number, handler in self.saved.items():
            signal.signal(number, handler)


def main(argv: list[str] | None = None) -> Any:
    """Entry point of the ``printkit`` console script."""
    with collector_paused(), interruptible():
        from printkit.cli.group import cli

        try:
            return cli.main(args=argv if argv is not None else sys.argv[1:], prog_name="printkit")
        finally:
            gc.freeze()  # what the run made is kept out of later collections: turning the collector on walks none of it


def __getattr__(name: str) -> Any:
    """The group (``cli``) and its helpers, from :mod:`printkit.cli.group`, imported on first use."""
    if name.startswith("__") or name == "group":  # "group": the import below finds the submodule
        raise AttributeError(f"module 'printkit.cli' has no attribute {name!r}")
    from printkit.cli import group

    return getattr(group, name)
