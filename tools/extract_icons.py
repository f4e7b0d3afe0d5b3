"""Extract printkit's icons from three npm packages into printkit/assets/icons/icons.json.

Sources (fetch with the npm client, then unpack; nothing is downloaded here):

    cd /tmp && npm pack @mdi/svg@7.4.47 @iconify-json/game-icons@1.2.4 \
        @iconify-json/fluent-emoji-high-contrast@1.2.6
    for f in mdi-svg-7.4.47 iconify-json-game-icons-1.2.4 \
             iconify-json-fluent-emoji-high-contrast-1.2.6; do
        mkdir -p $f && tar xzf $f.tgz -C $f; done
    python tools/extract_icons.py --mdi /tmp/mdi-svg-7.4.47/package \
        --game-icons /tmp/iconify-json-game-icons-1.2.4/package/icons.json \
        --fluent /tmp/iconify-json-fluent-emoji-high-contrast-1.2.6/package/icons.json

The output maps each printkit icon name to its source icon, licence, view box
and SVG path data (one string per filled path). printkit reads it with
printkit.layout.icons; this script is not needed at run time.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

# printkit name -> "set:icon". Sets: mdi (Material Design Icons, Apache-2.0),
# gi (game-icons.net, CC BY 3.0), fluent (Fluent Emoji High Contrast, MIT).
CHOICES: dict[str, str] = {
    # World souvenirs
    "mug": "mdi:coffee",  # a mug with a handle (coffee the souvenir is beans)
    "shirt": "mdi:tshirt-crew",
    "postcard": "mdi:postage-stamp",
    "textile": "mdi:rug",
    # US souvenirs
    "sauce": "gi:ketchup",
    "candy": "mdi:candy",
    "jewelry": "mdi:ring",
    "keychain": "mdi:key-chain",
    # Europe souvenirs
    "ornament": "mdi:ornament",
    "statue": "gi:stone-bust",
    "chocolate": "gi:chocolate-bar",
    "ale": "mdi:glass-mug-variant",
    # South America souvenirs
    "hat": "mdi:hat-fedora",
    "emerald": "mdi:diamond-stone",
    "bag": "mdi:purse",
    "coffee": "gi:coffee-beans",
    # Sights
    "culture": "mdi:drama-masks",
    "history": "mdi:pillar",
    "nature": "mdi:pine-tree",
    "food": "mdi:silverware-fork-knife",
    # South America animals (one set for all but the llama, which it lacks)
    "llama": "fluent:llama",
    "parrot": "gi:parrot-head",
    "capybara": "gi:capybara",
    "butterfly": "gi:butterfly",
    "jaguar": "gi:feline",
    "toucan": "gi:toucan",
    "sloth": "gi:sloth",
    "penguin": "gi:penguin",
    "condor": "gi:vulture",
    "pink-dolphin": "gi:dolphin",
    "anteater": "gi:anteater",
    "tortoise": "gi:tortoise",
    "turtle": "gi:sea-turtle",
    "snake": "gi:snake",
    "spider": "gi:spider-alt",
    "bat": "gi:bat",
    "owl": "gi:barn-owl",
    "piranha": "gi:piranha",
    "monkey": "gi:monkey",
    "frog": "gi:frog",
    "armadillo": "gi:armadillo",
    "hummingbird": "gi:hummingbird",
    "flamingo": "gi:flamingo",
    # Sheet symbols
    "star": "mdi:star",
    "shield": "mdi:shield",
    "home": "mdi:home",
    "plane": "mdi:airplane",
    "dice": "mdi:dice-5",
    "dice-1": "mdi:dice-1",
    "dice-2": "mdi:dice-2",
    "dice-3": "mdi:dice-3",
    "dice-4": "mdi:dice-4",
    "dice-5": "mdi:dice-5",
    "dice-6": "mdi:dice-6",
}

LICENCES = {"mdi": "Apache-2.0", "gi": "CC-BY-3.0", "fluent": "MIT"}
PREFIXES = {"mdi": "mdi", "gi": "game-icons", "fluent": "fluent-emoji-high-contrast"}

_PATH_D = re.compile(r'<path\b[^>]*?\sd="([^"]+)"')


def _paths(svg: str, where: str) -> list[str]:
    """Path data of every <path> in an SVG fragment (all filled, no transforms)."""
    if "transform" in svg or "fill-rule" in svg or "stroke" in svg:
        raise SystemExit(f"{where}: uses transform/fill-rule/stroke, which printkit does not copy")
    found = _PATH_D.findall(svg)
    if not found:
        raise SystemExit(f"{where}: no <path d=...> found")
    return found


def _iconify(path: Path) -> tuple[dict[str, Any], int, int]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return doc["icons"], int(doc.get("width", 16)), int(doc.get("height", 16))


def extract(mdi: Path, game_icons: Path, fluent: Path) -> dict[str, dict[str, Any]]:
    """Collect the chosen icons from the unpacked packages."""
    sets = {"gi": _iconify(game_icons), "fluent": _iconify(fluent)}
    out: dict[str, dict[str, Any]] = {}
    for name, choice in sorted(CHOICES.items()):
        set_name, icon = choice.split(":", 1)
        if set_name == "mdi":
            svg_file = mdi / "svg" / f"{icon}.svg"
            svg = svg_file.read_text(encoding="utf-8")
            box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
            if box is None:
                raise SystemExit(f"{svg_file}: no viewBox")
            width, height = float(box.group(1)), float(box.group(2))
            d = _paths(svg, str(svg_file))
        else:
            icons, w, h = sets[set_name]
            entry = icons[icon]
            width, height = float(entry.get("width", w)), float(entry.get("height", h))
            d = _paths(entry["body"], f"{set_name}:{icon}")
        out[name] = {
            "source": f"{PREFIXES[set_name]}:{icon}",
            "licence": LICENCES[set_name],
            "viewbox": [width, height],
            "d": d,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mdi", type=Path, required=True, help="unpacked @mdi/svg package folder")
    parser.add_argument("--game-icons", type=Path, required=True, help="@iconify-json/game-icons icons.json")
    parser.add_argument("--fluent", type=Path, required=True,
                        help="@iconify-json/fluent-emoji-high-contrast icons.json")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent.parent / "printkit/assets/icons/icons.json")
    args = parser.parse_args(argv)
    icons = extract(args.mdi, args.game_icons, args.fluent)
    text = json.dumps(icons, indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    args.out.write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {len(icons)} icons, {len(text)} bytes to {args.out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
