"""segno's QR encoder, made fast for the codes printkit draws: the same modules, in an eighth of the time.

segno builds each code bit by bit in Python lists: its Reed-Solomon division,
codeword interleaving and module placement were most of a page of a map-sheet
pack (with the mask choice, made fast in :mod:`printkit.layout.qrmask`). Here
the codewords are bytes, the division runs on one integer per block with each
multiple of the generator made once, and the modules are placed in an order
worked out once per version. segno still chooses the segments, the version and
the error level, and adds the format and version information, so the choices
are its own; ``tests/test_cells.py`` compares the modules with segno's.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from types import ModuleType
from typing import Any

from printkit.layout.qrmask import BIT_TEXT, lowest_penalty

_UNBITS = bytes.maketrans(b"01", b"\x00\x01")
_PAD_CODEWORDS = bytes((1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1))
_REMAINDER = {**dict.fromkeys(range(2, 7), 7), **dict.fromkeys((*range(14, 21), *range(28, 35)), 3),
              **dict.fromkeys(range(21, 28), 4)}  # fmt: skip
"""Remainder bits after the final message, by version (segno's make_final_message)."""


def _bits(value: int, length: int) -> bytes:
    """``value`` as ``length`` bits, a byte (0 or 1) a bit, most significant first."""
    return format(value, f"0{length}b").encode().translate(_UNBITS) if length else b""


def data_codewords(encoder: ModuleType, segments: Iterable[Any], version: int, error: int) -> bytes:
    """The data codewords of a QR code (not Micro): segments, terminator, padding, as segno writes them."""
    consts = encoder.consts
    ver_range = encoder.version_range(version)
    bits = bytearray()
    for segment in segments:
        bits += _bits(segment.mode, 4)
        bits += _bits(segment.char_count, consts.CHAR_COUNT_INDICATOR_LENGTH[segment.mode][ver_range])
        bits += segment.bits
    capacity = consts.SYMBOL_CAPACITY[version][error]
    bits += bytes(min(capacity - len(bits), consts.TERMINATOR_LENGTH[None]))
    bits += bytes(8 - len(bits) % 8)  # segno's: a whole zero byte when the bits already end on one
    pads = max(0, capacity // 8 - len(bits) // 8)
    bits += (_PAD_CODEWORDS * (pads // 2 + 1))[: 8 * pads]
    return int(bits.translate(BIT_TEXT), 2).to_bytes(len(bits) // 8, "big")


@lru_cache(maxsize=32)
def _multiples(encoder: ModuleType, ecc_length: int) -> list[int]:
    """Per coefficient 0-255, the generator polynomial's product with it (leading term left out), as one int."""
    consts = encoder.consts
    gen, exp, log = consts.GEN_POLY[ecc_length], consts.GALIOS_EXP, consts.GALIOS_LOG
    rows = [0]
    for coef in range(1, 256):
        rows.append(int.from_bytes(bytes(exp[log[coef] + g] for g in gen[:ecc_length]), "big"))
    return rows


def _error_words(block: bytes, multiples: list[int], ecc_length: int) -> bytes:
    """The Reed-Solomon error codewords of ``block``: the remainder of its division by the generator."""
    top, keep = 8 * (ecc_length - 1), (1 << 8 * ecc_length) - 1
    rem = 0
    for byte in block:
        rem = ((rem << 8) & keep) ^ multiples[(rem >> top) ^ byte]
    return rem.to_bytes(ecc_length, "big")


def final_message(encoder: ModuleType, version: int, error: int, data: bytes) -> bytes:
    """Data and error codewords, blocks interleaved, with the remainder bits: a byte (0 or 1) a module."""
    data_blocks: list[bytes] = []
    error_blocks: list[bytes] = []
    at = 0
    for info in encoder.consts.ECC[version][error]:
        ecc_length = info.num_total - info.num_data
        multiples = _multiples(encoder, ecc_length)
        for _ in range(info.num_blocks):
            block = data[at : at + info.num_data]
            at += info.num_data
            data_blocks.append(block)
            error_blocks.append(_error_words(block, multiples, ecc_length))
    words = bytearray()
    for blocks in (data_blocks, error_blocks):
        for k in range(max(len(b) for b in blocks)):
            words.extend(b[k] for b in blocks if k < len(b))
    return _bits(int.from_bytes(words, "big"), 8 * len(words)) + bytes(_REMAINDER.get(version, 0))


@lru_cache(maxsize=8)
def placement(encoder: ModuleType, width: int) -> tuple[bytes, tuple[int, ...]]:
    """A QR code's function patterns (free modules 2) and the free modules in placement order, row by row."""
    matrix = encoder.make_matrix(width, width)
    encoder.add_finder_patterns(matrix, width, width)
    encoder.add_alignment_patterns(matrix, width, width)
    template = b"".join(matrix)
    order: list[int] = []
    seen = bytearray(template)
    for right in range(width - 1, 0, -2):  # segno's add_codewords, for a QR code
        if right <= 6:
            right -= 1
        for vertical in range(width):
            for j in (right, right - 1):
                upwards = ((right & 2) == 0) ^ (j < 6)
                at = (width - 1 - vertical if upwards else vertical) * width + j
                if seen[at] == 2:
                    seen[at] = 3
                    order.append(at)
    return template, tuple(order)


def encode(encoder: ModuleType, payload: str) -> tuple[bytes, int]:
    """The modules (row by row, a byte each) and width of segno's QR code for ``payload``: level L, error boosted."""
    consts = encoder.consts
    segments = encoder.prepare_data(payload, None, None)
    version = encoder.find_version(segments, consts.ERROR_LEVEL_L, eci=False, micro=False)
    error = encoder.boost_error_level(version, consts.ERROR_LEVEL_L, segments, False)
    width = encoder.calc_matrix_size(version)
    template, order = placement(encoder, width)
    message = final_message(encoder, version, error, data_codewords(encoder, segments, version, error))
    assert len(message) == len(order), "the message fills the free modules exactly (ISO/IEC 18004, 7.7)"
    modules = bytearray(template)
    for at, bit in zip(order, message):
        modules[at] = bit
    mask, masked = lowest_penalty(encoder, bytes(modules), width)
    rows = tuple(bytearray(masked[i : i + width]) for i in range(0, width * width, width))
    encoder.add_format_info(rows, version, error, mask)
    encoder.add_version_info(rows, version)
    return b"".join(rows), width
