"""Sheets rendered from fixture models built in the test: every printed fact comes from the model handed in."""

from __future__ import annotations

import io
from dataclasses import replace

import pypdf

from printkit import backends
from printkit.layout.boxes import flatten, outside, overlapping_texts
from printkit.layout.common import printable_area
from printkit.layout.primitives import Document, Text
from printkit.loading.games import load_globetrotting, load_wereldsteden
from printkit.loading.maps import load_map
from printkit.model.games import EndTrigger, Trekking
from printkit.model.maps import SoloRules
from printkit.sheets import atw, globetrotting, trekking, wereldsteden

TINY_TREK = Trekking(
    id="trekking-mini", name="Trekking Mini", min_players=2, max_players=3, money_cap=9, tour_slots=4,
    max_end_trigger=7, end_triggers=(EndTrigger((2, 3), 6),), suitcase_points=(1, 2, 4), suitcase_check="",
)


def texts(doc: Document, page: int = 0) -> list[str]:
    return [i.text for i in flatten(doc.pages[page].items, doc.forms) if isinstance(i, Text)]


def test_trekking_score_pad_from_a_fixture_game() -> None:
    doc = trekking.SHEETS["scorepad"](TINY_TREK, ["Ann", "Bo", "Cy", "Di"], "a4").document
    assert doc.title == "Trekking Mini - score pad"
    assert len(doc.pages) == 2  # 3 player columns a page: Ann, Bo, Cy | Di
    first, second = texts(doc, 0), texts(doc, 1)
    games = first.count("Tour 1")
    assert games >= 2  # the short table stacks more than once
    assert [first.count(n) for n in ("Ann", "Bo", "Cy", "Di")] == [games, games, games, 0]
    assert second.count("Di") == games and "page 2 of 2" in second
    assert first.count("Tour 4") == games and "Tour 5" not in first
    assert "Trekking Mini" in first
    assert "right-most full column: 1 2 4" in first
    assert "tie-break only: most wins (max $9)" in first
    items = flatten(doc.pages[0].items, doc.forms)
    assert overlapping_texts(items) == [] and outside(items, printable_area(doc.width, doc.height)) == []
    words = pypdf.PdfReader(io.BytesIO(backends.render(doc, "pdf")[0])).pages[0].extract_text()
    assert "6th tour (2-3 players)" in words and "up to 7" in words


def test_turn_tracker_and_score_pad_from_a_fixture_map() -> None:
    world = load_map("world")
    tiny = world._replace(name="Around Tiny", title="Around Tiny in 15 Minutes", speed_bonus=7,
                          solo=SoloRules(12, world.solo.ratings), collect=world.collect._replace(name="Gather"))
    tracker = atw.SHEETS["tracker"](tiny, [], "a4").document
    shown = texts(tracker)
    assert "Around Tiny in 15 Minutes - solo and party mode" in shown
    assert "Turns 1-12" in shown
    assert [t for t in shown if t.startswith("finish: ")] == [f"finish: {12 - t}" for t in range(1, 13)]
    assert tracker.title == "Turn tracker - Around Tiny"
    pad = atw.SHEETS["scorepad"](tiny, ["Ann"], "letter").document
    shown = texts(pad)
    assert "Gather (souvenirs)" in shown and "Collect (souvenirs)" not in shown
    assert "a city in every region, back home: 7" in shown
    assert any("in the Speed bonus row write 12 - t" in t for t in shown)


def test_wereldsteden_aid_counts_the_fixture_cards() -> None:
    game = load_wereldsteden()
    three = replace(game, name="Steden", cards=game.cards[:3])
    doc = wereldsteden.SHEETS["aid"](three, ["Ann"], "a4").document
    shown = texts(doc)
    assert "Your three cards" in shown and "Your nine cards" not in shown
    assert [c.name for c in game.cards if c.name in shown] == [c.name for c in game.cards[:3]]
    assert doc.title == "Steden - player aid" and shown[0] == "Steden"


def test_passport_has_the_fixture_flights() -> None:
    short = replace(load_globetrotting(), flights=5)
    doc = globetrotting.SHEETS["passport"](short, ["Ann", "Bo"], "a4").document
    shown = texts(doc)
    assert "Passport - 5 flights, then score" in shown
    assert [t for t in shown if t.isdigit()] == ["1", "2", "3", "4", "5"]
    assert len(doc.pages) == 2
