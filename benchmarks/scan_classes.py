"""The scan benchmark's hard classes: phone photos, shadows, folds, cut corners, 1-bit copies, low resolution, duplicates.

Each class plays legal games (the simulated pen of tests/scan_simulate.py)
and captures them its own way (tests/scan_degrade.py); each sheet is then
exact (every field right, nothing flagged), flagged (something unsure, and
every wrong field among the unsure ones), an error (the page refused) or
silently wrong (a wrong field not flagged). Used by bench_scan.py --classes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import scan_simulate as sim
from scan_degrade import Capture, capture

from printkit.scan.images import PageSource, ScanError, decode_image
from printkit.scan.sheet import SheetRead, marks_of, read_sheet


def _phone(rng: random.Random) -> Capture:
    return Capture(dpi=rng.choice((220, 260, 300)), rotation=rng.uniform(-12, 12) + rng.choice((0, 0, 180)),
                   tilt=rng.uniform(5, 25), blur=rng.uniform(0, 0.8), light=rng.uniform(0, 0.3), noise=rng.uniform(1, 5),
                   jpeg=rng.randint(60, 90), table=True)


def _shadow(rng: random.Random) -> Capture:
    return Capture(**{**_phone(rng).__dict__, "hand": rng.uniform(0.4, 0.85), "warm": rng.uniform(0.15, 0.4)})


def _fold(rng: random.Random) -> Capture:
    return Capture(dpi=200, rotation=rng.uniform(-5, 5), tilt=rng.uniform(0, 10), blur=rng.uniform(0, 0.6),
                   noise=2, jpeg=80, fold=rng.uniform(2.0, 20.0), fold_at=rng.uniform(0.45, 0.85))


def _cut(rng: random.Random) -> Capture:
    return Capture(dpi=200, rotation=rng.choice((-1, 1)) * rng.uniform(12, 22), tilt=rng.uniform(0, 8), blur=0.3,
                   noise=2, jpeg=80, cut=rng.uniform(0.1, 0.3))


def _copier(rng: random.Random) -> Capture:
    return Capture(dpi=150, rotation=rng.uniform(-2, 2), blur=0.3, noise=rng.uniform(1, 4), onebit=True)


def _low(rng: random.Random) -> Capture:
    return Capture(dpi=rng.randint(86, 111), rotation=rng.uniform(-3, 3), tilt=rng.uniform(0, 6), blur=rng.uniform(0, 0.5),
                   noise=2, jpeg=85)


CLASSES: dict[str, tuple[Callable[[random.Random], Capture], tuple[str, ...]]] = {
    "phone photo, tilt up to 25 deg, textured table": (_phone, ("black", "blue", "pencil")),
    "phone, hand shadow, warm light": (_shadow, ("black", "blue", "pencil")),
    "fold / crease": (_fold, ("black", "blue")),
    "one corner cut off": (_cut, ("black", "blue")),
    "copier 150 dpi 1-bit, light pencil": (_copier, ("black", "light pencil")),
    "low resolution (1000-1300 px wide)": (_low, ("black", "blue")),
}


def wrong_fields(s: SheetRead, truth: dict[str, Any]) -> set[str]:
    """The fields read wrong: rows (``souvenirs.mugs``), routes (``route.<id>``), ``route`` for the trail's ends."""
    m = s.m
    marks = marks_of(s)
    out = {f"{key}.{k}" for key in ("souvenirs", m.explore_key) for k, v in truth[key].items() if marks[key].get(k, 0) != v}
    drawn = {rid for rid, r in s.routes.items() if r.on}
    out |= {f"route.{rid}" for rid in drawn ^ set(truth["routes"])}
    if s.route is None or {s.route[0], s.route[-1]} != {truth["start"], truth["final"]}:
        out.add("route")
    return out


def flagged_fields(s: SheetRead) -> set[str]:
    """What the unsure reads cover: their rows and routes (the trail flagged covers every route)."""
    out: set[str] = set()
    for u in s.uncertain:
        parts = u.field.split(".")
        if u.field == "route":
            out |= {"route"} | {f"route.{rid}" for rid in s.routes}
        elif parts[0] == "route":
            out |= {u.field, "route"}  # a route in doubt leaves the trail's ends in doubt
        else:
            out.add(".".join(parts[:2]))
    return out


def judge(s: SheetRead, truth: dict[str, Any]) -> str:
    """exact, flagged or silently wrong (see the module's docstring)."""
    wrong = wrong_fields(s, truth)
    flags = flagged_fields(s)
    if not wrong and not s.uncertain:
        return "exact"
    if s.uncertain and wrong <= flags:
        return "flagged"
    return "silently wrong"


def run_class(name: str, games: int, seed: int, pages: dict[tuple[str, str], Any], maps: tuple[str, ...],
              papers: tuple[str, ...], page_dpi: int, verbose: bool = False, index: int | None = None) -> dict[str, int]:
    """Counts of exact, flagged, error and silently wrong over ``games`` sheets of one class."""
    from printkit.loading.maps import load_map
    from printkit.scan.images import raw_image

    make, inks = CLASSES[name]
    rng = random.Random(seed)
    counts = {"exact": 0, "flagged": 0, "error": 0, "silently wrong": 0}
    for k in range(games):
        map_id, paper = maps[k % len(maps)], papers[(k // len(maps)) % len(papers)]
        fields, raw = pages[map_id, paper]
        filled, truth = sim.random_game(load_map(map_id), fields, rng)
        image = raw_image(*raw)
        pen = sim.Pen(rng.choice(inks), rng.uniform(0.4, 1.0), rng.uniform(0.2, 1.2))
        sim.fill(image, page_dpi / 72, fields, filled, pen, rng, strays=rng.randint(0, 2))
        data = capture(image, page_dpi, make(rng), rng)
        if index is not None and k != index:
            continue
        if index is not None:
            Path(f"/tmp/scan-class-{k}.jpg").write_bytes(data)
        picture = decode_image(data)
        assert picture is not None
        try:
            s = read_sheet(picture, PageSource(Path(f"{name}-{k}")))
        except ScanError as exc:
            counts["error"] += 1
            if verbose:
                print(f"    error: {exc}")
            continue
        verdict = judge(s, truth)
        counts[verdict] += 1
        if verbose and verdict != "exact":
            print(f"    {verdict}: {map_id}/{paper} wrong {sorted(wrong_fields(s, truth))}; "
                  f"unsure {[u.message for u in s.uncertain][:4]}")
    return counts


def run_duplicates(games: int, seed: int, pages: dict[tuple[str, str], Any], maps: tuple[str, ...],
                   page_dpi: int, verbose: bool = False) -> dict[str, int]:
    """Two-player games whose first sheet is photographed twice: counted once (or refused), never a third player."""
    from printkit import registry
    from printkit.loading.maps import load_map
    from printkit.scan.images import raw_image
    from printkit.scan.run import unique

    rng = random.Random(seed)
    counts = {"exact": 0, "flagged": 0, "error": 0, "silently wrong": 0}
    for k in range(games):
        map_id = maps[k % len(maps)]
        sheet = registry.build_sheet("map", map_id, ["Ann", "Bo"], "a4")
        assert sheet.geometry is not None
        fields = sheet.geometry.fields
        raws = list(pages[map_id, "a4", "pack"]) if (map_id, "a4", "pack") in pages else None
        if raws is None:
            from printkit.backends.pdf import render_pdf
            from printkit.backends.png import rasterise

            raws = pages[map_id, "a4", "pack"] = list(rasterise(render_pdf(sheet.document), page_dpi, rgb=False))
        reads, truths = [], []
        for player in (0, 1):
            filled, truth = sim.random_game(load_map(map_id), fields, rng)
            image = raw_image(*raws[player])
            sim.fill(image, page_dpi / 72, fields, filled, sim.Pen("blue", 0.6, 0.6), rng)
            for _ in range(2 if player == 0 else 1):
                data = capture(image, page_dpi, _phone(rng), rng)
                picture = decode_image(data)
                assert picture is not None
                try:
                    reads.append(read_sheet(picture, PageSource(Path(f"dup-{k}-{len(reads)}"))))
                    truths.append(truth)
                except ScanError:
                    pass
        kept, refused, _ = unique(reads)
        verdicts = [judge(s, truths[reads.index(s)]) for s in kept]
        verdict = "silently wrong" if len(kept) > 2 or "silently wrong" in verdicts else "error" if refused or \
            len(kept) < 2 else "flagged" if "flagged" in verdicts else "exact"
        counts[verdict] += 1
        if verbose and verdict != "exact":
            print(f"    {verdict}: {map_id}: {len(kept)} players kept, {len(refused)} refused")
    return counts
