"""`printkit party` in real headless Chromium: a host window, three phones at 390x844, a roll on every phone,
a finish, a photographed sheet scored, the leaderboard; screenshots kept for a person to look at."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from party_server import serving  # noqa: E402
from test_host_browser import CHROMEDRIVER, CHROMIUM  # noqa: E402

from printkit.loading.dice import load_dice  # noqa: E402
from printkit.loading.maps import load_map  # noqa: E402
from printkit.party.game import start_game  # noqa: E402
from printkit.rules.dice import turn_roll  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()),
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)
NAMES = ("Ann", "Bo", "Cy")
SHOTS = os.environ.get("PRINTKIT_SCREENSHOTS", "")
"""A folder to keep the screenshots in (else they go to the test's temporary folder)."""


def browser(width: int, height: int) -> Any:
    """A headless Chromium window of its own (own profile, so each phone has its own storage)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="printkit-party-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", f"--user-data-dir={profile}", f"--window-size={width},{height}",
                "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    drv = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    drv.get("about:blank")
    chrome = drv.execute_script("return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]")
    drv.set_window_size(width + chrome[0], height + chrome[1])  # the page itself gets width x height
    drv.profile_dir = profile
    return drv


@pytest.fixture
def windows() -> Iterator[dict[str, Any]]:
    opened: dict[str, Any] = {}
    try:
        opened["host"] = browser(1920, 1080)
        for name in NAMES:
            opened[name] = browser(390, 844)
        yield opened
    finally:
        for drv in opened.values():
            drv.quit()
            shutil.rmtree(drv.profile_dir, ignore_errors=True)


def wait(drv: Any, css: str, expected: str, seconds: float = 10) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(drv, seconds).until(lambda d: d.find_element(By.CSS_SELECTOR, css).text == expected)
    except Exception:
        shown = drv.find_elements(By.CSS_SELECTOR, css)
        raise AssertionError(f"{css} never read {expected!r}: {[e.text for e in shown]}") from None


def css(drv: Any, selector: str) -> Any:
    from selenium.webdriver.common.by import By

    return drv.find_element(By.CSS_SELECTOR, selector)


def no_overflow(drv: Any) -> None:
    """Nothing is wider than the window: no sideways scrolling on a phone."""
    width = drv.execute_script("return document.documentElement.scrollWidth")
    assert width <= drv.execute_script("return window.innerWidth"), width


def test_a_party_in_four_browsers(windows: dict[str, Any], tmp_path: Path) -> None:
    pytest.importorskip("cv2")
    import scan_simulate as sim
    from scan_helpers import photo

    shots = Path(SHOTS) if SHOTS else tmp_path
    game = str(tmp_path / "game.json")
    start_game(game, load_map("world"), NAMES, "party", 5)
    dice = load_dice()
    with serving(game) as server:
        tv = windows["host"]
        tv.get(f"{server.url}/host?key={server.host_key()}")
        wait(tv, "#turn", "Turn 0 of 20")
        assert "key=" not in tv.current_url  # the key is off the screen's address bar
        for name in NAMES:
            phone = windows[name]
            phone.get(f"{server.url}/join")
            css(phone, f'#names button[data-name="{name}"]').click()
            wait(phone, "#me", name)
            no_overflow(phone)
        wait(tv, '#players li[data-player="Cy"].joined .name', "Cy")
        windows["Ann"].save_screenshot(str(shots / "party-phone-turn0.png"))
        for turn in (1, 2, 3):
            css(tv, "#next").click()
            roll = turn_roll(dice, 5, turn)
            for name in NAMES:
                wait(windows[name], "#turn", f"Turn {turn} of 20")
                wait(windows[name], "#actions", roll.headline)
                faces = [int(css(windows[name], f"#die{k}").get_attribute("data-face")) for k in (1, 2)]
                assert faces == list(roll.dice)
        bo = windows["Bo"]
        css(bo, "#home").click()
        assert css(bo, "#home").text == "Tap again: home on turn 3"
        css(bo, "#home").click()
        wait(bo, "#you-home", "You are home on turn 3: speed bonus 17")
        wait(tv, '#players li[data-player="Bo"] .home', "\u2713 3 (+17)")
        bo.save_screenshot(str(shots / "party-phone-home.png"))
        tv.save_screenshot(str(shots / "party-host-turn3.png"))
        assert tv.execute_script("return arguments[0].getBoundingClientRect().bottom", css(tv, "#next")) <= 1080
        css(tv, "#end").click()
        css(tv, "#end").click()
        wait(tv, "#reason", "The host ended it after turn 3 of 20.")
        ann = windows["Ann"]
        wait(ann, "#photo-label", "Photograph my sheet")
        assert css(ann, "#photo-input").get_attribute("capture") == "environment"
        filled = sim.Filled(("souvenirs.mugs.1", "souvenirs.mugs.2", "sights.food.1", "regions.north-america"),
                            ("new-york-vancouver", "mexico-city-vancouver", "mexico-city-new-york"), "new-york")
        picture = tmp_path / "ann.jpg"
        picture.write_bytes(photo("world", "a4", NAMES, 0, filled))
        css(ann, "#photo-input").send_keys(str(picture))
        wait(ann, "#read-total", "3", seconds=30)  # mugs 2 + food 1 + ... as printkit score counts it, below
        ann.save_screenshot(str(shots / "party-phone-read.png"))
        no_overflow(ann)
        css(ann, "#confirm").click()
        wait(ann, "#counted", "Counted: 3 points")
        wait(tv, "#leaderboard tr:first-child", "1 Ann 3")
        wait(bo, "#leaderboard tr:first-child", "1 Ann 3")
        rows = [r.text for r in tv.find_elements("css selector", "#leaderboard tr")]
        assert rows == ["1 Ann 3", "Bo not scored yet", "Cy not scored yet"]
        tv.save_screenshot(str(shots / "party-host-end.png"))
        assert tv.execute_script("return [window.innerWidth, window.innerHeight]") == [1920, 1080]
        for button in ("#next", "#undo", "#end"):  # the whole host screen fits the TV
            rect = tv.execute_script("return arguments[0].getBoundingClientRect().bottom", css(tv, button))
            assert rect <= 1080
        ann.save_screenshot(str(shots / "party-phone-end.png"))
        no_overflow(bo)
        for drv in windows.values():
            drv.get("about:blank")  # the streams close before the server stops


def test_the_read_total_is_what_printkit_score_gives() -> None:
    """The 3 the phone shows above: Ann's sheet as a game file, scored in solo mode (the sheet alone)."""
    from printkit import registry

    doc = {"map": "world", "mode": "solo", "players": [
        {"name": "Ann", "souvenirs": {"mugs": 2}, "sights": {"food": 1},
         "route": ["new-york", "mexico-city", "vancouver", "new-york"]}]}
    assert registry.score_document(doc, "x", Path("."))[0].players[0].total == 3


def test_the_static_host_page_fits_a_phone(tmp_path: Path) -> None:
    """`printkit host` at 390x844: no sideways overflow, every turn of the track on screen and tappable."""
    from click.testing import CliRunner

    from printkit.cli import cli

    page = tmp_path / "host.html"
    names = "Ann,Bo,Cy,Di,Ed,Flo,Gus"
    assert CliRunner().invoke(cli, ["host", "--seed", "3", "--players", names, "-o", str(page)]).exit_code == 0
    phone = browser(390, 844)
    try:
        phone.get(page.as_uri())
        wait(phone, "#turn", "Turn 0 of 20")
        for _ in range(19):
            css(phone, "#roll").click()
        wait(phone, "#track li.current", "19")
        no_overflow(phone)
        boxes = phone.execute_script("return Array.from(document.querySelectorAll('#track li'), "
                                     "function (li) { var r = li.getBoundingClientRect(); return [r.left, r.right]; })")
        assert len(boxes) == 20 and all(0 <= left and right <= 390 for left, right in boxes)
        assert min(right - left for left, right in boxes) >= 28  # a finger can hit each
        phone.save_screenshot(str((Path(SHOTS) if SHOTS else tmp_path) / "host-page-phone.png"))
    finally:
        phone.quit()
        shutil.rmtree(phone.profile_dir, ignore_errors=True)
