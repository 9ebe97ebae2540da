/* Drawing each game's board from its board_view (the rules engine's state, not the camera).
 *
 * Boards.draw(view, highlight) returns HTML (an SVG for the grid games). Every tappable thing
 * carries data-place (see companion/web/places.py): "cell:X,Y", "card:SEAT:ETAGE:POS",
 * "building:SEAT:I" or "zone:NAME"; the places the last move changed are outlined (class hl-last),
 * those an illegal move waiting for a decision would change are outlined in red (hl-illegal). */
"use strict";

(function () {
  const COLOURS = {
    red: "#d62828", yellow: "#f2c200", blue: "#1f5fff", green: "#12a04a", white: "#f4f4f4",
    black: "#202020", pink: "#ff7eb6", cyan: "#1fc7d4", brown: "#8b5a2b", grey: "#8a8a8a",
    orange: "#ff8c1a", violet: "#8e44ad", wood: "#d9b38c", kobold: "#1f5fff",
    "blue-yellow": "#1f5fff", "green-red": "#12a04a"
  };
  const SECOND = {"blue-yellow": "#f2c200", "green-red": "#d62828"};
  const LEVELS = ["#f3deb8", "#e6c48f", "#d8a968", "#c58d4a", "#ad7332", "#915c24", "#74471a",
                  "#5a3612", "#43280d"];

  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, c => ({
      "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  }
  function colour(name) { return COLOURS[name] || "#999"; }
  function ink(name) { return ["white", "yellow", "wood", "cyan", "pink"].includes(name) ? "#111" : "#fff"; }
  function t(k, v) { return window.Lang.t(k, v); }
  function seat(s) { return window.Lang.seat(s); }
  function hlClass(place, hl) {
    if (!hl) return "";
    if ((hl.illegal || []).includes(place)) return " hl-illegal";
    if ((hl.last || []).includes(place)) return " hl-last";
    return "";
  }
  function outlines(hl, rectOf) {
    let out = "";
    for (const [cls, list] of [["hl-last", (hl && hl.last) || []], ["hl-illegal", (hl && hl.illegal) || []]]) {
      for (const place of list) {
        const r = rectOf(place);
        if (r) out += `<rect class="hl ${cls}" x="${r[0]}" y="${r[1]}" width="${r[2]}" height="${r[3]}" rx="3"/>`;
      }
    }
    return out;
  }
  function svg(w, h, body, label) {
    return `<svg class="board-svg" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(label)}" ` +
      `preserveAspectRatio="xMidYMid meet">${body}</svg>`;
  }
  function chip(label, value, place, hl) {
    const p = place ? ` data-place="${esc(place)}"` : "";
    return `<span class="chip${place ? " tappable" + hlClass(place, hl) : ""}"${p}>` +
      `<b>${esc(label)}</b> ${esc(value)}</span>`;
  }

  /* -- Haut les Cubes: the mountain from above ---------------------------------------------- */
  function hautLesCubes(v, hl) {
    const S = 26;
    const xs = [], ys = [];
    const add = (x, y) => { xs.push(x); ys.push(y); };
    (v.heights || []).forEach(([x, y]) => add(x, y));
    (v.giants || []).forEach(g => add(g.cell[0], g.cell[1]));
    (v.squares || []).forEach(([x, y]) => add(x, y));
    if (!xs.length) { add(-6, -6); add(6, 6); }
    const minX = Math.min(...xs) - 1, maxX = Math.max(...xs) + 1;
    const minY = Math.min(...ys) - 1, maxY = Math.max(...ys) + 1;
    const W = (maxX - minX + 1) * S, H = (maxY - minY + 1) * S;
    const X = x => (x - minX) * S, Y = y => (maxY - y) * S;
    const heights = new Map((v.heights || []).map(([x, y, h]) => [x + "," + y, h]));
    const squares = new Set((v.squares || []).map(([x, y]) => x + "," + y));
    let body = `<rect class="table-bg" x="0" y="0" width="${W}" height="${H}"/>`;
    for (let x = minX; x <= maxX; x++) {
      for (let y = minY; y <= maxY; y++) {
        const key = x + "," + y;
        const cls = squares.has(key) ? "cell square" : "cell";
        body += `<rect class="${cls} tappable" data-place="cell:${key}" x="${X(x)}" y="${Y(y)}" ` +
          `width="${S}" height="${S}"/>`;
      }
    }
    for (const [x, y, z] of (v.cubes || [])) {
      const fill = LEVELS[Math.min(z, LEVELS.length - 1)];
      const cx = X(x), cy = Y(y + 1);
      const text = z >= 3 ? "#fff" : "#3a250d";
      body += `<g class="cube tappable" data-place="cell:${x},${y}">` +
        `<rect x="${cx + 1}" y="${cy + 1}" width="${2 * S - 2}" height="${2 * S - 2}" rx="3" fill="${fill}" class="cube-top"/>` +
        `<line x1="${cx + S}" y1="${cy + 3}" x2="${cx + S}" y2="${cy + 2 * S - 3}" class="engraving"/>` +
        `<line x1="${cx + 3}" y1="${cy + S}" x2="${cx + 2 * S - 3}" y2="${cy + S}" class="engraving"/>` +
        `<text x="${cx + S}" y="${cy + S + 6}" class="cube-height" fill="${text}">${z + 1}</text></g>`;
    }
    body += outlines(hl, place => {
      const m = /^cell:(-?\d+),(-?\d+)$/.exec(place);
      return m ? [X(+m[1]) + 1, Y(+m[2]) + 1, S - 2, S - 2] : null;
    });
    for (const g of (v.giants || [])) {
      const [x, y] = g.cell;
      const h = heights.get(x + "," + y) || 0;
      body += `<g class="giant tappable" data-place="cell:${x},${y}">` +
        `<circle cx="${X(x) + S / 2}" cy="${Y(y) + S / 2}" r="${S * 0.42}" fill="${colour(g.seat)}" class="giant-body"/>` +
        `<text x="${X(x) + S / 2}" y="${Y(y) + S / 2 + 5}" class="giant-level" fill="${ink(g.seat)}">${h}</text>` +
        `<title>${esc(seat(g.seat))} (${esc(t("b.level"))} ${h})</title></g>`;
    }
    const card = v.last_card ? cardName(v.last_card) : "—";
    return svg(W, H, body, t("board")) +
      `<div class="board-extra">${chip(t("b.played"), card, "zone:played", hl)}</div>`;
  }
  function cardName(c) {
    const names = {moaveou: "Moavéou", napozla: "Napozla", pousstoia: "Pousstoia", nenlevsa: "Nenlèvsa",
                   hopla: "Hoplà", tvavoartoa: "Tvavoartoa"};
    return names[c] || c;
  }

  /* -- Terra Turrium: the 10×10 board with territories, towers and flags -------------------- */
  function terraTurrium(v, hl) {
    const S = 40, M = 22, n = v.size || 10, cols = v.columns || "abcdefghij";
    const W = n * S + M, H = n * S + M;
    const X = x => M + x * S, Y = y => (n - 1 - y) * S;
    let body = `<rect class="table-bg" x="0" y="0" width="${W}" height="${H}"/>`;
    for (const c of (v.cells || [])) {
      const terr = c.territory;
      const tint = terr && !c.neutral ? colour(terr) : "#888";
      body += `<g class="tappable" data-place="cell:${c.x},${c.y}">` +
        `<rect class="cell" x="${X(c.x)}" y="${Y(c.y)}" width="${S}" height="${S}"/>` +
        `<rect x="${X(c.x)}" y="${Y(c.y)}" width="${S}" height="${S}" fill="${tint}" fill-opacity="${c.neutral ? 0.12 : 0.2}"/>`;
      if (c.height > 0) {
        const fill = LEVELS[Math.min(c.height, LEVELS.length - 1)];
        body += `<rect x="${X(c.x) + 4}" y="${Y(c.y) + 4}" width="${S - 8}" height="${S - 8}" rx="3" fill="${fill}" class="tower${c.exterior ? " exterior" : ""}"/>` +
          `<text x="${X(c.x) + 10}" y="${Y(c.y) + S - 8}" class="tower-height" fill="${c.height >= 3 ? "#fff" : "#3a250d"}">${c.height}</text>`;
      }
      (c.flags || []).forEach((f, i) => {
        const fx = X(c.x) + S - 16 - i * 6, fy = Y(c.y) + 6;
        body += `<path d="M${fx} ${fy} l0 ${S - 14} M${fx} ${fy} l12 5 l-12 5 z" class="flag" fill="${colour(f)}" stroke="#111"/>`;
      });
      body += `<title>${esc(c.name)}</title></g>`;
    }
    for (let i = 0; i < n; i++) {
      body += `<text x="${X(i) + S / 2}" y="${n * S + 16}" class="axis">${esc(cols[i] || i)}</text>` +
        `<text x="${M / 2}" y="${Y(i) + S / 2 + 5}" class="axis">${i + 1}</text>`;
    }
    body += outlines(hl, place => {
      const m = /^cell:(\d+),(\d+)$/.exec(place);
      return m ? [X(+m[1]) + 1, Y(+m[2]) + 1, S - 2, S - 2] : null;
    });
    let extra = chip(t("b.stage"), v.stage || "");
    if (v.movement_points != null) extra += chip(t("k.movement_points"), v.movement_points);
    if (v.in_hand) extra += chip(t("k.in_hand"), v.in_hand);
    for (const [s, a] of Object.entries(v.aggression || {})) extra += chip(t("b.aggression") + " " + seat(s), a);
    for (const [s, a] of Object.entries(v.flags_off_board || {})) if (a) extra += chip(t("k.flags_off_board") + " " + seat(s), a);
    return svg(W, H, body, t("board")) + `<div class="board-extra">${extra}</div>`;
  }

  /* -- Gleeb's and Grues: 4×4 squares of stacked pyramids ---------------------------------- */
  const SIZES = {small: 0.42, medium: 0.62, large: 0.82};
  function pyramid(cx, baseY, size, fill, extraCls) {
    const w = size, h = size * 0.95;
    return `<path class="pyramid${extraCls || ""}" d="M${cx - w / 2} ${baseY} L${cx} ${baseY - h} L${cx + w / 2} ${baseY} Z" fill="${fill}"/>`;
  }
  function gleebs(v, hl) {
    const S = 96, M = 22, [nx, ny] = v.size || [4, 4];
    const W = nx * S + M, H = ny * S + M;
    const X = x => M + x * S, Y = y => (ny - 1 - y) * S;
    let body = `<rect class="table-bg" x="0" y="0" width="${W}" height="${H}"/>`;
    for (const c of (v.cells || [])) {
      const [x, y] = c.cell;
      const owner = c.owner ? ` stroke="${colour(c.owner)}" stroke-width="5"` : "";
      body += `<g class="tappable" data-place="cell:${x},${y}">` +
        `<rect class="cell gg-cell${c.role === "pinned" ? " pinned" : ""}" x="${X(x) + 2}" y="${Y(y) + 2}" width="${S - 4}" height="${S - 4}" rx="6"${owner}/>` +
        `<text x="${X(x) + 8}" y="${Y(y) + 18}" class="cell-name">${esc(c.name)}</text>`;
      (c.stack || []).forEach((p, i) => {
        body += pyramid(X(x) + S / 2, Y(y) + S - 8 - i * 5, S * (SIZES[p.size] || 0.5),
                        colour(p.colour), p.colour === "black" ? " grue" : "");
      });
      if (c.pips) body += `<text x="${X(x) + S - 10}" y="${Y(y) + 18}" class="pips">${c.pips}</text>`;
      body += `<title>${esc(c.name)} ${esc(c.role)}</title></g>`;
    }
    const cols = "abcdefgh";
    for (let i = 0; i < nx; i++) body += `<text x="${X(i) + S / 2}" y="${ny * S + 16}" class="axis">${cols[i]}</text>`;
    for (let j = 0; j < ny; j++) body += `<text x="${M / 2}" y="${Y(j) + S / 2 + 5}" class="axis">${j + 1}</text>`;
    body += outlines(hl, place => {
      const m = /^cell:(\d+),(\d+)$/.exec(place);
      return m ? [X(+m[1]) + 1, Y(+m[2]) + 1, S - 2, S - 2] : null;
    });
    const row = (label, pieces) => pieces && pieces.length
      ? `<div class="piece-row"><b>${esc(label)}</b> ` + pieces.map(p =>
        `<span class="mini-pyr" title="${esc(seat(p.colour))} ${esc(p.size)}">` +
        `<svg viewBox="0 0 30 30" width="26" height="26">${pyramid(15, 28, 28 * (SIZES[p.size] || 0.5) / 0.82, colour(p.colour))}</svg></span>`).join("") + `</div>`
      : "";
    let extra = chip(t("b.stage"), v.stage || "");
    extra += row(t("b.eaten"), v.eaten);
    for (const [s, ps] of Object.entries(v.hands || {})) extra += row(t("b.to_place") + " " + seat(s), ps);
    extra += row(t("b.grues"), v.grues_to_set);
    return svg(W, H, body, t("board")) + `<div class="board-extra">${extra}</div>`;
  }

  /* -- Altitude: each player's mountain of cards -------------------------------------------- */
  function altitude(v, hl) {
    const CW = 52, CH = 72, STEP = 56;
    let html = `<div class="mountains">`;
    for (const s of (v.players || [])) {
      const m = (v.mountains || {})[s] || {cards: []};
      const cards = m.cards || [];
      const maxX = Math.max(4, ...cards.map(c => c.x + 1));
      const maxE = Math.max(1, ...cards.map(c => c.etage));
      const W = maxX * (CW + 6) + 10, H = (maxE - 1) * STEP + CH + 10;
      let body = "";
      for (const c of cards.slice().sort((a, b) => a.etage - b.etage)) {
        const x = 5 + c.x * (CW + 6), y = 5 + (maxE - c.etage) * STEP;
        const place = `card:${s}:${c.etage}:${c.pos}`;
        const word = c.kind !== "mountain" && c.kind !== "telepherique";
        const label = c.kind === "mountain" ? c.value : c.kind === "telepherique" ? "⟰"
          : String(c.animal || c.kind).slice(0, 6);
        body += `<g class="tappable${hlClass(place, hl)}" data-place="${esc(place)}">` +
          `<rect class="card-rect ${esc(c.kind)}${c.covered ? " covered" : ""}" x="${x}" y="${y}" width="${CW}" height="${CH}" rx="5"/>` +
          `<text x="${x + CW / 2}" y="${y + 24}" class="card-label${word ? " word" : ""}">${esc(label)}</text>` +
          (word && c.value ? `<text x="${x + CW / 2}" y="${y + 44}" class="card-label word">${esc(c.value)}</text>` : "") +
          `<title>${esc(c.card)}</title></g>`;
      }
      const active = v.active === s ? " active" : "";
      html += `<figure class="mountain${active}"><figcaption><span class="swatch" data-colour="${esc(s)}"></span>` +
        `${esc(seat(s))} · ${esc(t("k.heights"))} ${m.height || 0}</figcaption>` +
        svg(W, H, body, seat(s)) + `</figure>`;
    }
    html += `</div>`;
    const d = v.discard || {};
    let extra = chip(t("b.discard"), d.top ? `${d.top} (${d.count})` : `— (${d.count || 0})`, "zone:discard", hl);
    extra += chip(t("b.deck"), v.deck);
    if (v.drawn) extra += chip(t("b.drawn"), v.drawn);
    for (const [s, n] of Object.entries(v.hands || {})) extra += chip(t("b.hands") + " " + seat(s), n);
    return html + `<div class="board-extra">${extra}</div>`;
  }

  /* -- La Ville des Nains: the dice, the stones, the kobold's tower and the city ------------ */
  const SHAPES = {cube: "■", long: "▬", cylinder: "●", roof: "▲"};
  function stone(st, cls) {
    const c = st.colour;
    return `<span class="stone ${cls || ""}" data-colour="${esc(c)}" title="${esc(seat(c))} ${esc(st.shape || "")}">` +
      `${esc(SHAPES[st.shape] || "")}</span>`;
  }
  function villeDesNains(v, hl) {
    const tray = v.tray || {};
    let html = `<div class="vdn">`;
    html += `<div class="vdn-row tappable${hlClass("zone:tray", hl)}" data-place="zone:tray"><b>${esc(t("b.tray"))}</b> ` +
      (tray.colour || []).map(f => `<span class="die" data-colour="${esc(f)}">${esc(seat(f))}</span>`).join("") +
      (tray.kobold ? `<span class="die kobold-die">${esc(tray.kobold)}</span>` : "") + `</div>`;
    const k = v.kobold || {};
    html += `<div class="vdn-row tappable${hlClass("zone:kobold", hl)}" data-place="zone:kobold"><b>${esc(t("b.kobold"))}</b> ` +
      `<span class="tower-bar">` + Array.from({length: k.max || 12}, (_, i) =>
        `<span class="slot${i < (k.height || 0) ? " filled" : ""}${i < (k.marked || 0) ? " marked" : ""}"></span>`).join("") +
      `</span> ${k.height || 0}/${k.max || 12}</div>`;
    html += `<div class="vdn-row tappable" data-place="zone:pool"><b>${esc(t("b.pool"))}</b> ` +
      Object.entries(v.pool || {}).map(([c, shapes]) => Object.entries(shapes).map(([sh, n]) =>
        n ? `<span class="pool-item">${stone({colour: c, shape: sh})}×${n}</span>` : "").join("")).join("") + `</div>`;
    for (const p of (v.players || [])) {
      const active = v.turn === p.seat ? " active" : "";
      html += `<div class="vdn-player${active}"><div class="vdn-seat"><span class="swatch" data-colour="${esc(p.seat)}"></span>${esc(seat(p.seat))}` +
        `${p.role === "kobold" ? " (kobold)" : ""}</div><div class="buildings">`;
      for (const b of (p.buildings || [])) {
        const place = `building:${p.seat}:${b.index}`;
        const name = b.name ? (b.name[window.Lang.current] || b.name.en || "") : "";
        const stones = b.stones || [];
        const plan = b.plan || [];
        let slots = "";
        const n = Math.max(b.need || 0, stones.length, plan.length);
        for (let i = n - 1; i >= 0; i--) {
          if (i < stones.length) slots += stone(stones[i]);
          else slots += `<span class="stone ghost">${esc(SHAPES[plan[i]] || "")}</span>`;
        }
        html += `<div class="building tappable${hlClass(place, hl)}${b.finished ? " finished" : ""}" data-place="${esc(place)}">` +
          `<div class="slots">${slots}</div><div class="bname">${esc(name)}${b.finished ? " ✓" : ""}</div></div>`;
      }
      html += `</div></div>`;
    }
    html += `</div>`;
    return html + `<div class="board-extra">${chip(t("b.talon"), v.talon)}${chip(t("b.stage"), v.stage || "")}</div>`;
  }

  const DRAW = {
    "haut-les-cubes": hautLesCubes, "terra-turrium": terraTurrium, "gleebs-and-grues": gleebs,
    "altitude": altitude, "ville-des-nains": villeDesNains
  };

  window.Boards = {
    colour, esc,
    second(name) { return SECOND[name] || null; },
    draw(view, highlight) {
      if (!view) return "";
      const fn = DRAW[view.kind];
      if (!fn) return `<pre class="raw-board">${esc(JSON.stringify(view, null, 1))}</pre>`;
      return fn(view, highlight || {});
    }
  };
})();
