"""The party server under the issue's load, as a test (no timing asserted: benchmarks/bench_party.py measures).

100 phones hold the event stream over 20 turns and every one sees every turn in
order; then 20 players upload a photo of a filled-in sheet at the same time and
every upload is read and answered, none lost. Loopback only, every loop bounded.
"""

from __future__ import annotations

import importlib.util
import json
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("cv2")

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("bench_party", ROOT / "benchmarks" / "bench_party.py")
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def test_a_hundred_phones_over_twenty_turns_and_twenty_photos_at_once() -> None:
    data = bench.photo_bytes()
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "game.json"
        child, port, key = bench.start_server(str(game), 100)
        try:
            latencies = bench.streams_over_turns(port, key, 100, 20)  # raises if a stream missed a turn
            assert len(latencies) == 100 * 20
            bench.uploads(port, 20, data, child.pid)  # raises unless every upload was answered 200
        finally:
            child.terminate()
            child.wait(20)
        saved = json.loads(game.read_text(encoding="utf-8"))
        assert [e["turn"] for e in saved["events"] if e["event"] == "roll"] == list(range(1, 21))  # every next kept
