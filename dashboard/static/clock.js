// The game clock on the Record page: both players' remaining time, counted down here from the figures the
// server sent (data.faces[].remaining at data.now: the server's instant; the browser counts on from the moment
// the data arrived, so no run of the page is needed per second), one big button to pass the clock, a pause, the
// clock's start and a fallen flag. A tap is sent to Python as {action, seq, n}; Python writes the event with its
// own instant and the next data answers it. It knows no rule: Python decides what each tap records. When the
// running player's time runs out here, the page tells Python once (auto): the flag falls by itself.
const TICK_MS = 200;

function shown(ms, negative) {
  const sign = ms < 0 && negative ? "-" : "";
  const total = ms < 0 ? (negative ? Math.ceil(-ms / 1000) : 0) : Math.floor(ms / 1000);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${sign}${h}:${two(m)}:${two(s)}` : `${sign}${m}:${two(s)}`;
}

function tick(root) {
  const c = root.__clock;
  if (!c) return;
  const spent = performance.now() - c.arrived;
  for (const face of c.data.faces) {
    const el = root.querySelector(`.rc-clock-face[data-player="${CSS.escape(face.player)}"]`);
    if (!el) continue;
    const left = face.running ? face.remaining - spent : face.remaining;
    el.dataset.remaining = String(Math.round(left));
    el.querySelector(".rc-clock-time").textContent = shown(left, face.flagged);
    el.classList.toggle("rc-clock-out", left <= 0);
    const flag = root.querySelector(`button[data-action="flag:${CSS.escape(face.player)}"]`);
    if (flag) flag.hidden = !(left <= 0 && !face.flagged && c.data.started && !c.data.stopped);
    // the running player's time ran out: the flag falls by itself (told to Python once per clock state; Python
    // records it at the instant the time ran out, or nothing if the other phone did already)
    const once = `${c.data.seq}:${face.player}`;
    if (flag && face.running && left <= 0 && !face.flagged && root.__autoFlag !== once && c.trigger) {
      root.__autoFlag = once;
      const n = Math.max(Date.now(), (window.__rcClockN || 0) + 1);
      window.__rcClockN = n;
      c.trigger("tap", { action: `flag:${face.player}`, seq: c.data.seq, n, auto: true });
    }
  }
}

function button(action, words, cls) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.dataset.action = action;
  b.textContent = words;
  return b;
}

function draw(root, data, trigger) {
  root.innerHTML = "";
  root.classList.remove("rc-clock-pending");
  root.dataset.seq = String(data.seq);
  root.classList.toggle("rc-clock-paused", !!data.paused);
  const faces = document.createElement("div");
  faces.className = "rc-clock-faces";
  for (const face of data.faces) {
    const el = document.createElement("div");
    el.className = "rc-clock-face" + (face.running ? " rc-clock-running" : "") + (face.flagged ? " rc-clock-flagged" : "");
    el.dataset.player = face.player;
    el.innerHTML = '<div class="rc-clock-name"></div><div class="rc-clock-time"></div>';
    el.querySelector(".rc-clock-name").textContent = face.name;
    el.querySelector(".rc-clock-time").textContent = face.shown;
    faces.appendChild(el);
  }
  root.appendChild(faces);
  const status = document.createElement("div");
  status.className = "rc-clock-status";
  status.textContent = data.status || "";
  root.appendChild(status);
  const taps = data.taps || {};
  const row = document.createElement("div");
  row.className = "rc-clock-taps";
  for (const [action, words] of Object.entries(taps)) {
    if (action.startsWith("flag:")) continue;
    const big = action === "pass" || action === "resume" || action.startsWith("start:");
    row.appendChild(button(action, words, big ? "rc-clock-big" : "rc-clock-small"));
  }
  for (const [pid, words] of Object.entries(data.flag_words || {})) {
    const b = button(`flag:${pid}`, words, "rc-clock-small rc-clock-flag");
    b.hidden = !taps[`flag:${pid}`];
    row.appendChild(b);
  }
  root.appendChild(row);
  row.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (!b || root.classList.contains("rc-clock-pending")) return;
    root.classList.add("rc-clock-pending");
    for (const other of row.querySelectorAll("button")) other.disabled = true;
    const n = Math.max(Date.now(), (window.__rcClockN || 0) + 1);
    window.__rcClockN = n;
    trigger("tap", { action: b.dataset.action, seq: data.seq, n });
    clearTimeout(root.__lost);
    root.__lost = setTimeout(() => draw(root, root.__clock.data, trigger), 15000); // no answer: as sent last
  });
}

export default function ({ data, parentElement, setTriggerValue }) {
  const root = parentElement.querySelector(".rc-clock");
  if (!root || !data) return;
  clearTimeout(root.__lost);
  root.__clock = { data, arrived: performance.now(), trigger: setTriggerValue };
  draw(root, data, setTriggerValue);
  tick(root);
  if (!root.__timer) root.__timer = setInterval(() => tick(root), TICK_MS);
  return () => { clearInterval(root.__timer); root.__timer = null; };
}
