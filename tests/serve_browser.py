#!/usr/bin/python3
"""The web app in a real browser (ctest ServeBrowser): headless Chromium driven by Selenium.
Loads the app, solves the 8-puzzle and steps to the end, edits a start by clicking, cancels a
long search, explores, plays a legal move by clicks (or a move button) in every family and
undoes it, offers Explore only where the family explores, screenshots one
picture of each family (not blank), solves a pasted .tws with command-line options, opens a
solve --html page when the CLI writes them, and finds no console errors.
Usage: serve_browser.py PATH/TO/tansaku  (uses /usr/bin/chromium and /usr/bin/chromedriver);
TANSAKU_SCREENSHOT=FILE.png also saves the app with a solution half-way (docs/serve-app.png);
TANSAKU_SHOTS=DIR saves the puzzle panel of each family's page as DIR/serve-FAMILY.png."""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_util import colours  # noqa: E402
from serve_util import Server  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

BIN = sys.argv[1]
failures = []
# One picture per family.
PICTURES = ["sliding:3x3", "rotating-slide", "flip:4x4", "peg:triangle5", "knight-tour:3x4", "knight-swap:4x3",
            "coloring:map12", "blocks:klotski", "perm:2x2x2", "square-sum"]


# Waits on a loaded machine (parallel builds on 2 cores) can be long: every wait polls up to
# this many seconds, and a check right after an action polls too (eventually()).
WAIT = float(os.environ.get("TANSAKU_BROWSER_WAIT", "120"))


def eventually(pred, timeout=None):
    """pred() once it holds, polling up to `timeout` (default WAIT) seconds; its last value else."""
    end = time.time() + (WAIT if timeout is None else timeout)
    while True:
        try:
            v = pred()
        except Exception:  # an element replaced while the page redraws: try again
            v = None
        if v or time.time() >= end:
            return v
        time.sleep(0.2)


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def browser(profile):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}",
                 # the family pages' screenshots show the whole panel, options open
                 "--window-size=1280,1900" if os.environ.get("TANSAKU_SHOTS") else "--window-size=1280,1000"]:
        o.add_argument(flag)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for attempt in range(3):  # chromedriver can time out starting Chromium on a busy machine
        try:
            d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
            d.set_page_load_timeout(WAIT)
            d.set_script_timeout(WAIT)
            return d
        except Exception as e:  # selenium's WebDriverException, or a timeout
            if attempt == 2:
                raise
            print(f"note: starting Chromium failed ({str(e).splitlines()[0] if str(e) else e}); again", flush=True)
            time.sleep(2)


def console_errors(d):
    return [e for e in d.get_log("browser") if e["level"] == "SEVERE"]


# Families with moves to play: a legal move made by clicks on the board (or a move button).
PLAYABLE = {"sliding:3x3", "rotating-slide", "flip:4x4", "peg:triangle5", "knight-tour:3x4", "knight-swap:4x3",
            "blocks:klotski", "perm:2x2x2", "coloring:map12", "square-sum"}


def click_cell(d, i):
    """Clicks the board's cell i, found again if the board was redrawn under the click."""
    for attempt in range(20):
        try:
            # the last element of the cell is drawn on top (a piece over its square)
            d.find_elements(By.CSS_SELECTOR, f'#board [data-cell="{i}"]')[-1].click()
            return
        except Exception:  # stale, or not there yet
            time.sleep(0.1)
    raise RuntimeError(f"cannot click cell {i}")


def play_one(d, wait, p):
    """Plays the first legal move (its cells clicked, or its button), checks the position it
    leads to, then Undo."""
    wait.until(lambda d: d.execute_script("return state.play !== null"))
    before = d.execute_script("return state.play.state")
    move = d.execute_script("return state.play.moves[0]")
    if move["cells"]:
        for c in move["cells"]:
            click_cell(d, c)
            if d.find_element(By.ID, "start").get_attribute("value") == move["state"]:
                break
    else:
        d.find_element(By.CSS_SELECTOR, '#moves [data-move="0"]').click()
    got = eventually(lambda: d.find_element(By.ID, "start").get_attribute("value") == move["state"], 30)
    check(got, f"{p}: played {move['move']}: start is {d.find_element(By.ID, 'start').get_attribute('value')!r}, "
               f"want {move['state']!r}")
    wait.until(lambda d: d.execute_script("return state.play !== null && state.play.state === arguments[0]", move["state"]))
    d.find_element(By.ID, "undo").click()
    wait.until(lambda d: d.execute_script("return state.drawn === state.drawSeq && state.play !== null"))
    check(d.execute_script("return state.play.state") == before, f"{p}: undo returns to {before}")


def cells_text(el):
    cells = el.find_elements(By.CSS_SELECTOR, "[data-cell]")
    cells.sort(key=lambda c: int(c.get_attribute("data-cell")))
    return [c.text.strip() for c in cells]


def main():
    t0 = time.time()
    long_start = subprocess.run([BIN, "random", "24-puzzle", "--seed", "7"], capture_output=True, text=True).stdout.strip()
    with Server(BIN, "--workers", "2") as s, tempfile.TemporaryDirectory() as tmp:
        d = browser(os.path.join(tmp, "profile"))
        try:
            wait = WebDriverWait(d, WAIT, poll_frequency=0.2)
            d.get(s.url + "/")
            wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#pick option")) > 10)
            check(Select(d.find_element(By.ID, "pick")).first_selected_option.get_attribute("value") == "sliding:3x3",
                  "the 8-puzzle is chosen first")
            Select(d.find_element(By.ID, "pick")).select_by_value("sliding:3x3")
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board [data-cell]"))
            goal = d.execute_script("return state.info.goal")

            # solve the seed start, step to the end: the last board drawn is the goal
            d.find_element(By.ID, "solve").click()
            wait.until(lambda d: "solve: done" in d.find_element(By.ID, "status").text)
            facts = d.find_element(By.ID, "facts").text
            check("31 (optimal)" in facts, f"solve: {facts!r}")
            d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
            step = lambda: d.find_element(By.CSS_SELECTOR, "#player .step").text  # noqa: E731
            check(eventually(lambda: step() == "step 31 / 31"), f"after End: {step()!r}")
            d.find_element(By.CSS_SELECTOR, "#player [data-act=prev]").click()
            check(eventually(lambda: step() == "step 30 / 31"), f"previous: {step()!r}")
            d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
            check(eventually(lambda: step() == "step 31 / 31"), f"arrow right: {step()!r}")
            drawn = cells_text(d.find_element(By.CSS_SELECTOR, "#player .board"))
            want = ["" if t == "0" else t for t in goal.split()]
            check(["" if t == "0" else t for t in drawn] == want, f"the last frame {drawn} is the goal {goal}")
            if os.environ.get("TANSAKU_SCREENSHOT"):  # docs/serve-app.png: the solution half-way
                d.find_element(By.CSS_SELECTOR, "#player [data-act=first]").click()
                for _ in range(12):
                    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
                d.save_screenshot(os.environ["TANSAKU_SCREENSHOT"])
            d.find_element(By.CSS_SELECTOR, "#player [data-act=first]").click()
            check(cells_text(d.find_element(By.CSS_SELECTOR, "#player .board")) != drawn, "the first frame is the start")
            d.find_element(By.CSS_SELECTOR, "#player [data-act=play]").click()
            wait.until(lambda d: step() == "step 31 / 31")

            # edit the start by clicking two cells: they swap
            d.find_element(By.ID, "reset").click()
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board [data-cell]"))
            wait.until(lambda d: d.execute_script("return state.play !== null"))
            Select(d.find_element(By.ID, "mode")).select_by_value("edit")
            wait.until(lambda d: "swap" in d.find_element(By.ID, "edit-hint").text)
            before = d.execute_script("return currentStart()").split()
            for i in (0, 1):
                # A click redraws the board: a cell found just before the redraw is stale, and
                # a click that raised that did not happen, so it is found again and clicked.
                for attempt in range(20):
                    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#board [data-cell="{i}"]'))
                    try:
                        d.find_element(By.CSS_SELECTOR, f'#board [data-cell="{i}"]').click()
                        break
                    except StaleElementReferenceException:
                        time.sleep(0.1)
            swapped = [before[1], before[0]] + before[2:]
            eventually(lambda: d.find_element(By.ID, "start").get_attribute("value").split() == swapped, 10)
            after = d.find_element(By.ID, "start").get_attribute("value").split()
            check(after == swapped, f"swap by clicks: {before} -> {after}")
            time.sleep(0.3)

            # a long search, cancelled from the page
            name = d.find_element(By.ID, "name")
            name.clear()
            name.send_keys("24-puzzle", Keys.TAB)
            start = d.find_element(By.ID, "start")
            start.clear()
            start.send_keys(long_start, Keys.TAB)
            # The job is taken once the app holds its id (queued or running): a click lost
            # while the page redraws is repeated; anything else is reported as the page shows it.
            for attempt in range(3):
                d.find_element(By.ID, "solve").click()
                if eventually(lambda: d.execute_script("return state.job !== null") or
                              d.find_element(By.ID, "error").is_displayed(), 10):
                    break
            taken = eventually(lambda: "running" in d.find_element(By.ID, "status").text)
            if not taken:
                raise RuntimeError(f"the long solve did not run: status {d.find_element(By.ID, 'status').text!r}, "
                                   f"error {d.find_element(By.ID, 'error').text!r}, "
                                   f"job {d.execute_script('return state.job')!r}")
            d.find_element(By.ID, "cancel").click()
            wait.until(lambda d: "cancelled" in d.find_element(By.ID, "status").text)
            status = d.find_element(By.ID, "status").text
            check(status.startswith("solve: cancelled after") and "done" not in status, f"status after cancel: {status!r}")
            check(not d.find_element(By.ID, "error").is_displayed(), "no error after a cancel")
            check(eventually(lambda: d.find_element(By.ID, "solve").is_enabled()), "solve enabled again after cancel")

            # explore: the histogram as a chart, the farthest positions
            Select(d.find_element(By.ID, "pick")).select_by_value("sliding:3x3")
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board [data-cell]"))
            d.find_element(By.ID, "explore").click()
            wait.until(lambda d: "explore: done" in d.find_element(By.ID, "status").text)
            eventually(lambda: len(d.find_elements(By.CSS_SELECTOR, "#chart rect[data-lin-y]")) == 32, 10)
            bars = d.find_elements(By.CSS_SELECTOR, "#chart rect[data-lin-y]")
            check(len(bars) == 32, f"histogram bars: {len(bars)} (8-puzzle depths 0..31)")
            check("181440" in d.find_element(By.ID, "facts").text, "explore facts")
            check(len(d.find_elements(By.CSS_SELECTOR, "#farthest figure")) == 2, "two farthest positions")

            # every family's picture is drawn (not blank); a legal move played and undone
            os.makedirs(os.path.join(tmp, "shots"), exist_ok=True)
            shots = os.environ.get("TANSAKU_SHOTS")
            for p in PICTURES:
                Select(d.find_element(By.ID, "pick")).select_by_value(p)
                wait.until(lambda d: d.execute_script("return state.info && state.info.puzzle") is not None
                           and d.find_element(By.ID, "name").get_attribute("value") == p)
                wait.until(lambda d: d.execute_script("return state.drawn === state.drawSeq"))
                placeholder = d.find_element(By.ID, "start").get_attribute("placeholder")
                check(placeholder != "8 6 7 2 5 4 3 0 1" or p == "sliding:3x3", f"{p}: the 8-puzzle's placeholder {placeholder!r}")
                family = d.execute_script("return state.family.family")
                explores = "explore" in d.execute_script("return state.family.commands")
                check(d.find_element(By.ID, "explore").is_displayed() == explores, f"{p}: Explore offered = {explores}")
                if p in PLAYABLE:
                    play_one(d, wait, p)
                else:
                    check(d.execute_script("return state.play") is None and not d.find_element(By.ID, "mode").is_enabled(),
                          f"{p}: no play mode")
                if shots:
                    if not d.find_element(By.ID, "options").get_attribute("open"):
                        d.find_element(By.CSS_SELECTOR, "#options summary").click()
                    d.find_element(By.ID, "setup").screenshot(os.path.join(shots, f"serve-{family}.png"))
                time.sleep(0.2)
                board = d.find_element(By.ID, "board")
                has = board.find_elements(By.CSS_SELECTOR, "svg, [data-cell]")
                if not has:
                    print(f"note: {p}: nothing to draw (no drawing and no start state)")
                    continue
                # The picture may still be drawing: look again for a while before calling it blank.
                n = eventually(lambda: (lambda k: k if k >= 3 else 0)(len(colours(d.find_element(By.ID, "board").screenshot_as_png))), 30) or 0
                check(n >= 3, f"{p}: picture has {n} colours (blank?)")

            # a listed pattern of names: a file's leads to "Your own puzzle", a size's to the Name box
            Select(d.find_element(By.ID, "pick")).select_by_value("perm:FILE.tws")
            wait.until(lambda d: d.find_element(By.ID, "own").get_attribute("open"))
            check(Select(d.find_element(By.ID, "paste-kind")).first_selected_option.get_attribute("value") == "perm",
                  "perm:FILE.tws picked: the paste kind is perm")
            check("paste" in d.find_element(By.ID, "status").text, f"perm:FILE.tws: {d.find_element(By.ID, 'status').text!r}")
            check(not d.find_element(By.ID, "error").is_displayed(), f"perm:FILE.tws: {d.find_element(By.ID, 'error').text}")
            d.execute_script("document.getElementById('own').open = false")
            Select(d.find_element(By.ID, "pick")).select_by_value("sliding:RxC")
            wait.until(lambda d: "names many puzzles" in d.find_element(By.ID, "status").text)
            check("R, C" in d.find_element(By.ID, "status").text, f"sliding:RxC: {d.find_element(By.ID, 'status').text!r}")
            check(not d.find_element(By.ID, "error").is_displayed(), f"sliding:RxC: {d.find_element(By.ID, 'error').text}")

            # your own puzzle: a pasted .tws, solved from a scramble given as on the command line
            Select(d.find_element(By.ID, "pick")).select_by_value("sliding:3x3")
            wait.until(lambda d: d.execute_script("return state.drawn === state.drawSeq"))
            d.find_element(By.CSS_SELECTOR, "#own summary").click()
            Select(d.find_element(By.ID, "paste-kind")).select_by_value("perm")
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "perm", "2x2x2.tws")) as f:
                tws = f.read()
            d.execute_script("document.getElementById('paste').value = arguments[0]", tws)
            d.find_element(By.ID, "use-paste").click()
            wait.until(lambda d: d.find_element(By.ID, "name").get_attribute("value") == "perm:pasted.tws")
            if not d.find_element(By.ID, "options").get_attribute("open"):
                d.find_element(By.CSS_SELECTOR, "#options summary").click()
            extra = d.find_element(By.ID, "extra")
            extra.clear()
            extra.send_keys('--scramble "R U"', Keys.TAB)
            wait.until(lambda d: d.execute_script("return state.drawn === state.drawSeq && state.play !== null"))
            d.find_element(By.ID, "solve").click()
            wait.until(lambda d: "solve: done" in d.find_element(By.ID, "status").text)
            facts = d.find_element(By.ID, "facts").text
            check("2 (optimal)" in facts and "perm:pasted.tws" in facts, f"pasted .tws solved: {facts!r}")
            check(not d.find_element(By.ID, "error").is_displayed(), f"pasted: {d.find_element(By.ID, 'error').text}")
            extra.clear()
            extra.send_keys(Keys.TAB)

            # a --html page from the CLI, stepped through
            html = os.path.join(tmp, "solve.html")
            r = subprocess.run([BIN, "solve", "8-puzzle", "--html", html], capture_output=True, text=True)
            if r.returncode == 0 and os.path.exists(html):
                d.get("file://" + html)
                body = d.find_element(By.TAG_NAME, "body")
                for _ in range(40):
                    body.send_keys(Keys.ARROW_RIGHT)
                check(eventually(lambda: d.find_element(By.CSS_SELECTOR, "[data-player] .step").text == "step 31 / 31", 30),
                      "--html page: stepped to the end")
                drawn = cells_text(d.find_element(By.CSS_SELECTOR, "[data-player] .board"))
                check(["" if t == "0" else t for t in drawn] == want, f"--html page: the last frame {drawn} is the goal")
                body.send_keys(Keys.HOME)
                check(eventually(lambda: d.find_element(By.CSS_SELECTOR, "[data-player] .step").text == "step 0 / 31", 30),
                      "--html page: Home")
                n = len(colours(d.get_screenshot_as_png()))
                check(n >= 3, f"--html page has {n} colours")
            else:
                print("note: this CLI writes no --html pages yet:", r.stderr.strip())

            errors = console_errors(d)
            check(not errors, f"console errors: {errors}")
        finally:
            d.quit()
    print(f"serve_browser: {len(failures)} failures, {time.time() - t0:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
