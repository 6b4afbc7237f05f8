// A round's time on a dashboard page (the Record page, a player's page, Standings): counted down here from what
// the server sent (data.ends - data.now: the time left at the server's instant; the browser counts on from the
// moment the data arrived, so its own clock need not agree with the server's, and no run of the page is needed per
// second). Its words come from the server: data.left_words ("Round 2: {left} left") and data.called_words.
const TICK_MS = 500;

function text(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

function tick(root) {
  const t = root.__roundTime;
  if (!t) return;
  const left = t.left - (performance.now() - t.arrived);
  const called = left <= 0;
  root.classList.toggle("rc-round-called", called);
  root.dataset.left = String(Math.max(0, Math.round(left)));
  root.dataset.called = called ? "true" : "false";
  root.textContent = called ? t.data.called_words : t.data.left_words.replace("{left}", text(left));
}

export default function ({ data, parentElement }) {
  const root = parentElement.querySelector(".rc-round-time");
  if (!root || !data) return;
  root.__roundTime = { data, left: Date.parse(data.ends) - Date.parse(data.now), arrived: performance.now() };
  tick(root);
  if (!root.__timer) root.__timer = setInterval(() => tick(root), TICK_MS);
  return () => { clearInterval(root.__timer); root.__timer = null; };
}
