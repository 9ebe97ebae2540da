"""The dashboard in headless Chromium (Debian's, driven by Playwright) on a tablet-sized screen,
against a real waitress server: a move arrives live, the referee enters the PIN and undoes, an
ambiguity is answered by tapping, a move is corrected, a keyframe is opened, the language is
switched. Screenshots are left in artifacts/ for a person to look at."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from web_helpers import PIN, ROUND_ONE, play

TABLET = {"width": 1180, "height": 820}
TABLET_PORTRAIT = {"width": 820, "height": 1180}
TIMEOUT = 15_000


def wait_for_js(page, expression: str, timeout_s: float = 20.0) -> None:
    """Poll ``expression`` from the test's side until it is true. (Playwright's own
    ``wait_for_function`` polls inside the page with ``eval``, which the dashboard's Content
    Security Policy rightly forbids, so it fails whenever the first try is too early.)"""
    import time as _time

    deadline = _time.monotonic() + timeout_s
    while not page.evaluate(expression):
        if _time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_s} s: {expression}")
        page.wait_for_timeout(50)



def camera_frame() -> np.ndarray:
    """Something camera-like for the camera panel: a wooden table with a few cubes."""
    rng = np.random.default_rng(5)
    image = np.zeros((720, 1280, 3), np.uint8)
    image[:] = (70, 110, 150)
    grain = cv2.GaussianBlur(rng.normal(0, 12, (720, 1280)).astype(np.float32), (0, 0), 3)
    image = np.clip(image + grain[..., None], 0, 255).astype(np.uint8)
    for x, y, c in ((520, 300, (140, 190, 225)), (600, 300, (120, 170, 210)), (560, 240, (100, 150, 190))):
        cv2.rectangle(image, (x, y), (x + 80, y + 80), c, -1)
        cv2.rectangle(image, (x, y), (x + 80, y + 80), (40, 60, 90), 3)
    return image


@pytest.fixture
def page(browser, server, table):
    table.feed.push(camera_frame(), force=True)
    table.set_camera("connected", "test camera", fps=12)
    context = browser.new_context(viewport=TABLET, device_scale_factor=1, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.local_url)
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#conn[data-state='live']")
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


def full_screenshot(page, path) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=True)


def log_has(page, cls: str, text: str | None = None):
    selector = f"#log li.{cls}"
    if text is not None:
        selector += f":has(.notation:text-is('{text}'))"
    page.wait_for_selector(selector)


def test_the_referee_at_the_tablet(page, table, artifacts_dir):
    image = cv2.imencode(".jpg", camera_frame())[1].tobytes()
    referee = table.referee
    assert page.inner_text("#game-title") == "Haut les Cubes"
    assert page.get_attribute("html", "lang") == "fr"

    # a move arrives live: the log, whose turn, the board
    play(referee, "red: N -5,1^0", image=image)
    log_has(page, "move-judged", "red: N -5,1^0")
    page.wait_for_selector("#turn:has-text('bleu')")
    page.wait_for_selector("#board [data-place='cell:-5,1'].cube")
    page.wait_for_selector("#board rect.hl-last")
    full_screenshot(page, artifacts_dir / "dashboard-live-move.png")

    # the referee enters the PIN (a wrong one is refused first), then undoes the move
    assert not page.is_visible("#undo-btn")  # spectators do not see the referee's buttons
    page.click("#pin-btn")
    page.wait_for_selector("#pin-dialog[open]")
    for digit in "1111":
        page.click(f"#pin-dialog [data-key='{digit}']")
    page.click("#pin-ok")
    page.wait_for_selector("#pin-msg:text-is('Code incorrect.')")
    for digit in PIN:
        page.click(f"#pin-dialog [data-key='{digit}']")
    page.click("#pin-ok")
    page.wait_for_selector("body.referee")
    page.click("#undo-btn")
    page.wait_for_selector("#log li.move-undone")
    page.wait_for_selector("#log li.move-judged.undone")
    page.wait_for_selector("#turn:has-text('rouge')")
    assert table.log.events(referee.session.game_id)[-1].actor == "referee"

    # the round is played again, then red jumps with the card hidden: the referee asks
    for text in ROUND_ONE:
        play(referee, text, image=image)
    log_has(page, "move-judged", ROUND_ONE[-1])
    play(referee, "red: M -4,0", card=False, image=image)
    page.wait_for_selector("#question button.choice")
    full_screenshot(page, artifacts_dir / "dashboard-question.png")
    choice = page.locator("#question button.choice", has_text="red: M -4,0")
    choice.first.click()
    page.wait_for_selector("#question", state="detached")
    log_has(page, "question-answered")
    page.wait_for_selector("#scores tr[data-seat='red'] td.score:text-is('1')")
    assert referee.session.question is None

    # tapping a piece opens the correction at that place; the real move is picked from a list
    page.click("#board .giant[data-place='cell:-4,0']")
    page.wait_for_selector("#correct-dialog[open]")
    page.wait_for_selector("#ctab-reading code:text-is('cell:-4,0')")
    page.wait_for_selector("#ctab-reading .pieces li:has-text('giant')")
    page.click("#correct-dialog [data-ctab='move']")
    page.fill("#move-search", "H -4,0")
    hopla = page.locator("#move-list [data-move^='red: H -4,0']").first
    hopla.wait_for()
    wanted = hopla.get_attribute("data-move")
    hopla.click()
    page.wait_for_selector("#correct-dialog:not([open])", state="attached")
    log_has(page, "move-corrected", wanted)
    assert referee.session.last.notation == wanted

    # the image a verdict was judged from, on tap
    page.click("#log li.move-judged button.kf >> nth=0")
    page.wait_for_selector("#keyframe-dialog[open]")
    wait_for_js(page, "document.querySelector('#keyframe-img').naturalWidth > 0")
    page.screenshot(path=str(artifacts_dir / "dashboard-keyframe.png"))
    page.click("#keyframe-dialog .close-dialog")

    # the camera view shows the shared feed
    wait_for_js(page, "document.querySelector('#camera-img').naturalWidth === 960")

    # French by default, English on a tap, and back
    assert page.inner_text(".log-card h2") == "Journal des coups"
    page.click("#lang-btn")
    page.wait_for_selector(".log-card h2:text-is('Move log')")
    assert page.get_attribute("html", "lang") == "en"
    page.wait_for_selector("#turn:has-text('To play')")
    page.wait_for_selector("#log li.move-corrected .kind:text-is('Move corrected')")
    full_screenshot(page, artifacts_dir / "dashboard-english.png")
    page.click("#lang-btn")
    page.wait_for_selector(".log-card h2:text-is('Journal des coups')")


def test_portrait_dark_and_a_new_game_from_the_wizard(browser, server, table, artifacts_dir):
    context = browser.new_context(viewport=TABLET_PORTRAIT, color_scheme="dark", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.local_url + "?lang=en")
        page.wait_for_selector("body[data-ready='1']")
        play(table.referee, "red: N -5,1^0")
        log_has(page, "move-judged", "red: N -5,1^0")
        # the tablet sleeps (its stream is cut), a move is played, it wakes and catches up
        page.evaluate("window.Dashboard.state.es.close()")
        play(table.referee, "blue: M -4,-2")
        page.evaluate("window.Dashboard.connect()")
        log_has(page, "move-judged", "blue: M -4,-2")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(20, 22, 26)"  # the dark theme follows the tablet's setting
        board = page.locator(".board-card").bounding_box()
        side = page.locator("#scores-card").bounding_box()
        assert side["y"] > board["y"] + board["height"] - 1  # portrait: stacked, not side by side
        full_screenshot(page, artifacts_dir / "dashboard-portrait-dark.png")

        page.click(".tab[data-view='new']")
        page.click("#wiz-games [data-game='gleebs-and-grues']")
        page.click("#wiz-seats [data-seat='green-red']")
        page.click("#wiz-seats [data-seat='blue-yellow']")
        page.click("#wiz-start")
        page.wait_for_selector("#pin-dialog[open]")
        page.fill("#pin-input", PIN)
        page.click("#pin-ok")
        page.wait_for_selector("#confirm-dialog[open]")  # a game is in progress: replace it?
        page.click("#confirm-yes")
        page.wait_for_selector("#game-title:text-is(\"Gleeb's and Grues\")")
        page.wait_for_selector("#board svg .gg-cell")
        assert table.referee.game.name == "gleebs-and-grues"
        assert list(table.referee.session.players) == ["green-red", "blue-yellow"]
        full_screenshot(page, artifacts_dir / "dashboard-new-game.png")
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def test_calibration_with_a_live_preview(browser, server, table, artifacts_dir):
    from companion.synth.generate import corpus_item
    from companion.synth.render import render

    scene, shot = corpus_item(1, 2)
    table.feed.push(render(scene, shot).image, force=True)
    context = browser.new_context(viewport=TABLET, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.local_url)
        page.wait_for_selector("body[data-ready='1']")
        page.click(".tab[data-view='calibrate']")
        page.wait_for_selector("#cal-result p:has-text('0, 1, 2, 3')")
        wait_for_js(page, "document.querySelector('#cal-img').naturalWidth === 960")
        assert not page.locator("#cal-overlay").is_visible()  # no reader's drawings on this frame
        full_screenshot(page, artifacts_dir / "dashboard-calibration-table.png")
        page.click(".steps [data-step='cards']")
        page.wait_for_selector("#cal-result p.ok")
        page.click("#pin-btn")
        page.fill("#pin-input", PIN)
        page.click("#pin-ok")
        page.wait_for_selector("body.referee")
        page.select_option("#cal-card-name", scene.card)
        page.click("#cal-save")
        page.wait_for_selector(f"#cal-result p:has-text('{scene.card} (')")
        full_screenshot(page, artifacts_dir / "dashboard-calibration-cards.png")
        assert table.calibration["cards"].endswith("1 cards enrolled")
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"
