"""Helpers shared by the command modules: option values, maps named by an option, help built from data.

Kept light (Click and the standard library): ``printkit roll`` and ``printkit
turns next`` import this module, so anything heavier is imported inside the
function that needs it. Errors are reported once, by the group (``printkit.cli``).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import click

from printkit.errors import InputError, UnknownMapError
from printkit.model.limits import MAX_SEED
from printkit.model.names import duplicate_problem, name_problem, shorten, shown, typed

if TYPE_CHECKING:
    from pathlib import Path

    from printkit.model.maps import GameMap
    from printkit.rules.report import GameScore


def names_option(value: str | None) -> list[str]:
    """Split a comma-separated ``--names`` value, trimming blanks."""
    if not value:
        return []
    return [n.strip() for n in typed(value).split(",") if n.strip()]


STDOUT = "-"  # an output option given as '-' writes to stdout
PATH_SHOWN = 240  # characters of a path echoed in a message


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as messages quote it: ``repr``, shortened to :data:`PATH_SHOWN` characters."""
    return shown(os.fspath(path), PATH_SHOWN)


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths are one file (hardlinks and symlinks included); False if either is missing."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def not_an_input(outputs: Iterable[str | os.PathLike[str]], inputs: Iterable[str | os.PathLike[str]],
                 hint: str) -> None:
    """A usage error for option ``hint`` if any output path is one of the command's input files."""
    sources = [i for i in inputs if i is not None]
    for out in outputs:
        for source in sources:
            if _same_file(out, source):
                what = ("an input of this command" if os.fspath(out) == os.fspath(source)
                        else f"the same file as the input {shown_path(source)}")
                raise click.BadParameter(f"{shown_path(out)} is {what}; writing there would replace it: "
                                         "choose another file", param_hint=hint)


def output_file(value: str, hint: str, inputs: Iterable[str | os.PathLike[str]] = ()) -> str:
    """The file an output option names, written as pathlib does: its folder must exist, it must not be an input.

    os.path, not pathlib: ``--state`` is checked by every companion command (pathlib costs 2.5 ms).
    """
    from printkit.files import path_text

    target = path_text(value)
    folder = os.path.dirname(target) or "."
    mode = _mode(folder, hint)
    if mode is None or not stat.S_ISDIR(mode):
        what = "is not a folder" if mode is not None else "does not exist"
        raise click.BadParameter(f"folder {shown_path(folder)} {what}", param_hint=hint)
    mode = _mode(target, hint)
    if mode is not None and stat.S_ISDIR(mode):
        raise click.BadParameter(f"{shown_path(target)} is a folder; give a file name", param_hint=hint)
    not_an_input([target], inputs, hint)
    return target


def _mode(path: str, hint: str) -> int | None:
    """``file_mode(path)``; a path the system refuses to look at (too long, a folder not readable) is a usage error."""
    from printkit.files import file_mode

    try:
        return file_mode(path)
    except OSError as exc:
        raise click.BadParameter(f"cannot use {shown_path(path)}: {exc.strerror or exc}", param_hint=hint) from None
    except ValueError:  # an embedded NUL
        raise click.BadParameter(f"cannot use {shown_path(path)}: not a file name", param_hint=hint) from None


def output_path(value: str, hint: str, inputs: Iterable[str | os.PathLike[str]] = ()) -> Path:
    """:func:`output_file` as a ``Path``."""
    from pathlib import Path

    return Path(output_file(value, hint, inputs))


MAX_COUNT = 10**6  # no count, airfare or turn at a table reaches a million: beyond it is a typo
_DIGITS = 19  # the most digits an integer option reads (MAX_SEED has 19)


class Whole(click.IntRange):
    """An integer option with a range; anything else is refused in words, the value echoed shortened."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The whole number typed, within the range (never Python's wording for a 5000-digit value)."""
        if isinstance(value, str) and not re.fullmatch(rf"\s*[+-]?\d{{1,{_DIGITS}}}\s*", value):
            self.fail(f"expected a whole number {self._describe_range()}, got {shown(value)}", param, ctx)
        return super().convert(value, param, ctx)

    def _describe_range(self) -> str:
        """Click's range wording, in words: ``from 0 to 9223372036854775807``, ``of 0 or more``."""
        if self.min is not None and self.max is not None:
            return f"from {self.min} to {self.max}"
        return f"of {self.min} or more" if self.min is not None else f"of {self.max} or less"


SEED = Whole(0, MAX_SEED)


def whole_numbers(value: str, hint: str, high: int = MAX_COUNT) -> list[int]:
    """Comma-separated whole numbers up to ``high`` typed for option ``hint`` (a usage error otherwise)."""
    parts = [x.strip() for x in value.split(",") if x.strip()]
    if not all(re.fullmatch(r"[+-]?\d+", x) for x in parts):
        raise click.BadParameter(f"expected whole numbers separated by commas, got {shown(value)}", param_hint=hint)
    big = next((x for x in parts if len(x.lstrip("+-")) > _DIGITS or abs(int(x)) > high), None)
    if big is not None:
        raise click.BadParameter(f"{shown(big)[1:-1]} is too large; each number is at most {high}", param_hint=hint)
    numbers = [int(x) for x in parts]
    return numbers


def checked_names(names: list[str], hint: str) -> list[str]:
    """Names typed for option ``hint``, checked by the one rule of :mod:`printkit.model.names` (a usage error)."""
    problem = next((p for p in map(name_problem, names) if p is not None), None) or duplicate_problem(names)
    if problem is not None:
        raise click.BadParameter(problem, param_hint=hint)
    return names


def printable_names(names: list[str], hint: str) -> list[str]:
    """Names the sheet font can print, regular and bold (a usage error for option ``hint`` otherwise)."""
    from printkit.layout.common import LayoutError, check_glyphs

    for name in names:
        try:
            check_glyphs(name, "regular")
            check_glyphs(name, "bold")
        except LayoutError as exc:
            raise click.BadParameter(str(exc), param_hint=hint) from None
    return names


def seed_or_random(seed: int | None) -> int:
    """``seed``, or a fresh random one when none was given (shown and saved, so a game can be replayed)."""
    if seed is not None:
        return seed
    import random

    return random.SystemRandom().randrange(1_000_000)


@contextlib.contextmanager
def map_param(hint: str) -> Iterator[None]:
    """An unknown map named by the option or argument ``hint`` (e.g. ``"'--map'"``) is a usage error.

    ``Error: Invalid value for '--map': unknown map ...``, exit status 2;
    every other error is left to the group's one handler.
    """
    try:
        yield
    except UnknownMapError as exc:
        name = exc.name if not isinstance(exc.name, str) else shorten(exc.name)
        raise click.BadParameter(UnknownMapError.describe(name, exc.bundled), param_hint=hint) from None


@contextlib.contextmanager
def input_param(hint: str, typed: str | None = None) -> Iterator[None]:
    """A rule's InputError about the value of option ``hint`` is a usage error for that option.

    ``typed`` is the value as the user typed it, shown in the message instead
    of the value as the rules saw it.
    """
    try:
        yield
    except InputError as exc:
        got = exc.got if typed is None else typed
        detail = exc.says(shown(got)) if isinstance(got, str) else exc.detail
        raise click.BadParameter(detail, param_hint=hint) from None


def load_map_param(name: str, hint: str = "'--map'") -> GameMap:
    """Load a bundled map id or a .toml path named by option ``hint``."""
    from printkit.loading import maps as loader

    with map_param(hint):
        return loader.load_map(name)


def checked_players(players: str | None, default: list[str]) -> tuple[str, ...]:
    """The ``--players`` names (or ``default``), checked; a usage error if they cannot play."""
    from printkit.rules.turns import check_players

    names = checked_names(names_option(players), "'--players'") if players is not None else default
    with input_param("'--players'"):
        return check_players(names)


def show_score(result: GameScore, title: str | None = None, *, as_json: bool = False) -> None:
    """Print a scored game as a table under ``title`` (default: the game's title), or as JSON."""
    from printkit.present.score_text import score_json, score_text

    click.echo(score_json(result) if as_json else score_text(result, title))


def bundled_map_ids() -> str:
    """The bundled Around the World map ids, for help texts: ``world, us, europe, south-america``."""
    from printkit.loading.maps import bundled_maps

    return ", ".join(bundled_maps())


class FactsCommand(click.Command):
    """A command whose help quotes game facts: its ``{name}`` fields are filled from the data when shown.

    ``facts()`` is called only when the help is shown, so listing or running
    the command loads nothing for it.
    """

    def __init__(self, *args: Any, facts: Callable[[], Mapping[str, object]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.facts = facts

    @contextlib.contextmanager
    def _filled(self) -> Iterator[None]:
        template = self.help
        if template is not None:
            self.help = template.format_map(self.facts())
        try:
            yield
        finally:
            self.help = template

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The help text, its facts filled in."""
        with self._filled():
            super().format_help_text(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        """The first sentence of the help, its facts filled in (loaded only if it quotes any)."""
        if "{" not in (self.help or "").split("\n\n", 1)[0]:
            return super().get_short_help_str(limit)
        with self._filled():
            return super().get_short_help_str(limit)


class FactsGroup(FactsCommand, click.Group):
    """A group of commands whose own help quotes game facts (see :class:`FactsCommand`)."""
