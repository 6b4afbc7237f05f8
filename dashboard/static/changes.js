// A listener of what changed (dashboard/changes.py): mounted by a part of a page with the keys it shows and the
// value it shows of each (data.watch). The page holds one event stream (window.rcChanges) for the keys of all its
// listeners; a listener whose key is told past its value sets its trigger once for that value, which runs again
// the fragment it is mounted in (or the page). Nothing is asked of the server while nothing changes.
// Each told change and each trigger is counted in window.rcChanges.told / .asked (for tests and benchmarks).

const S = (window.rcChanges = window.rcChanges || { mounts: new Set(), source: null, url: "", latest: {}, told: 0, asked: 0 });

function look(m) {
  if (!m.el.isConnected) { S.mounts.delete(m); return; }
  for (const [key, shown] of Object.entries(m.watch || {})) {
    const v = S.latest[key];
    if (v === undefined || v <= shown || (m.asked[key] !== undefined && m.asked[key] >= v)) continue;
    m.asked[key] = v;
    S.asked += 1;
    m.trigger("changed", { key, v });
    return;
  }
}

function connect(base) {
  for (const m of [...S.mounts]) if (!m.el.isConnected) S.mounts.delete(m);
  const keys = [...new Set([...S.mounts].flatMap((m) => Object.keys(m.watch || {})))].sort();
  const url = keys.length ? `${base}?${keys.map((k) => "key=" + encodeURIComponent(k)).join("&")}` : "";
  if (url === S.url) return;
  if (S.source) S.source.close();
  S.source = null;
  S.url = url;
  if (!url) return;
  const source = (S.source = new EventSource(url));
  source.addEventListener("snapshot", (ev) => {
    let told;
    try { told = JSON.parse(ev.data); } catch { return; }
    if (!told || typeof told.key !== "string" || typeof told.v !== "number") return;
    if (S.latest[told.key] !== undefined && S.latest[told.key] >= told.v) return;
    S.latest[told.key] = told.v;
    S.told += 1;
    for (const m of [...S.mounts]) look(m);
  });
}

export default function ({ data, parentElement, setTriggerValue }) {
  if (!data) return;
  let m = parentElement.__rcChanges;
  if (!m) {
    m = parentElement.__rcChanges = { el: parentElement, asked: {} };
    S.mounts.add(m);
  }
  const watch = data.watch || {};
  for (const key of Object.keys(m.asked)) { // drawn again: what it shows now counts
    if (watch[key] === undefined || watch[key] >= m.asked[key]) delete m.asked[key];
  }
  m.watch = watch;
  m.trigger = setTriggerValue;
  S.mounts.add(m);
  connect(data.url);
  look(m);
  return () => { S.mounts.delete(m); parentElement.__rcChanges = null; };
}
