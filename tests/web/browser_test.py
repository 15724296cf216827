#!/usr/bin/env python3
"""The web board in a real browser (headless Chromium through ChromeDriver and Selenium).

usage: browser_test.py LOA LOA_MATCH WORKDIR SCREENSHOT

Starts `loa serve` on a free port with a records directory that short loa-match runs fill, then
does what a user does and checks what the page shows against the server's own answers (the
board through the data-square / data-piece contract, the game through POST /api/game):

- at 1280x900, 800x600 and a 390x844 phone: the board fits, nothing scrolls sideways, the
  status and the main buttons are on the first screen (screenshots of each view beside
  SCREENSHOT, in WORKDIR/shots: docs/web.md shows them);
- playing: a click, a drag (the piece follows the pointer), the keyboard; the engine's reply
  (the time from the click to the drawn reply at 300 ms a move is printed); the move list
  numbered in pairs and clickable; Undo when the engine made the first move; the board flipped
  for White; arrows hidden while the engine plays;
- analysis: iterations, arrows, the evaluation bar, scores in Black's view (checked against the
  server's search), the analysis following the game (navigation and moves), three lines
  (MultiPV); a game over (from a link) highlights the winning group, ends the move list with
  the result and says why Analyse does nothing;
- a clock: the engine plans from both clocks, a flag fall ends the game;
- rules and start (Scrambled Eggs), copy position, download PGN, bad input (illegal move,
  illegal click, bad position: one clear message each);
- the operator's mode: a game with two clocks of their own, the engine pondering (a hit), saved
  after every move, going on through a restart of the server and resumed by its address after
  a restart of the browser, its PGN with both clocks after every move;
- variations: a move at an earlier position starts one beside the game's moves (which stay),
  each move selects its line, Undo takes a variation's move away;
- replay by keyboard and by the move list; a game's computer analysis (its time printed, the
  marks in the move list and on the graph, a click on the graph, cancel); Watch following a match to its end (it switches to
  the result JSON and stops polling the vanished state file); the tree-size plot.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
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
shots = os.path.join(work, "shots")
downloads = os.path.join(work, "downloads")
for directory in (records, shots, downloads):
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
failure_shot = screenshot.replace(".png", "-failure.png")
if os.path.exists(failure_shot):
    os.remove(failure_shot)  # a screenshot of an earlier failure would mislead
subprocess.run([loa_match, "--engine", "name=a,depth=1", "--engine", "name=b,depth=2", "--games", "2", "-q",
                "--pgn", os.path.join(records, "games.pgn"), "--json", os.path.join(records, "match.json")],
               check=True, stdout=subprocess.DEVNULL)
source_dir = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
shutil.copy(os.path.join(source_dir, "docs", "results", "treesize", "full-width.json"), records)
shutil.copy(os.path.join(source_dir, "docs", "results", "treesize", "combinations.json"), records)  # 64 variants

server = None
driver = None
live_match = None
SIZES = [(1280, 900), (800, 600), (390, 844)]
CONNECTING_GAME = "d1-b3 h5-g4 b1-b4 g4xg1 b4-e7 a3xc1 b3-e6 h3xf1 e1-e5"  # Black connects on the 9th ply


def fail(message):
    print(f"FAIL: {message}")
    if driver is not None:
        driver.save_screenshot(failure_shot)
        for entry in driver.get_log("browser")[-5:]:  # what the page said last (a script error)
            print(f"  browser: {entry.get('level')} {entry.get('message', '')[:300]}")
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def post(base, path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as reply:
        return json.load(reply)


def get(base, path):
    with urllib.request.urlopen(base + path) as reply:
        return json.load(reply)


def start_server(port="0"):
    """loa serve on `port` (0: a free one) over the records directory; its address."""
    global server
    server = subprocess.Popen([loa, "serve", "--port", port, "--records", records, "--max-search-seconds", "30"],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not found:
        fail(f"loa serve printed {line!r}")
    return f"http://127.0.0.1:{found.group(1)}"


def post_game(base, start, moves, rules="olympiad"):
    return post(base, "/api/game", {"start": start, "moves": moves, "rules": rules})


def js(script, *args):
    return driver.execute_script(script, *args)


def board_pieces(view="play"):
    """The board as the page shows it, read through the data-square / data-piece contract."""
    squares = js(f"return [...document.querySelectorAll('#{view}-board [data-square]')].map(s => [s.dataset.square, s.dataset.piece || ''])")
    check(len(squares) == 64, f"{len(squares)} squares with data-square, not 64")
    return {name: piece for name, piece in squares if piece}


def listed_moves(view="move-list"):
    return js(f"return [...document.querySelectorAll('#{view} .move[data-ply]')].map(m => m.textContent)")


def wait_for(condition, what, seconds=20):
    # Generous limits: RUN_SERIAL keeps other tests away, not other processes. An element the
    # page redraws while the condition reads it is read again at the next poll.
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.02,
                             ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition())
    except Exception:
        fail(f"timed out waiting for {what}")


def text(element_id):
    return driver.find_element(By.ID, element_id).text


def message():
    box = driver.find_element(By.ID, "message")
    return box.text if box.is_displayed() else ""


def click(element_id):
    driver.find_element(By.ID, element_id).click()


def square(name, view="play"):
    return driver.find_element(By.CSS_SELECTOR, f'#{view}-board [data-square="{name}"]')


def load(base, address="/"):
    driver.get("about:blank")  # a whole new page, also when only the fragment differs
    driver.get(base + address)
    wait_for(lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true", "the page to load")
    js("performance.setResourceTimingBufferSize(100000)")


def set_value(element_id, value):
    field = driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(value)


def new_game(side="b", movetime="300", clock=""):
    """Settings, then New game, waited for: the page marks #play with the game whose first view landed."""
    Select(driver.find_element(By.ID, "human-side")).select_by_value(side)
    set_value("clock", clock + Keys.TAB)
    # The time a move is disabled during a game on a clock (the clock rules it), and still
    # what the next game without one takes.
    js("const f = document.getElementById('movetime'); f.value = arguments[0]; f.dispatchEvent(new Event('change'));", movetime)
    shown = driver.find_element(By.ID, "play").get_attribute("data-game")
    click("new-game")
    wait_for(lambda: int(driver.find_element(By.ID, "play").get_attribute("data-game") or 0) > int(shown or 0)
             and (side == "w" or listed_moves() == []), "a new game")


def layout_check(view, width, height, first_screen_ids):
    """Nothing scrolls sideways; the named elements are inside the first screen."""
    geometry = js("""return {scroll: document.documentElement.scrollWidth, width: window.innerWidth, height: window.innerHeight,
                     boxes: Object.fromEntries(arguments[0].map(id => { const r = document.getElementById(id).getBoundingClientRect();
                       return [id, [r.left, r.top, r.right, r.bottom]]; }))}""", first_screen_ids)
    check(geometry["scroll"] <= geometry["width"], f"{view} at {width}x{height}: the page is {geometry['scroll']} px wide in a {geometry['width']} px window")
    for element_id, (left, top, right, bottom) in geometry["boxes"].items():
        check(right <= geometry["width"] + 0.5 and bottom <= geometry["height"] + 0.5 and bottom > top,
              f"{view} at {width}x{height}: #{element_id} at {left:.0f},{top:.0f}-{right:.0f},{bottom:.0f} is not on the first screen "
              f"({geometry['width']}x{geometry['height']})")
    # Tables and move lists stay inside the window (the tree-size table, a column pair per
    # variant, scrolls inside its own box: the box must fit).
    overflowing = js("""return [...document.querySelectorAll('.view:not([hidden]) table, .view:not([hidden]) .move-list, .view:not([hidden]) .table-box')]
                          .filter(t => t.offsetParent && !t.parentElement.closest('.table-box'))
                          .filter(t => t.getBoundingClientRect().right > window.innerWidth + 0.5).map(t => t.id || t.className)""")
    check(not overflowing, f"{view} at {width}x{height}: {overflowing} reach beyond the window")


def shot(name):
    path = os.path.join(shots, name + ".png")
    driver.save_screenshot(path)
    return path


try:
    base = start_server()

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(90)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    load(base)

    # The start position, square by square; the page loaded without a failed request (the
    # favicon included) and without a script error.
    start = post_game(base, "startpos", [])
    check(board_pieces() == start["pieces"], f"start position on the page {board_pieces()} is not the server's {start['pieces']}")
    problems = [e["message"] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    check(not problems, f"the page logged {problems}")
    check(driver.find_element(By.CSS_SELECTOR, "#play-board [role=grid]").get_attribute("aria-label"), "the board has no accessible name")
    check(square("b1").get_attribute("aria-label") == "b1, black piece", f"b1 is announced as {square('b1').get_attribute('aria-label')!r}")
    check(driver.find_element(By.ID, "play-status").get_attribute("aria-live") == "polite", "the status is not a live region")

    # ---- playing the engine at 300 ms a move ----
    new_game("b", "300")
    square("b1").click()
    targets = js("return [...document.querySelectorAll('#play-board .square.target')].map(s => s.dataset.square)")
    check("d3" in targets, f"d3 is not marked as a target of b1 ({targets})")
    clicked = time.monotonic()
    square("d3").click()
    # One script in the page watches for the reply (and for arrows meanwhile), so that the
    # test's own polling does not slow the page it times.
    reply = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const t0 = performance.now() - arguments[0];
        let arrows = 0;
        const look = () => {
          arrows += document.querySelectorAll('#play-board svg.arrows line').length;
          const moves = [...document.querySelectorAll('#move-list .move[data-ply]')].map(m => m.textContent);
          const reply = moves.length >= 2 && moves[1];
          if (reply && document.querySelector(`#play-board [data-square="${reply.slice(3, 5)}"]`).dataset.piece === 'w')
            done([performance.now() - t0, arrows]);
          else if (performance.now() - t0 > 60000) done(null);
          else requestAnimationFrame(look);
        };
        look();""", (time.monotonic() - clicked) * 1000)
    check(reply is not None, "no reply from the engine within a minute")
    reply_ms, arrows_while_thinking = reply
    moves = listed_moves()
    game = post_game(base, "startpos", moves)  # also proves the engine's move legal
    wait_for(lambda: board_pieces() == game["pieces"], "the engine's reply on the board")
    check(moves[0] == "b1-d3", f"the first move is {moves[0]}, not b1-d3")
    check(game["side_to_move"] == "b", "after the engine's reply it is not Black's turn")
    check(arrows_while_thinking == 0, "the engine's line was drawn while it chose its move (arrows are for analysis)")
    # What the engine said of its move stays once the move is on the board.
    wait_for(lambda: text("engine-summary").startswith(f"played {moves[1]} (") and "depth" in text("engine-summary"),
             f"the engine's own score and depth for {moves[1]} (the panel reads {text('engine-summary')!r})")
    # "Time a move" is a fixed time (docs/web.md): the reply comes after the 300 ms, not before.
    check(reply_ms >= 290, f"the engine answered in {reply_ms:.0f} ms at a fixed 300 ms a move")
    print(f"played b1-d3, the engine answered {moves[1]}: {reply_ms:.0f} ms from the click to the drawn reply at 300 ms a move")

    # A second move by dragging: the piece follows the pointer, then lands on a legal target.
    drag = next(m for m in game["legal"] if m["from"] and not m["capture"])
    ActionChains(driver).click_and_hold(square(drag["from"])).move_by_offset(23, 17).perform()
    ghost = js("const g = document.querySelector('.drag-ghost'); return g && [g.dataset.piece, g.getBoundingClientRect().left + g.getBoundingClientRect().width / 2]")
    origin = square(drag["from"]).rect
    check(ghost and ghost[0] == "b" and abs(ghost[1] - (origin["x"] + origin["width"] / 2 + 23)) < 3,
          f"no black piece under the pointer while dragging ({ghost}, square at {origin})")
    ActionChains(driver).move_to_element(square(drag["to"])).release().perform()
    wait_for(lambda: len(listed_moves()) == 4, "the dragged move and the reply", seconds=60)
    moves = listed_moves()
    check(moves[2] == drag["text"], f"dragging {drag['text']} played {moves[2]}")
    check(not driver.find_elements(By.CSS_SELECTOR, ".drag-ghost"), "the dragged piece stayed on the page")
    game = post_game(base, "startpos", moves)
    wait_for(lambda: board_pieces() == game["pieces"], "the board after the drag and the reply")
    # Numbered in pairs, as PGN: "1. b1-d3 <reply>", "2. <drag> <reply>".
    pairs = js("return [...document.querySelectorAll('#move-list li.move-pair')].map(li => li.innerText.replace(/\\s+/g, ' ').trim())")
    check(pairs == [f"1. {moves[0]} {moves[1]}", f"2. {moves[2]} {moves[3]}"], f"the move list reads {pairs}")
    print(f"dragged {drag['text']}, the engine answered {moves[3]}; the list reads {pairs}")

    # An illegal click says why; an illegal move typed gets the server's message.
    piece = next(m["from"] for m in game["legal"] if m["from"])
    blocked = next(sq for sq in (f + r for f in "abcdefgh" for r in "12345678") if sq not in game["pieces"] and
                   not any(m["from"] == piece and m["to"] == sq for m in game["legal"]))
    square(piece).click()
    square(blocked).click()
    wait_for(lambda: "is not a legal move" in text("play-hint"), "a word on the illegal click")
    print(f"illegal click: {text('play-hint')!r}")
    driver.find_element(By.ID, "move-text").send_keys("a1-a8", Keys.ENTER)
    wait_for(lambda: "a1-a8" in message(), "a message about the illegal move")
    check(listed_moves() == moves, "an illegal move changed the move list")

    # ---- analysis ----
    click("analyse")
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#iterations tbody tr")) >= 6
             and driver.find_elements(By.CSS_SELECTOR, "#play-board svg.arrows line") and driver.find_element(By.ID, "eval-bar").is_displayed(),
             "six iterations, the line on the board and the evaluation bar", seconds=90)
    check(text("analyse") == "Stop", "the Analyse button does not offer Stop while analysing")
    check("Black's view" in text("eval-text") or "wins" in text("eval-text"), f"the evaluation bar reads {text('eval-text')!r}")
    driver.save_screenshot(screenshot)
    shot("analysis-1280x900")

    # The analysis follows the game: a click on move 1 shows the position after it (White to
    # move) and analyses that one. Its depth-4 score is the server's own search's, negated:
    # scores are Black's.
    driver.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="1"]').click()
    at_one = post_game(base, "startpos", moves[:1])
    wait_for(lambda: board_pieces() == at_one["pieces"] and "move 1 of 4" in text("play-status"), "the position after move 1")

    def depth_four_score():
        rows = js("return [...document.querySelectorAll('#iterations tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
        return next((r[1] for r in rows if r[0] == "4"), None)

    shown = wait_for(depth_four_score, "the analysis of the position after move 1", seconds=60)
    with urllib.request.urlopen(base + "/api/search?" + urllib.parse.urlencode({"moves": " ".join(moves[:1]), "depth": 4})) as reply:
        stream = reply.read().decode()
    server_score = [json.loads(l[6:]) for l in stream.splitlines() if l.startswith("data: ")][-1]["score"]
    kind, value = server_score.split()
    check(kind == "cp" and int(shown) == -int(value), f"White to move, the server's score {server_score}: the page shows {shown}, not Black's view")
    first_moves = js("return [...document.querySelectorAll('#iterations tbody tr')].map(r => r.cells[5].textContent.split(' ')[0])")
    legal_at_one = {m["text"] for m in at_one["legal"]}
    check(all(m in legal_at_one for m in first_moves), f"lines of another position in the panel: {first_moves}")
    print(f"after move 1 (White to move) the page shows {shown}, the server's search {server_score}")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    wait_for(lambda: board_pieces() == game["pieces"] and text("analyse") == "Stop" and
             len(driver.find_elements(By.CSS_SELECTOR, "#iterations tbody tr")) >= 3, "the analysis back at the last move")
    click("analyse")
    wait_for(lambda: text("analyse") == "Analyse", "the analysis to stop")

    # Several lines (MultiPV): three lines of one depth, each starting with another move.
    Select(driver.find_element(By.ID, "lines")).select_by_visible_text("3")
    click("analyse")

    def three_lines():
        rows = js("return [...document.querySelectorAll('#lines-table tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
        return rows if len(rows) == 3 and rows[0][1] == rows[2][1] and int(rows[0][1]) >= 3 else None

    rows = wait_for(three_lines, "three analysis lines of one depth", seconds=60)
    # The other lines' first moves are drawn too (thin grey arrows beside the best line's).
    wait_for(lambda: js("return document.querySelectorAll('#play-board svg.arrows line[stroke-width=\"0.08\"]').length") == 2,
             "the arrows of lines 2 and 3")
    click("analyse")
    wait_for(lambda: text("analyse") == "Analyse", "the analysis to stop")
    check([r[0] for r in rows] == ["1", "2", "3"] and len({r[3].split()[0] for r in rows}) == 3, f"the lines are {rows}")
    print(f"three lines at depth {rows[0][1]}: " + "; ".join(f"{r[2]} {r[3].split()[0]}" for r in rows))
    Select(driver.find_element(By.ID, "lines")).select_by_visible_text("1")

    # A there-and-back line (b1-d3 d3-b1) draws two arrows side by side, not one over the other.
    ends = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        import('/board.js').then(m => {
          const box = document.createElement('div');
          document.body.append(box);
          const board = new m.Board(box, { label: 'test board' });
          board.drawLine(['b1-d3', 'd3-b1']);
          const lines = [...box.querySelectorAll('svg.arrows line')].map(l => ['x1', 'y1', 'x2', 'y2'].map(a => Number(l.getAttribute(a))));
          box.remove();
          done(lines);
        });""")
    check(len(ends) == 2 and abs(ends[0][0] - ends[1][2]) + abs(ends[0][1] - ends[1][3]) > 0.2,
          f"the arrows there and back lie on one another: {ends}")

    # Proven results in words, from either side's search, and scores as Black's.
    views = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        import('/score.js').then(m => done(['win 5 w', 'loss 4 b', 'win 1 b', 'cp 30 w', 'cp 30 b', 'cp -7 b']
          .map(t => m.blackView(t.slice(0, -2), t.slice(-1)).text)));""")
    check(views == ["White wins in 3 moves (5 plies)", "White wins in 2 moves (4 plies)", "Black wins in 1 move (1 ply)", "-30", "+30", "-7"],
          f"scores read {views}")

    # ---- positions: a bad one (one clear message), Enter in the box, New game ----
    driver.find_element(By.ID, "position-text").send_keys("8/8/8/8/8/8/8 b", Keys.ENTER)
    wait_for(lambda: "ranks" in message(), "a message about the bad position")
    check(message().count("position") == 1, f"the message is {message()!r}")
    check(board_pieces() == game["pieces"], "a bad position changed the board")
    print(f"bad position: {message()!r}")
    eggs = post_game(base, "eggs", [])
    set_value("position-text", eggs["position"] + Keys.ENTER)
    wait_for(lambda: board_pieces() == eggs["pieces"], "the position set with Enter")
    click("new-game")
    wait_for(lambda: board_pieces() == start["pieces"], "New game back at the standard start")
    Select(driver.find_element(By.ID, "start-kind")).select_by_value("eggs")
    wait_for(lambda: board_pieces() == eggs["pieces"], "a new game from Scrambled Eggs")
    Select(driver.find_element(By.ID, "rules")).select_by_value("codingame")
    wait_for(lambda: "rules=codingame" in driver.current_url and board_pieces() == eggs["pieces"], "the rule set in the address")
    Select(driver.find_element(By.ID, "rules")).select_by_value("olympiad")
    Select(driver.find_element(By.ID, "start-kind")).select_by_value("startpos")
    print("Enter in the position box, New game, Scrambled Eggs and the rule set work")

    # Issue 86, fault 1: nothing done by accident throws a game away. A clock typed without
    # Enter, a move on the board, a click on a button (the box loses the focus: its change
    # fires): the game goes on, the clock waits for New game; a rule set chosen mid-game too.
    new_game("both")
    driver.find_element(By.ID, "clock").send_keys("3+2")  # no Enter, no Tab
    square("b1").click()
    square("d3").click()
    wait_for(lambda: listed_moves() == ["b1-d3"], "b1-d3 played with a clock typed in the box")
    click("flip")
    wait_for(lambda: "next game" in text("play-hint"), "the typed clock kept for the next game")
    click("flip")
    check(listed_moves() == ["b1-d3"] and "moves=b1-d3" in driver.current_url and not driver.find_element(By.ID, "play-clocks").is_displayed(),
          f"the typed clock changed the game: {listed_moves()}, {driver.current_url}")
    Select(driver.find_element(By.ID, "rules")).select_by_value("codingame")
    wait_for(lambda: "codingame rules" in text("play-hint"), "the rule set kept for the next game")
    check(listed_moves() == ["b1-d3"] and "rules=" not in driver.current_url, f"the rule set changed the game: {driver.current_url}")
    click("new-game")
    wait_for(lambda: listed_moves() == [] and driver.find_element(By.ID, "play-clocks").is_displayed(), "New game with the 3+2 clock")
    Select(driver.find_element(By.ID, "rules")).select_by_value("olympiad")  # nothing played: at once
    set_value("clock", Keys.TAB)
    wait_for(lambda: not driver.find_element(By.ID, "play-clocks").is_displayed(), "the clock cleared on a game with no moves")
    print("a typed clock and a rule set chosen mid-game wait for New game; the game goes on")

    # lichess's Abort, Offer draw and Resign against the engine.
    new_game("b", "100")
    click("abort")  # nothing played by the user yet: the game is dropped
    wait_for(lambda: "aborted" in text("play-hint"), "Abort before the user's first move")
    square("b1").click()
    square("d3").click()
    wait_for(lambda: len(listed_moves()) == 2, "the engine's reply")
    click("abort")
    wait_for(lambda: "resign instead" in text("play-hint"), "Abort refused after the user's move")
    click("offer-draw")
    wait_for(lambda: "declines" in text("play-hint"), "the engine declining a draw this early")
    click("resign")
    wait_for(lambda: "Black resigns: White wins" in text("play-status"), "the resignation")
    result = js("const r = document.querySelector('#move-list .move-result'); return r && r.textContent")
    check(result == "1-0 · Black resigns", f"the move list ends with {result!r} after resigning")
    print(f"abort, a declined draw and a resignation: {text('play-status')!r}")

    # ---- the user plays White: the board turns, the engine moves first and Undo keeps it ----
    new_game("w", "100")
    wait_for(lambda: len(listed_moves()) == 1, "the engine's first move")
    check(js("return document.querySelector('#play-board [data-square]').dataset.square") == "h1", "the board is not flipped for White")
    click("undo")
    wait_for(lambda: "first move stays" in text("play-hint"), "Undo keeping the engine's first move")
    time.sleep(0.5)
    check(len(listed_moves()) == 1, f"Undo let the engine play again: {listed_moves()}")
    print(f"as White: the board flipped, the engine opened {listed_moves()[0]}, Undo said {text('play-hint')!r}")
    # Looking back while the engine thinks does not stop it: its reply comes, and the view
    # goes to it.
    set_value("movetime", "1500")
    opened = post_game(base, "startpos", listed_moves())
    mine = next(m["text"] for m in opened["legal"] if m["from"])
    driver.find_element(By.ID, "move-text").send_keys(mine, Keys.ENTER)
    wait_for(lambda: len(listed_moves()) == 2, "the user's move as White")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    wait_for(lambda: "move 0 of 2" in text("play-status"), "the start shown while the engine thinks")
    wait_for(lambda: len(listed_moves()) == 3 and "White to move" in text("play-status") and "of" not in text("play-status"),
             "the engine's reply while the user looked back", seconds=30)
    shot("flipped-1280x900")

    # ---- the keyboard: both sides by hand, a square reached with the arrows and Enter ----
    new_game("both")
    wait_for(lambda: js("return document.querySelector('#play-board [data-square]').dataset.square") == "a8", "the board back unflipped")
    square("b1").click()  # picks up b1, and the board's focus is there: the keyboard goes on from it
    focused = lambda: js("return document.activeElement.dataset.square")
    square("b1").send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_UP, Keys.ARROW_UP)
    check(focused() == "d3", f"the arrows took the focus to {focused()}, not d3")
    # The keyboard's cursor (on d3) and the selected piece (b1) look different.
    looks = js("""const style = (name) => { const s = getComputedStyle(document.querySelector(`#play-board [data-square="${name}"]`));
                    return [s.outlineStyle, s.outlineColor, s.boxShadow]; };
                  return [style('d3'), style('b1')]""")
    cursor, selected = looks  # [outline style, outline colour, box shadow] of each
    check(cursor[0] not in ("none", "solid") and selected[2] != "none",
          f"the cursor {cursor} and the selected piece {selected} are drawn alike")
    check(cursor[1] not in selected[2], f"the cursor's colour {cursor[1]} is the selected ring's ({selected[2]})")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_for(lambda: listed_moves() == ["b1-d3"], "b1-d3 played with the keyboard")
    print("played b1-d3 with the arrow keys and Enter")

    # ---- copy the position, download the game ----
    click("copy-position")
    after_one = post_game(base, "startpos", ["b1-d3"])
    wait_for(lambda: driver.find_element(By.ID, "position-text").get_attribute("value") == after_one["position"], "the position copied")
    click("download-pgn")
    wait_for(lambda: glob.glob(os.path.join(downloads, "*.pgn")), "the PGN download")
    time.sleep(0.3)
    pgn = open(glob.glob(os.path.join(downloads, "*.pgn"))[0]).read()
    check("1. b1-d3" in pgn and '[Result "*"]' in pgn, f"the downloaded PGN reads {pgn!r}")
    # Copy PGN: into the clipboard, or (a headless browser has none) shown in the hint.
    click("copy-pgn")
    wait_for(lambda: text("play-hint") == "PGN copied." or ("[Event" in text("play-hint") and "1. b1-d3" in text("play-hint")),
             "the PGN copied")

    # ---- variations: a move at an earlier position starts one, the game's moves stay ----
    tree_checks = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        import('/move_tree.js').then(({ MoveTree }) => {
          const t = new MoveTree(['a', 'b', 'c', 'd']);
          const line = t.add(['a'], 'X');           // a variation at ply 1
          const again = t.add(['a'], 'b');          // the main line's move: taken up, not copied
          t.add(['a', 'X'], 'Y'); t.add(['a', 'X'], 'Z');  // a variation inside it, at ply 2
          const results = [line.join(' '), again.join(' '), t.node(['a']).children.length, t.branchPly(['a', 'b', 'c']),
            t.branchPly(['a', 'X', 'Y']), t.branchPly(['a', 'X', 'Z']), t.isMainline(['a', 'b']), t.isMainline(['a', 'X'])];
          t.remove(['a', 'X', 'Z']);
          results.push(t.lineThrough(['a', 'X']).join(' '), t.mainline().join(' '));
          t.remove(['a', 'X']);
          results.push(t.hasVariations(), t.mainline().join(' '));
          done(results);
        });""")
    check(tree_checks == ["a X", "a b c d", 2, -1, 1, 2, True, False, "a X Y", "a b c d", False, "a b c d"],
          f"the move tree: {tree_checks}")
    def play_text(move):
        set_value("move-text", move)
        click("play-move-text")
    play_text("a3xd3")
    wait_for(lambda: listed_moves() == ["b1-d3", "a3xd3"], "a3xd3 typed")
    third = post_game(base, "startpos", ["b1-d3", "a3xd3"])["legal"][0]["text"]
    play_text(third)
    mainline = ["b1-d3", "a3xd3", third]
    wait_for(lambda: listed_moves() == mainline, "the third move")
    driver.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="1"]').click()
    wait_for(lambda: board_pieces() == post_game(base, "startpos", ["b1-d3"])["pieces"], "the position after the first move")
    other_reply = next(m["text"] for m in post_game(base, "startpos", ["b1-d3"])["legal"] if m["text"] != "a3xd3")
    play_text(other_reply)
    variation_moves = lambda: js("return [...document.querySelectorAll('#move-list .var-move')].map(m => [m.textContent, m.classList.contains('current')])")
    wait_for(lambda: variation_moves() == [[other_reply, True]], f"a variation {other_reply} shown as the move played")
    check(listed_moves() == mainline, f"the game's moves were cut: {listed_moves()} (issue 86: a move at an earlier position cut the game)")
    check(board_pieces() == post_game(base, "startpos", ["b1-d3", other_reply])["pieces"], "the board does not show the variation")
    check("(" in text("move-list") and other_reply in text("move-list"), f"the move list reads {text('move-list')!r}")
    time.sleep(0.4)  # the move's slide over
    shot("variation-1280x900")
    # The main line's last move takes the board back there; the variation's move back to it.
    driver.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="3"]').click()
    wait_for(lambda: board_pieces() == post_game(base, "startpos", mainline)["pieces"], "the main line's position again")
    driver.find_element(By.CSS_SELECTOR, "#move-list .var-move").click()
    wait_for(lambda: board_pieces() == post_game(base, "startpos", ["b1-d3", other_reply])["pieces"], "the variation's position again")
    # Playing the main line's move again takes up its line (no second copy of it); Undo of the
    # variation's move takes it away.
    driver.find_element(By.CSS_SELECTOR, '#move-list .move[data-ply="1"]').click()
    wait_for(lambda: js("return document.querySelector('#move-list .current')?.dataset.ply") == "1", "back at the first move")
    play_text("a3xd3")
    wait_for(lambda: js("return document.querySelector('#move-list .current')?.dataset.ply") == "2", "a3xd3 taken up on the main line")
    check(listed_moves() == mainline and len(variation_moves()) == 1, f"the tree after a3xd3 again: {listed_moves()}, {variation_moves()}")
    driver.find_element(By.CSS_SELECTOR, "#move-list .var-move").click()
    wait_for(lambda: variation_moves() == [[other_reply, True]], "the variation selected")
    click("undo")
    wait_for(lambda: variation_moves() == [], "the variation taken back")
    check(listed_moves() == mainline, f"Undo in a variation changed the game: {listed_moves()}")
    print(f"variation 1... {other_reply} beside 1... a3xd3: kept, selected, taken up and taken back")

    # ---- a game over, from a link: the winning group, the result, Analyse explains ----
    load(base, "/#moves=" + urllib.parse.quote(CONNECTING_GAME))
    over = post_game(base, "startpos", CONNECTING_GAME.split())
    wait_for(lambda: board_pieces() == over["pieces"] and "Game over" in text("play-status"), "the linked game at its end")
    winners = set(js("return [...document.querySelectorAll('#play-board .square.winner')].map(s => s.dataset.square)"))
    black = {sq for sq, p in over["pieces"].items() if p == "b"}
    check(winners == black, f"the winning group is highlighted as {winners}, Black has {black}")
    result = js("const r = document.querySelector('#move-list .move-result'); return r && r.textContent")
    check(result and result.startswith("0-1") and "connection" in result, f"the move list ends with {result!r}")
    click("analyse")
    wait_for(lambda: "nothing to analyse" in text("play-hint"), "Analyse saying why it does nothing")
    check(text("analyse") == "Analyse", "Analyse started on a finished game")
    click("engine-move")
    wait_for(lambda: "no move to make" in text("play-hint"), "Engine move saying why it does nothing")
    shot("game-over-1280x900")
    print(f"linked game: {text('play-status')!r}, {len(winners)} pieces highlighted, list ends {result!r}")
    # The finished game's computer analysis: Black's last move connects, so the graph ends at 0
    # (White's expected result) and its point is the last one; the marks match the list.
    click("analyse-game")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#play-analysis svg.analysis-graph"), "the game's analysis", seconds=30)
    plies = js("return Number(document.querySelector('#play-analysis svg.analysis-graph').dataset.plies)")
    check(plies == len(CONNECTING_GAME.split()), f"the graph has {plies} plies, the game {len(CONNECTING_GAME.split())}")
    marked = len(driver.find_elements(By.CSS_SELECTOR, "#move-list .move[data-mark]"))
    dots = len(driver.find_elements(By.CSS_SELECTOR, "#play-analysis circle.graph-mark"))
    check(marked == dots, f"{marked} marked moves in the list, {dots} points on the graph")
    print(f"linked game analysed: {marked} moves marked")
    # Issue 86: the colours named ("Black wins", not "black wins"); back and forward buttons; the
    # arrow keys step through the moves even when a menu has the focus, and leave the menu alone.
    check("Black wins by connection" in text("play-status"), f"the status reads {text('play-status')!r}")
    total_plies = len(CONNECTING_GAME.split())
    click("play-back")
    wait_for(lambda: f"move {total_plies - 1} of {total_plies}" in text("play-status"), "the back button")
    side_before = Select(driver.find_element(By.ID, "human-side")).first_selected_option.get_attribute("value")
    js("document.getElementById('human-side').focus()")
    driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    wait_for(lambda: f"move {total_plies - 2} of {total_plies}" in text("play-status"), "the left arrow with a menu focused")
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    wait_for(lambda: f"move {total_plies - 1} of {total_plies}" in text("play-status"), "the right arrow with a menu focused")
    side_after = Select(driver.find_element(By.ID, "human-side")).first_selected_option.get_attribute("value")
    check(side_after == side_before, f"the arrow keys changed 'You play' from {side_before} to {side_after}")
    click("play-last")
    wait_for(lambda: "Game over" in text("play-status"), "the last-move button")
    check(not driver.find_element(By.ID, "play-forward").is_enabled(), "forward offered at the game's end")

    # ---- a clock: the engine plans from both clocks; the user's flag falls ----
    load(base)
    new_game("b", "300", "0.2+0")  # twelve seconds each
    wait_for(lambda: driver.find_element(By.ID, "play-clocks").is_displayed() and "0:1" in text("clock-top"), "the clocks")
    # As on lichess: no computer analysis of a game on the clock until it is over, and the
    # clocks start with the first move: waiting before it costs nobody time.
    check(not driver.find_element(By.ID, "analyse-game").is_enabled(), "Analyse game offered during a game on the clock")
    check(not driver.find_element(By.ID, "analyse").is_enabled(), "Analyse offered during a game on the clock")
    time.sleep(1.5)
    check(text("clock-top").endswith("0:12") and text("clock-bottom").endswith("0:12"),
          f"the clocks ran before the first move: {text('clock-top')!r}, {text('clock-bottom')!r}")
    square("b1").click()
    square("d3").click()
    wait_for(lambda: len(listed_moves()) == 2, "the engine's reply on the clock", seconds=15)
    left = js("return [document.getElementById('clock-top').textContent, document.getElementById('clock-bottom').textContent]")
    asked = js("return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/api/search?')).pop()")
    query = urllib.parse.parse_qs(urllib.parse.urlparse(asked).query)
    check("btime" in query and "wtime" in query and "movetime" not in query and int(query["wtime"][0]) <= 12000,
          f"the engine was not given the clocks: {asked}")
    # Under ten seconds a clock turns red (lichess's habit), before its flag falls.
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".clock.low") and "flag fell" not in text("play-status"),
             "Black's clock turning red under ten seconds", seconds=20)
    wait_for(lambda: "flag fell" in text("play-status"), "Black's flag to fall", seconds=20)
    check("White wins on time" in text("play-status"), f"the status reads {text('play-status')!r}")
    result = js("const r = document.querySelector('#move-list .move-result'); return r && r.textContent")
    check(result and result.startswith("1-0"), f"the move list ends with {result!r} after the flag fell")
    check(driver.find_elements(By.CSS_SELECTOR, ".clock.flagged"), "no flagged clock shown")
    check(driver.find_element(By.ID, "analyse-game").is_enabled(), "Analyse game not offered once the flag fell")
    shot("clock-1280x900")
    print(f"clock 0.2+0: the engine searched with wtime={query['wtime'][0]} btime={query['btime'][0]}; after its reply {left}; "
          f"then {text('play-status')!r}")

    # ---- replay: the keyboard and the move list ----
    click_tab = lambda name: driver.find_element(By.CSS_SELECTOR, f'#tabs [data-tab="{name}"]').click()
    click_tab("replay")
    wait_for(lambda: text("replay-ply").startswith("ply "), "the record to open")
    record = json.load(urllib.request.urlopen(base + "/api/records/games.pgn"))["games"][0]
    total = len(record["moves"])
    check(text("replay-ply") == f"ply {total} / {total}", f"the replay opened at {text('replay-ply')}, not at its end")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    wait_for(lambda: text("replay-ply") == f"ply 0 / {total}", "Home")
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait_for(lambda: text("replay-ply") == f"ply 2 / {total}", "two steps forward")
    expected = post_game(base, record["start"], record["moves"][:2])["pieces"]
    wait_for(lambda: board_pieces("replay") == expected, "the board after two plies of the record")
    driver.find_element(By.CSS_SELECTOR, '#replay-moves .move[data-ply="5"]').click()
    expected = post_game(base, record["start"], record["moves"][:5])["pieces"]
    wait_for(lambda: text("replay-ply") == f"ply 5 / {total}" and board_pieces("replay") == expected, "ply 5 from the move list")
    # The mouse wheel over the board steps through the moves, a notch a move (lichess's habit).
    wheel = """const board = document.getElementById('replay-board');
               board.dispatchEvent(new WheelEvent('wheel', {deltaY: arguments[0], bubbles: true, cancelable: true}));"""
    js(wheel, -100)
    wait_for(lambda: text("replay-ply") == f"ply 4 / {total}", "a wheel notch back")
    js(wheel, 100)
    wait_for(lambda: text("replay-ply") == f"ply 5 / {total}", "a wheel notch forward")
    # The game menu with the focus: the arrows still step through the moves, and the game stays.
    js("document.getElementById('records-game').focus()")
    driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    wait_for(lambda: text("replay-ply") == f"ply 4 / {total}", "the left arrow with the game menu focused")
    check(Select(driver.find_element(By.ID, "records-game")).first_selected_option.get_attribute("value") == "0",
          "the left arrow changed the game")
    print(f"replayed the record's {total} plies by keyboard and by the move list")

    # ---- replay: the game's computer analysis (graph under the board, marks in the move list) ----
    began = time.monotonic()
    click("replay-analyse")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#replay-analysis svg.analysis-graph"), "the analysis graph", seconds=60)
    analysed_in = time.monotonic() - began
    status = driver.find_element(By.CSS_SELECTOR, "#replay-analysis .analysis-status").text
    counts = [int(n) for n in re.findall(r"(\d+) (?:inaccuracies|mistakes|blunders)", status)]
    check(len(counts) == 3, f"the analysis status {status!r} names its three counts")
    marked = driver.find_elements(By.CSS_SELECTOR, "#replay-moves .move[data-mark]")
    dots = driver.find_elements(By.CSS_SELECTOR, "#replay-analysis circle.graph-mark")
    check(len(marked) == sum(counts) == len(dots),
          f"{len(marked)} marked moves in the list, {sum(counts)} in the status, {len(dots)} on the graph")
    symbols = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    for m in marked:
        check(m.text.endswith(symbols[m.get_attribute("data-mark")]), f"the marked move {m.text!r} shows its symbol")
    # A click on the graph goes to that move: three quarters of the way is about ply 0.75 * total
    # (the click lands on a whole pixel, the border counts: one ply either side).
    graph = driver.find_element(By.CSS_SELECTOR, "#replay-analysis svg.analysis-graph")
    ActionChains(driver).move_to_element_with_offset(graph, int(graph.size["width"] * 0.25), 0).click().perform()
    want = 0.75 * total
    wait_for(lambda: re.fullmatch(rf"ply (\d+) / {total}", text("replay-ply")) and
             abs(int(text("replay-ply").split()[1]) - want) <= 1, f"about ply {want:.0f} from a click on the graph")
    ply_now = int(text("replay-ply").split()[1])
    expected = post_game(base, record["start"], record["moves"][:ply_now])["pieces"]
    wait_for(lambda: board_pieces("replay") == expected, "the board at the clicked ply")
    shot("replay-analysis-1280x900")
    print(f"analysed the record's {total} plies in {analysed_in:.1f} s at 100 ms a position: {counts[0]} inaccuracies, "
          f"{counts[1]} mistakes, {counts[2]} blunders, marked in the list and on the graph")
    # Cancelled: the page says so, and the board's next analysis is served (the session is back).
    click("replay-analyse")
    wait_for(lambda: driver.find_elements(By.XPATH, '//div[@id="replay-analysis"]/button[text()="Cancel"]'), "the Cancel button")
    cancel = driver.find_element(By.XPATH, '//div[@id="replay-analysis"]/button[text()="Cancel"]')
    # The status grows as the progress comes in: a button after it would move from under the
    # pointer (a click of this test once landed where it had been).
    status = driver.find_element(By.CSS_SELECTOR, "#replay-analysis .analysis-status")
    check(cancel.location["x"] < status.location["x"],
          f"the Cancel button (x {cancel.location['x']}) comes after the growing status (x {status.location['x']})")
    cancel.click()
    wait_for(lambda: "cancelled" in driver.find_element(By.CSS_SELECTOR, "#replay-analysis .analysis-status").text, "the cancel")

    # ---- watch a match to its end ----
    live_json = os.path.join(records, "live.json")
    live_match = subprocess.Popen([loa_match, "--engine", "name=c,st=0.02", "--engine", "name=d,st=0.02", "--games", "6", "-q",
                                   "--json", live_json, "--pgn", os.path.join(records, "live.pgn")], stdout=subprocess.DEVNULL)
    wait_for(lambda: os.path.exists(live_json + ".state"), "the match's state file")
    click_tab("watch")
    wait_for(lambda: any(o.get_attribute("value") == "live.json.state" for o in driver.find_elements(By.CSS_SELECTOR, "#match-file option")),
             "the running match in the file list (without a reload)", seconds=15)
    Select(driver.find_element(By.ID, "match-file")).select_by_value("live.json.state")
    wait_for(lambda: "(running)" in text("watch-summary"), "the running match's standings")
    shot("watch-running-1280x900")
    live_match.wait(timeout=120)
    wait_for(lambda: driver.find_element(By.ID, "match-file").get_attribute("value") == "live.json" and "(finished)" in text("watch-summary"),
             "the view to move to the finished match's result", seconds=15)
    polled = lambda: js("return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/match/live.json.state')).length")
    before = polled()
    time.sleep(4.5)
    check(polled() == before, "the page still asks for the vanished state file")
    check(message() == "", f"the page shows {message()!r} after the match ended")
    check("6 of 6 games" in text("watch-summary"), f"the summary reads {text('watch-summary')!r}")
    print(f"watched a match to its end: {text('watch-summary')!r}, {text('watch-updated')!r}")
    # The Elo says it counts whole pairs; a latest game's number opens it in Replay.
    pairs = js("return document.querySelector('#watch-pairings tbody tr').cells[6].textContent")
    check(re.search(r"· 3 pairs$", pairs), f"the Elo cell reads {pairs!r} for 6 games (3 pairs)")
    first_row = driver.find_element(By.CSS_SELECTOR, "#watch-games tbody tr")
    game_number = first_row.find_element(By.TAG_NAME, "button").text
    plies = int(first_row.find_elements(By.TAG_NAME, "td")[5].get_attribute("textContent"))
    record = json.load(urllib.request.urlopen(base + f"/api/match/live.json/game/{game_number}"))
    check(len(record["moves"]) == plies, f"game {game_number}: {len(record['moves'])} moves, the row says {plies} plies")
    first_row.find_element(By.TAG_NAME, "button").click()
    wait_for(lambda: text("replay-ply") == f"ply {plies} / {plies}", f"game {game_number} ({plies} plies) opened in Replay")
    expected = post_game(base, record["start"], record["moves"])["pieces"]
    wait_for(lambda: board_pieces("replay") == expected, "the opened game's last position")
    check(Select(driver.find_element(By.ID, "records-file")).first_selected_option.text == f"live.json, game {game_number}",
          "the file menu does not name the game opened from Watch")
    print(f"opened game {game_number} from Watch in Replay: {text('replay-ply')}")
    click_tab("watch")

    # The tree-size table and plot.
    click_tab("experiments")
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#treesize-table tbody tr")) > 0
             and driver.find_elements(By.CSS_SELECTOR, "#treesize-plot polyline"), "the tree-size table and plot")
    shot("experiments-1280x900")
    # 64 variants: every one named in the legend, a line each, no table cell wrapped onto more
    # than one line (issue 86: the legend named 24 of 56, the last column one character a line).
    Select(driver.find_element(By.ID, "treesize-file")).select_by_value("combinations.json")
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#treesize-plot .series")) == 64, "the 64 variants' lines")
    legend = js("""const svg = document.getElementById('treesize-plot'), height = svg.viewBox.baseVal.height;
                   return [...svg.querySelectorAll('.series text')].filter(t => Number(t.getAttribute('y')) <= height).length""")
    check(legend == 64, f"the legend names {legend} of 64 variants within the plot")
    tall = js("""return [...document.querySelectorAll('#treesize-table td')].filter(c => c.getBoundingClientRect().height > 30).length""")
    check(tall == 0, f"{tall} table cells wrap onto several lines")
    Select(driver.find_element(By.ID, "treesize-file")).select_by_value("full-width.json")

    # ---- lichess's habits: a sliding move, its sound, the reader's shapes, themes, clocks beside ----
    click_tab("play")
    new_game(side="both")
    # Every piece is drawn: a disc of its colour (the data-piece contract alone would not show
    # a style that hid them).
    discs = js("""return [...document.querySelectorAll('#play-board [data-piece]')].map(s => { const a = getComputedStyle(s, '::after');
                    return a.content !== 'none' && parseFloat(a.width) > 10 && a.backgroundImage.startsWith('radial-gradient'); })""")
    check(len(discs) == 24 and all(discs), f"{discs.count(True)} of {len(discs)} pieces are drawn as discs")
    slides = lambda: int(js("return document.getElementById('play-board').dataset.slides || 0"))
    sounds = lambda: int(js("return document.body.dataset.sounds || 0"))
    before_slides, before_sounds = slides(), sounds()
    square("b1").click()
    square("d3").click()
    wait_for(lambda: listed_moves() == ["b1-d3"], "b1-d3 played by clicks")
    wait_for(lambda: slides() == before_slides + 1, "b1-d3 to slide")
    wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, "#play-board .move-anim, #play-board .arriving"), "the slide to end")
    check(sounds() == before_sounds + 1 and js("return document.body.dataset.lastSound") == "move", "b1-d3 made no move sound")
    # A dropped piece does not slide (it is where it goes); the capture sounds deeper.
    ActionChains(driver).click_and_hold(square("a3")).move_to_element(square("d3")).release().perform()
    wait_for(lambda: listed_moves() == ["b1-d3", "a3xd3"], "a3xd3 played by a drag")
    check(slides() == before_slides + 1, "a dropped piece slid")
    check(sounds() == before_sounds + 2 and js("return document.body.dataset.lastSound") == "capture", "a3xd3 made no capture sound")
    # Stepping back is no move played on: neither a slide nor a sound.
    click("play-back")
    wait_for(lambda: board_pieces().get("a3") == "w", "a step back")
    check(slides() == before_slides + 1 and sounds() == before_sounds + 2, "a step back slid or sounded")
    click("play-forward")
    wait_for(lambda: board_pieces().get("d3") == "w", "a step forward")
    check(slides() == before_slides + 2 and sounds() == before_sounds + 3, "a step forward did not slide and sound")
    click("sound")
    check(driver.find_element(By.ID, "sound").get_attribute("aria-pressed") == "false", "the sound button did not turn off")
    click("play-back")
    click("play-forward")
    wait_for(lambda: board_pieces().get("d3") == "w", "a step forward without sound")
    check(sounds() == before_sounds + 3, "a move sounded with the sound off")
    click("sound")
    # The right button: a click draws a circle, a drag an arrow (Shift: red); drawn again, it
    # goes; a left click clears them all.
    right = """const [name, type, shift] = arguments; const el = document.querySelector('#play-board [data-square="' + name + '"]');
               const r = el.getBoundingClientRect();
               el.dispatchEvent(new PointerEvent(type, {button: 2, buttons: type === 'pointerdown' ? 2 : 0, shiftKey: shift,
                                                        clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true}));"""
    def right_drag(start, end, shift=False):
        js(right, start, "pointerdown", shift)
        js(right, end, "pointerup", shift)
    shapes = lambda: js("""return [...document.querySelectorAll('#play-board svg.user-shapes [data-from]')]
                            .map(s => s.tagName + ' ' + s.dataset.from + s.dataset.to + ' ' + s.dataset.colour)""")
    right_drag("e4", "e4")
    right_drag("c1", "c5", shift=True)
    check(shapes() == ["circle e4e4 green", "line c1c5 red"], f"the reader's shapes are {shapes()}")
    right_drag("e4", "e4")
    check(shapes() == ["line c1c5 red"], f"a circle drawn again stayed: {shapes()}")
    square("h8").click()
    check(shapes() == [], f"a left click left {shapes()}")
    # Premoves: while the engine thinks, a move is kept (its squares marked) and played the
    # moment the engine's lands, if legal then; a click elsewhere drops it.
    new_game(side="b", movetime="2000")
    square("b1").click()
    square("d3").click()
    wait_for(lambda: "engine is thinking" in text("play-status"), "the engine to think")
    premoved = lambda: js("return [...document.querySelectorAll('#play-board .square.premove')].map(s => s.dataset.square).sort()")
    square("c1").click()
    square("c3").click()
    check(premoved() == ["c1", "c3"] and "Premove c1-c3" in text("play-hint"), f"premove c1-c3: marked {premoved()}, hint {text('play-hint')!r}")
    square("e5").click()
    check(premoved() == [] and "dropped" in text("play-hint"), f"a click elsewhere left the premove: {premoved()}, {text('play-hint')!r}")
    square("c1").click()
    square("c3").click()
    wait_for(lambda: len(listed_moves()) >= 2, "the engine's reply", seconds=15)
    reply = listed_moves()[1]
    after = post_game(base, "startpos", ["b1-d3", reply])
    legal = any(m["from"] == "c1" and m["to"] == "c3" for m in after["legal"])
    if legal:
        wait_for(lambda: len(listed_moves()) >= 3 and listed_moves()[2].startswith("c1"), "the premove played at once")
    else:
        wait_for(lambda: "dropped" in text("play-hint") and len(listed_moves()) == 2, "the premove dropped as illegal")
    check(premoved() == [], f"the premove's squares stay marked: {premoved()}")
    print(f"premove c1-c3 after {reply}: {'played' if legal else 'dropped, not legal then'}")
    # Themes: the dark squares' colour, kept for the next visit.
    dark = lambda: js("return getComputedStyle(document.querySelector('#play-board .square.dark')).backgroundColor")
    Select(driver.find_element(By.ID, "theme")).select_by_value("blue")
    check(dark() == "rgb(140, 162, 173)", f"the blue theme's dark squares are {dark()}")
    load(base)
    check(Select(driver.find_element(By.ID, "theme")).first_selected_option.get_attribute("value") == "blue" and dark() == "rgb(140, 162, 173)",
          "the theme was not kept for the next visit")
    Select(driver.find_element(By.ID, "theme")).select_by_value("brown")
    # On a wide window Play's clocks stand beside the board (the opponent's at its top); on a
    # phone above it.
    new_game(side="b", movetime="100", clock="1+0")
    wait_for(lambda: driver.find_element(By.ID, "play-clocks").is_displayed(), "the clocks")
    beside = """const b = document.getElementById('play-board').getBoundingClientRect();
                const t = document.getElementById('clock-top').getBoundingClientRect(), u = document.getElementById('clock-bottom').getBoundingClientRect();
                return [t.left >= b.right, u.left >= b.right, t.top < b.top + b.height / 2, u.top > b.top + b.height / 2, u.right <= window.innerWidth]"""
    check(js(beside) == [True, True, True, True, True], f"at 1280x900 the clocks are not beside the board: {js(beside)}")
    check(text("clock-bottom").startswith("Black") and text("clock-top").startswith("White"),
          f"playing Black, the clocks read {text('clock-top')!r} (top) and {text('clock-bottom')!r} (bottom)")
    shot("clocks-beside-1280x900")
    driver.set_window_size(390, 844)
    check(js(beside)[:2] == [False, False], f"at 390x844 the clocks are beside the board: {js(beside)}")
    driver.set_window_size(1280, 900)
    print("slide, sounds, shapes, themes and clocks beside the board: as lichess does them")

    # ---- the operator's mode: both clocks, pondering, saved after every move, a restart ----
    load(base, "/#operator")
    wait_for(lambda: driver.find_element(By.ID, "op-setup").is_displayed(), "the operator's setup")
    set_value("op-event", "Browser Olympiad")
    set_value("op-round", "2")
    set_value("op-opponent", "Rival")
    Select(driver.find_element(By.ID, "op-engine-side")).select_by_value("w")  # the opponent (this test) moves first
    set_value("op-engine-minutes", "0.3")   # 18 s: the engine plans a few hundred ms a move
    set_value("op-engine-seconds", "0.2")
    set_value("op-opponent-minutes", "5")
    set_value("op-opponent-seconds", "3")
    shot("operator-setup-1280x900")
    click("op-start")
    wait_for(lambda: driver.find_element(By.ID, "operator").get_attribute("data-game"), "the operator's game")
    game_id = driver.find_element(By.ID, "operator").get_attribute("data-game")
    check(driver.current_url.endswith(f"#operator={game_id}"), f"the address {driver.current_url} does not name the game")
    clocks = js("return [...document.querySelectorAll('#op-clocks .clock')].map(c => c.getAttribute('aria-label'))")
    check(any("Black, Rival: 5:00" == c for c in clocks) and any("White, loa (full): 0:18" == c for c in clocks), f"the clocks read {clocks}")
    square("b1", "op").click()
    square("d3", "op").click()
    wait_for(lambda: len(listed_moves("op-moves")) == 2, "the engine's reply", seconds=30)
    relay = text("op-relay")
    check(relay.endswith("relay it") and listed_moves("op-moves")[1] in relay, f"the move to relay reads {relay!r}")
    saved = get(base, f"/api/operator/{game_id}")
    wait_for(lambda: get(base, f"/api/operator/{game_id}")["moves"] == listed_moves("op-moves"), "the engine's move saved")
    saved = get(base, f"/api/operator/{game_id}")
    check(len(saved["clock_after_ms"]) == 2 and saved["running"] == "b" and saved["clocks"]["w"]["base_ms"] == 18000,
          f"the server saved {saved}")
    check(300000 < saved["clock_after_ms"][0] <= 303000, f"Black's clock after its move: {saved['clock_after_ms'][0]} ms (5 min + 3 s)")
    # The engine ponders on the reply it expects; playing that reply is a ponder hit.
    wait_for(lambda: driver.find_element(By.ID, "operator").get_attribute("data-ponder"), "the engine to ponder", seconds=10)
    expected = driver.find_element(By.ID, "operator").get_attribute("data-ponder")
    time.sleep(0.5)
    set_value("op-move-text", expected + Keys.ENTER)
    # (a resource's timing is listed once its answer has ended: a move search's, by then)
    move_searches = "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/search?') && !e.name.includes('ponder=1')).length"
    searches_before = js(move_searches)
    wait_for(lambda: driver.find_element(By.ID, "operator").get_attribute("data-ponderhits") == "1",
             f"the server's ponder hit on {expected} ({text('op-hint')!r})")
    wait_for(lambda: len(listed_moves("op-moves")) == 4, "the engine's move after the hit", seconds=30)
    searches_after = js(move_searches)
    check(searches_after == searches_before, f"the engine searched afresh after the hit ({searches_before} searches, then {searches_after})")
    # Paused clocks (an arbiter's stop): no move is taken, the clocks stand, Start goes on.
    click("op-pause")
    wait_for(lambda: text("op-pause") == "Start clocks", "the clocks paused")
    paused_ms = js("return document.getElementById('op-clock-bottom').dataset.ms + '/' + document.getElementById('op-clock-top').dataset.ms")
    reply = post_game(base, "startpos", listed_moves("op-moves"))["legal"][0]["text"]
    set_value("op-move-text", reply + Keys.ENTER)
    wait_for(lambda: "Start clocks first" in text("op-hint"), "the move refused while paused")
    time.sleep(0.3)
    check(len(listed_moves("op-moves")) == 4, "a move was taken while the clocks were stopped")
    check(js("return document.getElementById('op-clock-bottom').dataset.ms + '/' + document.getElementById('op-clock-top').dataset.ms") == paused_ms,
          "a clock ran while paused")
    click("op-pause")
    wait_for(lambda: text("op-pause") == "Pause clocks", "the clocks going on")
    print(f"operator: game {game_id}, ponder hit on {expected}, {text('op-engine')!r}")

    # The server restarts (a crash, a new binary) while the page stays open: the page goes on,
    # its next move is saved in the same file, after the revision it had.
    port = base.rsplit(":", 1)[1]
    server.kill()
    server.wait(timeout=30)
    base = start_server(port)
    revision = get(base, f"/api/operator/{game_id}")["revision"]
    pieces = post_game(base, "startpos", listed_moves("op-moves"))
    move = next(m["text"] for m in pieces["legal"] if m["text"] != expected)  # (a ponder miss, for once)
    set_value("op-move-text", move + Keys.ENTER)
    wait_for(lambda: len(listed_moves("op-moves")) == 6, "the engine's move after the server's restart", seconds=40)
    wait_for(lambda: get(base, f"/api/operator/{game_id}")["moves"] == listed_moves("op-moves"), "the moves saved after the restart")
    check(get(base, f"/api/operator/{game_id}")["revision"] > revision, "the save after the restart did not follow the saved revision")

    # The browser restarts: the same address resumes the game, clocks as they stood (the
    # running one, Black's, has run since the save).
    before = get(base, f"/api/operator/{game_id}")
    moves_before = listed_moves("op-moves")
    driver.get("about:blank")
    time.sleep(1.0)
    load(base, f"/#operator={game_id}")
    wait_for(lambda: listed_moves("op-moves") == moves_before, "the resumed game's moves")
    wait_for(lambda: js("return document.getElementById('op-clock-bottom').dataset.ms") is not None, "the resumed clocks")
    shown_ms = js("return Object.fromEntries([...document.querySelectorAll('#op-clocks .clock')].map(c => [c.dataset.side, Number(c.dataset.ms)]))")
    away = (get(base, f"/api/operator/{game_id}")["now_ms"] - before["saved_at_ms"])
    check(abs(shown_ms["w"] - before["left_ms"]["w"]) < 200, f"White's (stopped) clock resumed at {shown_ms['w']}, saved {before['left_ms']['w']}")
    check(before["left_ms"]["b"] - away - 1500 < shown_ms["b"] <= before["left_ms"]["b"] - 900,
          f"Black's running clock resumed at {shown_ms['b']}: saved {before['left_ms']['b']}, {away:.0f} ms away")
    print(f"operator: resumed after a server and a browser restart at move {len(moves_before)}, clocks {shown_ms}")

    # The game ends (the opponent resigns); its record has both clocks after every move.
    Select(driver.find_element(By.ID, "op-ending")).select_by_value("opponent-resigns")
    click("op-end")
    wait_for(lambda: "resigns" in text("op-status"), "the resignation recorded")
    wait_for(lambda: get(base, f"/api/operator/{game_id}")["ending"]["resigned"] == "b", "the ending saved")
    for old_pgn in glob.glob(os.path.join(downloads, "*.pgn")):
        os.remove(old_pgn)
    click("op-download")
    wait_for(lambda: glob.glob(os.path.join(downloads, "loa-operator-*.pgn")), "the operator's PGN download")
    time.sleep(0.3)
    pgn = open(glob.glob(os.path.join(downloads, "loa-operator-*.pgn"))[0]).read()
    clock_comments = re.findall(r"\{\[%clk \d+:\d\d:\d\d\]\}", pgn)
    check(len(clock_comments) == len(moves_before) and '[Result "1-0"]' in pgn and '[White "loa (full)"]' in pgn
          and '[BlackLimit "tc=300+3"]' in pgn and f'[Date "{game_id[:4]}.{game_id[4:6]}.{game_id[6:8]}"]' in pgn,
          f"the operator's PGN reads {pgn!r}")
    request = urllib.request.Request(base + "/api/records", data=pgn.encode(), headers={"Content-Type": "text/plain"})
    with urllib.request.urlopen(request) as reply:
        replayed = json.load(reply)
    check(replayed["games"][0]["moves"] == moves_before, "the operator's PGN does not read back")
    print(f"operator: PGN with {len(clock_comments)} clock comments, e.g. {clock_comments[0]}")

    # ---- three window sizes: every view fits ----
    for width, height in SIZES:
        driver.set_window_size(width, height)
        size = f"{width}x{height}"
        load(base, "/#moves=" + urllib.parse.quote(" ".join(moves)))
        wait_for(lambda: listed_moves() == moves, "the linked game")
        layout_check("play", width, height, ["play-status", "new-game", "analyse", "play-board"])
        shot(f"play-{size}")
        click("analyse")
        wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#iterations tbody tr")) >= 5, "an analysis", seconds=60)
        layout_check("analysis", width, height, ["play-status", "analyse"])
        # The iterations and lines tables scroll inside a box that fits the window: every column
        # (ms, the line) can be reached at any width.
        boxes = js("""return ['iterations', 'lines-table'].map(id => { const box = document.getElementById(id).closest('.table-box');
                        return box ? [getComputedStyle(box).overflowX, box.getBoundingClientRect().right] : null; })""")
        check(all(b and b[0] == "auto" and b[1] <= width + 0.5 for b in boxes),
              f"analysis at {size}: the engine's tables are not in a scrolling box that fits ({boxes})")
        driver.execute_script("document.getElementById('iterations').scrollIntoView()")
        shot(f"analysis-{size}")
        click("analyse")
        click_tab("replay")
        wait_for(lambda: text("replay-ply").startswith("ply "), "the record")
        layout_check("replay", width, height, ["replay-status", "replay-board"])
        shot(f"replay-{size}")
        click_tab("watch")
        wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#watch-pairings tbody tr")) == 1, "the standings")
        layout_check("watch", width, height, ["match-file"])
        shot(f"watch-{size}")
        click_tab("experiments")
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#treesize-plot polyline"), "the plot")
        layout_check("experiments", width, height, ["treesize-file"])
        load(base, f"/#operator={game_id}")
        wait_for(lambda: listed_moves("op-moves") == moves_before, "the operator's game")
        layout_check("operator", width, height, ["op-status", "op-board", "op-move-enter"])
        shot(f"operator-{size}")
        print(f"{size}: play, analysis, replay, watch, experiments and operator fit")

    # A replay link names the file, the game and the move: the menus show them, and the address
    # follows the moves (issue 86: it once opened the file while the menu named another, and
    # dropped the address at once).
    load(base, "/#replay=live.pgn&game=2&ply=3")
    wait_for(lambda: text("replay-ply").startswith("ply 3 / "), "the linked record at ply 3")
    chosen = [Select(driver.find_element(By.ID, i)).first_selected_option.get_attribute("value") for i in ("records-file", "records-game")]
    check(chosen == ["live.pgn", "1"], f"the menus show {chosen} for live.pgn's second game")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait_for(lambda: text("replay-ply").startswith("ply 4 / "), "a step forward")
    wait_for(lambda: driver.current_url.endswith("#replay=live.pgn&game=2&ply=4"), f"the address to follow ({driver.current_url})")
    print(f"replay link: {driver.current_url.split('#')[1]}")
    # One click opens the replayed game, at the move shown, in Play with the engine analysing.
    replayed = listed_moves("replay-moves")
    click("replay-to-play")
    wait_for(lambda: driver.find_element(By.ID, "play").is_displayed(), "Play")
    wait_for(lambda: listed_moves() == replayed, f"the replayed game's moves in Play ({replayed[:6]}...; message {message()!r}, address {driver.current_url})")
    current = js("return document.querySelector('#move-list .move.current')?.dataset.ply")
    check(current == "4", f"Play shows ply {current}, Replay showed ply 4")
    wait_for(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#iterations tbody tr")) >= 3, "the analysis of the opened position", seconds=30)
    check(driver.find_element(By.ID, "human-side").get_attribute("value") == "both", "the opened game is played against the engine")
    click("analyse")  # stop it
    print(f"Analyse in Play from Replay: {len(replayed)} moves, at ply {current}, analysing")

    # A pasted PGN (or bare move list) is replayed like an opened file.
    click_tab("replay")
    click("paste-pgn-open")
    set_value("paste-pgn-text", "1. b1-d3 a3xd3 2. c1-e3 *")
    click("paste-pgn-replay")
    wait_for(lambda: text("replay-ply") == "ply 3 / 3", "the pasted game at its end")
    expected = post_game(base, "startpos", ["b1-d3", "a3xd3", "c1-e3"])["pieces"]
    wait_for(lambda: board_pieces("replay") == expected, "the pasted game's position")

    # An unknown record named in the address.
    driver.get(base + "/#replay=nothere.pgn")
    wait_for(lambda: "nothere.pgn" in message(), "a message about the unknown record")
    print(f"unknown record: {message()!r}")
except SystemExit:
    raise
except Exception as error:  # an unexpected exception gets the failure line and the screenshot too
    fail(repr(error))
finally:
    if live_match is not None and live_match.poll() is None:
        live_match.kill()
    if driver is not None:
        driver.quit()
        driver = None
    if server is not None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            fail("loa serve did not stop on SIGTERM")

if server.returncode != 0:
    fail(f"loa serve exited with {server.returncode}")
print(f"browser test passed in {time.monotonic() - started:.1f} s; screenshots in {shots}")
