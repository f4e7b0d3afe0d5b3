"""When the fit's patch residuals say the page is bent (a fold, a curl), and when they are the print's own wobble."""

from __future__ import annotations

from printkit.scan.align import LOCAL_TOL, is_bent

FLAT = [(100.0 + 20 * k, 200.0, 0.1 + 0.01 * k) for k in range(20)]


def test_a_flat_page_is_not_bent() -> None:
    assert not is_bent(FLAT, LOCAL_TOL)


def test_one_patch_a_hair_over_is_not_a_fold() -> None:
    # measured: a flat US sheet at 300 dpi (the standard corpus, seed 1) had one patch 0.71 pt off
    assert not is_bent([*FLAT, (599.2, 172.0, 0.71)], LOCAL_TOL)


def test_two_patches_over_or_one_far_over_is_a_fold() -> None:
    assert is_bent([*FLAT, (599.2, 172.0, 0.71), (620.0, 190.0, 0.8)], LOCAL_TOL)
    assert is_bent([*FLAT, (599.2, 172.0, 2 * LOCAL_TOL + 0.1)], LOCAL_TOL)
