"""``printkit party``: serve the game to a host screen and the players' phones (docs/party.md)."""

from __future__ import annotations

from typing import TextIO

import click

from printkit.cli.common import SEED
from printkit.errors import PrintkitError

INSTALL_HINT = 'printkit party needs Starlette, uvicorn and python-multipart: pip install "printkit-travel[party]"'
SERVER_LIBRARIES = ("starlette", "uvicorn", "multipart")


class PartyUnavailable(PrintkitError):
    """The party extra is not installed."""


def _need_extra() -> None:
    """Fail with the install hint unless the party extra's libraries are installed."""
    import importlib.util

    if any(importlib.util.find_spec(name) is None for name in SERVER_LIBRARIES):
        raise PartyUnavailable(INSTALL_HINT)


def _start(game: str, map_name: str | None, players: str | None, mode: str | None, seed: int | None) -> None:
    """A new game at ``game`` from --map/--players/--mode/--seed (as `printkit turns start`)."""
    import os

    from printkit.cli.common import checked_players, load_map_param, not_an_input, seed_or_random
    from printkit.party.game import start_game

    names = checked_players(players, ["Player 1"])
    name = map_name or "world"
    not_an_input([game], [name], "'--game'")
    source = os.path.abspath(name) if name.lower().endswith(".toml") else ""
    start_game(game, load_map_param(name), names, mode, seed_or_random(seed), source)


@click.command(name="party")
@click.option("--game", "game", default="printkit-game.json", show_default=True, type=click.Path(dir_okay=False),
              help="The game file to serve (a `printkit turns` game); with --map/--players a new game is started in it.")
@click.option("--map", "map_name", default=None, help="Start a new game on this map (id or .toml file).")
@click.option("--players", default=None, help="Start a new game with these comma-separated names.")
@click.option("--mode", type=click.Choice(["party", "solo", "multiplayer"]), default=None,
              help="The new game's mode (default as `printkit turns start`: solo for one player, multiplayer up "
                   "to the map's limit, party above it).")
@click.option("--seed", type=SEED, default=None, help="Seed for the new game's dice (default: random).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="The port to serve on.")
@click.option("--lan", is_flag=True, help="Also listen on this machine's network address, so phones can join.")
@click.option("--open", "open_browser", is_flag=True, help="Open the host screen in this machine's browser.")
def party(game: str, map_name: str | None, players: str | None, mode: str | None, seed: int | None, port: int,
          lan: bool, open_browser: bool) -> None:
    """Serve the game: a host screen for the TV and a page for every player's phone.

    Players join by scanning the QR code (or typing the join address), tap
    their name, see every roll as it happens, tap "I'm home", and at the end
    photograph their sheet to have it scored. Every change is saved in the
    game file at once: `printkit turns status` sees it, and the same command
    run again resumes the game. Without --lan only this machine can connect.

    \b
    Example:
      printkit party --map world --players "Ann,Bo,Cy,Di,Ed,Flo,Gus" --seed 7 --lan
      printkit party --game printkit-game.json
    """
    _need_extra()
    from printkit.cli.common import output_file

    output_file(game, "'--game'")
    if map_name is not None or players is not None or mode is not None or seed is not None:
        _start(game, map_name, players, mode, seed)
    _serve(game, port, lan, open_browser)


def _serve(game: str, port: int, lan: bool, open_browser: bool) -> None:
    """Bind, print the links and the join QR code, and serve until Ctrl-C."""
    import sys

    from printkit.party.game import Table
    from printkit.party.pages import qr_svg
    from printkit.party.routes import create_app
    from printkit.party.serve import LOOPBACK, bind, lan_address, run

    table = Table(game)
    sockets = [bind(LOOPBACK, port)]
    port = sockets[0].getsockname()[1]
    address = lan_address() if lan else LOOPBACK
    if lan:
        sockets.append(bind(address, port))
    host_url = f"http://{LOOPBACK}:{port}/host?key={table.side.host_key}"
    join_url = f"http://{address}:{port}/join"
    app = create_app(table, join_url, [LOOPBACK, "localhost", address])
    info = table.game
    click.echo(f"{info.map.name}, {info.mode} mode, turn {info.turn} of {info.map.turns}; game file {game}")
    click.echo(f"Host screen: {host_url}")
    click.echo(f"Players join: {join_url}")
    click.echo(f"Listening on {address}:{port} (the local network) and {LOOPBACK}" if lan else
               f"Listening on {LOOPBACK}:{port} only (this machine); add --lan for phones to join")
    _print_qr(join_url, sys.stdout)
    qr_svg(join_url)  # the host page's QR, made once before the first request
    if open_browser:
        import webbrowser

        webbrowser.open(host_url)
    click.echo("Press Ctrl-C to stop (the game stays saved).")
    try:
        run(app, sockets, app.state.party.hub.close)
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again for us
        pass
    click.echo(f"Stopped. The game is saved in {game}: `printkit party --game {game}` goes on with it.")


def _print_qr(url: str, out: TextIO) -> None:
    """The join link as a QR code in the terminal (block characters, two rows of modules a line)."""
    import segno

    segno.make(url, error="m").terminal(out=out, compact=True)
