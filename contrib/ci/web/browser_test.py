#!/usr/bin/env python3
"""The web remote in a real Chromium (Debian's chromium + chromedriver, driven by Selenium; touch through
the DevTools protocol), against the real `clickwheel run` on a generated library (MP3s made by sox and
lame, one with an embedded cover).

Checks: the page's LCD rows equal the control socket's `screen` rows; a pointer drag of 60° around the
wheel moves the cursor 3 rows, and a fast one of 180° more than 9 (the acceleration); a tap on the centre enters the menu; a touch held on the centre opens the
context menu; the arrow key turns the wheel; a frame made by `clickwheel ctl wheel 1` reaches the page
within 100 ms (printed); Now Playing shows the title and the artwork; the click sound and black switches are kept; the
page fits a phone-sized viewport; with a password the page shows nothing before it is given (a wrong one
is refused). Screenshots (PNG) go to $CW_WEB_ARTIFACTS (default .build/web-artifacts);
the LCD area is compared with Tests/WebRemoteTests/Golden/lcd-20x4.png, and a second service's at 16x2 with
lcd-16x2.png (CLICKWHEEL_UPDATE_GOLDEN=1 rewrites them).

Usage: contrib/ci/web/browser_test.py [path/to/clickwheel]
"""
import math
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import pngdiff  # noqa: E402
from fixtures import MPD, PodcastHost, free_port, make_library, wait_for  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
BIN = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / ".build/debug/clickwheel")
ARTIFACTS = pathlib.Path(os.environ.get("CW_WEB_ARTIFACTS", ROOT / ".build/web-artifacts"))
GOLDENS = ROOT / "Tests/WebRemoteTests/Golden"
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def golden(name, png_bytes):
    """Compares a PNG with its golden (or writes it, with CLICKWHEEL_UPDATE_GOLDEN=1 or when missing)."""
    path = GOLDENS / name
    if os.environ.get("CLICKWHEEL_UPDATE_GOLDEN") == "1" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png_bytes)
        print(f"wrote {path.relative_to(ROOT)}")
        return
    diff = pngdiff.differing_fraction(path.read_bytes(), png_bytes)
    check(diff <= 0.005, f"the LCD area matches {name} ({diff:.2%} of pixels differ)")


def start_service(music, work, lcd, password=None, output="null", env=None, name=None):
    """`clickwheel run` with the web remote on a free port: (process, control socket, page URL, log file)."""
    name = name or lcd
    sock, port = str(work / f"socket-{name}"), free_port()
    log = open(work / f"service-{name}.log", "wb")
    service = subprocess.Popen(
        [str(BIN), "run", "--music", str(music), "--db", str(work / f"library-{name}.sqlite"), "--socket", sock,
         "--display", "none", "--input", "none", "--output", output, "--lcd", lcd, "--web", f"127.0.0.1:{port}"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log,
        env=dict(os.environ, **(env or {}), **({"CLICKWHEEL_PASSWORD": password} if password else {})))
    return service, sock, f"http://127.0.0.1:{port}/", log


def stop_service(service, log):
    service.terminate()
    try:
        service.wait(timeout=15)
    except subprocess.TimeoutExpired:
        service.kill()
    log.close()


def main():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix="clickwheel-web-"))
    music, sock = work / "music", str(work / "socket")
    music.mkdir()
    make_library(music)
    service, sock, url, log = start_service(music, work, "20x4")
    small = None
    stalled = None
    driver = None
    podcast_host = None
    try:
        mpd = wait_for(lambda: (os.path.exists(sock) and MPD(sock)) or None, timeout=20)
        if not mpd:
            raise RuntimeError("the service did not start: " + (work / "service-20x4.log").read_text())
        check(wait_for(lambda: mpd.screen("music.songs")["count"] == "6", timeout=20), "the library is indexed (6 songs)")
        mpd.screen("main")

        opts = Options()
        opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=480,700", "--hide-scrollbars",
                  "--force-device-scale-factor=1", "--autoplay-policy=no-user-gesture-required"]:
            opts.add_argument(a)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=opts)
        driver.get(url)
        js = driver.execute_script

        def lit():
            """The backlight is on and its 0.3 s CSS transition is over (a screenshot mid-way is dim)."""
            return js("return window.cw.backlight && getComputedStyle(document.getElementById('lcd'))"
                      ".backgroundColor === 'rgb(159, 183, 199)'")
        check(wait_for(lambda: js("return window.cw && window.cw.frames") > 0), "the page receives frames")

        def page_rows():
            return js("return Array.from(document.querySelectorAll('#lcd .row')).map(r => r.textContent)")

        def same_as_socket(what):
            rows = wait_for(lambda: (lambda s, p: p if p == s else None)(mpd.screen()["rows"], page_rows()), timeout=3)
            check(rows is not None, f"{what}: the page's LCD rows equal the socket's screen rows")
            if rows is None:
                print("   socket:", mpd.screen()["rows"], "\n   page:  ", page_rows())

        same_as_socket("main menu")
        check(js("return document.getElementById('lcd').dataset.size") == "20x4", "the LCD is 20x4, as configured")
        check(js("return document.getElementById('lcd').dataset.charset") == "utf8", "the charset is the display's")

        # A drag of 60° around the wheel: 3 rows down (each step 20°; slow, so no acceleration).
        box = js("const r = document.getElementById('wheel').getBoundingClientRect();"
                 "return [r.left + r.width / 2, r.top + r.height / 2, r.width / 2]")
        cx, cy, radius = box
        start = mpd.screen()["cursor"]

        def at(deg, r=0.72):
            a = math.radians(deg)
            return round(cx + r * radius * math.cos(a)), round(cy + r * radius * math.sin(a))

        def measured(p, q):  # the angle the page measures between two pixels
            d = math.degrees(math.atan2(q[1] - cy, q[0] - cx) - math.atan2(p[1] - cy, p[0] - cx))
            return (d + 180) % 360 - 180

        p0 = at(-120)
        end = min((at(-60 + e / 10) for e in range(0, 20)), key=lambda q: abs(measured(p0, q) - 60.2))
        path = [at(-120 + 5 * i) for i in range(1, 12)] + [end]
        mouse = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"))
        mouse.pointer_action.move_to_location(*p0).pointer_down()
        for x, y in path:
            mouse.pointer_action.pause(0.06)
            mouse.pointer_action.move_to_location(x, y)
        mouse.pointer_action.pointer_up()
        mouse.perform()
        moved = wait_for(lambda: mpd.screen()["cursor"] - start == 3 and 3, timeout=3) or mpd.screen()["cursor"] - start
        check(moved == 3, f"a pointer drag of {measured(p0, end):.1f}° moves the cursor 3 rows (moved {moved})")
        same_as_socket("after the drag")

        # The arrow key turns the wheel one step, as on the terminal.
        before = mpd.screen()["cursor"]
        ActionChains(driver).send_keys(Keys.ARROW_UP).perform()
        check(wait_for(lambda: mpd.screen()["cursor"] == before - 1, timeout=3), "the Up arrow turns the wheel one step back")

        # The golden LCD area and a screenshot of the whole page, on the main menu with the cursor on its third row, the backlight on.
        same_as_socket("after the arrow key")
        wait_for(lit, timeout=3)
        lcd_png = driver.find_element(By.ID, "lcd").screenshot_as_png
        (ARTIFACTS / "web-remote-lcd.png").write_bytes(lcd_png)
        driver.save_screenshot(str(ARTIFACTS / "web-remote.png"))
        golden("lcd-20x4.png", lcd_png)

        # A fast drag goes further than its steps (the engine's acceleration, as for a real wheel: the page
        # sends the raw angle, the server times the steps). In Settings (19 rows), 180° in about 0.2 s
        # from the first row: a slow drag of 180° moves 9 rows; fast, the cursor runs to the end.
        mpd.screen("settings")
        time.sleep(0.3)  # the acceleration at rest again (a pause over 250 ms)
        fast_from = mpd.screen()["cursor"]
        q0 = at(-90)
        fast = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_MOUSE, "mouse"), duration=0)
        fast.pointer_action.move_to_location(*q0).pointer_down()
        for i in range(1, 10):
            fast.pointer_action.pause(0.012)
            fast.pointer_action.move_to_location(*at(-90 + 20 * i))
        fast.pointer_action.pointer_up()
        t_fast = time.monotonic()
        fast.perform()
        took = time.monotonic() - t_fast
        wait_for(lambda: mpd.screen()["cursor"] > fast_from + 9, timeout=3)
        fast_moved = mpd.screen()["cursor"] - fast_from
        check(fast_moved > 9, f"a fast drag of 180° ({took * 1000:.0f} ms) moves more than 9 rows: {fast_moved} "
              f"(acceleration)")
        mpd.screen("main")

        # A tap on the centre enters the menu under the cursor.
        mpd.screen("main")
        depth = mpd.screen()["depth"]
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "centre")).click().perform()
        check(wait_for(lambda: mpd.screen()["depth"] == depth + 1, timeout=3), "a tap on the centre enters the menu")
        same_as_socket("after the tap")

        # A touch held on the centre opens the context menu (touch through the DevTools protocol).
        mpd.screen("music.songs")
        point = {"x": cx, "y": cy, "id": 1}
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        time.sleep(1.0)
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        check(wait_for(lambda: mpd.screen()["menu"] == "context", timeout=3),
              f"a held touch on the centre opens the context menu (menu {mpd.screen()['menu']})")
        same_as_socket("the context menu")

        # A frame made by `clickwheel ctl wheel 1` reaches the page: timed from the moment the command goes
        # out (the same `wheel 1` line, sent on the socket here, so the figure is the service's and the
        # browser's, not a debug build's process start on a loaded machine), then once through the real
        # `clickwheel ctl` process (printed with its start-up included).
        mpd.screen("music.songs")
        wait_for(lambda: page_rows() == mpd.screen()["rows"], timeout=3)

        def timed(send):
            seq = js("return window.cw.seq")
            t0 = time.time() * 1000
            send()
            wait_for(lambda: js("return window.cw.seq") != seq, timeout=3, every=0.001)
            return js("return window.cw.lastFrameAt") - t0

        socket_ms = sorted(timed(lambda: mpd("wheel " + ("1" if i % 2 == 0 else "-1"))) for i in range(20))
        ctl_ms = sorted(timed(lambda: subprocess.run([str(BIN), "ctl", "--socket", sock, "wheel", "1" if i % 2 else "-1"],
                                                    check=True, stdout=subprocess.DEVNULL)) for i in range(5))
        print(f"   `wheel 1` on the socket -> frame in the page: median {socket_ms[10]:.0f} ms, "
              f"p90 {socket_ms[17]:.0f} ms, max {socket_ms[-1]:.0f} ms (20 steps)")
        print(f"   `clickwheel ctl wheel 1` (process start included): median {ctl_ms[2]:.0f} ms, max {ctl_ms[-1]:.0f} ms")
        check(socket_ms[17] <= 100, "a frame changed by `wheel 1` is in the page within 100 ms (p90 of 20)")
        same_as_socket("after ctl wheel")

        # Now Playing below the device: title and the embedded cover.
        for cmd in ["clear", 'add "Blue Album"', "play 0"]:
            mpd(cmd)
        check(wait_for(lambda: js("return document.getElementById('np-title').textContent") == "Aria", timeout=5),
              "Now Playing shows the title")
        check(wait_for(lambda: js("const i = document.getElementById('art'); return !i.hidden && i.complete && i.naturalWidth") == 64,
                       timeout=5), "Now Playing shows the embedded artwork (64x64)")
        mpd("setvol 80")
        check(wait_for(lambda: js("return document.getElementById('np-volume').style.width") == "80%", timeout=3),
              "the volume bar follows")
        driver.save_screenshot(str(ARTIFACTS / "web-remote-playing.png"))

        # The click sound switch is kept.
        driver.find_element(By.ID, "clicker").click()
        check(js("return localStorage.getItem('cw-click')") == "off", "the click sound switch is kept")
        driver.find_element(By.ID, "clicker").click()

        # The black edition: the switch paints the case and wheel, and is kept.
        check(not js("return document.getElementById('ipod').classList.contains('black')"), "a white iPod at first")
        driver.find_element(By.ID, "black").click()
        dark = js("const c = getComputedStyle(document.querySelector('#wheel .ring')).fill.match(/\\d+/g).map(Number);"
                  "return document.getElementById('ipod').classList.contains('black') && c[0] < 80 && c[1] < 80 && c[2] < 80")
        check(dark and js("return localStorage.getItem('cw-black')") == "on", "the black switch paints a black iPod, kept")
        driver.save_screenshot(str(ARTIFACTS / "web-remote-black.png"))
        driver.find_element(By.ID, "black").click()

        # The Podcasts panel: the same podcast service the socket's `podcast…` commands use.
        podcast_host = PodcastHost(work / "podcast-host", "Web Show", 2)

        def socket_feeds():
            feeds = []
            for k, v in mpd("podcastlist"):
                if k == "feed":
                    feeds.append({})
                feeds[-1][k] = v
            return feeds

        def page_feeds():
            return js("return Array.from(document.querySelectorAll('#pc-list .feed')).map(li => ({id: li.dataset.id,"
                      " title: li.querySelector('.title').textContent, state: li.querySelector('.state').textContent,"
                      " error: (li.querySelector('.error') || {}).textContent || null}))")

        def pc_note():
            return js("return document.getElementById('pc-note').textContent")

        check(wait_for(lambda: js("return !document.getElementById('podcasts').hidden && Array.isArray(window.cw.podcasts)"), timeout=5),
              "the Podcasts panel is shown, with the (empty) list of subscriptions")
        field = driver.find_element(By.ID, "pc-url")
        field.send_keys("feeds.example/podcast.rss")
        driver.find_element(By.CSS_SELECTOR, "#pc-add button").click()
        check(wait_for(lambda: "not an http or https address: feeds.example/podcast.rss" in pc_note(), timeout=5)
              and js("return document.getElementById('pc-note').classList.contains('bad')"),
              f"a bad feed address is refused with the reason on the page ({pc_note()!r})")
        check(socket_feeds() == [] and page_feeds() == [], "…and nothing is subscribed")

        field.clear()
        field.send_keys(podcast_host.url)
        field.send_keys(Keys.ENTER)
        check(wait_for(lambda: pc_note().startswith("Subscribed"), timeout=5) and field.get_attribute("value") == "",
              f"a pasted feed URL subscribes (note {pc_note()!r})")
        listed = wait_for(lambda: (lambda f: f if f and f[0]["title"] == "Web Show" and "2 new" in f[0]["state"] else None)(page_feeds()),
                          timeout=30)
        check(listed is not None, f"the list shows the show's title, 2 episodes, 2 new ({page_feeds()})")
        sf = socket_feeds()
        check(len(sf) == 1 and sf[0]["feed"] == podcast_host.url and sf[0]["title"] == "Web Show"
              and sf[0]["episodes"] == "2" and sf[0]["new"] == "2", f"podcastlist says the same ({sf})")
        if listed:
            check(listed[0]["state"].startswith("2 episodes · 2 new · updated "), f"the feed's state line ({listed[0]['state']})")
        def in_library():
            try:
                return sum(1 for k, _ in mpd('lsinfo "Podcasts/Web Show"') if k == "file")
            except RuntimeError:  # the folder is not indexed yet
                return 0
        check(wait_for(lambda: in_library() == 2, timeout=30), "its two episodes are in the library under Podcasts")
        driver.execute_script("document.getElementById('podcasts').scrollIntoView()")
        driver.save_screenshot(str(ARTIFACTS / "web-remote-podcasts.png"))

        # A third episode, fetched because the socket asked: the page's list follows without a reload.
        podcast_host.publish(3)
        mpd("podcastupdate")
        check(wait_for(lambda: (page_feeds() or [{}])[0].get("state", "").startswith("3 episodes · 3 new"), timeout=30),
              f"a fetch started from the socket updates the page's list live ({page_feeds()})")

        # A feed that broke: its Refresh button fetches it, the error line shows what `podcastlist` says.
        podcast_host.break_feed()
        driver.find_element(By.CSS_SELECTOR, "#pc-list .feed .refresh").click()
        broken = wait_for(lambda: (page_feeds() or [{}])[0].get("error"), timeout=30)
        socket_error = (socket_feeds() or [{}])[0].get("error")
        check(bool(broken) and socket_error is not None and broken == "last fetch failed: " + socket_error,
              f"a failing feed shows its error line ({broken!r}; socket {socket_error!r})")
        check("3 episodes" in (page_feeds() or [{}])[0].get("state", ""), "…and keeps its episodes")
        driver.save_screenshot(str(ARTIFACTS / "web-remote-podcast-error.png"))
        podcast_host.publish(3)
        driver.find_element(By.ID, "pc-refresh-all").click()
        check(wait_for(lambda: page_feeds() and page_feeds()[0]["error"] is None, timeout=30),
              "Refresh all fetches it again: the error line is gone")

        # Remove: gone from the page and the socket; the downloaded episodes stay in the library.
        driver.find_element(By.CSS_SELECTOR, "#pc-list .feed .remove").click()
        check(wait_for(lambda: page_feeds() == [] and socket_feeds() == [], timeout=10)
              and js("return !document.getElementById('pc-empty').hidden"), "Remove ends the subscription")
        check(wait_for(lambda: in_library() == 3, timeout=10), f"…and its episodes stay in the library ({in_library()})")

        # A phone-sized viewport: the device fits, and a held touch still works.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        driver.get(url)
        check(wait_for(lambda: js("return window.cw && window.cw.frames") > 0), "the page loads on a phone viewport")
        fits = js("const w = document.getElementById('wheel').getBoundingClientRect(),"
                  " l = document.getElementById('lcd').getBoundingClientRect();"
                  "return w.right <= innerWidth && l.right <= innerWidth && w.left >= 0 && "
                  "document.documentElement.scrollWidth <= innerWidth && l.width > 300")
        check(fits, "the LCD and the wheel fit a 390 px wide phone screen")
        driver.save_screenshot(str(ARTIFACTS / "web-remote-phone.png"))
        same_as_socket("phone viewport")

        # A 16x2 display (a second service, with a password): the page asks for the password and shows
        # nothing before it; then it draws the display's size; its LCD area has a golden too.
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        small = start_service(music, work, "16x2", password="open sesame")
        mpd = wait_for(lambda: (os.path.exists(small[1]) and MPD(small[1])) or None, timeout=20)
        mpd("password \"open sesame\"")
        check(wait_for(lambda: mpd.screen("music.songs")["count"] == "6", timeout=20), "16x2: the library is indexed")
        mpd.screen("main")
        mpd("wheel 1")
        mpd("wheel -1")  # the backlight on, the cursor back on the first row
        driver.get(small[2])
        check(wait_for(lambda: driver.find_element(By.ID, "login").is_displayed(), timeout=5),
              "with a password: the page asks for it")
        pw = driver.find_element(By.ID, "password")
        pw.send_keys("wrong")
        pw.send_keys(Keys.ENTER)
        check(wait_for(lambda: driver.find_element(By.ID, "login-note").text == "wrong password", timeout=5),
              "a wrong password is refused")
        check(js("return window.cw.frames") == 0 and page_rows() == [], "…and nothing of the device is shown")
        wait_for(lambda: driver.find_element(By.ID, "login").is_displayed(), timeout=5)  # reconnected, asked again
        pw = driver.find_element(By.ID, "password")
        pw.clear()
        pw.send_keys("open sesame")
        pw.send_keys(Keys.ENTER)
        check(wait_for(lambda: js("return window.cw && window.cw.frames") > 0), "16x2: with the password, the page receives frames")
        same_as_socket("16x2 main menu")
        check(js("return document.getElementById('lcd').dataset.size") == "16x2", "the LCD is 16x2, as configured")
        mpd("wheel 1")
        mpd("wheel -1")  # the backlight on again (the login took a while on a loaded machine), cursor back
        wait_for(lambda: lit() and page_rows() == mpd.screen()["rows"], timeout=3)
        small_png = driver.find_element(By.ID, "lcd").screenshot_as_png
        (ARTIFACTS / "web-remote-lcd-16x2.png").write_bytes(small_png)
        golden("lcd-16x2.png", small_png)

        # A service playing to a sound server that is not there ("No audio output"): its time stands (at
        # most its 2 s of slack past the last position), and the page's must too (it ran on by itself).
        stalled = start_service(music, work, "20x4", output="pulse", name="no-output",
                                env={"PULSE_SERVER": "unix:" + str(work / "no-such-server")})
        mpd = wait_for(lambda: (os.path.exists(stalled[1]) and MPD(stalled[1])) or None, timeout=20)
        check(wait_for(lambda: mpd.screen("music.songs")["count"] == "6", timeout=20), "no output: the library is indexed")
        driver.get(stalled[2])
        check(wait_for(lambda: js("return window.cw && window.cw.frames") > 0), "no output: the page receives frames")
        for cmd in ["clear", 'add "Blue Album"', "play 0"]:
            mpd(cmd)
        check(wait_for(lambda: js("return document.getElementById('np-title').textContent") == "Aria", timeout=5),
              "no output: Now Playing shows the title")
        time.sleep(5)

        def seconds(text):
            m, _, s = text.strip().lstrip("-").partition(":")
            return int(m) * 60 + int(s)
        page = seconds(js("return document.getElementById('np-elapsed').textContent"))
        service_s = float(dict(mpd("status")).get("elapsed", "0"))
        check(abs(page - service_s) <= 1.5, f"with no audio output the page's clock follows the service's "
              f"(page {page} s, status {service_s:.2f} s)")
    finally:
        if driver:
            driver.quit()
        stop_service(service, log)
        if small:
            stop_service(small[0], small[3])
        if stalled:
            stop_service(stalled[0], stalled[3])
        if podcast_host:
            podcast_host.close()
        if failures:
            for f in sorted(work.glob("service-*.log")):
                print(f.name, f.read_text()[-3000:])
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"screenshots in {ARTIFACTS}")
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)


if __name__ == "__main__":
    main()
