"""Sheet builders, each handed its model: ``builder(model, names, paper) -> Document``.

Each game's module exposes ``SHEETS`` (kind -> builder); the registry
(:mod:`printkit.registry`) finds a game's sheets there.
"""
