"""TEMPORARY shim in the h2 worktree: drop at merge (helper H1 moves these dataclasses here).

It only re-exports the other games' classes from ``printkit.loading.games`` so
that the sheet builders can already import them from their final home.
"""

from __future__ import annotations

from printkit.loading.games import (  # TODO(merge): H1's printkit/model/games.py replaces this file
    AbbyRules,
    Card,
    EndTrigger,
    Globetrotting,
    Space,
    Special,
    TileType,
    Trekking,
    Wereldsteden,
)

__all__ = ["AbbyRules", "Card", "EndTrigger", "Globetrotting", "Space", "Special", "TileType", "Trekking",
           "Wereldsteden"]
