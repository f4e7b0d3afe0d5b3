"""Wereldsteden: the winning-tile dealer (never an illegal display), the win check, the CLI."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.errors import DataError
from printkit.loading.games import load_wereldsteden
from printkit.loading.records.wereldsteden import read_record
from printkit.model.games import TileType, Wereldsteden
from printkit.rules import wereldsteden as w
from printkit.rules.report import GameScore


def score_record(doc: dict[str, Any], source: str) -> GameScore:
    """Read and score a record, as `printkit score` does."""
    return w.score_record(read_record(doc, source, Path(".")))

GAME = load_wereldsteden()
YELLOW = ("helsinki-yellow", "tokyo", "wellington")
PURPLE = ("helsinki-purple", "vancouver", "buenos-aires")


def test_bundled_data() -> None:
    assert len(GAME.tiles) == 10 and GAME.tiles_per_type == 5
    assert Counter(t.stack for t in GAME.tiles) == {"yellow": 5, "purple": 5}
    assert [(s.city, s.stack) for s in GAME.spaces] == [
        ("Helsinki", "yellow"), ("Tokyo", "yellow"), ("Wellington", "yellow"),
        ("Helsinki", "purple"), ("Vancouver", "purple"), ("Buenos Aires", "purple"),
    ]  # fmt: skip
    assert GAME.distinct == (YELLOW, PURPLE, ("helsinki-yellow", "helsinki-purple"))
    assert len(GAME.cards) == 9 and [s.city for s in GAME.special] == ["New York", "Dakar", "Astana"]
    assert GAME.extra_flight == (("San Francisco", "Vladivostok"), ("Santiago", "Darwin"))


def check_board(game: Wereldsteden, board: w.Board, sold: Counter[str]) -> None:
    """Legal display; every tile is on display, in a stack, put aside or sold."""
    assert w.display_problems(game, board.display) == []
    everywhere: Counter[str] = Counter(t for t in board.display.values() if t is not None)
    for colour in game.stacks:
        everywhere.update(board.stacks[colour])
        everywhere.update(board.aside[colour])
    everywhere.update(sold)
    assert everywhere == {t.id: game.tiles_per_type for t in game.tiles}


def deal_and_sell(seed: int, sales: int) -> None:
    """Set up from ``seed``, then sell from random spaces and refill, checking every board."""
    ids = [s.id for s in GAME.spaces]
    rng = random.Random(seed)
    board, _ = w.setup(GAME, rng)
    assert None not in board.display.values()  # a fresh stack can always fill the display
    sold: Counter[str] = Counter()
    check_board(GAME, board, sold)
    for _ in range(sales):
        full = [s for s in ids if board.display[s] is not None]
        if not full:
            break
        picked = rng.sample(full, 2 if len(full) > 1 and rng.random() < 0.2 else 1)  # sometimes two at once
        sold.update(board.display[s] or "" for s in picked)
        board, _ = w.refill(GAME, board, picked, rng)
        check_board(GAME, board, sold)


def test_dealer_never_shows_identical_tiles_side_by_side() -> None:
    """10,000 seeded setups, each followed by 0-3 seeded sales and refills."""
    for seed in range(10_000):
        deal_and_sell(seed, seed % 4)


def test_dealer_to_the_last_tile() -> None:
    """Sell until no tile is left anywhere: stacks run out, put-aside tiles come back, spaces empty."""
    for seed in range(200):
        deal_and_sell(seed, 60)


def test_helsinki_rule_with_a_type_in_both_stacks() -> None:
    """If a type were in both stacks, Helsinki's two tiles must still differ."""
    both = dataclasses.replace(GAME, tiles=(*GAME.tiles, TileType("rug", "Rug", "Istanbul", "purple")))
    display: dict[str, str | None] = {"helsinki-yellow": "rug", "tokyo": None, "wellington": None,
                                      "helsinki-purple": None, "vancouver": None, "buenos-aires": None}
    assert not w.fits(both, display, "helsinki-purple", "rug")
    assert w.fits(both, display, "vancouver", "rug")
    assert not w.fits(both, display, "tokyo", "rug")
    assert w.display_problems(both, {**display, "helsinki-purple": "rug"}) == [
        "helsinki-yellow and helsinki-purple both show rug"
    ]


def test_put_aside_then_shuffled_back_when_the_stack_runs_out() -> None:
    display: dict[str, str | None] = {"helsinki-yellow": "rug", "tokyo": "fan", "wellington": None,
                                      "helsinki-purple": "mask", "vancouver": "spices", "buenos-aires": "hammock"}
    board = w.Board(display, {"yellow": ("rug", "fan"), "purple": ()}, {"yellow": ("doll",), "purple": ()})
    board, log = w.fill(GAME, board, random.Random(1))
    # rug and fan are on display beside Wellington: both put aside; the stack is then empty and the
    # put-aside tiles (doll, rug, fan) are shuffled into a new stack, drawn until the doll comes up.
    assert board.display["wellington"] == "doll"
    assert log[0] == "wellington: yellow stack empty, the put-aside tiles are shuffled into a new stack"
    assert sorted(board.stacks["yellow"] + board.aside["yellow"]) == ["fan", "rug"]
    assert w.display_problems(GAME, board.display) == []


def test_space_stays_empty_when_no_tile_fits() -> None:
    display: dict[str, str | None] = {"helsinki-yellow": "rug", "tokyo": "fan", "wellington": None,
                                      "helsinki-purple": "mask", "vancouver": "spices", "buenos-aires": "hammock"}
    board = w.Board(display, {"yellow": ("rug", "fan", "rug"), "purple": ()}, {"yellow": (), "purple": ()})
    board, log = w.fill(GAME, board, random.Random(1))
    assert board.display["wellington"] is None
    assert log == ["wellington: no yellow tile left fits; the space stays empty"]
    assert board.stacks["yellow"] == () and board.aside["yellow"] == ("rug", "fan", "rug")
    # Tokyo's fan is sold: Tokyo (first in board order) takes the put-aside fan, the only tile
    # that fits there; the two rugs still cannot go beside Helsinki's rug.
    board, log = w.refill(GAME, board, ["tokyo"], random.Random(2))
    assert (board.display["tokyo"], board.display["wellington"]) == ("fan", None)
    assert log[-1] == "wellington: no yellow tile left fits; the space stays empty"


def test_same_seed_same_deal() -> None:
    a, _ = w.setup(GAME, random.Random(99))
    b, _ = w.setup(GAME, random.Random(99))
    assert w.board_to_state(a) == w.board_to_state(b)


def _doc(*players: tuple[str, list[str]], **top: Any) -> dict[str, Any]:
    return {"game": "wereldsteden", **top, "players": [{"name": n, "tiles": t} for n, t in players]}


def test_win_check() -> None:
    result = score_record(_doc(
        ("Ann", ["rug", "Fan", "rug", "mask", "sombrero", "lantern", "nesting doll"]),  # 6 different (rug twice)
        ("Bo", ["rug", "rug", "rug", "fan", "fan", "mask"]),                             # 3 different
    ), "w.toml")  # fmt: skip
    assert [(p.name, p.total) for p in result.players] == [("Ann", 6), ("Bo", 3)]
    assert result.players[0].sections[0].reason == "fan, rug, doll, lantern, sombrero, mask; 1 duplicate not counted"
    assert result.winners == ("Ann",)
    variant = score_record(_doc(("Ann", ["rug", "fan", "mask", "sombrero", "lantern", "doll"]), ("Bo", []),
                                  variant=True), "w.toml")  # fmt: skip
    assert variant.winners == () and variant.tiebreak == "nobody has 8 different winning tiles yet: the game goes on"


def test_impossible_win_records() -> None:
    six = ["rug", "fan", "mask", "sombrero", "lantern", "doll"]
    with pytest.raises(DataError) as info:
        score_record(_doc(("Ann", six), ("Bo", list(reversed(six)))), "w.toml")
    assert info.value.problems == [
        "w.toml: players: Ann and Bo all have 6 different winning tiles, but the game ends as soon as one player has them"
    ]
    with pytest.raises(DataError) as info:
        score_record(_doc(("Ann", ["rug"] * 4 + ["kite"]), ("Ann", ["rug", "rug"])), "w.toml")
    assert info.value.problems == [
        "w.toml: players[0].tiles[4]: unknown winning tile string 'kite' (tiles: sweater, fan, rug, doll, lantern, "
        "hammock, sombrero, mask, boomerang, spices)",
        "w.toml: players[1].name: player name 'Ann' is given twice (names are compared ignoring case)",
        "w.toml: players: 6 rug tiles taken, but the game has 5 of each type",
    ]


def test_cli_setup_refill_status(tmp_path: Path, runner: CliRunner) -> None:
    state = tmp_path / "board.json"
    first = runner.invoke(cli, ["wereldsteden", "setup", "--seed", "7", "--state", str(state)])
    assert first.exit_code == 0, first.output
    saved = json.loads(state.read_text())
    board = w.from_state(saved, str(state), GAME).board
    assert w.board_to_state(board) == w.board_to_state(w.setup(GAME, random.Random(7))[0])
    assert first.stdout.splitlines()[0] == "Winning tiles dealt (seed 7):"
    again = runner.invoke(cli, ["wereldsteden", "setup", "--seed", "8", "--state", str(state)])
    assert again.exit_code == 1
    assert again.stderr == f"Error: {state}: tiles are already dealt for a game; replace them with --force\n"

    sold = board.display["tokyo"]
    refill = runner.invoke(cli, ["wereldsteden", "refill", "Tokyo", "--state", str(state)])
    assert refill.exit_code == 0, refill.output
    assert refill.stdout.splitlines()[0] == f"Sold: {GAME.tile(sold or '').name} from tokyo."
    after = w.from_state(json.loads(state.read_text()), str(state), GAME).board
    check_board(GAME, after, Counter([sold or ""]))
    status = runner.invoke(cli, ["wereldsteden", "status", "--state", str(state)])
    assert status.stdout.splitlines()[0] == "Winning tiles (seed 7, 1 refill):"

    bad = runner.invoke(cli, ["wereldsteden", "refill", "paris", "--state", str(state)])
    assert bad.exit_code == 2
    assert bad.stderr.splitlines()[-1] == ("Error: Invalid value for 'SPACE': unknown display space 'paris'; "
                                           "choose from helsinki-yellow, tokyo, wellington, helsinki-purple, "
                                           "vancouver, buenos-aires")  # fmt: skip


def test_cli_corrupt_state_left_untouched(tmp_path: Path, runner: CliRunner) -> None:
    state = tmp_path / "board.json"
    state.write_text(json.dumps({"printkit": "wereldsteden", "format": 1, "seed": 1, "draws": 0,
                                 "display": {"tokyo": "rug"}, "stacks": {}, "aside": {}}))  # fmt: skip
    before = state.read_text()
    result = runner.invoke(cli, ["wereldsteden", "refill", "tokyo", "--state", str(state)])
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {state}: state file is corrupt (display: expected a table of the spaces "
                             "helsinki-yellow, tokyo, wellington, helsinki-purple, vancouver, buenos-aires); "
                             "it was left untouched\n")
    assert state.read_text() == before


def test_score_command_names_the_winner(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "w.toml"
    path.write_text('game = "wereldsteden"\n[[players]]\nname = "Ann"\ntiles = ["rug", "fan", "mask", "sombrero", '
                    '"lantern", "spices"]\n[[players]]\nname = "Bo"\ntiles = ["rug"]\n')  # fmt: skip
    result = runner.invoke(cli, ["score", str(path)])
    assert result.exit_code == 0, result.output
    assert "Winner: Ann" in result.stdout.splitlines()
