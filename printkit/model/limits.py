"""Sanity bounds for numbers a user gives where the rules name no bound of their own."""

from __future__ import annotations

LARGEST = 9999  # the most any whole number in a game file, state file or option may be: no count,
# mark, score, airfare or coordinate number in these games comes near it
MAX_SEED = 2**63 - 1  # seeds are 0..2**63-1: what random.Random and a JSON state file keep exactly
MAX_PLAYERS = 100  # the most players one game may have (a party): what `turns`, a game file and the history take
