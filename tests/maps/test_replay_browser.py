"""The replay page in a real headless Chromium: Next and Previous move the pieces and the log.

Needs Debian's chromium and chromium-driver (.ci/run installs them) and selenium
(the test extra); skips, saying which is missing, without them.  The
screenshot taken on the way is kept: in $AGON_TEST_ARTEFACTS when set, else in
the test's pytest temporary folder; the test prints where.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("AGON_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = (os.environ.get("AGON_CHROMEDRIVER") or shutil.which("chromedriver")
          or "/usr/bin/chromedriver")
# No network on the machines that run this: nothing may try to reach one.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--window-size=1600,1000"]

# Every piece on the map as (space, side, kind, count), read from the page.
PIECES_JS = """
return Array.from(document.querySelectorAll('#map g.piece')).map(function (g) {
  return [g.closest('[data-space]').getAttribute('data-space'), g.getAttribute('data-side'),
          g.getAttribute('data-kind'), parseInt(g.getAttribute('data-count'), 10)];
});
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed "
                                    "(pip install -e '.[test]')")
    for path, package in ((CHROMIUM, "chromium"), (DRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            pytest.skip(f"{path} is missing: apt-get install {package} (.ci/run does)")
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def artefact_folder(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("AGON_TEST_ARTEFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shown(browser) -> Counter:
    return Counter({(space, side, kind): count
                    for space, side, kind, count in browser.execute_script(PIECES_JS)})


def expected(kit, record, actions: int) -> Counter:
    pieces, _ = kit.engine_pieces("earth-and-water", kit.state_at(record, actions))
    return Counter({(space, side, kind): n for space, stack in pieces.items()
                    for (side, kind), n in stack.items()})


def text(browser, element_id: str) -> str:
    return browser.find_element("id", element_id).text


def test_next_and_previous_move_the_pieces_and_the_log(browser, recorded, kit, tmp_path):
    path = recorded["earth-and-water"]
    record = kit.load(path)
    page = tmp_path / "replay.html"
    result = kit.agon("replay", "--quiet", str(path), "--html", str(page))
    assert result.exit_code == 0, result.output
    # the first action after which a piece stands elsewhere than before it
    step = next(n for n in range(1, len(record["actions"]) + 1)
                if expected(kit, record, n) != expected(kit, record, n - 1))

    browser.get(page.as_uri())
    assert text(browser, "step-title") == "The start"
    assert shown(browser) == expected(kit, record, 0)
    for _ in range(step - 1):
        browser.find_element("id", "next").click()
    before, title_before = shown(browser), text(browser, "step-title")
    assert before == expected(kit, record, step - 1)

    browser.find_element("id", "next").click()
    seat = record["actions"][step - 1][0]
    assert text(browser, "step-title") == f"{step}. {seat}" != title_before
    assert shown(browser) == expected(kit, record, step) != before
    assert text(browser, "step-events") and text(browser, "counter").startswith(f"step {step} ")
    shot = artefact_folder(tmp_path) / f"replay-earth-and-water-step-{step}.png"
    assert browser.save_screenshot(str(shot))
    print(f"screenshot: {shot}")

    browser.find_element("id", "prev").click()
    assert text(browser, "step-title") == title_before
    assert shown(browser) == before

    browser.find_element("tag name", "body").send_keys("\ue010")   # the End key
    assert shown(browser) == expected(kit, record, len(record["actions"]))
    assert "Result:" in text(browser, "step-events")
