/* The scores over the game, drawn as SVG here (no chart library, nothing from the internet).
 * Chart.draw(series) takes {players, points: [{seq, notation, scores}]} and returns SVG markup:
 * one line per seat in its colour, the x axis in effective moves, the y axis in points. */
"use strict";

(function () {
  function niceStep(max) {
    const raw = Math.max(1, max) / 5;
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
    return 10 * p;
  }

  window.Chart = {
    draw(series) {
      const esc = window.Boards.esc;
      if (!series || !series.points || !series.points.length) return "";
      const longest = Math.max(4, ...series.players.map(p => window.Lang.seat(p).length + 4));
      const W = 460, H = 220, L = 34, R = 16 + longest * 8.5, T = 10, B = 26;
      const pts = series.points;
      const n = Math.max(1, pts.length - 1);
      let max = 1;
      for (const p of pts) for (const v of Object.values(p.scores || {})) max = Math.max(max, v);
      const step = Math.max(1, niceStep(max));  // scores are whole points
      const top = Math.ceil(max / step) * step;
      const x = i => L + (W - L - R) * i / n;
      const y = v => T + (H - T - B) * (1 - v / top);
      let body = "";
      for (let v = 0; v <= top; v += step) {
        body += `<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/>` +
          `<text class="tick" x="${L - 6}" y="${y(v) + 5}" text-anchor="end">${v}</text>`;
      }
      const xStep = Math.max(1, niceStep(n));
      for (let i = 0; i <= n; i += xStep) {
        body += `<text class="tick" x="${x(i)}" y="${H - 8}" text-anchor="middle">${i}</text>`;
      }
      const labels = [];
      for (const seat of series.players) {
        const line = pts.map((p, i) => `${x(i).toFixed(1)},${y((p.scores || {})[seat] || 0).toFixed(1)}`).join(" ");
        const colour = ["white", "yellow"].includes(seat) ? (seat === "white" ? "#9a9a9a" : "#d9a800")
          : window.Boards.colour(seat);
        body += `<polyline class="series" points="${line}" stroke="${colour}"/>`;
        const last = (pts[pts.length - 1].scores || {})[seat] || 0;
        labels.push({seat, last, colour, y: y(last)});
      }
      labels.sort((a, b) => a.y - b.y);
      for (let i = 1; i < labels.length; i++) labels[i].y = Math.max(labels[i].y, labels[i - 1].y + 17);
      for (const l of labels) {
        body += `<circle cx="${x(n)}" cy="${y(l.last)}" r="4" fill="${l.colour}" class="dot"/>` +
          `<text class="legend" x="${W - R + 8}" y="${l.y + 5}" fill="${l.colour}">${esc(window.Lang.seat(l.seat))} ${l.last}</text>`;
      }
      return `<svg class="chart-svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(window.Lang.t("chart"))}">${body}</svg>`;
    }
  };
})();
