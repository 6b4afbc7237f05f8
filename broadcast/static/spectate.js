// A spectator's page in the browser: the snapshots a front end pushes (server-sent events from /feed?key=…,
// broadcast/hub.py) drawn as the Live page's grid of tables or as a stream overlay. It holds no game rule and no
// word of its own: every text and picture comes in the snapshots (made by the follower, in the page's language,
// projections/spectators.py) or in data.texts. Mounted by the dashboard's component (a Streamlit custom component
// v2: the default export gets {data, parentElement}) and by the pages of `rollcall broadcast` alike. A page with
// no feed (a signed-in viewer's, who sees everything) hands its snapshots in data.snapshots at each of its runs.
const RECENT = 500; // draws remembered in window.__rcShown (tests and benchmarks read when a seq was shown)

function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function shown(key, seq, v) {
  const list = (window.__rcShown = window.__rcShown || []);
  list.push({ key, seq, v, at: Date.now() });
  if (list.length > RECENT) list.splice(0, list.length - RECENT);
}

// The game clock of a table (snap.clock): both players' time, the running one counted down here from the figure
// at clock.since (ms), the broadcast delay counted back; ticked by the page (Spectate.tick), never sent again.
function clockLeft(el) {
  const remaining = +el.dataset.remaining;
  if (el.dataset.running !== "1") return remaining;
  return remaining - Math.max(0, Date.now() - (+el.dataset.delay || 0) * 1000 - (+el.dataset.since || 0));
}

function clockText(ms, negative) {
  const total = ms < 0 ? (negative ? Math.ceil(-ms / 1000) : 0) : Math.floor(ms / 1000);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return (ms < 0 && negative ? "-" : "") + (h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`);
}

function clockHtml(clock, cls) {
  if (!clock) return "";
  return `<div class="${cls}">` + clock.faces.map((f) => `<span class="rc-clock-live${f.running ? " rc-clock-live-running" : ""}`
    + `${f.flagged ? " rc-clock-live-flagged" : ""}" data-player="${esc(f.player)}" data-remaining="${esc(f.remaining)}"`
    + ` data-running="${f.running && !clock.paused && !clock.stopped ? 1 : 0}" data-since="${esc(clock.since)}"`
    + ` data-delay="${esc(clock.delay)}" data-flagged="${f.flagged ? 1 : 0}"><span class="rc-clock-live-name">${esc(f.name)}</span> `
    + `<b class="rc-clock-live-time">${esc(f.shown)}</b></span>`).join("") + "</div>";
}

function tickClocks(root) {
  for (const el of root.querySelectorAll(".rc-clock-live")) {
    const left = clockLeft(el);
    el.dataset.left = String(Math.round(left));
    el.querySelector(".rc-clock-live-time").textContent = clockText(left, el.dataset.flagged === "1");
  }
}

// A round's time (snap.round_time): counted down here to its end (ends, ISO) by this device's clock; its words
// come in the snapshot ("Round 2: {left} left", "Round 2: time is called").
function roundTimeHtml(rt, cls) {
  if (!rt) return "";
  return `<div class="rc-round-time ${cls}" data-ends="${esc(Date.parse(rt.ends))}" data-left-words="${esc(rt.left_words)}"`
    + ` data-called-words="${esc(rt.called_words)}"></div>`;
}

function tickRoundTimes(root) {
  for (const el of root.querySelectorAll(".rc-round-time")) {
    const left = +el.dataset.ends - Date.now();
    const called = left <= 0;
    el.classList.toggle("rc-round-called", called);
    el.dataset.left = String(Math.max(0, Math.round(left)));
    el.textContent = called ? el.dataset.calledWords : el.dataset.leftWords.replace("{left}", clockText(left, false));
  }
}

class Spectate {
  constructor(root, data) {
    this.root = root;
    this.snaps = new Map();
    this.cards = new Map();
    this.drawn = new Map(); // part -> v drawn
    this.pending = false;
    this.ticker = setInterval(() => { tickClocks(this.root); tickRoundTimes(this.root); }, 500);
    this.start(data);
  }

  start(data) {
    this.data = data;
    this.keys = data.keys || [];
    this.token = JSON.stringify([data.feed, this.keys, data.view]);
    if (this.source) this.source.close();
    this.snaps.clear();
    this.root.replaceChildren();
    this.cards.clear();
    this.drawn.clear();
    this.root.dataset.view = data.view;
    for (const snap of data.snapshots || []) this.take(snap); // a signed-in viewer's page: made by the page itself
    this.schedule();
    if (!data.feed) return;
    const query = this.keys.map((k) => "key=" + encodeURIComponent(k)).join("&");
    const source = (this.source = new EventSource(`${data.feed}?${query}`));
    source.addEventListener("snapshot", (ev) => this.take(JSON.parse(ev.data)));
    source.addEventListener("gone", (ev) => { this.snaps.delete(JSON.parse(ev.data).key); this.schedule(); });
    source.onopen = () => { this.root.dataset.connected = "true"; };
    source.onerror = () => { this.root.dataset.connected = "false"; }; // EventSource connects again by itself
  }

  stop() { if (this.source) this.source.close(); this.source = null; clearInterval(this.ticker); }

  take(snap) {
    const had = this.snaps.get(snap.key);
    if (had && had.v >= snap.v) return;
    if (snap.kept) { // the front end left out the parts as they were in the version before, which it sent us
      if (!had || had.v !== snap.prior) { this.start(this.data); return; } // missed it: follow anew, sent whole
      for (const part of snap.kept) snap[part] = had[part];
    }
    this.snaps.set(snap.key, snap);
    this.schedule();
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    const run = () => { this.pending = false; this.draw(); };
    if (document.hidden) setTimeout(run, 0); else requestAnimationFrame(run);
  }

  draw() {
    if (this.data.view === "overlay") this.overlay(); else this.live();
    tickClocks(this.root);
    tickRoundTimes(this.root);
  }

  message(text) {
    let el = this.root.querySelector(":scope > .rc-spectate-message");
    if (!text) { if (el) el.remove(); return; }
    if (!el) { el = document.createElement("div"); el.className = "rc-spectate-message"; this.root.prepend(el); }
    el.textContent = text;
  }

  // --- the Live page: a grid of the tables a round (or the index) lists ---------------------------
  live() {
    const top = this.snaps.get(this.keys[0]);
    if (!top) { this.message((this.data.texts || {}).waiting); return; }
    const list = top.kind === "tournament" ? this.snaps.get(top.follow[0]) : top;
    const tables = list ? list.follow || [] : [];
    this.message(tables.length ? "" : (list || top).empty);
    const rt = list ? list.round_time : null;
    let timer = this.root.querySelector(":scope > .rc-round-time");
    const timerKey = rt ? rt.ends + rt.left_words : "";
    if (timer && timer.dataset.key !== timerKey) { timer.remove(); timer = null; }
    if (rt && !timer) {
      this.root.insertAdjacentHTML("afterbegin", roundTimeHtml(rt, "rc-live-round-time"));
      timer = this.root.querySelector(":scope > .rc-round-time");
      timer.dataset.key = timerKey;
    }
    let note = this.root.querySelector(":scope > .rc-live-note");
    const said = list ? list.note : "";
    if (said && !note) { note = document.createElement("div"); note.className = "rc-live-note"; this.root.append(note); }
    if (note) { if (said) note.textContent = said; else note.remove(); }
    // a team round: its matches' totals so far, one line each, above the tables
    let matches = this.root.querySelector(":scope > .rc-live-matches");
    const lines = list && list.matches ? list.matches : [];
    if (lines.length && !matches) {
      matches = document.createElement("ul"); matches.className = "rc-live-matches";
      this.root.insertBefore(matches, this.root.querySelector(":scope > .rc-live-grid"));
    }
    if (matches) {
      if (!lines.length) matches.remove();
      else if (matches.dataset.lines !== JSON.stringify(lines)) {
        matches.dataset.lines = JSON.stringify(lines);
        matches.innerHTML = lines.map((line) => `<li>${esc(line)}</li>`).join("");
      }
    }
    let grid = this.root.querySelector(":scope > .rc-live-grid");
    if (!grid) { grid = document.createElement("div"); grid.className = "rc-live-grid"; this.root.append(grid); }
    grid.dataset.columns = String(tables.length > 4 ? 3 : tables.length > 1 ? 2 : 1);
    const wanted = new Set(tables);
    for (const [key, card] of this.cards) if (!wanted.has(key)) { card.el.remove(); this.cards.delete(key); }
    let before = null;
    for (const key of tables) {
      const snap = this.snaps.get(key);
      let card = this.cards.get(key);
      if (!card) {
        const el = document.createElement("div");
        el.className = "rc-live-card";
        card = { el, v: null };
        this.cards.set(key, card);
      }
      if (snap && card.v !== snap.v) {
        card.v = snap.v;
        card.el.dataset.game = snap.game;
        card.el.dataset.seq = String(snap.seq);
        card.el.innerHTML = this.cardHtml(snap);
        shown(key, snap.seq, snap.v);
      }
      card.el.hidden = !snap;
      const next = before ? before.nextSibling : grid.firstChild;
      if (next !== card.el) grid.insertBefore(card.el, next);
      before = card.el;
    }
  }

  link(snap) {
    if (this.data.link === "overlay") return `overlay?game=${encodeURIComponent(snap.game)}&lang=${encodeURIComponent(this.data.lang || "")}`;
    return snap.link;
  }

  cardHtml(snap) {
    return `<a class="rc-live-follow" href="${esc(this.link(snap))}" target="_self">`
      + `<div class="rc-live-head"><b>${esc(snap.scores)}</b><span class="rc-live-meta">${esc(snap.where)}</span></div>`
      + clockHtml(snap.clock, "rc-live-clock")
      + `<div class="rc-live-pic">${snap.card}</div></a>`; // the pack's picture: its texts escaped where it is made
  }

  // --- the overlay: one table, its board, players, turn and last roll -------------------------------
  overlay() {
    const table = this.snaps.get(this.keys[0]);
    const board = this.snaps.get(this.keys[1]);
    if (!table) { this.message((this.data.texts || {}).waiting); return; }
    this.message("");
    let ov = this.root.querySelector(":scope > .rc-ov");
    if (!ov) {
      ov = document.createElement("div");
      ov.className = "rc-ov";
      ov.innerHTML = '<div class="rc-ov-board"></div><div class="rc-ov-side"></div>';
      this.root.append(ov);
    }
    if (board && this.drawn.get("board") !== board.v) {
      this.drawn.set("board", board.v);
      ov.querySelector(".rc-ov-board").innerHTML = board.picture;
    }
    if (this.drawn.get("table") !== table.v) {
      this.drawn.set("table", table.v);
      ov.dataset.game = table.game;
      ov.dataset.seq = String(table.seq);
      const players = table.players.map((p) => `<div class="rc-ov-panel"><div class="rc-ov-player"><span>${esc(p.name)}</span>`
        + `<span class="rc-ov-score">${esc(p.score)}</span></div>`
        + (p.faction ? `<div class="rc-ov-meta">${esc(p.faction)}</div>` : "") + "</div>").join("");
      const r = table.roll;
      const roll = r ? `<div class="rc-ov-panel rc-ov-roll" data-seq="${esc(r.seq)}"><div>${esc(r.said)}</div>`
        + `<div class="rc-ov-dice">${esc(r.dice)}</div>`
        + (r.odds ? `<div class="rc-ov-meta rc-ov-odds">${esc(r.odds)}</div>` : "")
        + (r.luck ? `<div class="rc-ov-meta rc-ov-luck">${esc(r.luck)}</div>` : "") + "</div>" : "";
      const clock = table.clock ? `<div class="rc-ov-panel">${clockHtml(table.clock, "rc-ov-clock")}</div>` : "";
      const rt = table.round_time ? `<div class="rc-ov-panel">${roundTimeHtml(table.round_time, "rc-ov-round-time")}</div>` : "";
      ov.querySelector(".rc-ov-side").innerHTML = players + clock + rt + `<div class="rc-ov-panel rc-ov-turn">${esc(table.turn)}</div>` + roll;
      shown(table.key, table.seq, table.v);
    }
  }
}

export default function (component) {
  const { data, parentElement } = component;
  const root = parentElement.querySelector(".rc-spectate") || parentElement;
  if (!root || !data) return;
  const token = JSON.stringify([data.feed, data.keys || [], data.view]);
  let s = root.__rcSpectate;
  if (!s) s = root.__rcSpectate = new Spectate(root, data);
  else if (s.token !== token) s.start(data);
  else { s.data = data; for (const snap of data.snapshots || []) s.take(snap); }
  window.__rcSpectate = s;
  return () => { s.stop(); root.__rcSpectate = null; };
}
