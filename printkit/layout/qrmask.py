"""segno's choice of a QR code's data mask, made fast: the same mask, so the same modules.

segno (ISO/IEC 18004, 7.8.3) applies each of the eight masks and scores the
result module by module in Python: about 3.5 ms a code, most of what a page of
a map-sheet pack cost. Here each mask is an XOR per row computed once per code
size, runs of one colour are found by a regular expression and 2 x 2 blocks by
bit operations; every penalty is counted exactly as segno counts it, quirks
included (tests/test_cells.py compares the scores with segno's own).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from types import ModuleType

Matrix = Sequence[bytearray]
BestMask = Callable[[Matrix, int, int, "int | None"], tuple[int, tuple[bytearray, ...]]]

_RUN = re.compile(rb"\x00{5,}|\x01{5,}")
"""Five or more modules of one colour in a row (N1)."""
_FINDER_LIKE = bytes((1, 0, 1, 1, 1, 0, 1))
"""The 1:1:3:1:1 pattern (N3)."""
_BITS = bytes.maketrans(b"\x00\x01", b"01")


@lru_cache(maxsize=8)
def mask_rows(encoder: ModuleType, width: int) -> tuple[tuple[int, ...], ...]:
    """Per mask, each row's XOR as a big-endian int of bytes: 1 where the mask flips a data module."""
    function = encoder.make_matrix(width, width)
    encoder.add_finder_patterns(function, width, width)
    encoder.add_alignment_patterns(function, width, width)
    function[-8][8] = 0x1
    return tuple(
        tuple(int.from_bytes(bytes(int(function[i][j] > 1 and fn(i, j)) for j in range(width)), "big")
              for i in range(width))
        for fn in encoder.get_data_mask_functions(False)
    )  # fmt: skip


def _finder_like(lines: bytes, size: int) -> int:
    """N3 of rows and columns joined by a separator, as segno counts it line by line.

    A match counts when it touches its line's end or has 4 light modules on one
    side; the search then resumes after it, else 4 modules on.
    """
    count, stride = 0, size + 1
    idx = lines.find(_FINDER_LIKE)
    while idx != -1:
        start = idx - idx % stride  # where the match's line begins
        after = idx + 7
        if idx - start in (0, size - 7) or not any(lines[max(idx - 4, start) : idx]) \
                or not any(lines[after : min(after + 4, start + size)]):  # fmt: skip
            count += 40
        else:
            after = idx + 4
        idx = lines.find(_FINDER_LIKE, after)
    return count


def penalty(rows: Sequence[bytes], size: int) -> int:
    """The penalty score (N1 + N2 + N3 + N4) of a masked square matrix of 0/1 bytes, as segno's ``evaluate_mask``."""
    lines = b"\x02".join((*rows, *(bytes(c) for c in zip(*rows))))  # rows, then columns; no run crosses a \x02
    n1 = sum(len(run) - 2 for run in _RUN.findall(lines))
    bits = [int(r.translate(_BITS), 2) for r in rows]
    inner = (1 << (size - 1)) - 1  # columns 1 .. size-1, each compared with the one before
    n2 = 3 * sum((~((a ^ (a >> 1)) | (b ^ (b >> 1)) | (a ^ b)) & inner).bit_count() for a, b in zip(bits, bits[1:]))
    percent = float(b"".join(rows).count(1)) / (size**2)
    n4 = 10 * int(abs(percent * 100 - 50) / 5)
    return n1 + n2 + _finder_like(lines, size) + n4


def best_mask(encoder: ModuleType, segnos: BestMask, matrix: Matrix, width: int, height: int,
              proposed_mask: int | None = None) -> tuple[int, tuple[bytearray, ...]]:
    """segno's ``find_and_apply_best_mask``: the lowest-penalty mask (the first of equals) and the masked matrix.

    Anything but a QR code with every module set (a proposed mask, a Micro QR
    code) is left to segno's own ``segnos``.
    """
    rows = [bytes(r) for r in matrix]
    if proposed_mask is not None or width != height or width < 21 or max(b"".join(rows)) > 1:
        return segnos(matrix, width, height, proposed_mask)
    best: tuple[int, int, list[bytes]] | None = None
    for k, xor in enumerate(mask_rows(encoder, width)):
        masked = [(int.from_bytes(r, "big") ^ x).to_bytes(width, "big") for r, x in zip(rows, xor)]
        score = penalty(masked, width)
        if best is None or score < best[0]:
            best = (score, k, masked)
    assert best is not None
    return best[1], tuple(bytearray(r) for r in best[2])
