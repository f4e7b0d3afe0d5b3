"""segno's choice of a QR code's data mask, made fast: the same mask, so the same modules.

segno (ISO/IEC 18004, 7.8.3) applies each of the eight masks and scores the
result module by module in Python: about 3.5 ms a code, most of what a page of
a map-sheet pack cost. Here each mask is one XOR over the whole matrix (made
once per code size), runs of one colour and 2 x 2 blocks are counted by bit
operations on the matrix as one integer: 0.1 ms a code (:func:`lowest_penalty`,
called by :mod:`printkit.layout.qrfast`). Every penalty is counted exactly as
segno counts it, quirks included (tests/test_cells.py compares the scores with
segno's own).
"""

from __future__ import annotations

from functools import lru_cache
from types import ModuleType

_FINDER_LIKE = bytes((1, 0, 1, 1, 1, 0, 1))
"""The 1:1:3:1:1 pattern (N3)."""
BIT_TEXT = bytes.maketrans(b"\x00\x01", b"01")
"""Modules or bits a byte each (0/1) to the text ``int(..., 2)`` reads."""


@lru_cache(maxsize=8)
def mask_xors(encoder: ModuleType, width: int) -> tuple[int, ...]:
    """Per mask, its XOR of the whole matrix: 1 where it flips a data module.

    The matrix is its rows one after another, a byte a module, read as one big-endian int.
    """
    function = encoder.make_matrix(width, width)
    encoder.add_finder_patterns(function, width, width)
    encoder.add_alignment_patterns(function, width, width)
    function[-8][8] = 0x1
    return tuple(
        int.from_bytes(bytes(int(function[i][j] > 1 and fn(i, j)) for i in range(width) for j in range(width)), "big")
        for fn in encoder.get_data_mask_functions(False)
    )


@lru_cache(maxsize=8)
def _edges(size: int) -> tuple[int, int, int]:
    """The modules with a neighbour to their left, above, and both (bits of the matrix as one int).

    The matrix is read row by row, most significant bit first, a bit a module.
    """
    left = int(("0" + "1" * (size - 1)) * size, 2)
    above = int("0" * size + "1" * (size * size - size), 2)
    return left, above, left & above


def _long_runs(same: int, step: int) -> int:
    """N1 along one direction: the sum of (length - 2) over runs of 5 or more modules of one colour.

    ``same`` has a bit for each module that is as the one ``step`` bits before
    it. A run of length L holds L - 4 modules with 4 such in a row (its fifth
    module on), and the first of them starts it.
    """
    later = same & (same >> step) & (same >> 2 * step) & (same >> 3 * step)
    return later.bit_count() + 2 * (later & ~(later >> step)).bit_count()


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


def penalty(modules: bytes, size: int) -> int:
    """The penalty score (N1 + N2 + N3 + N4) of a masked square matrix, as segno's ``evaluate_mask``.

    ``modules`` are its rows one after another, a byte (0 or 1) a module.
    """
    lines = b"\x02".join([modules[i : i + size] for i in range(0, size * size, size)]
                         + [modules[j::size] for j in range(size)])  # rows, then columns; no match crosses a \x02
    bits = int(modules.translate(BIT_TEXT), 2)
    left, above, both = _edges(size)
    across = ~(bits ^ (bits >> 1)) & left  # a module as its left neighbour
    down = ~(bits ^ (bits >> size)) & above  # a module as the one above it
    n1 = _long_runs(across, 1) + _long_runs(down, size)
    n2 = 3 * (across & (across >> size) & down & both).bit_count()  # 2 x 2 blocks of one colour
    percent = float(modules.count(1)) / (size**2)
    n4 = 10 * int(abs(percent * 100 - 50) / 5)
    return n1 + n2 + _finder_like(lines, size) + n4


def lowest_penalty(encoder: ModuleType, modules: bytes, width: int) -> tuple[int, bytes]:
    """The lowest-penalty mask of a square QR code's modules (the first of equals), and the modules it masks."""
    plain, length = int.from_bytes(modules, "big"), width * width
    best: tuple[int, int, bytes] | None = None
    for k, xor in enumerate(mask_xors(encoder, width)):
        masked = (plain ^ xor).to_bytes(length, "big")
        score = penalty(masked, width)
        if best is None or score < best[0]:
            best = (score, k, masked)
    assert best is not None
    return best[1], best[2]
