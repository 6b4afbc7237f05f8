// The Replay page's stepper. Python sends a game once (dashboard/stepper.py): the picture drawn once, and
// per seq the attribute ops that step it; this module applies them on key presses, clicks and autoplay,
// and reports the position back (debounced). It holds no game rule and no geometry.
const REPORT_MS = 400;
const ROW_H = 24;

function decode(bytes) {
  const nl = bytes.indexOf(10);
  const text = new TextDecoder();
  return { head: JSON.parse(text.decode(bytes.subarray(0, nl))), body: () => JSON.parse(text.decode(bytes.subarray(nl + 1))) };
}

function after(list, seq) { // first value > seq in a sorted list
  let lo = 0, hi = list.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid] > seq) hi = mid; else lo = mid + 1; }
  return lo < list.length ? list[lo] : null;
}
function before(list, seq) { // last value < seq in a sorted list
  let lo = 0, hi = list.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid] < seq) lo = mid + 1; else hi = mid; }
  return lo > 0 ? list[lo - 1] : null;
}

function setValue(el, attr, value) {
  if (attr === "text") el.textContent = value ?? "";
  else if (attr === "html") el.innerHTML = value ?? "";
  else if (value === null || value === undefined) el.removeAttribute(attr);
  else el.setAttribute(attr, value);
}

// The words of the controls in the page's language (Python sends them with every run: dashboard/replay_component.py)
function speak(root, texts) {
  if (!texts) return;
  for (const el of root.querySelectorAll("[data-t]")) if (texts[el.dataset.t]) el.textContent = texts[el.dataset.t];
  for (const attr of ["title", "aria-label"]) {
    for (const el of root.querySelectorAll(`[data-t-${attr}]`)) {
      const text = texts[el.getAttribute(`data-t-${attr}`)];
      if (text) el.setAttribute(attr, text);
    }
  }
}

class Stepper {
  constructor(root, game, head) {
    this.root = root; this.g = game; this.token = head.token; this.last = game.last; this.texts = head.texts || {};
    this.strings = game.scene.strings; this.frames = game.scene.frames;
    this.cur = 0; this.timer = null; this.playing = null; this.flipped = !!head.flipped;
    this.q = (sel) => root.querySelector(sel);
    this.q(".rc-scene-css").textContent = game.scene.css || "";
    const pic = this.q(".rc-pic");
    pic.innerHTML = game.scene.html;
    this.els = new Map();
    for (const el of pic.querySelectorAll("[id]")) this.els.set(el.id, el);
    this.seqEls = [...pic.querySelectorAll("[data-seq]")];
    this.turnEls = [...pic.querySelectorAll("[data-centre]")];
    const list = this.q(".rc-list");
    list.innerHTML = '<div class="rc-list-space"><div class="rc-list-win"></div></div>';
    this.list = list; this.win = list.querySelector(".rc-list-win");
    this.rowSeqs = game.row_seqs; this.rowHtml = game.rows; this.rowIndex = new Map();
    this.rowSeqs.forEach((s, i) => this.rowIndex.set(s, i));
    list.firstChild.style.height = `${this.rowSeqs.length * ROW_H}px`;
    this.listTop = 0; this.listView = list.clientHeight || 300; this.winFirst = -1; this.nowRow = null;
    list.addEventListener("scroll", () => { this.listTop = list.scrollTop; this.drawRows(); }, { passive: true });
    if (window.ResizeObserver) new ResizeObserver(() => { this.listView = list.clientHeight || 300; this.drawRows(); }).observe(list);
    this.luck = this.q(".rc-luck-box");
    const noLuck = document.createElement("span");
    noLuck.className = "rc-muted";
    noLuck.textContent = this.texts.no_luck || "No dice thrown in this game: no luck to draw.";
    if (game.luck.svg) this.luck.innerHTML = game.luck.svg; else this.luck.replaceChildren(noLuck);
    this.q(".rc-luck-legend").innerHTML = game.luck.legend || "";
    this.luckNow = game.luck.svg ? this.luck.appendChild(document.createElement("div")) : null;
    if (this.luckNow) this.luckNow.className = "rc-luck-now";
    this.luckSeqs = [...this.luck.querySelectorAll("circle[data-seq]")].map((c) => +c.dataset.seq);
    this.caption = this.q(".rc-caption");
    this.q(".rc-last").textContent = String(this.last);
    this.q(".rc-flip").hidden = !(game.sides && game.sides.length > 1);
    this.apply(0, 0, true);
    this.cur = 0;
    this.go(Math.max(0, Math.min(head.start | 0, this.last)), { quiet: true });
    this.setFlip(this.flipped);
    this.refresh();
  }
  apply(from, to, include) { // ops of frames (from, to], or frame 0 alone when include
    const st = this.strings, frames = this.frames;
    const set = (ops, forward) => {
      if (forward) for (let i = 0; i < ops.length; i += 4) { const el = this.els.get(st[ops[i]]); if (el) setValue(el, st[ops[i + 1]], st[ops[i + 2]]); }
      else for (let i = ops.length - 4; i >= 0; i -= 4) { const el = this.els.get(st[ops[i]]); if (el) setValue(el, st[ops[i + 1]], st[ops[i + 3]]); }
    };
    if (include) { set(frames[0], true); return; }
    if (Math.abs(to - from) === 1) { set(frames[Math.max(from, to)], to > from); return; }
    const pending = new Map();
    if (to > from) for (let s = from + 1; s <= to; s++) { const ops = frames[s]; for (let i = 0; i < ops.length; i += 4) pending.set(ops[i] + ":" + ops[i + 1], [ops[i], ops[i + 1], ops[i + 2]]); }
    else for (let s = from; s > to; s--) { const ops = frames[s]; for (let i = ops.length - 4; i >= 0; i -= 4) pending.set(ops[i] + ":" + ops[i + 1], [ops[i], ops[i + 1], ops[i + 3]]); }
    for (const [id, attr, value] of pending.values()) { const el = this.els.get(st[id]); if (el) setValue(el, st[attr], st[value]); }
  }
  go(target, opts = {}) {
    target = Math.max(0, Math.min(this.last, target | 0));
    const t0 = opts.t0;
    if (target !== this.cur) { this.apply(this.cur, target, false); this.cur = target; }
    this.refresh();
    if (t0 !== undefined) {
      requestAnimationFrame(() => setTimeout(() => { (window.__rcStepTimes = window.__rcStepTimes || []).push(performance.now() - t0); }, 0));
    }
    if (!opts.quiet) this.report();
  }
  refresh() {
    const s = this.cur;
    for (const el of this.seqEls) el.setAttribute("data-seq", String(s));
    this.root.dataset.seq = String(s);
    this.caption.innerHTML = this.g.captions[s] || "";
    this.q(".rc-seq-now").value = String(s);
    const idx = this.rowIndex.has(s) ? this.rowIndex.get(s) : -1;
    const top = idx * ROW_H, view = this.listView;
    let want = this.listTop;
    if (idx < 0) want = 0;
    else if (top < want + ROW_H) want = Math.max(0, top - ROW_H * 2);
    else if (top + ROW_H > want + view - ROW_H) want = top + ROW_H * 3 - view;
    if (want !== this.listTop) { this.listTop = want; this.list.scrollTop = want; }
    this.drawRows();
    if (this.luckNow && this.last > 0) {
      const l = this.g.luck, x = l.x0 + (s * (l.x1 - l.x0)) / this.last;
      this.luckNow.style.transform = `translateX(${(100 * x / l.width).toFixed(2)}%)`;
    }
    const dis = (sel, off) => { const b = this.q(sel); if (b) b.disabled = off; };
    dis(".rc-first", s <= 0); dis(".rc-prev", s <= 0); dis(".rc-next", s >= this.last); dis(".rc-lastb", s >= this.last);
    for (const kind of ["violation", "ruling", "swing", "turn"]) {
      const list2 = this.g.jumps[kind] || [];
      dis(`.rc-jump[data-kind="${kind}"][data-dir="-1"]`, before(list2, s) === null);
      dis(`.rc-jump[data-kind="${kind}"][data-dir="1"]`, after(list2, s) === null);
    }
  }
  drawRows() { // only the rows in view are in the DOM
    const first = Math.max(0, Math.floor(this.listTop / ROW_H) - 6);
    const count = Math.ceil(this.listView / ROW_H) + 12;
    if (first !== this.winFirst) {
      this.winFirst = first;
      this.win.style.top = `${first * ROW_H}px`;
      this.win.innerHTML = this.rowHtml.slice(first, first + count).join("");
      this.nowRow = null;
    }
    const el = this.win.querySelector(`.rc-ev[data-seq="${this.cur}"]`);
    if (el !== this.nowRow) {
      if (this.nowRow) this.nowRow.classList.remove("rc-now");
      if (el) el.classList.add("rc-now");
      this.nowRow = el;
    }
  }
  jump(kind, dir) {
    const list = this.g.jumps[kind] || [];
    const target = dir > 0 ? after(list, this.cur) : before(list, this.cur);
    if (target !== null) this.go(target);
  }
  report() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.setStateValue) this.setStateValue("position", { token: this.token, seq: this.cur, flipped: this.flipped });
    }, REPORT_MS);
  }
  play(on) {
    if (on === undefined) on = !this.playing;
    clearInterval(this.playing); this.playing = null;
    const button = this.q(".rc-play");
    if (on) {
      if (this.cur >= this.last) this.go(0, { quiet: true });
      const speed = +this.q(".rc-speed").value || 2;
      this.playing = setInterval(() => { if (this.cur >= this.last) this.play(false); else this.go(this.cur + 1); }, 1000 / speed);
    }
    this.relabel();
    button.setAttribute("aria-pressed", this.playing ? "true" : "false");
    this.root.dataset.playing = this.playing ? "true" : "false";
  }
  setFlip(on) {
    this.flipped = !!on;
    for (const el of this.turnEls) {
      const [cx, cy] = el.dataset.centre.split(",");
      if (this.flipped) el.setAttribute("transform", `rotate(180 ${cx} ${cy})`);
      else el.removeAttribute("transform");
      el.closest("svg").classList.toggle("rc-flipped", this.flipped);
    }
    this.root.dataset.flipped = this.flipped ? "true" : "false";
    this.relabel();
  }
  relabel() { // the words that change with the state: Play or Pause, the side the board is seen from
    this.q(".rc-play").textContent = this.playing ? `⏸ ${this.texts.pause || "Pause"}` : `▶ ${this.texts.play || "Play"}`;
    const sides = this.g.sides || [];
    const side = sides[this.flipped ? 1 : 0];
    if (sides.length > 1) this.q(".rc-side").textContent = (this.texts.side || "seen from {side}'s side").replace("{side}", side);
  }
  stop() { clearInterval(this.playing); this.playing = null; clearTimeout(this.timer); }
}

function wire(root) {
  if (root.__rcWired) return;
  root.__rcWired = true;
  const ctl = () => root.__rc;
  root.addEventListener("click", (ev) => {
    const c = ctl(); if (!c) return;
    const t = ev.target.closest("button, .rc-ev, circle[data-seq], svg.rc-luck");
    if (!t) return;
    if (t.matches(".rc-first")) c.go(0);
    else if (t.matches(".rc-prev")) c.go(c.cur - 1);
    else if (t.matches(".rc-next")) c.go(c.cur + 1);
    else if (t.matches(".rc-lastb")) c.go(c.last);
    else if (t.matches(".rc-play")) c.play();
    else if (t.matches(".rc-flip")) { c.setFlip(!c.flipped); c.report(); }
    else if (t.matches(".rc-jump")) c.jump(t.dataset.kind, +t.dataset.dir);
    else if (t.matches(".rc-ev")) c.go(+t.dataset.seq);
    else if (t.matches("circle[data-seq]")) c.go(+t.dataset.seq);
    else if (t.matches("svg.rc-luck") && c.luckSeqs.length) {
      const pt = t.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
      const x = pt.matrixTransform(t.getScreenCTM().inverse()).x, l = c.g.luck;
      const seq = ((x - l.x0) / (l.x1 - l.x0)) * c.last;
      let best = c.luckSeqs[0];
      for (const s of c.luckSeqs) if (Math.abs(s - seq) < Math.abs(best - seq)) best = s;
      c.go(best);
    }
  });
  root.querySelector(".rc-seq-now").addEventListener("change", (ev) => { const c = ctl(); if (c) c.go(+ev.target.value); });
  root.querySelector(".rc-speed").addEventListener("change", () => { const c = ctl(); if (c && c.playing) c.play(true); });
}

const KEYS = { ArrowLeft: (c) => c.go(c.cur - 1), ArrowRight: (c) => c.go(c.cur + 1), ArrowUp: (c) => c.go(0),
  ArrowDown: (c) => c.go(c.last), Home: (c) => c.go(0), End: (c) => c.go(c.last), " ": (c) => c.play(),
  f: (c) => { c.setFlip(!c.flipped); c.report(); } };

function keys() {
  if (window.__rcReplayKeys) return;
  window.__rcReplayKeys = true;
  document.addEventListener("keydown", (ev) => {
    const c = window.__rcReplay;
    const act = KEYS[ev.key];
    if (!c || !act || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const path = ev.composedPath ? ev.composedPath() : [ev.target];
    if (path.some((el) => el && el.tagName && (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.isContentEditable))) return;
    if (!c.root.isConnected) return;
    ev.preventDefault();
    const t0 = ev.timeStamp;
    if (ev.key === "ArrowLeft" || ev.key === "ArrowRight" || ev.key === "ArrowUp" || ev.key === "ArrowDown") {
      const target = { ArrowLeft: c.cur - 1, ArrowRight: c.cur + 1, ArrowUp: 0, ArrowDown: c.last }[ev.key];
      c.go(target, { t0 });
    } else act(c);
  }, true);
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const root = parentElement.querySelector(".rc-replay");
  if (!root || !data) return;
  const { head, body } = decode(data);
  speak(root, head.texts);
  let c = root.__rc;
  if (!c || c.token !== head.token) {
    if (data.length <= data.indexOf(10) + 1) { // the page thinks this browser holds the game: it does not
      setStateValue("position", { token: null, seq: head.start });
      return;
    }
    if (c) c.stop();
    c = root.__rc = new Stepper(root, body(), head);
  }
  c.setStateValue = setStateValue;
  if (head.texts) { c.texts = head.texts; c.relabel(); }
  window.__rcReplay = c;
  wire(root);
  keys();
  return () => { c.stop(); if (window.__rcReplay === c) window.__rcReplay = null; };
}
