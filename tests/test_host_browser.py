"""The host page in a real headless browser (Debian's chromium + chromedriver)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from printkit.cli import cli
from printkit.loading.dice import load_dice
from printkit.rules.dice import game_rolls

DICE = load_dice()

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

pytestmark = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()),
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="printkit-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", f"--user-data-dir={profile}", "--window-size=1280,1000",
    ):
        options.add_argument(arg)
    drv = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)


def write_page(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "host.html"
    result = CliRunner().invoke(cli, ["host", *args, "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    return out


def reload(driver: Any) -> None:
    """Reload the page and wait until its script has drawn the game."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.refresh()
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return document.readyState") == "complete" and text(d, "#turn") != ""
    )


def reload_shows(driver: Any, css: str, expected: str, seconds: float = 10.0) -> str:
    """Reload until ``css`` reads ``expected``, the page restoring what it saved in localStorage.

    The page's saved events are read before the reload. A loaded machine can make
    Chromium drop a fresh profile's localStorage that it has not yet written to
    disk (the page had saved it: the items are read back before the reload); then
    the saved items are put back, as a browser that kept them would hand them over,
    so the test checks the page's own restore and not Chromium's storage service.
    """
    import time

    saved = driver.execute_script("return JSON.stringify(Object.entries(window.localStorage))")
    assert saved != "[]", "the page saved nothing to restore"
    deadline = time.monotonic() + seconds
    while True:
        reload(driver)
        if driver.execute_script("return window.localStorage.length") == 0:
            driver.execute_script("JSON.parse(arguments[0]).forEach(function (kv) { "
                                  "window.localStorage.setItem(kv[0], kv[1]); })", saved)
            reload(driver)
        shown = text(driver, css)
        if shown == expected or time.monotonic() > deadline:
            return shown
        time.sleep(0.25)


def open_page(driver: Any, page: Path) -> None:
    driver.get(page.as_uri())
    driver.execute_script("window.localStorage.clear()")
    reload(driver)


def text(driver: Any, css: str) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.CSS_SELECTOR, css).text)


def click(driver: Any, css: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, css).click()


def die_faces(driver: Any) -> list[tuple[int, int]]:
    """Each die's data-face and the number of pips actually drawn."""
    from selenium.webdriver.common.by import By

    faces = []
    for die_id in ("die1", "die2"):
        die = driver.find_element(By.ID, die_id)
        faces.append((int(die.get_attribute("data-face")), len(die.find_elements(By.CSS_SELECTOR, "circle.pip"))))
    return faces


def test_solo_game_of_twenty_rolls_reaches_the_end_screen(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = write_page(tmp_path, "--map", "world", "--seed", "42")
    open_page(driver, page)
    assert text(driver, "#turn") == "Turn 0 of 20"
    assert die_faces(driver) == [(0, 0), (0, 0)]
    assert not driver.find_element(By.ID, "end").is_displayed()
    rolls = game_rolls(DICE, 42, 20)  # the same dice as `printkit turns` with --seed 42
    for turn, r in enumerate(rolls, start=1):
        click(driver, "#roll")
        assert text(driver, "#turn") == f"Turn {turn} of 20"
        assert die_faces(driver) == [(r.a, r.a), (r.b, r.b)]
        assert text(driver, "#actions") == r.headline
        assert text(driver, "#outcome") == r.text
        assert text(driver, "#track li.current") == str(turn)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#track li.played")) == 19
    assert not driver.find_element(By.ID, "roll").is_enabled()
    assert driver.find_element(By.ID, "end").is_displayed()
    assert text(driver, "#end-reason") == "All 20 turns have been played."
    rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#ratings tr")]
    assert rows[0] == "70 or more The Perfect Vacation"
    assert rows[-1] == "19 or less Did You Lose Your Passport?"
    assert len(rows) == 7
    # undo reopens turn 20; rolling again gives the same dice
    click(driver, "#undo")
    assert text(driver, "#turn") == "Turn 19 of 20"
    assert not driver.find_element(By.ID, "end").is_displayed()
    click(driver, "#roll")
    assert die_faces(driver) == [(rolls[19].a, rolls[19].a), (rolls[19].b, rolls[19].b)]
    # a reload keeps the game
    assert reload_shows(driver, "#turn", "Turn 20 of 20") == "Turn 20 of 20"
    assert driver.find_element(By.ID, "end").is_displayed()


def test_twelve_player_party_ends_when_everyone_is_home(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]
    page = write_page(tmp_path, "--map", "world", "--seed", "9", "--players", ",".join(names))
    open_page(driver, page)
    buttons = driver.find_elements(By.CSS_SELECTOR, "#players .player")
    assert [b.text for b in buttons] == names
    assert not buttons[0].is_enabled()  # nobody can be home before turn 1
    for _ in range(14):
        click(driver, "#roll")
    for i in range(6):
        click(driver, f'#players .player[data-index="{i}"]')
    # 20 - 14 = 6
    assert text(driver, '#players .player[data-index="0"]') == "Ann \u2713 turn 14 (+6)"
    click(driver, "#roll")
    click(driver, "#roll")
    for i in range(6, 11):
        click(driver, f'#players .player[data-index="{i}"]')
    click(driver, "#undo")  # Kim was a mistake
    assert text(driver, '#players .player[data-index="10"]') == "Kim"
    assert not driver.find_element(By.ID, "end").is_displayed()
    for i in (10, 11):
        click(driver, f'#players .player[data-index="{i}"]')
    assert text(driver, "#turn") == "Turn 16 of 20"
    assert driver.find_element(By.ID, "end").is_displayed()
    assert text(driver, "#end-reason") == "Every player has finished their trip (after turn 16 of 20)."
    bonuses = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#bonuses tr")]
    assert bonuses[0] == "Ann home on turn 14: speed bonus 6"
    assert bonuses[11] == "Lu home on turn 16: speed bonus 4"
    assert not driver.find_element(By.ID, "roll").is_enabled()


def test_player_home_on_the_last_turn_scores_no_bonus(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = write_page(tmp_path, "--seed", "3", "--players", "Ann,Bo")
    open_page(driver, page)
    for _ in range(20):
        click(driver, "#roll")
    assert driver.find_element(By.ID, "end").is_displayed()
    click(driver, '#players .player[data-index="0"]')  # 20 - 20 = 0
    bonuses = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#bonuses tr")]
    assert bonuses == ["Ann home on turn 20: speed bonus 0", "Bo did not get home: no speed bonus"]
