"""A real headless Chromium (Debian's ``chromium`` driven by Playwright) plays through the page:
a whole Chicago match with bidding by clicks, explanations opened, a hand declared by
North-South with North's cards played by the human, an illegal card refused, the final
score, then the boards of the day and the leaderboard entry.

Skips, saying why, when Playwright or the browser is missing (``.ci/run`` installs both).
With ``DDSOLVER_SCREENSHOTS=DIR`` it also saves the screenshots of ``docs/screenshots``.
"""

import os
import shutil
import socket
import sqlite3
import threading
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("ai.protocols.http", reason="the HTTP robot API (ai.protocols) is needed")
sync_api = pytest.importorskip(
    "playwright.sync_api",
    reason="Playwright is not installed (pip install playwright; the test also needs "
           "Chromium: .ci/run installs both)")

CHROMIUM = next((p for p in (os.environ.get("DDSOLVER_CHROMIUM"), shutil.which("chromium"),
                             shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if p and os.path.isfile(p)), None)
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium browser (Debian: apt-get install "
                                                "chromium; .ci/run installs it as root)"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]
SHOTS = os.environ.get("DDSOLVER_SCREENSHOTS")


@pytest.fixture
def server(tmp_path):
    import uvicorn

    from ai.web.app import create_web_app
    from ai.web.cli import FAST
    app = create_web_app(data_dir=str(tmp_path / "data"),
                         leaderboard=str(tmp_path / "lb.sqlite3"),
                         computer_settings=FAST, deal_seed="browser")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", tmp_path
    srv.should_exit = True
    thread.join(10)


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _state(page):
    return page.evaluate("""async () => {
        const id = location.hash.slice(3);
        const r = await fetch('/web/api/matches/' + id + '?lang=en');
        return await r.json();
    }""")


def _shot(page, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def _wait_turn(page):
    """Wait until the page asks something of the human (or a board/match is over)."""
    page.wait_for_function("""() => !document.body.classList.contains('busy') && (
        document.querySelector('.bidding-box') || document.querySelector('.hand.due')
        || document.querySelector('#btn-next') || document.querySelector('#final-score'))""",
                           timeout=60_000)


def _play_match(page, first_call=None, on_turn=None, max_steps=600):
    """Click through a match: calls from the bidding box, the first legal card of the hand
    that is due, Next board between boards.  Returns the seats whose cards the human
    played."""
    played_from = []
    called = False
    for _ in range(max_steps):
        _wait_turn(page)
        if page.locator("#final-score").count():
            return played_from
        if on_turn:
            on_turn(page)
        if page.locator("#btn-next").count():
            page.click("#btn-next")
            continue
        if page.locator(".bidding-box").count():
            call = "Pass"
            if first_call and not called and page.locator(
                    f".bidding-box button[data-call='{first_call}']:not([disabled])").count():
                call, called = first_call, True
            page.click(f".bidding-box button[data-call='{call}']")
            continue
        card = page.locator(".hand.due button.card.legal").first
        played_from.append(card.get_attribute("data-seat"))
        card.click()
    raise AssertionError("the match did not end")


def test_whole_chicago_match_in_chromium(server, browser):
    url, tmp = server
    page = browser.new_page(viewport={"width": 1200, "height": 900}, locale="en-US")
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/")
    page.wait_for_selector("#btn-chicago:visible")
    _shot(page, "desktop-start.png")
    page.check("input[name=level][value=easy]")
    page.click("#btn-chicago")
    page.wait_for_selector(".bidding-box")
    # the bidding box enables exactly the legal calls
    state = _state(page)
    enabled = page.eval_on_selector_all(".bidding-box button:not([disabled])",
                                        "bs => bs.map(b => b.dataset.call)")
    assert sorted(enabled) == sorted(state["legal_calls"])
    # tapping a call of the auction shows its meaning
    first = state["auction"][0]
    page.click("#auction button.call[data-index='0']")
    panel = page.locator("#explain-panel")
    assert first["explanation"]["forcing_text"] in panel.inner_text()
    for part in first["explanation"]["hand"]:
        assert part in panel.inner_text()
    # the hint (easy level)
    page.click("#btn-hint")
    page.wait_for_function("() => document.querySelector('#hint-text').textContent.length")
    assert page.inner_text("#hint-text").startswith("Suggested call:")
    _shot(page, "desktop-auction.png")

    refused = []

    def on_turn(p):
        # once: an illegal card is refused with a message, nothing is sent
        if refused or not p.locator(".hand.due button.card.illegal").count():
            return
        before = _state(p)
        p.locator(".hand.due button.card.illegal").first.click(force=True)
        assert p.inner_text("#message") == "You must follow suit."
        after = _state(p)
        assert after["trick"] == before["trick"] and after["hands"] == before["hands"]
        refused.append(True)
        _shot(p, "desktop-play.png")

    played_from = _play_match(page, first_call="7NT", on_turn=on_turn)
    state = _state(page)
    assert state["phase"] == "over"
    assert state["boards"][0]["contract"].startswith("7NT")
    assert "N" in played_from and "S" in played_from     # North's cards, by the human
    assert refused
    final = state["final"]
    assert final["yours"] == max(0, final["NS"] - final["EW"])
    assert page.inner_text("#final-score") == f"Your final score: {final['yours']}"
    _shot(page, "desktop-final.png")

    # the boards of the day, then the leaderboard
    page.click("#btn-new")
    page.fill("#daily-name", "Chromium")
    page.click("#btn-daily")
    page.wait_for_selector("#status")
    _play_match(page)
    page.wait_for_selector("#leaderboard-table")
    assert "Chromium" in page.inner_text("#leaderboard-table")
    assert page.locator("#recorded").count() == 1
    with sqlite3.connect(tmp / "lb.sqlite3") as db:
        rows = db.execute("select name, score from entry").fetchall()
    assert rows == [("Chromium", _state(page)["final"]["total"])]
    assert not errors, errors


def test_phone_layout_german_and_reload(server, browser):
    """At 360 px: nothing wider than the screen, the page in German from the browser's
    language, the match back after a reload."""
    url, _ = server
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE",
                              is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#btn-chicago:visible")
    assert page.inner_text("#btn-chicago") == "Chicago spielen"
    _shot(page, "phone-start.png")
    page.check("input[name=level][value=easy]")
    page.click("#btn-chicago")
    page.wait_for_selector(".bidding-box")
    page.click("#auction button.call[data-index='0']")
    _shot(page, "phone-auction.png")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360
    before = _state(page)
    page.reload()
    page.wait_for_selector(".bidding-box")
    after = _state(page)
    before.pop("events"), after.pop("events")
    assert after == before
    # a few calls and cards later the play fits the screen too
    for _ in range(40):
        _wait_turn(page)
        if page.locator(".hand.due").count():
            break
        page.click(".bidding-box button[data-call='Pass']")
    if page.locator(".hand.due").count():
        _shot(page, "phone-play.png")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    page.select_option("#lang", "vi")
    page.wait_for_function("() => document.documentElement.lang === 'vi' && "
                           "document.querySelector('#btn-rules').textContent.includes('Luật')")
    ctx.close()
