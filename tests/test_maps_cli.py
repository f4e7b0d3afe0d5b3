"""`printkit maps`: list, show (text and JSON), validate; fast start."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from printkit.cli import cli
from printkit.resources import data_dir

DATA = Path(__file__).parent / "data" / "maps"
ROOT = Path(__file__).resolve().parent.parent


def test_list(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["maps"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["MAP", "NAME", "REGIONS", "CITIES"]
    assert lines[1].split() == ["world", "Around", "the", "World", "6", "18"]
    assert lines[2].split() == ["us", "Around", "the", "US", "6", "22", "(incl.", "4", "iconic)"]
    assert lines[3].split() == ["europe", "Around", "Europe", "4", "18"]
    assert lines[4].split() == ["south-america", "Around", "South", "America", "4", "18"]
    assert len(lines) == 5


def test_show_world_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["maps", "show", "world", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["id"] == "world"
    assert len(doc["regions"]) == 6
    assert all(len(r["cities"]) == 3 for r in doc["regions"])
    assert len(doc["cities"]) == 18
    assert [k["id"] for k in doc["collect"]["kinds"]] == ["mugs", "clothes", "postcards", "textiles"]
    assert [k["id"] for k in doc["explore"][0]["kinds"]] == ["culture", "history", "nature", "food"]
    assert doc["region_scoring"]["table"] == [0, 2, 4, 7, 11, 16, 21]


def test_show_us_json_iconic_and_europe_rewards(runner: CliRunner) -> None:
    us = json.loads(runner.invoke(cli, ["maps", "show", "us", "--json"]).output)
    assert us["iconic_cities"] == ["anchorage", "honolulu", "washington-dc", "san-juan"]
    assert us["iconic_table"] == [0, 2, 5, 9, 15]
    assert list(us["projection"]) == ["name", "center_lon", "center_lat", "parallels", "bounds", "outline", "insets"]
    assert us["projection"]["insets"] == [
        {"name": "Alaska", "bounds": [-170.0, 51.0, -129.0, 72.0], "box": [0.0, 0.62, 0.24, 0.38]},
        {"name": "Hawaii", "bounds": [-161.0, 18.5, -154.5, 22.5], "box": [0.31, 0.8, 0.16, 0.2]},
    ]
    eu = json.loads(runner.invoke(cli, ["maps", "show", "europe", "--json"]).output)
    assert [r["reward"] for r in eu["regions"]] == [8, 6, 7, 9]
    assert eu["end"] == {"cities_per_region": 2}


def test_show_text_summary(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["maps", "show", "world"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Around the World (world), from maps/world.toml"
    assert lines[1] == "18 cities in 6 regions, 25 routes"
    assert "  Africa (sells Textiles, Clothes)" in lines
    assert "    Cairo: History, Nature" in lines
    assert "  Regions completed: 1:2 2:4 3:7 4:11 5:16 6:21" in lines
    assert "  Speed bonus 3: 1+ city in every region, back at the start" in lines


def test_show_custom_file_keeps_names_intact(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["maps", "show", str(DATA / "tiny.toml"), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["name"] == 'Tiny <Test> & "Friends"'
    assert [c["name"] for c in doc["cities"]][:4] == ["Reykjavík", "Łódź", 'Fish & "Chips" <Bay>', "São Paulo"]


def test_show_unknown_name_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["maps", "show", "atlantis"])
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: Invalid value for 'NAME': unknown map 'atlantis'; choose one of world, us, europe, south-america, "
        "or give the path of a .toml map file\n"
    )


def test_show_missing_file_exits_1(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["maps", "show", str(tmp_path / "gone.toml")])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {tmp_path}/gone.toml: no such file\n"
    assert "Traceback" not in result.output


def test_validate_bundled_maps(runner: CliRunner) -> None:
    # The bundled copies (the installed package's after `pip install .`) are named maps/<file>.
    files = [str(data_dir("maps") / f"{name}.toml") for name in ("world", "us", "europe", "south-america")]
    result = runner.invoke(cli, ["maps", "validate", *files])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "OK maps/world.toml: Around the World (6 regions, 18 cities, 25 routes)",
        "OK maps/us.toml: Around the US (6 regions, 22 cities, 28 routes)",
        "OK maps/europe.toml: Around Europe (4 regions, 18 cities, 25 routes)",
        "OK maps/south-america.toml: Around South America (4 regions, 18 cities, 23 routes)",
    ]


def test_validate_reports_every_problem_of_every_file(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["maps", "validate", str(DATA / "tiny.toml"), str(DATA / "typo.toml"), str(DATA / "syntax.toml")]
    )
    assert result.exit_code == 1
    assert result.stdout == f"OK {DATA}/tiny.toml: Tiny <Test> & \"Friends\" (2 regions, 6 cities, 8 routes)\n"
    assert result.stderr.splitlines() == [
        f"Error: {DATA}/typo.toml: regions[0].souvenier: unknown key (did you mean 'souvenirs'?)",
        f"Error: {DATA}/typo.toml: regions[0].souvenirs: missing (expected a list of ids)",
        f"Error: {DATA}/syntax.toml: line 5, column 3: invalid TOML (Unclosed array)",
    ]


def test_validate_needs_a_file(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["maps", "validate"])
    assert result.exit_code == 2
    assert "Missing argument 'FILE...'" in result.output


def test_help_and_maps_do_not_import_heavy_libraries() -> None:
    code = (
        "import sys\n"
        "from printkit.cli import main\n"
        "for args in (['--help'], ['maps']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit as exc:\n"
        "        assert not exc.code, exc.code\n"
        "heavy = sorted(m for m in ('reportlab', 'svgwrite', 'jinja2', 'pypdfium2') if m in sys.modules)\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.splitlines()[-1] == "HEAVY []"
    assert "south-america" in out.stdout
