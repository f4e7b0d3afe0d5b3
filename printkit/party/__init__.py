"""``printkit party``: the host screen as a local web app the players' phones join (docs/party.md).

The only user of Starlette and uvicorn. :mod:`printkit.party.game` is the one
module that reads and changes the game.
"""
