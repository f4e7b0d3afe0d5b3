"""Typed, immutable data of every game: maps, the other games, played-game records."""
