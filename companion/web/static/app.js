/* The dashboard page: one event stream, at most one camera view, everything else on demand.
 *
 * On load the page reads its session (referee or spectator, the anti-forgery token) and a full
 * snapshot, then opens the event stream from the snapshot's bus position. Every message is
 * applied at once (the move log, the scores, whose turn) and a fresh snapshot is fetched shortly
 * after record events for what the messages do not carry (the board drawing, the score chart).
 * Applying a message twice changes nothing, so a reconnection that replays a few is harmless. */
"use strict";

(function () {
  const $ = sel => document.querySelector(sel);
  const $$ = sel => Array.from(document.querySelectorAll(sel));
  const t = (k, v) => window.Lang.t(k, v);
  const esc = s => window.Boards.esc(s);
  const seatName = s => window.Lang.seat(s);

  const RECORD = ["game.started", "move.judged", "move.revised", "move.corrected", "move.undone",
    "verdict.confirmed", "verdict.overridden", "illegal.retracted", "question.asked",
    "question.answered", "observation.unexplained", "game.ended"];
  const MOVES = ["move.judged", "move.revised", "move.corrected", "question.answered"];
  const BLANK = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
  const LOG_MAX = 400;

  const S = {
    session: null, snap: null, history: new Map(), appliedId: 0, lastEventId: null,
    es: null, lastSeen: 0, heartbeat: 15, view: "game", cameraMode: "live", cameraOn: false,
    cameraSeen: false, pending: null, place: null, adds: [], removes: new Set(), reading: null,
    speech: localStorage.getItem("speech") === "on", scene: null, games: null,
    wizard: {game: null, seats: []}, calStep: "table", refreshTimer: null, refreshing: false
  };

  // -- HTTP ----------------------------------------------------------------------------------

  function apiError(status, data) {
    const e = new Error((data && data.message) || ("HTTP " + status));
    e.status = status; e.code = data && data.error; e.data = data || {};
    return e;
  }
  async function getJSON(url) {
    let r;
    try { r = await fetch(url, {credentials: "same-origin", cache: "no-store"}); }
    catch (err) { throw apiError(0, {error: "network", message: t("err.network")}); }
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw apiError(r.status, data);
    return data;
  }
  async function post(url, body) {
    let r;
    try {
      r = await fetch(url, {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": S.session ? S.session.csrf : ""},
        body: JSON.stringify(body || {})
      });
    } catch (err) { throw apiError(0, {error: "network", message: t("err.network")}); }
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw apiError(r.status, data);
    return data;
  }
  function errorText(e) {
    if (e.code && window.Lang.has("err." + e.code)) return t("err." + e.code);
    return e.message || t("err.network");
  }

  let toastTimer = null;
  function toast(text, bad) {
    const el = $("#toast");
    el.textContent = text;
    el.classList.toggle("bad", !!bad);
    el.classList.remove("hidden");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => el.classList.add("hidden"), bad ? 6000 : 2500);
  }

  // -- the referee ---------------------------------------------------------------------------

  async function refereeDo(fn) {
    if (S.session && S.session.read_only) { toast(t("err.read_only"), true); return null; }
    if (!S.session || !S.session.referee) { S.pending = fn; openPin(); return null; }
    try {
      return await fn();
    } catch (e) {
      if (e.code === "pin_required") {
        S.session.referee = false; renderRole(); S.pending = fn; openPin(); return null;
      }
      if (e.code === "csrf") await loadSession();
      toast(errorText(e), true);
      return null;
    }
  }
  function act(action, payload) {
    return refereeDo(async () => {
      const r = await post("/api/act/" + action, payload || {});
      toast(t("act.done"));
      scheduleRefresh();
      return r;
    });
  }

  function openPin() {
    $("#pin-input").value = "";
    $("#pin-msg").textContent = "";
    $("#pin-logout").classList.toggle("hidden", !(S.session && S.session.referee));
    const d = $("#pin-dialog");
    if (!d.open) d.showModal();
    $("#pin-input").focus();
  }
  async function submitPin() {
    const pin = $("#pin-input").value;
    try {
      const r = await post("/api/login", {pin});
      S.session.referee = true;
      S.session.csrf = r.csrf;
      $("#pin-dialog").close();
      renderRole();
      const next = S.pending; S.pending = null;
      if (next) await refereeDo(next);
    } catch (e) {
      $("#pin-msg").textContent = e.code === "pin_wrong" ? t("pin.wrong") :
        e.code === "pin_locked" ? t("pin.locked") + " (" + (e.data.retry_after || "") + " s)" : errorText(e);
      $("#pin-input").value = "";
    }
  }
  async function logout() {
    try { const r = await post("/api/logout", {}); S.session.csrf = r.csrf; } catch (e) { toast(errorText(e), true); }
    S.session.referee = false;
    $("#pin-dialog").close();
    renderRole();
  }
  function renderRole() {
    const ref = !!(S.session && S.session.referee);
    document.body.classList.toggle("referee", ref);
    document.body.classList.toggle("spectator", !ref);
    document.body.classList.toggle("read-only", !!(S.session && S.session.read_only));
    const btn = $("#pin-btn");
    btn.setAttribute("data-i18n", ref ? "referee.on" : "referee");
    btn.textContent = t(ref ? "referee.on" : "referee");
    $("#review").classList.toggle("hidden", !(S.session && S.session.read_only));
  }
  async function loadSession() {
    S.session = await getJSON("/api/session");
    renderRole();
  }

  // -- the event stream ----------------------------------------------------------------------

  function setConn(state) {
    const el = $("#conn");
    el.dataset.state = state;
    el.setAttribute("data-i18n", "conn." + state);
    el.textContent = t("conn." + state);
  }
  function connect() {
    if (S.es) S.es.close();
    const last = S.lastEventId || (S.snap ? S.snap.bus.epoch + "-" + S.snap.bus.last_id : "");
    const es = new EventSource("/api/events" + (last ? "?last=" + encodeURIComponent(last) : ""));
    S.es = es;
    S.lastSeen = Date.now();
    es.onopen = () => { setConn("live"); S.lastSeen = Date.now(); };
    es.onmessage = e => {
      S.lastSeen = Date.now();
      if (e.lastEventId) S.lastEventId = e.lastEventId;
      let m;
      try { m = JSON.parse(e.data); } catch (err) { return; }
      onMessage(m);
    };
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) {
        // refused (a full server answers 503) or gone: try again later from where we were
        setConn("full");
        setTimeout(() => { if (S.es === es) connect(); }, 5000);
      } else {
        setConn("reconnecting");
      }
    };
  }
  function watchdog() {
    if (S.es && Date.now() - S.lastSeen > S.heartbeat * 2500 + 5000) {
      setConn("reconnecting");
      connect();
    }
  }

  function onMessage(m) {
    if (m.id) S.appliedId = Math.max(S.appliedId, m.id);
    const d = m.data || {};
    switch (m.type) {
      case "resync":
        applySnapshot(d.snapshot);
        setConn("live");
        return;
      case "heartbeat":
        setConn("live");
        return;
      case "camera.status":
        S.snap.camera = d; renderHardware(); updateCamera(); return;
      case "board.status":
        S.snap.device = Object.assign({}, S.snap.device, d); renderHardware(); return;
      case "calibration.status":
        S.snap.calibration = d; renderHardware(); return;
      case "overlay.status":
        S.snap.overlay = d.overlay; renderHardware(); updateCamera(); return;
      case "scene.still":
        S.scene = d; renderScene(); return;
      case "game.resumed":
        refresh(); return;
    }
    if (RECORD.includes(m.type) && d.seq != null) record(m);
  }

  function record(m) {
    const d = m.data;
    const game = S.snap && S.snap.game;
    if (!game || d.game_id !== game.id) { refresh(); return; }
    const old = S.history.get(d.seq);
    S.history.set(d.seq, {seq: d.seq, game_id: d.game_id, ts: m.ts, type: m.type, actor: d.actor,
      data: d.event, keyframe: old ? old.keyframe : false});
    game.status = d.status;
    const ev = d.event || {};
    if (m.type === "question.asked") game.question = {seq: d.seq, reason: ev.reason, choices: ev.choices};
    if (m.type === "question.answered") game.question = null;
    if (m.type === "move.judged" && ev.legal === false) {
      game.pending_illegal = {seq: d.seq, notation: ev.notation, rule: ev.rule};
    }
    if (["illegal.retracted", "verdict.overridden"].includes(m.type) ||
        (["move.undone", "move.corrected"].includes(m.type) && ev.target === "illegal")) {
      game.pending_illegal = null;
    }
    renderGame();
    announce(m);
    scheduleRefresh();
  }

  // -- snapshots -----------------------------------------------------------------------------

  function applySnapshot(snap) {
    if (!snap) return;
    S.snap = snap;
    S.history = new Map((snap.history || []).map(e => [e.seq, e]));
    S.appliedId = Math.max(S.appliedId, snap.bus.last_id);
    renderAll();
  }
  function scheduleRefresh() {
    clearTimeout(S.refreshTimer);
    S.refreshTimer = setTimeout(refresh, 150);
  }
  async function refresh() {
    if (S.refreshing) { scheduleRefresh(); return; }
    S.refreshing = true;
    try {
      const snap = await getJSON("/api/snapshot");
      const behind = snap.bus.last_id < S.appliedId;
      applySnapshot(snap);
      if (behind) scheduleRefresh();
    } catch (e) {
      toast(errorText(e), true);
    } finally {
      S.refreshing = false;
    }
  }

  // -- speech --------------------------------------------------------------------------------

  function say(text) {
    if (!S.speech || !window.speechSynthesis || !text) return;
    const u = new SpeechSynthesisUtterance(text);
    u.lang = window.Lang.current === "fr" ? "fr-FR" : "en-GB";
    window.speechSynthesis.speak(u);
  }
  function announce(m) {
    if (Date.now() / 1000 - m.ts > 5) return; // caught up after a sleep: old news
    const ev = (m.data && m.data.event) || {};
    if (MOVES.includes(m.type) && !ev.withdrawn) {
      if (ev.legal === false && ev.rule) {
        say(t("say.illegal", {rule: ev.rule[window.Lang.current] || ev.rule.en}));
      } else {
        for (const [s, n] of Object.entries(ev.score_delta || {})) {
          if (n > 0) say(n === 1 ? t("say.score1", {seat: seatName(s)}) : t("say.score", {seat: seatName(s), n}));
        }
      }
    }
    if (m.type === "game.ended") {
      const o = ev.outcome || {};
      say(t("say.ended", {who: (o.winners || []).map(seatName).join(", ")}));
    }
  }

  // -- rendering -----------------------------------------------------------------------------

  function paint(root) {
    (root || document).querySelectorAll("[data-colour]").forEach(el => {
      const name = el.getAttribute("data-colour");
      const second = window.Boards.second(name);
      el.style.background = second
        ? `linear-gradient(135deg, ${window.Boards.colour(name)} 50%, ${second} 50%)`
        : window.Boards.colour(name);
    });
  }
  function swatch(seat) { return `<span class="swatch" data-colour="${esc(seat)}"></span>`; }
  function deltaText(delta) {
    return Object.entries(delta || {}).filter(([, n]) => n).map(([s, n]) =>
      `<span class="delta${n < 0 ? " minus" : ""}">${n > 0 ? "+" : ""}${n} ${esc(seatName(s))}</span>`).join(" ");
  }
  function ruleText(rule) {
    if (!rule) return "";
    const msg = rule[window.Lang.current] || rule.en || rule.fr;
    return `<div class="rule"><b>${esc(t("illegal.rule"))}</b> ${esc(msg)}` +
      `<blockquote>${esc(rule.paragraph || "")}</blockquote><code>${esc(rule.id || "")}</code></div>`;
  }

  function renderAll() {
    window.Lang.apply();
    $("#speech-btn").textContent = t(S.speech ? "speech.on" : "speech.off");
    renderRole();
    renderGame();
    renderHardware();
    renderScene();
    updateCamera();
    if (S.view === "new") renderWizard();
  }

  function renderGame() {
    const game = S.snap && S.snap.game;
    $("#game-title").textContent = game ? game.title : t("app.title");
    document.title = game ? game.title + " · " + t("app.title") : t("app.title");
    if (!game) {
      $("#board").innerHTML = `<p class="empty">${esc(t("no.game"))}</p>`;
      ["#scores", "#chips", "#chart", "#turn", "#alerts"].forEach(s => { $(s).innerHTML = ""; });
      $("#log").innerHTML = "";
      return;
    }
    $("#board").innerHTML = window.Boards.draw(game.board, game.highlight);
    renderStatus();
    renderAlerts();
    renderLog();
    $("#chart").innerHTML = window.Chart.draw(S.snap.series);
    paint($("main"));
  }

  const COUNT_SKIP = ["scores", "breakdown", "kept", "led", "seat_colours", "buildings", "can_move"];
  const CHIP_SKIP = ["players", "active", "scores", "game", "game_id", "waiting", "pending_illegal",
    "outcome", "tentative", "led", "seat_colours", "options", "breakdown", "zone", "round", "phase",
    "stage", "winner", "winners", "end_queue", "dice", "dice_left", "taken", "blocks", "plays"];

  function renderStatus() {
    const st = (S.snap.game && S.snap.game.status) || {};
    const players = st.players || [];
    let turn = "";
    if (st.outcome) turn = `<span class="over">${esc(t("game.over"))}</span>`;
    else if (st.active) turn = `${esc(t("turn"))} ${swatch(st.active)} <b>${esc(seatName(st.active))}</b>`;
    if (st.round != null) turn += ` · ${esc(t("round"))} ${esc(st.round)}`;
    if (st.phase) turn += ` · ${esc(st.phase)}`;
    if (st.stage && st.stage !== st.phase) turn += ` · ${esc(st.stage)}`;
    $("#turn").innerHTML = turn;

    const counts = Object.keys(st).filter(k => !COUNT_SKIP.includes(k) && st[k] && typeof st[k] === "object" &&
      !Array.isArray(st[k]) && players.length && Object.keys(st[k]).every(s => players.includes(s)) &&
      Object.values(st[k]).every(v => v == null || typeof v !== "object"));
    let html = `<table class="scores"><thead><tr><th></th><th>${esc(t("scores"))}</th>` +
      counts.map(k => `<th>${esc(window.Lang.has("k." + k) ? t("k." + k) : k)}</th>`).join("") + `</tr></thead><tbody>`;
    for (const p of players) {
      const active = st.active === p ? " active" : "";
      html += `<tr class="seat${active}" data-seat="${esc(p)}"><td>${swatch(p)} ${esc(seatName(p))}</td>` +
        `<td class="score">${esc((st.scores || {})[p] ?? "")}</td>` +
        counts.map(k => `<td>${esc(fmt(st[k][p]))}</td>`).join("") + `</tr>`;
    }
    $("#scores").innerHTML = html + `</tbody></table>`;
    const chips = Object.keys(st).filter(k => !CHIP_SKIP.includes(k) && !counts.includes(k) &&
      st[k] != null && st[k] !== false && typeof st[k] !== "object");
    const value = v => (typeof v === "string" && players.includes(v)) ? seatName(v) : fmt(v);
    let chipHtml = chips.map(k => `<span class="chip"><b>${esc(window.Lang.has("k." + k) ? t("k." + k) : k)}</b> ${esc(value(st[k]))}</span>`).join("");
    if (st.dice) chipHtml += `<span class="chip"><b>${esc(t("b.tray"))}</b> ${esc((st.dice.colour || []).map(seatName).join(" "))}</span>`;
    $("#chips").innerHTML = chipHtml;
  }
  function fmt(v) { return v === true ? "✓" : v === false ? "—" : v == null ? "—" : v; }

  function latestRecord() {
    let best = null;
    for (const e of S.history.values()) {
      if (e.type === "verdict.confirmed") continue;
      if (!best || e.seq > best.seq) best = e;
    }
    return best;
  }

  function renderAlerts() {
    const game = S.snap.game;
    const st = game.status || {};
    let html = "";
    if (st.outcome) {
      const o = st.outcome;
      html += `<div class="alert over"><h3>${esc(t("game.over"))}</h3><p><b>${esc(t("winners"))}</b> ` +
        `${(o.winners || []).map(w => swatch(w) + " " + esc(seatName(w))).join(", ")}</p>` +
        `<p>${esc((o.reason || {})[window.Lang.current] || "")}</p></div>`;
    }
    if (game.question) {
      const q = game.question;
      html += `<div class="alert question" id="question"><h3>${esc(t("q.title"))}</h3>` +
        `<p class="reason">${esc(q.reason || "")}</p><p>${esc(t("q.hint"))}</p><div class="choices">` +
        (q.choices || []).map((c, i) => `<button class="choice big${c.legal ? "" : " illegal"}" data-choice="${i}">` +
          `<span class="notation">${esc(c.notation)}</span> ${c.legal ? "" : `<span class="badge illegal">${esc(t("verdict.illegal"))}</span>`}` +
          ` ${deltaText(c.score_delta)}</button>`).join("") + `</div></div>`;
    }
    if (game.pending_illegal) {
      const p = game.pending_illegal;
      html += `<div class="alert illegal" id="pending-illegal"><h3>${esc(t("illegal.title"))}: ` +
        `<span class="notation">${esc(p.notation)}</span></h3>${ruleText(p.rule)}` +
        `<p>${esc(t("illegal.hint"))}</p><div class="choices referee-only">` +
        `<button class="big" data-act="let_stand">${esc(t("act.let_stand"))}</button>` +
        `<button class="big" data-act="undo">${esc(t("act.undo"))}</button>` +
        `<button class="big" data-act="confirm">${esc(t("act.confirm"))}</button>` +
        `<button class="big" data-open="correct">${esc(t("act.correct"))}</button></div></div>`;
    }
    const last = latestRecord();
    if (last && last.type === "observation.unexplained" && !game.question) {
      const ev = last.data || {};
      html += `<div class="alert unexplained" id="unexplained"><h3>${esc(t("unexplained.title"))}</h3>` +
        `<p class="reason">${esc(ev.reason || "")}</p><p>${esc(t("unexplained.hint"))}</p>` +
        ((ev.nearest || []).length ? `<p><b>${esc(t("nearest"))}:</b> ${(ev.nearest || []).map(n => `<span class="notation">${esc(n.notation)}</span>`).join(", ")}</p>` : "") +
        `<div class="choices referee-only"><button class="big" data-open="reading">${esc(t("act.correct_reading"))}</button></div></div>`;
    }
    $("#alerts").innerHTML = html;
  }

  function renderLog() {
    const entries = Array.from(S.history.values()).sort((a, b) => a.seq - b.seq);
    const undone = new Set(), replaced = new Set();
    for (const e of entries) {
      const target = (e.data || {}).target;
      if (typeof target !== "number") continue;
      if (e.type === "move.undone") undone.add(target);
      if (e.type === "move.corrected" || e.type === "move.revised") replaced.add(target);
    }
    const shown = entries.slice(-LOG_MAX).reverse();
    $("#log").innerHTML = shown.map(e => logEntry(e, undone.has(e.seq), replaced.has(e.seq))).join("");
    paint($("#log"));
  }

  function logEntry(e, undone, replaced) {
    const d = e.data || {};
    const who = window.Lang.has("actor." + e.actor) ? t("actor." + e.actor) : e.actor;
    let main = "", badge = "", extra = "", cls = e.type.replace(/\./g, "-");
    const time = new Date(e.ts * 1000).toLocaleTimeString(window.Lang.current === "fr" ? "fr-FR" : "en-GB");
    if (MOVES.includes(e.type) && !d.withdrawn) {
      main = `<span class="notation">${esc(d.notation)}</span>`;
      badge = d.legal ? `<span class="badge legal">${esc(t("verdict.legal"))}</span>`
        : `<span class="badge illegal">${esc(t("verdict.illegal"))}</span>`;
      if (e.type === "question.answered") badge += ` <span class="badge ambiguous">${esc(t("verdict.ambiguous"))}</span>`;
      extra = d.legal ? "" : ruleText(d.rule);
      cls += d.legal ? " legal" : " illegal";
    } else if (e.type === "question.answered") {
      main = esc(t("ev.withdrawn"));
    } else if (e.type === "question.asked") {
      main = esc(d.reason || "");
      badge = `<span class="badge ambiguous">${esc(t("verdict.ambiguous"))}</span>`;
      extra = `<div class="sub">${(d.choices || []).map(c => `<span class="notation">${esc(c.notation)}</span>`).join(" · ")}</div>`;
    } else if (e.type === "observation.unexplained") {
      main = esc(d.reason || "");
      badge = `<span class="badge unexplained">${esc(t("verdict.unexplained"))}</span>`;
    } else if (e.type === "verdict.overridden") {
      main = `<span class="notation">${esc(d.notation || "")}</span>`;
      badge = `<span class="badge overridden">${esc(t("verdict.overridden"))}</span>`;
    } else if (["move.undone", "verdict.confirmed", "illegal.retracted"].includes(e.type)) {
      main = `<span class="notation">${esc(d.notation || "")}</span>`;
    } else if (e.type === "game.started") {
      main = `${esc(d.game || "")} · ${(d.players || []).map(p => swatch(p) + esc(seatName(p))).join(" ")}`;
    } else if (e.type === "game.ended") {
      const o = d.outcome || {};
      main = `${esc(t("winners"))}: ${(o.winners || []).map(w => esc(seatName(w))).join(", ")}`;
      extra = `<div class="sub">${esc((o.reason || {})[window.Lang.current] || "")}</div>`;
    }
    const kf = e.keyframe ? `<button class="kf small" data-kf="${e.seq}">${esc(t("keyframe"))}</button>` : "";
    return `<li class="entry ${cls}${undone ? " undone" : ""}${replaced ? " replaced" : ""}" data-seq="${e.seq}">` +
      `<div class="entry-head"><span class="kind">${esc(t("ev." + e.type))}</span> ${main} ${badge} ${deltaText(d.score_delta)}</div>` +
      extra + `<div class="entry-foot">#${e.seq} · ${esc(t("by"))} ${esc(who)} · ${esc(time)} ${kf}</div></li>`;
  }

  function pill(status) {
    return `<span class="pill" data-state="${esc(status)}">${esc(window.Lang.has("st." + status) ? t("st." + status) : status)}</span>`;
  }
  function renderHardware() {
    if (!S.snap) return;
    const cam = S.snap.camera || {}, dev = S.snap.device || {}, cal = S.snap.calibration || {};
    let html = `<div class="hw-row"><b>${esc(t("status.camera"))}</b> ${pill(cam.status)} <span class="detail">${esc(cam.detail || "")}` +
      `${cam.fps ? " · " + esc(cam.fps) + " fps" : ""}</span></div>` +
      `<div class="hw-row"><b>${esc(t("status.board"))}</b> ${pill(dev.status)} <span class="detail">${esc(dev.detail || "")}</span></div>` +
      `<div class="hw-row"><b>${esc(t("status.calibration"))}</b> ` +
      ["camera", "table", "colours", "cards"].map(k => `<span class="chip"><b>${esc(t("cal." + k))}</b> ${esc(cal[k] || t("cal.none"))}</span>`).join("") + `</div>`;
    const shows = dev.shows;
    if (shows) {
      html += `<div class="hw-row"><b>${esc(t("leds"))}</b> <span class="leds">` +
        (shows.leds || []).map(c => `<span class="led" data-led="${esc(c)}"></span>`).join("") + `</span></div>` +
        `<div class="hw-row"><b>${esc(t("display"))}</b> <span class="segments">${esc((shows.display || "").replace(/ /g, "\u00a0"))}</span></div>`;
    }
    $("#hardware").innerHTML = html;
    $$("#hardware [data-led]").forEach(el => { el.style.background = el.getAttribute("data-led"); });
    $("#overlay-btn").textContent = t("overlay") + ": " + t(S.snap.overlay ? "overlay.on" : "overlay.off");
  }
  function renderScene() {
    const s = S.scene;
    $("#scene").textContent = s ? (s.hand ? "✋ " + t("hand") : s.still ? t("still") : "") : "";
  }

  // -- the camera ----------------------------------------------------------------------------

  let snapshotTimer = null, mjpegCheck = null;
  function cameraWanted() {
    if (!S.snap || S.view !== "game" || document.hidden) return false;
    const st = (S.snap.camera || {}).status;
    return S.cameraSeen || ["connected", "connecting", "reconnecting"].includes(st);
  }
  function stopCamera() {
    clearTimeout(snapshotTimer); clearTimeout(mjpegCheck);
    const img = $("#camera-img");
    if (S.cameraOn) img.src = BLANK;
    S.cameraOn = false;
  }
  function updateCamera() {
    const img = $("#camera-img");
    $("#camera-mode").textContent = t(S.cameraMode === "live" ? "camera.live" : "camera.snapshots");
    if (!cameraWanted()) {
      stopCamera();
      $("#camera-none").classList.toggle("hidden", S.cameraSeen);
      return;
    }
    $("#camera-none").classList.add("hidden");
    if (S.cameraOn === S.cameraMode) return;
    stopCamera();
    S.cameraOn = S.cameraMode;
    if (S.cameraMode === "live") {
      img.onerror = () => { if (S.cameraOn === "live") { S.cameraMode = "snapshots"; S.cameraOn = false; updateCamera(); } };
      img.onload = null;
      img.src = "/api/camera.mjpg?t=" + Date.now();
      // a browser out of connections never loads the stream: fall back to snapshots
      mjpegCheck = setTimeout(() => {
        if (S.cameraOn === "live" && !img.naturalWidth) { S.cameraMode = "snapshots"; S.cameraOn = false; updateCamera(); }
      }, 6000);
    } else {
      const next = () => {
        if (S.cameraOn !== "snapshots") return;
        snapshotTimer = setTimeout(() => { img.src = "/api/camera.jpg?t=" + Date.now(); }, 250);
      };
      img.onload = next;
      img.onerror = () => { snapshotTimer = setTimeout(next, 2000); };
      img.src = "/api/camera.jpg?t=" + Date.now();
    }
  }
  function probeCamera() {
    const probe = new Image();
    probe.onload = () => { S.cameraSeen = true; updateCamera(); };
    probe.src = "/api/camera.jpg?t=" + Date.now();
  }

  async function pollDevice() {
    if (!S.snap || S.view !== "game" || document.hidden || !(S.snap.device || {}).shows) return;
    try {
      const d = await getJSON("/api/device");
      S.snap.device = d.device; S.snap.camera = d.camera; S.snap.calibration = d.calibration;
      S.snap.overlay = d.overlay;
      renderHardware();
    } catch (e) { /* the stream's status messages keep the page right meanwhile */ }
  }

  // -- corrections ---------------------------------------------------------------------------

  function describe(tpl) {
    const parts = [tpl.kind];
    for (const [k, v] of Object.entries(tpl)) {
      if (k === "kind") continue;
      parts.push(typeof v === "string" ? seatName(v) : k + " " + v);
    }
    return parts.join(" · ");
  }
  function placeKind(place) {
    const head = place.split(":")[0];
    return head === "zone" ? place : head;
  }
  function positioned(tpl, place, level) {
    const piece = Object.assign({}, tpl);
    const [head, ...rest] = place.split(":");
    if (head === "cell") {
      const [x, y] = rest[0].split(",").map(Number);
      piece.cell = [x, y];
      if (level != null) piece.level = level;
    } else if (head === "card") {
      piece.zone = "player:" + rest[0]; piece.etage = +rest[1]; piece.pos = +rest[2];
    } else if (head === "building") {
      piece.zone = "player:" + rest[0]; piece.building = +rest[1];
      if (level != null) piece.level = level;
    } else if (head === "zone") {
      piece.zone = rest.join(":");
      if (level != null) piece.level = level;
    }
    return piece;
  }
  async function openCorrect(place, tab) {
    S.place = place || null; S.adds = []; S.removes = new Set();
    $("#correct-msg").textContent = "";
    const d = $("#correct-dialog");
    if (!d.open) d.showModal();
    showCorrectTab(tab || (place ? "reading" : "move"));
    try { S.reading = await getJSON("/api/reading"); } catch (e) { S.reading = null; }
    renderReading();
    searchMoves();
  }
  function showCorrectTab(tab) {
    $$("#correct-dialog [data-ctab]").forEach(b => b.classList.toggle("active", b.dataset.ctab === tab));
    $("#ctab-reading").classList.toggle("hidden", tab !== "reading");
    $("#ctab-move").classList.toggle("hidden", tab !== "move");
  }
  function renderReading() {
    const box = $("#ctab-reading");
    const r = S.reading;
    if (!S.place) { box.innerHTML = `<p class="hint">${esc(t("correct.tap"))}</p>`; return; }
    if (!r || !r.seen) { box.innerHTML = `<p class="hint">${esc(t("correct.noreading"))}</p>`; return; }
    const here = r.pieces.filter(p => p.place === S.place);
    const kind = placeKind(S.place);
    const templates = (r.templates || {})[kind] || [];
    const levels = here.map(p => p.piece.level).filter(l => l != null);
    const nextLevel = levels.length ? Math.max(...levels) + 1 : 0;
    const withLevel = (r.levelled || []).includes(kind);
    let html = `<p><b>${esc(t("correct.place"))}:</b> <code>${esc(S.place)}</code></p>` +
      `<h3>${esc(t("correct.seen"))}</h3>`;
    html += here.length ? `<ul class="pieces">` + here.map((p, i) =>
      `<li><label class="check"><input type="checkbox" data-remove="${i}"${S.removes.has(i) ? " checked" : ""}> ` +
      `${esc(describe(stripPos(p.piece)))}${p.piece.level != null ? " · " + esc(t("correct.level")) + " " + p.piece.level : ""} ` +
      `<span class="muted">(${esc(t("correct.remove"))})</span></label></li>`).join("") + `</ul>`
      : `<p class="hint">${esc(t("correct.none"))}</p>`;
    html += `<h3>${esc(t("correct.add"))}</h3>`;
    if (withLevel) {
      html += `<label class="option">${esc(t("correct.level"))} <select id="add-level">` +
        Array.from({length: 9}, (_, i) => `<option value="${i}"${i === nextLevel ? " selected" : ""}>${i}</option>`).join("") + `</select></label>`;
    }
    html += `<div class="choices">` + templates.map((tp, i) =>
      `<button type="button" class="big add-tpl" data-tpl="${i}">+ ${esc(describe(tp))}</button>`).join("") + `</div>`;
    if (S.adds.length) {
      html += `<h3>${esc(t("correct.adding"))}</h3><ul class="pieces">` + S.adds.map((p, i) =>
        `<li>${esc(describe(stripPos(p)))}${p.level != null ? " · " + p.level : ""} <button type="button" class="small" data-unadd="${i}">×</button></li>`).join("") + `</ul>`;
    }
    html += `<button type="button" id="send-reading" class="big primary">${esc(t("send"))}</button>`;
    box.innerHTML = html;
    box.querySelectorAll("[data-remove]").forEach(el => el.addEventListener("change", () => {
      const i = +el.dataset.remove;
      if (el.checked) S.removes.add(i); else S.removes.delete(i);
    }));
    box.querySelectorAll("[data-tpl]").forEach(el => el.addEventListener("click", () => {
      const lvl = withLevel ? +$("#add-level").value : null;
      S.adds.push(positioned(templates[+el.dataset.tpl], S.place, lvl));
      renderReading();
    }));
    box.querySelectorAll("[data-unadd]").forEach(el => el.addEventListener("click", () => {
      S.adds.splice(+el.dataset.unadd, 1); renderReading();
    }));
    $("#send-reading").addEventListener("click", async () => {
      const remove = Array.from(S.removes).map(i => stripConf(here[i].piece));
      if (!remove.length && !S.adds.length) return;
      const r2 = await act("correct_reading", {add: S.adds, remove});
      if (r2) $("#correct-dialog").close();
    });
  }
  function stripConf(p) { const c = Object.assign({}, p); delete c.conf; return c; }
  function stripPos(p) {
    const c = Object.assign({}, p);
    ["cell", "level", "zone", "xyz", "etage", "pos", "building", "conf"].forEach(k => delete c[k]);
    return c;
  }
  let searchTimer = null;
  async function searchMoves() {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(async () => {
      let r;
      try { r = await getJSON("/api/moves?q=" + encodeURIComponent($("#move-search").value)); }
      catch (e) { $("#move-list").innerHTML = `<p class="error">${esc(errorText(e))}</p>`; return; }
      $("#correct-target").innerHTML = r.target
        ? `<b>${esc(t("correct.target"))}:</b> <span class="notation">${esc(r.target.notation)}</span>` : "";
      $("#move-list").innerHTML = r.moves.length ? r.moves.map(m =>
        `<button type="button" class="big move-choice${m.legal ? "" : " illegal"}" data-move="${esc(m.notation)}">` +
        `<span class="notation">${esc(m.notation)}</span>${m.legal ? "" : ` <span class="badge illegal">${esc(t("verdict.illegal"))}</span>`}</button>`).join("") +
        (r.more ? `<p class="hint">${esc(t("correct.more", {n: r.more}))}</p>` : "")
        : `<p class="hint">${esc(t("correct.none.moves"))}</p>`;
      $$("#move-list [data-move]").forEach(b => b.addEventListener("click", async () => {
        const done = await act("correct", {move: b.dataset.move});
        if (done) $("#correct-dialog").close();
      }));
    }, 150);
  }

  // -- the new-game wizard -------------------------------------------------------------------

  async function renderWizard() {
    if (!S.games) {
      try { S.games = (await getJSON("/api/games")).games; } catch (e) { toast(errorText(e), true); return; }
    }
    const w = S.wizard;
    if (!w.game && S.games.length) w.game = (S.snap && S.snap.game && S.games.find(g => g.name === S.snap.game.name) || S.games[0]).name;
    const game = S.games.find(g => g.name === w.game);
    $("#wiz-games").innerHTML = S.games.map(g =>
      `<button type="button" class="big choice-btn${g.name === w.game ? " selected" : ""}" data-game="${esc(g.name)}">${esc(g.title)}</button>`).join("");
    if (!game) return;
    $("#wiz-count").textContent = t("new.count", {n: w.seats.length, min: game.min_players, max: game.max_players});
    $("#wiz-seats").innerHTML = game.seats.map(s => {
      const i = w.seats.indexOf(s);
      return `<button type="button" class="big seat-btn${i >= 0 ? " selected" : ""}" data-seat="${esc(s)}">` +
        `${i >= 0 ? `<span class="order">${i + 1}</span>` : ""}${swatch(s)} ${esc(seatName(s))}</button>`;
    }).join("");
    $("#wiz-options").innerHTML = game.options.length ? game.options.map(o => {
      const id = "opt-" + o.name;
      const input = typeof o.default === "boolean"
        ? `<input type="checkbox" id="${esc(id)}" data-opt="${esc(o.name)}" data-type="bool"${o.default ? " checked" : ""}>`
        : typeof o.default === "number"
          ? `<input type="number" id="${esc(id)}" data-opt="${esc(o.name)}" data-type="int" value="${esc(o.default)}">`
          : `<input type="text" id="${esc(id)}" data-opt="${esc(o.name)}" data-type="str" value="${esc(o.default)}">`;
      return `<label class="option" for="${esc(id)}">${input} <b>${esc(o.name)}</b> <span class="muted">${esc(o.doc)}</span></label>`;
    }).join("") : `<p class="hint">—</p>`;
    $("#wiz-start").disabled = w.seats.length < game.min_players || w.seats.length > game.max_players;
    paint($("#view-new"));
  }
  async function startGame(replace) {
    const w = S.wizard;
    const options = {};
    $$("#wiz-options [data-opt]").forEach(el => {
      const kind = el.dataset.type;
      options[el.dataset.opt] = kind === "bool" ? el.checked : kind === "int" ? parseInt(el.value, 10) : el.value;
    });
    const body = {game: w.game, players: w.seats, options, seed: parseInt($("#wiz-seed").value || "0", 10) || 0};
    if (replace) body.replace = true;
    await refereeDo(async () => {
      try {
        await post("/api/game", body);
      } catch (e) {
        if (e.code === "game_in_progress") { askConfirm(t("new.replace"), () => startGame(true)); return; }
        $("#wiz-msg").textContent = errorText(e);
        throw e;
      }
      $("#wiz-msg").textContent = t("new.started");
      toast(t("new.started"));
      showView("game");
      refresh();
    });
  }
  function askConfirm(text, yes) {
    $("#confirm-text").textContent = text;
    const d = $("#confirm-dialog");
    $("#confirm-yes").onclick = () => { d.close(); yes(); };
    $("#confirm-no").onclick = () => d.close();
    d.showModal();
  }

  // -- calibration ---------------------------------------------------------------------------

  let calTimer = null, calInfo = null;
  async function calibrationLoop() {
    clearTimeout(calTimer);
    if (S.view !== "calibrate" || document.hidden) return;
    try {
      if (!calInfo) calInfo = await getJSON("/api/calibration");
      renderCalGames();
      const game = $("#cal-game").value;
      const q = S.calStep === "table" ? "" : "?game=" + encodeURIComponent(game);
      const result = await getJSON("/api/calibration/" + S.calStep + q);
      renderCalResult(result);
      await loadImage($("#cal-img"), "/api/calibration/" + S.calStep + ".jpg" + (q || "?") + (q ? "&" : "") + "t=" + Date.now());
    } catch (e) {
      $("#cal-result").innerHTML = `<p class="error">${esc(e.code === "no_frame" ? t("cal.noframe") : errorText(e))}</p>`;
    }
    calTimer = setTimeout(calibrationLoop, 1000);
  }
  function loadImage(img, url) {
    return new Promise(resolve => {
      img.onload = () => resolve(true);
      img.onerror = () => resolve(false);
      img.src = url;
    });
  }
  function renderCalGames() {
    const sel = $("#cal-game");
    const games = S.calStep === "colours" ? Object.keys(calInfo.palettes) : S.calStep === "cards" ? calInfo.card_games : [];
    const key = games.join(",");
    if (sel.dataset.key !== key) {
      const current = sel.value || (S.snap && S.snap.game && S.snap.game.name);
      sel.innerHTML = games.map(g => `<option value="${esc(g)}">${esc(g)}</option>`).join("");
      if (games.includes(current)) sel.value = current;
      sel.dataset.key = key;
    }
    sel.closest("label").classList.toggle("hidden", !games.length);
  }
  function renderCalResult(r) {
    $("#cal-overlay").classList.toggle("hidden", !(r.frame && r.frame.overlay));
    let html = "";
    if (r.step === "table") {
      html = `<p class="${r.ok ? "ok" : "error"}">${r.ok ? "✓" : "✗"} ${esc(r.message || "")}</p>` +
        `<p><b>${esc(t("cal.markers"))}:</b> ${esc((r.markers || []).join(", ") || "—")}</p>` +
        (r.reprojection_px != null ? `<p><b>${esc(t("cal.error"))}:</b> ${esc(r.reprojection_px)} px · <b>${esc(t("cal.confidence"))}:</b> ${esc(r.confidence)}</p>` : "") +
        `<button type="button" class="big primary referee-only" id="cal-save"${r.ok ? "" : " disabled"}>${esc(t("cal.save.table"))}</button>`;
    } else if (r.step === "colours") {
      const palette = calInfo.palettes[r.game] || [];
      html = `<p class="${r.ok ? "ok" : "error"}">${r.ok ? "✓" : "✗"} ${esc(r.message || "")}</p>`;
      if (r.ok) {
        html += `<table class="spots"><tbody>` + r.spots.map(s => `<tr><td>${esc(t("cal.spot"))} ${s.spot}</td>` +
          `<td><span class="swatch big-swatch" data-raw="${esc(s.colour || "")}"></span></td>` +
          `<td>${s.reads_as ? esc(t("cal.reads")) + " <b>" + esc(seatName(s.reads_as)) + "</b> (" + esc(s.confidence) + ")" : "—"}</td>` +
          `<td class="referee-only">${esc(t("cal.assign"))} <select data-spot="${s.spot}"><option value=""></option>` +
          palette.map(c => `<option value="${esc(c)}"${prevAssign(s.spot) === c ? " selected" : ""}>${esc(seatName(c))}</option>`).join("") +
          `</select></td></tr>`).join("") + `</tbody></table>` +
          `<button type="button" class="big primary referee-only" id="cal-save">${esc(t("cal.save.colours"))}</button>`;
      }
    } else if (r.step === "cards") {
      html = `<p class="${r.ok && r.card ? "ok" : "error"}">${r.ok && r.card ? "✓" : "✗"} ${esc(r.message || "")}</p>` +
        `<p><b>${esc(t("cal.card.reads"))}:</b> ${esc(r.reads_as || "—")} ${r.reads_as ? "(" + esc(r.confidence) + ")" : ""}</p>` +
        `<p><b>${esc(t("cal.enrolled"))}:</b> ${esc((r.enrolled || []).join(", ") || "—")}</p>` +
        `<label class="option referee-only">${esc(t("cal.card.name"))} <select id="cal-card-name">` +
        (r.names || []).map(n => `<option value="${esc(n)}"${S.calCard === n ? " selected" : ""}>${esc(n)}</option>`).join("") + `</select></label>` +
        `<button type="button" class="big primary referee-only" id="cal-save"${r.card ? "" : " disabled"}>${esc(t("cal.save.card"))}</button>`;
    }
    $("#cal-result").innerHTML = html;
    $$("#cal-result [data-raw]").forEach(el => { el.style.background = el.getAttribute("data-raw"); });
    $$("#cal-result [data-spot]").forEach(el => el.addEventListener("change", () => { S.calAssign = S.calAssign || {}; S.calAssign[el.dataset.spot] = el.value; }));
    const nameSel = $("#cal-card-name");
    if (nameSel) nameSel.addEventListener("change", () => { S.calCard = nameSel.value; });
    const save = $("#cal-save");
    if (save) save.addEventListener("click", saveCalibration);
    const st = (S.snap && S.snap.calibration) || {};
    $("#cal-status").innerHTML = ["camera", "table", "colours", "cards"].map(k =>
      `<span class="chip"><b>${esc(t("cal." + k))}</b> ${esc(st[k] || t("cal.none"))}</span>`).join("");
  }
  function prevAssign(spot) { return (S.calAssign || {})[spot] || ""; }
  async function saveCalibration() {
    const game = $("#cal-game").value;
    let body = {};
    if (S.calStep === "colours") {
      const spots = {};
      for (const [k, v] of Object.entries(S.calAssign || {})) if (v) spots[k] = v;
      body = {game, spots};
    } else if (S.calStep === "cards") {
      body = {game, name: $("#cal-card-name").value};
    }
    await refereeDo(async () => {
      const r = await post("/api/calibration/" + S.calStep, body);
      toast(t("cal.saved", {s: r.summary}));
      calInfo = null;
    });
  }

  // -- views and controls --------------------------------------------------------------------

  function showView(view) {
    S.view = view;
    $$(".tab").forEach(b => b.classList.toggle("active", b.dataset.view === view));
    $$(".view").forEach(v => v.classList.toggle("hidden", v.id !== "view-" + view));
    updateCamera();
    if (view === "new") renderWizard();
    if (view === "calibrate") { calInfo = null; calibrationLoop(); }
  }

  function setLang(lang) {
    window.Lang.current = lang;
    localStorage.setItem("lang", lang);
    document.documentElement.lang = lang;
    renderAll();
    $("#speech-btn").textContent = t(S.speech ? "speech.on" : "speech.off");
  }
  function setTheme(theme) {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem("theme", theme);
  }

  function wire() {
    $$(".tab").forEach(b => b.addEventListener("click", () => showView(b.dataset.view)));
    $("#lang-btn").addEventListener("click", () => setLang(window.Lang.current === "fr" ? "en" : "fr"));
    $("#theme-btn").addEventListener("click", () => {
      const order = ["auto", "dark", "light"];
      setTheme(order[(order.indexOf(document.documentElement.dataset.theme) + 1) % order.length]);
    });
    $("#speech-btn").addEventListener("click", () => {
      S.speech = !S.speech;
      localStorage.setItem("speech", S.speech ? "on" : "off");
      $("#speech-btn").textContent = t(S.speech ? "speech.on" : "speech.off");
      if (S.speech) say(t("speech.on"));
    });
    $("#pin-btn").addEventListener("click", openPin);
    $("#pin-form").addEventListener("submit", ev => { ev.preventDefault(); submitPin(); });
    $$("#pin-dialog [data-key]").forEach(b => b.addEventListener("click", () => {
      const input = $("#pin-input");
      if (b.dataset.key === "clear") input.value = "";
      else if (input.value.length < 12) input.value += b.dataset.key;
    }));
    $("#pin-cancel").addEventListener("click", () => { S.pending = null; $("#pin-dialog").close(); });
    $("#pin-logout").addEventListener("click", logout);
    $$(".close-dialog").forEach(b => b.addEventListener("click", () => b.closest("dialog").close()));

    document.addEventListener("click", ev => {
      const target = ev.target.closest("button, [data-place]");
      if (!target) return;
      if (target.matches("[data-act]")) { act(target.dataset.act); return; }
      if (target.matches("[data-choice]")) { act("answer", {choice: +target.dataset.choice}); return; }
      if (target.matches("[data-open]")) {
        refereeDo(async () => openCorrect(S.place, target.dataset.open === "reading" ? "reading" : "move"));
        return;
      }
      if (target.matches("[data-kf]")) { openKeyframe(+target.dataset.kf); return; }
      if (target.matches("[data-place]") && target.closest("#board") && S.snap && S.snap.game) {
        const place = target.getAttribute("data-place");
        refereeDo(async () => openCorrect(place, "reading"));
      }
    });
    $("#correct-btn").addEventListener("click", () => refereeDo(async () => openCorrect(null, "move")));
    $$("#correct-dialog [data-ctab]").forEach(b => b.addEventListener("click", () => showCorrectTab(b.dataset.ctab)));
    $("#move-search").addEventListener("input", searchMoves);

    $("#camera-mode").addEventListener("click", () => {
      S.cameraMode = S.cameraMode === "live" ? "snapshots" : "live";
      S.cameraOn = false;
      updateCamera();
    });
    $("#camera-expand").addEventListener("click", () => $("#camera-card").classList.toggle("expanded"));
    $("#overlay-btn").addEventListener("click", () => refereeDo(async () => {
      const r = await post("/api/overlay", {on: !S.snap.overlay});
      S.snap.overlay = r.overlay;
      renderHardware();
    }));

    $("#wiz-games").addEventListener("click", ev => {
      const b = ev.target.closest("[data-game]");
      if (!b) return;
      S.wizard = {game: b.dataset.game, seats: []};
      renderWizard();
    });
    $("#wiz-seats").addEventListener("click", ev => {
      const b = ev.target.closest("[data-seat]");
      if (!b) return;
      const seats = S.wizard.seats, i = seats.indexOf(b.dataset.seat);
      if (i >= 0) seats.splice(i, 1); else seats.push(b.dataset.seat);
      renderWizard();
    });
    $("#wiz-start").addEventListener("click", () => startGame(false));

    $$(".steps [data-step]").forEach(b => b.addEventListener("click", () => {
      S.calStep = b.dataset.step;
      $$(".steps [data-step]").forEach(x => x.classList.toggle("active", x === b));
      calibrationLoop();
    }));
    $("#cal-game").addEventListener("change", calibrationLoop);

    document.addEventListener("visibilitychange", () => {
      updateCamera();
      if (!document.hidden) { watchdog(); if (S.view === "calibrate") calibrationLoop(); }
    });
  }

  function openKeyframe(seq) {
    const e = S.history.get(seq);
    $("#keyframe-caption").textContent = "#" + seq + (e && e.data && e.data.notation ? " · " + e.data.notation : "");
    $("#keyframe-img").src = "/api/keyframes/" + seq + ".jpg";
    $("#keyframe-dialog").showModal();
  }

  async function boot() {
    const params = new URLSearchParams(location.search);
    const lang = params.get("lang") || localStorage.getItem("lang") || document.documentElement.lang || "fr";
    window.Lang.current = lang === "en" ? "en" : "fr";
    document.documentElement.lang = window.Lang.current;
    setTheme(localStorage.getItem("theme") || "auto");
    S.heartbeat = parseFloat(document.querySelector('meta[name="companion-heartbeat"]').content) || 15;
    wire();
    window.Lang.apply();
    $("#speech-btn").textContent = t(S.speech ? "speech.on" : "speech.off");
    setConn("connecting");
    try {
      await loadSession();
      applySnapshot(await getJSON("/api/snapshot"));
    } catch (e) {
      toast(errorText(e), true);
    }
    connect();
    probeCamera();
    setInterval(watchdog, 2000);
    setInterval(pollDevice, 2000);
    document.body.dataset.ready = "1";
  }

  window.Dashboard = {state: S, refresh, connect};
  document.addEventListener("DOMContentLoaded", boot);
})();
