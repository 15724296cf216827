#!/usr/bin/env python3
"""The web board in a real browser (headless Chromium through ChromeDriver and Selenium).

usage: browser_test.py LOA LOA_MATCH WORKDIR SCREENSHOT

Starts `loa serve` on a free port with a records directory that a short loa-match run fills,
then, as a user would: loads the page, plays a legal move by clicking, waits for the engine's
reply, checks the board through the data-square/data-piece contract against the server's game,
analyses (iterations stream in, the line is drawn, Stop ends it; the screenshot is taken then;
then three lines at once, MultiPV),
tries bad input (an illegal move, bad position text, an unknown record) and reads the message
shown, replays a game record with the keyboard, and saves a screenshot of the board.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request

try:
    from selenium import webdriver
except ImportError:
    print("FAIL: python3-selenium is missing: bash scripts/setup.sh browser installs it with Chromium and ChromeDriver")
    sys.exit(1)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

loa, loa_match, work, screenshot = sys.argv[1:5]
started = time.monotonic()
records = os.path.join(work, "records")
shutil.rmtree(records, ignore_errors=True)
os.makedirs(records)
failure_shot = screenshot.replace(".png", "-failure.png")
if os.path.exists(failure_shot):
    os.remove(failure_shot)  # a screenshot of an earlier failure would mislead
subprocess.run([loa_match, "--engine", "name=a,depth=1", "--engine", "name=b,depth=2", "--games", "2", "-q",
                "--pgn", os.path.join(records, "games.pgn"), "--json", os.path.join(records, "match.json")],
               check=True, stdout=subprocess.DEVNULL)
source_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
shutil.copy(os.path.join(source_dir, "docs", "results", "treesize", "full-width.json"), records)

server = subprocess.Popen([loa, "serve", "--port", "0", "--records", records, "--max-search-seconds", "30"],
                          stdout=subprocess.PIPE, text=True)
driver = None


def fail(message):
    print(f"FAIL: {message}")
    if driver is not None:
        driver.save_screenshot(failure_shot)
    sys.exit(1)


def post_game(base, start, moves):
    request = urllib.request.Request(base + "/api/game", data=json.dumps({"start": start, "moves": moves}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as reply:
        return json.load(reply)


def board_pieces():
    """The board as the page shows it, read through the data-square / data-piece contract."""
    squares = driver.find_elements(By.CSS_SELECTOR, "#play [data-square]") if driver.find_element(By.ID, "play").is_displayed() \
        else driver.find_elements(By.CSS_SELECTOR, "#replay [data-square]")
    if len(squares) != 64:
        fail(f"{len(squares)} squares with data-square, not 64")
    return {s.get_attribute("data-square"): s.get_attribute("data-piece") for s in squares if s.get_attribute("data-piece")}


def wait_for(condition, what, seconds=20):
    # Generous limits: RUN_SERIAL keeps other tests away, not other processes. An element the
    # page redraws while the condition reads it is read again at the next poll.
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05,
                             ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition())
    except Exception:
        fail(f"timed out waiting for {what}")


def message():
    box = driver.find_element(By.ID, "message")
    return box.text if box.is_displayed() else ""


try:
    line = server.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        fail(f"loa serve printed {line!r}")
    base = f"http://127.0.0.1:{match.group(1)}"

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.get(base + "/")
    wait_for(lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true", "the page to load")

    # The start position, square by square.
    expected = post_game(base, "startpos", [])["pieces"]
    if board_pieces() != expected:
        fail(f"start position on the page {board_pieces()} is not the server's {expected}")

    # Play b1-d3 as Black by clicking, then wait for White's reply.
    driver.find_element(By.ID, "movetime").clear()
    driver.find_element(By.ID, "movetime").send_keys("200")
    driver.find_element(By.CSS_SELECTOR, '[data-square="b1"]').click()
    targets = driver.find_elements(By.CSS_SELECTOR, "#play .square.target")
    if not any(t.get_attribute("data-square") == "d3" for t in targets):
        fail("d3 is not marked as a target of b1")
    driver.find_element(By.CSS_SELECTOR, '[data-square="d3"]').click()
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#move-list li")) == 2, "the engine's reply", seconds=60)
    moves = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#move-list li")]
    if moves[0] != "b1-d3":
        fail(f"the first move is {moves[0]}, not b1-d3")
    game = post_game(base, "startpos", moves)  # also proves the engine's move legal
    if board_pieces() != game["pieces"]:
        fail(f"after {moves} the page shows {board_pieces()}, the server {game['pieces']}")
    if game["side_to_move"] != "b":
        fail("after the engine's reply it is not Black's turn")
    print(f"played b1-d3, the engine answered {moves[1]}")

    # A second move by dragging a piece to a legal target.
    drag = next(m for m in game["legal"] if m["from"])
    ActionChains(driver).click_and_hold(driver.find_element(By.CSS_SELECTOR, f'[data-square="{drag["from"]}"]')) \
        .move_to_element(driver.find_element(By.CSS_SELECTOR, f'[data-square="{drag["to"]}"]')).release().perform()
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#move-list li")) == 4, "the dragged move and the reply",
             seconds=60)
    moves = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#move-list li")]
    if moves[2] != drag["text"]:
        fail(f"dragging {drag['text']} played {moves[2]}")
    game = post_game(base, "startpos", moves)
    if board_pieces() != game["pieces"]:
        fail(f"after {moves} the page shows {board_pieces()}, the server {game['pieces']}")
    print(f"dragged {drag['text']}, the engine answered {moves[3]}")

    # Analyse: iterations stream in and the best line is drawn, until Stop.
    driver.find_element(By.ID, "analyse").click()
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#iterations tbody tr")) >= 9
             and driver.find_elements(By.CSS_SELECTOR, "#play-board svg.arrows line"), "nine iterations and the line on the board",
             seconds=90)
    if driver.find_element(By.ID, "analyse").text != "Stop":
        fail("the Analyse button does not offer Stop while analysing")
    driver.save_screenshot(screenshot)
    driver.find_element(By.ID, "analyse").click()
    wait_for(lambda: driver.find_element(By.ID, "analyse").text == "Analyse", "the analysis to stop")
    print(f"analysed: {driver.find_element(By.ID, 'engine-summary').text}")

    # Several lines (MultiPV): with Lines 3 the analysis shows three lines of one depth, each
    # starting with another move, best first.
    Select(driver.find_element(By.ID, "lines")).select_by_visible_text("3")
    driver.find_element(By.ID, "analyse").click()

    def three_lines():
        rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                for tr in driver.find_elements(By.CSS_SELECTOR, "#lines-table tbody tr")]
        return rows if len(rows) == 3 and rows[0][1] == rows[2][1] and int(rows[0][1]) >= 3 else None

    rows = wait_for(three_lines, "three analysis lines of one depth", seconds=60)
    driver.find_element(By.ID, "analyse").click()
    wait_for(lambda: driver.find_element(By.ID, "analyse").text == "Analyse", "the analysis to stop")
    if [r[0] for r in rows] != ["1", "2", "3"] or len({r[3].split()[0] for r in rows}) != 3:
        fail(f"the lines are not three lines with different first moves: {rows}")
    print(f"three lines at depth {rows[0][1]}: " + "; ".join(f"{r[2]} {r[3].split()[0]}" for r in rows))
    Select(driver.find_element(By.ID, "lines")).select_by_visible_text("1")

    # Bad input shows a message and changes nothing.
    driver.find_element(By.ID, "move-text").send_keys("a1-a8", Keys.ENTER)
    wait_for(lambda: "a1-a8" in message(), "a message about the illegal move")
    print(f"illegal move: {message()!r}")
    if [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#move-list li")] != moves:
        fail("an illegal move changed the move list")
    driver.find_element(By.ID, "position-text").send_keys("bbb/www x")
    driver.find_element(By.ID, "set-position").click()
    wait_for(lambda: "position" in message(), "a message about the bad position")
    print(f"bad position: {message()!r}")
    if board_pieces() != game["pieces"]:
        fail("a bad position changed the board")

    # Replay the first record with the keyboard.
    driver.find_element(By.CSS_SELECTOR, '#tabs [data-tab="replay"]').click()
    wait_for(lambda: driver.find_element(By.ID, "replay-ply").text.startswith("ply "), "the record to open")
    record = json.load(urllib.request.urlopen(base + "/api/records/games.pgn"))["games"][0]
    total = len(record["moves"])
    if driver.find_element(By.ID, "replay-ply").text != f"ply {total} / {total}":
        fail(f"the replay opened at {driver.find_element(By.ID, 'replay-ply').text}, not at its end")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    wait_for(lambda: driver.find_element(By.ID, "replay-ply").text == f"ply 0 / {total}", "Home")
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait_for(lambda: driver.find_element(By.ID, "replay-ply").text == f"ply 2 / {total}", "two steps forward")
    expected = post_game(base, record["start"], record["moves"][:2])["pieces"]
    wait_for(lambda: board_pieces() == expected, "the board after two plies of the record")
    print(f"replayed 2 of the record's {total} plies")

    # The finished match's standings, and a tree-size result as table and plot.
    driver.find_element(By.CSS_SELECTOR, '#tabs [data-tab="watch"]').click()
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#watch-pairings tbody tr")) == 1, "the match's standings")
    # One read of the whole row: the page rebuilds the table every 2 s, and cells read one by
    # one can go stale between two WebDriver calls.
    row = driver.execute_script("return [...document.querySelectorAll('#watch-pairings tbody tr td')].map(td => td.innerText)")
    if row[:2] != ["a", "b"] or sum(int(x) for x in row[2:5]) != 2:
        fail(f"the standings row is {row}")
    driver.save_screenshot(screenshot.replace(".png", "-watch.png"))
    driver.find_element(By.CSS_SELECTOR, '#tabs [data-tab="experiments"]').click()
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#treesize-table tbody tr")) > 0
             and driver.find_elements(By.CSS_SELECTOR, "#treesize-plot polyline"), "the tree-size table and plot")
    driver.save_screenshot(screenshot.replace(".png", "-experiments.png"))
    print(f"watched the match ({row}); tree sizes: "
          f"{len(driver.find_elements(By.CSS_SELECTOR, '#treesize-table tbody tr'))} depths")

    # An unknown record named in the address.
    driver.get(base + "/#replay=nothere.pgn")
    wait_for(lambda: "nothere.pgn" in message(), "a message about the unknown record")
    print(f"unknown record: {message()!r}")
except Exception as error:  # an unexpected exception gets the failure line and the screenshot too
    fail(repr(error))
finally:
    if driver is not None:
        driver.quit()
        driver = None
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        fail("loa serve did not stop on SIGTERM")

if server.returncode != 0:
    fail(f"loa serve exited with {server.returncode}")
print(f"browser test passed in {time.monotonic() - started:.1f} s; screenshot {screenshot}")
