// ClickWheel's web remote: the LCD as the engine draws it, and a click wheel that turns.
// The page decides nothing: it sends raw angle deltas and button edges; the server makes steps (20° each)
// and the engine applies its acceleration, as for a real wheel. No framework, nothing fetched from elsewhere.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const lcd = $("lcd"), wheel = $("wheel"), status = $("status"), login = $("login");
  const STEP = 20;            // degrees per wheel step (for the click sound; the server counts its own)
  const SLACK_MS = 1500;      // how far the page runs the elapsed time past the service's last word (it sends it each second)
  const TAP_TRAVEL = 10;      // a ring touch that turns less than this is a button
  const RING_HOLD_MS = 400;   // a still ring touch this long holds its button down until release
  const STILL = 3;            // …still: it turned less than this many degrees
  const CENTRE = 36 / 100;    // the centre button's radius, as a fraction of the wheel's
  const cw = window.cw = { frames: 0, seq: 0, lastFrameAt: 0, lines: [], sent: 0 };
  let ws = null, pendingDeg = 0, flushQueued = false;
  let password = null;  // kept in memory only, once accepted: a reconnection gives it again

  // --- the socket ---
  function connect() {
    ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    ws.onopen = () => { status.textContent = "connected"; };
    ws.onclose = () => { status.textContent = "disconnected: retrying"; setTimeout(connect, 1000); };
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.t === "frame") frame(m);
      else if (m.t === "np") nowPlaying(m);
      else if (m.t === "podcasts") podcasts(m);
      else if (m.t === "podcast-done") podcastDone(m);
      else if (m.t === "hello") { login.hidden = true; cw.token = m.token; status.textContent = "connected"; }
      else if (m.t === "auth" && password !== null) send({ t: "auth", password });
      else if (m.t === "auth") { login.hidden = false; $("password").focus(); status.textContent = "password needed"; }
      else if (m.t === "denied") { password = null; $("login-note").textContent = "wrong password"; }
    };
  }
  function send(obj) {
    if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(obj)); cw.sent++; }
  }
  login.addEventListener("submit", (e) => {
    e.preventDefault();
    password = $("password").value;
    send({ t: "auth", password });
  });

  // --- the LCD ---
  const glyphCache = new Map();
  function glyphURL(bits, lit) {
    const key = bits.join(",") + lit;
    let url = glyphCache.get(key);
    if (!url) {
      let rects = "";
      bits.forEach((row, y) => { for (let x = 0; x < 5; x++) if (row & (16 >> x)) rects += `<rect x="${x}" y="${y}" width="1" height="1"/>`; });
      const fill = lit ? "#12202a" : "#243038";
      url = `url("data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 8" shape-rendering="crispEdges" fill="${fill}">${rects}</svg>`)}")`;
      glyphCache.set(key, url);
    }
    return url;
  }
  function frame(m) {
    cw.frames++; cw.seq = m.seq; cw.lastFrameAt = Date.now(); cw.lines = m.lines; cw.charset = m.charset; cw.backlight = m.backlight;
    lcd.style.setProperty("--cols", m.cols); lcd.style.setProperty("--rows", m.rows);
    lcd.classList.toggle("off", !m.backlight);
    lcd.dataset.size = m.cols + "x" + m.rows; lcd.dataset.charset = m.charset;
    const glyphs = new Map(m.glyphs.map(([r, c, bits]) => [r * m.cols + c, bits]));
    const rows = m.lines.map((line, r) => {
      const row = document.createElement("span");
      row.className = "row";
      Array.from(line).forEach((ch, c) => {
        const cell = document.createElement("span");
        cell.className = "c";
        cell.textContent = ch;
        const bits = glyphs.get(r * m.cols + c);
        if (bits) { cell.classList.add("g"); cell.style.backgroundImage = glyphURL(bits, m.backlight); }
        row.appendChild(cell);
      });
      return row;
    });
    lcd.replaceChildren(...rows);
  }

  // --- Now Playing below the device ---
  let np = null, npAt = 0;
  const mmss = (ms) => { const s = Math.max(0, Math.floor(ms / 1000)); return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); };
  function nowPlaying(m) {
    np = m; npAt = performance.now();
    $("now").hidden = m.state === "stop" && !m.title;
    $("np-title").textContent = m.title; $("np-artist").textContent = [m.artist, m.album].filter(Boolean).join(" — ");
    $("np-state").textContent = { play: "▶", pause: "❚❚", stop: "■" }[m.state];
    $("np-volume").style.width = m.volume + "%";
    const art = $("art");
    if (m.art) { if (art.getAttribute("src") !== m.art) art.src = m.art; art.hidden = false; } else { art.hidden = true; art.removeAttribute("src"); }
    progress();
  }
  function progress() {
    if (!np) return;
    // The service's own clock, run on at most as far as the service runs it (its snapshot's slack): with
    // no audio output the service's time stands, and so does the page's.
    const ran = np.state === "play" ? Math.min(performance.now() - npAt, SLACK_MS) : 0;
    const elapsed = Math.min(np.duration, np.elapsed + ran);
    $("np-elapsed").textContent = mmss(elapsed);
    $("np-remaining").textContent = "-" + mmss(np.duration - elapsed);
    $("np-progress").style.width = (np.duration ? 100 * elapsed / np.duration : 0) + "%";
  }
  setInterval(progress, 250);  // the page's own clock between the server's reports: nothing is polled

  // --- Podcasts: the subscriptions and their state, a field to subscribe, refresh and remove. The list
  // comes from the server whenever it changes (a fetch finished, a feed added or removed anywhere). ---
  const pcList = $("pc-list"), pcNote = $("pc-note");
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function note(text, bad) { pcNote.textContent = text; pcNote.classList.toggle("bad", !!bad); cw.podcastNote = text; }
  function podcasts(m) {
    cw.podcasts = m.feeds;
    $("podcasts").hidden = false;
    $("pc-empty").hidden = m.feeds.length > 0;
    pcList.replaceChildren(...m.feeds.map(feedItem));
  }
  function feedItem(f) {
    const li = el("li", "feed");
    li.dataset.id = f.id;
    li.append(el("div", "title", f.title || f.url));
    if (f.title) li.append(el("div", "url", f.url));
    const state = [];
    if (f.updated === null && !f.error) state.push("waiting for its first fetch");
    else state.push(f.episodes + (f.episodes === 1 ? " episode" : " episodes"), f.new + " new");
    if (f.updated !== null) state.push("updated " + new Date(f.updated * 1000).toLocaleString());
    li.append(el("div", "state", state.join(" · ")));
    if (f.error) li.append(el("div", "error", "last fetch failed: " + f.error));
    const actions = el("div", "actions");
    const refresh = el("button", "refresh", "Refresh"), remove = el("button", "remove", "Remove");
    refresh.type = remove.type = "button";
    refresh.addEventListener("click", () => { send({ t: "podcast", op: "refresh", id: f.id }); note("fetching " + (f.title || f.url) + "…"); });
    remove.addEventListener("click", () => send({ t: "podcast", op: "remove", id: f.id }));
    actions.append(refresh, remove);
    li.append(actions);
    return li;
  }
  function podcastDone(m) {
    if (m.error) { note((m.op === "add" ? "Cannot subscribe: " : "Cannot " + m.op + ": ") + m.error, true); return; }
    if (m.op === "add") { $("pc-url").value = ""; note("Subscribed: the feed is being fetched."); }
    else if (m.op === "remove") note("Removed (its downloaded episodes stay in the library).");
  }
  $("pc-add").addEventListener("submit", (e) => {
    e.preventDefault();
    const url = $("pc-url").value.trim();
    if (!url) { note("Paste a feed address first.", true); return; }
    note("Subscribing…");
    send({ t: "podcast", op: "add", url });
  });
  $("pc-refresh-all").addEventListener("click", () => { send({ t: "podcast", op: "refresh" }); note("Fetching every feed…"); });

  // --- the click sound ---
  // The black iPod classic or the white one, kept like the click sound (first visit: the system's dark
  // or light preference).
  const black = $("black");
  const saved = localStorage.getItem("cw-black");
  black.checked = saved ? saved === "on" : matchMedia("(prefers-color-scheme: dark)").matches;
  const paint = () => $("ipod").classList.toggle("black", black.checked);
  paint();
  black.addEventListener("change", () => { localStorage.setItem("cw-black", black.checked ? "on" : "off"); paint(); });

  const clicker = $("clicker");
  clicker.checked = localStorage.getItem("cw-click") !== "off";
  clicker.addEventListener("change", () => localStorage.setItem("cw-click", clicker.checked ? "on" : "off"));
  let audio = null;
  function click() {
    if (!clicker.checked) return;
    try {
      audio = audio || new AudioContext();
      const t = audio.currentTime, osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 2200; gain.gain.setValueAtTime(0.25, t); gain.gain.exponentialRampToValueAtTime(0.001, t + 0.012);
      osc.connect(gain).connect(audio.destination); osc.start(t); osc.stop(t + 0.015);
    } catch (_) { /* no audio: silent */ }
  }

  // --- input ---
  function button(b, phase) { send({ t: "button", b, p: phase }); }
  function press(b) { button(b, "down"); button(b, "up"); }
  // Angle deltas are gathered and sent at most every 25 ms (40 a second, under the server's limit of 60
  // inputs a second whatever the screen's refresh rate), so no turn is lost to the limit.
  let lastFlush = 0;
  function turn(deg) {
    pendingDeg += deg;
    if (flushQueued) return;
    flushQueued = true;
    setTimeout(() => {
      flushQueued = false; lastFlush = performance.now();
      if (pendingDeg) send({ t: "wheel", deg: pendingDeg });
      pendingDeg = 0;
    }, Math.max(0, lastFlush + 25 - performance.now()));
  }

  let touch = null;  // the pointer on the wheel: {id, kind, angle, travel, clickAcc, held, timer}
  function polar(e) {
    const r = wheel.getBoundingClientRect();
    const x = e.clientX - (r.left + r.width / 2), y = e.clientY - (r.top + r.height / 2);
    return { angle: Math.atan2(y, x) * 180 / Math.PI, radius: Math.hypot(x, y) / (r.width / 2) };
  }
  function ringButton(angle) {  // screen angle, clockwise from the right
    const a = (angle + 360) % 360;
    if (a >= 315 || a < 45) return "next";
    if (a < 135) return "play";
    if (a < 225) return "prev";
    return "menu";
  }
  wheel.addEventListener("pointerdown", (e) => {
    if (touch) return;
    e.preventDefault();
    wheel.setPointerCapture(e.pointerId);
    const p = polar(e);
    if (p.radius > 1.02) return;
    if (p.radius < CENTRE) {
      touch = { id: e.pointerId, kind: "centre" };
      wheel.classList.add("pressed");
      button("select", "down");
      return;
    }
    touch = { id: e.pointerId, kind: "ring", angle: p.angle, start: p.angle, travel: 0, clickAcc: 0, held: null };
    touch.timer = setTimeout(() => {
      if (touch && touch.kind === "ring" && touch.travel < STILL) { touch.held = ringButton(touch.start); button(touch.held, "down"); }
    }, RING_HOLD_MS);
  });
  wheel.addEventListener("pointermove", (e) => {
    if (!touch || touch.id !== e.pointerId || touch.kind !== "ring" || touch.held) return;
    const p = polar(e);
    let d = p.angle - touch.angle;
    if (d > 180) d -= 360; else if (d <= -180) d += 360;
    touch.angle = p.angle;
    touch.travel += Math.abs(d);
    if (touch.travel >= STILL) clearTimeout(touch.timer);  // a turn, not a hold
    turn(d);
    touch.clickAcc += d;
    while (Math.abs(touch.clickAcc) >= STEP) { touch.clickAcc -= Math.sign(touch.clickAcc) * STEP; click(); }
  });
  function release(e) {
    if (!touch || touch.id !== e.pointerId) return;
    const t = touch; touch = null;
    if (t.kind === "centre") { wheel.classList.remove("pressed"); button("select", "up"); return; }
    clearTimeout(t.timer);
    if (t.held) button(t.held, "up");
    else if (t.travel < TAP_TRAVEL && e.type === "pointerup") press(ringButton(t.start));
  }
  wheel.addEventListener("pointerup", release);
  wheel.addEventListener("pointercancel", release);
  wheel.addEventListener("contextmenu", (e) => e.preventDefault());

  // The keyboard as on the terminal: arrows or j/k turn, Enter = Select, Esc or Backspace = Menu,
  // space = Play/Pause, n/p = Next/Previous. A key held down holds its button.
  const keyButtons = { Enter: "select", Escape: "menu", Backspace: "menu", " ": "play", n: "next", p: "prev" };
  const keyTurns = { ArrowDown: 1, ArrowRight: 1, j: 1, ArrowUp: -1, ArrowLeft: -1, k: -1 };
  // Keys typed into a field or on a focused button (the Podcasts panel) are theirs, not the wheel's.
  const own = (t) => t instanceof HTMLInputElement || t instanceof HTMLButtonElement;
  document.addEventListener("keydown", (e) => {
    if (own(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (keyTurns[e.key]) { e.preventDefault(); turn(keyTurns[e.key] * STEP); click(); return; }
    const b = keyButtons[e.key];
    if (b) { e.preventDefault(); if (!e.repeat) button(b, "down"); }
  });
  document.addEventListener("keyup", (e) => {
    if (own(e.target)) return;
    const b = keyButtons[e.key];
    if (b) { e.preventDefault(); button(b, "up"); }
  });

  connect();
})();
