// The Record page's table: one component mounted three times per run of the page's fragment (data.part):
//   "board"    the status line and the pack's picture (the board drawn once under data.key, every element's
//              look applied in place); taps on its hexes and models;
//   "offers"   the buttons of what the rules allow now, grouped;
//   "previews" what each tap that records at once changes (sent after the two above, so that they show first).
// A tap is drawn at once from its preview — the status line, the board's changed elements, the event in words,
// the buttons put away — and sent to Python with the seq it was offered at. The next data Python sends answers it
// (data.answered): a later seq confirms it; the same seq is a refusal, and the state Python sends (the state
// before the tap) is drawn again under Python's message. It knows no rule: Python decides what a tap records.
// Each tap's moments are kept in window.rcRecordTaps (tapped, drawn, answered: performance.now()).

const tables = (window.rcRecordTables = window.rcRecordTables || {});
const taps = (window.rcRecordTaps = window.rcRecordTaps || []);
const ANSWER_WAIT_MS = 15000; // a tap with no answer by then is taken as lost: the state sent last is drawn again
const FINGER_PX = 44; // a target on the board a finger hits: drawn hexes smaller than this get a round hit area this wide

function table(game) {
  if (!tables[game]) tables[game] = { pending: null, previews: { seq: null, by: {} }, n: 0 };
  return tables[game];
}

function setValue(el, attr, value) {
  if (attr === "text") el.textContent = value ?? "";
  else if (attr === "html") el.innerHTML = value ?? "";
  else if (value === null || value === undefined) el.removeAttribute(attr);
  else el.setAttribute(attr, value);
}

function applyLook(root, look) {
  const els = root.__els;
  if (!els) return;
  for (const [id, attr, value] of look || []) {
    const el = els.get(id);
    if (el) setValue(el, attr, value);
  }
}

// --- the board -------------------------------------------------------------------------------------------

function drawBoard(t, data, setStateValue) {
  const root = t.boardRoot;
  const status = root.querySelector(".rc-rec-status");
  const title = root.querySelector(".rc-rec-title");
  const picture = root.querySelector(".rc-record-board");
  title.textContent = data.title || "";
  status.textContent = data.status || "";
  if (data.picture !== null && data.picture !== undefined) {
    picture.innerHTML = data.picture;
    picture.dataset.key = "";
    picture.__els = null;
  } else if (picture.dataset.key !== data.key) {
    if (!data.html) { setStateValue("held", ""); return false; } // lost: ask for the drawing again
    picture.innerHTML = data.html;
    picture.dataset.key = data.key;
    picture.__els = new Map([...picture.querySelectorAll("[id]")].map((el) => [el.id, el]));
    setStateValue("held", data.key);
  }
  applyLook(picture, data.look);
  const svg = picture.querySelector("svg.rc-board");
  if (svg) svg.setAttribute("data-seq", String(data.seq));
  const targets = new Set(Object.keys(data.hexes || {}).length ? data.targets || [] : []);
  for (const el of picture.querySelectorAll("polygon.rc-hex[data-hex]")) el.classList.toggle("rc-target", targets.has(el.dataset.hex));
  const models = new Set(Object.keys(data.models || {}));
  for (const el of picture.querySelectorAll("g.rc-model")) el.classList.toggle("rc-target-model", models.has(el.id.slice("model-".length)));
  hitAreas(picture, targets);
  root.dataset.seq = String(data.seq);
  root.classList.remove("rc-pending");
  return true;
}

// Round hit areas over the target hexes where the board is drawn so small that a hex is narrower than a finger
// (a phone): each a circle FINGER_PX wide on the screen around its hex's centre, drawn again when the board's
// size changes. A tap in several is the nearest centre's.
function hitAreas(picture, targets) {
  const svg = picture.querySelector("svg.rc-board");
  if (!svg) return;
  let layer = svg.querySelector("g.rc-hits");
  if (!layer) {
    layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
    layer.setAttribute("class", "rc-hits");
    svg.append(layer);
    new ResizeObserver(() => hitAreas(picture, picture.__targets || new Set())).observe(svg);
  }
  picture.__targets = targets;
  layer.replaceChildren();
  const width = svg.getBoundingClientRect().width;
  const units = svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width;
  if (!width || !units) return;
  const scale = width / units; // screen px per drawing unit
  for (const hex of picture.querySelectorAll("polygon.rc-hex[data-hex]")) {
    if (!targets.has(hex.dataset.hex)) continue;
    const box = hex.getBBox();
    if (Math.min(box.width, box.height) * scale >= FINGER_PX) continue;
    const ring = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    ring.setAttribute("class", "rc-hit");
    ring.setAttribute("cx", String(box.x + box.width / 2));
    ring.setAttribute("cy", String(box.y + box.height / 2));
    ring.setAttribute("r", String(FINGER_PX / 2 / scale));
    ring.dataset.hex = hex.dataset.hex;
    layer.append(ring);
  }
}

function nearestHit(under, x, y) {
  let best = null;
  let far = Infinity;
  for (const el of under) {
    if (!el.classList || !el.classList.contains("rc-hit")) continue;
    const box = el.getBoundingClientRect();
    const d = Math.hypot(box.x + box.width / 2 - x, box.y + box.height / 2 - y);
    if (d < far) { far = d; best = el.dataset.hex; }
  }
  return best;
}

function boardTap(t, ev) {
  const data = t.boardData;
  if (!data) return;
  const picture = t.boardRoot.querySelector(".rc-record-board");
  const scope = picture.getRootNode(); // the component may live in a shadow root
  const under = (scope.elementsFromPoint ? scope : document).elementsFromPoint(ev.clientX, ev.clientY);
  let hex = null;
  let model = null;
  for (const el of under) {
    if (!picture.contains(el)) continue;
    if (!hex && el.dataset && el.dataset.hex) hex = el.dataset.hex;
    const g = el.closest && el.closest("g.rc-model");
    if (!model && g) model = g.id.slice("model-".length);
  }
  const hexes = data.hexes || {};
  if (!(hex && hexes[hex])) hex = nearestHit(under, ev.clientX, ev.clientY) || hex; // a finger beside a small target
  const id = (model && (data.models || {})[model]) || (hex && hexes[hex]);
  if (id) tap(t, id, t.boardTrigger);
  else if (hex || model) t.boardTrigger("tap", { nothing: hex || model, seq: data.seq, n: ++t.n });
}

// --- the offers ------------------------------------------------------------------------------------------

function drawOffers(t, data) {
  const root = t.offersRoot;
  const list = root.querySelector(".rc-offers");
  list.replaceChildren();
  for (const group of data.groups || []) {
    const title = document.createElement("div");
    title.className = "rc-offers-title";
    title.textContent = group.title;
    const grid = document.createElement("div");
    grid.className = "rc-offers-grid";
    for (const offer of group.offers) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "rc-offer" + (offer.at_once ? "" : " rc-offer-pick");
      button.dataset.offer = offer.id;
      button.textContent = offer.at_once ? offer.label : `${offer.label} …`;
      if (offer.picked) button.classList.add("rc-picked");
      button.addEventListener("click", () => {
        if (t.pending) return; // one tap at a time: the next waits for the answer to this one
        if (offer.at_once) tap(t, offer.id, t.offersTrigger);
        else {
          for (const b of list.querySelectorAll("button.rc-offer")) b.classList.toggle("rc-picked", b === button);
          t.offersTrigger("tap", { pick: offer.id, seq: data.seq, n: ++t.n });
        }
      });
      grid.append(button);
    }
    list.append(title, grid);
  }
  root.querySelector(".rc-offers-pending").replaceChildren();
  root.dataset.seq = String(data.seq);
  root.classList.remove("rc-pending");
}

// --- a tap ---------------------------------------------------------------------------------------------------

function tap(t, id, trigger) {
  const data = t.boardData || t.offersData;
  if (t.pending || !data) return;
  const seq = data.seq;
  const n = ++t.n;
  const preview = t.previews.seq === seq ? t.previews.by[id] : undefined;
  const moment = { game: data.game, id, n, seq, tapped: performance.now(), drawn: null, answered: null,
                   previewed: !!preview, outcome: null };
  taps.push(moment);
  t.pending = moment;
  if (t.offersRoot) {
    t.offersRoot.classList.add("rc-pending");
    const tapped = t.offersRoot.querySelector(`button.rc-offer[data-offer="${CSS.escape(id)}"]`);
    if (tapped) tapped.classList.add("rc-tapped");
    const note = document.createElement("div");
    note.className = "rc-rec-line rc-pending-line";
    note.textContent = preview ? preview.line : "…";
    t.offersRoot.querySelector(".rc-offers-pending").replaceChildren(note);
  }
  if (t.boardRoot) {
    t.boardRoot.classList.add("rc-pending");
    if (preview) {
      t.boardRoot.querySelector(".rc-rec-status").textContent = preview.status;
      const picture = t.boardRoot.querySelector(".rc-record-board");
      if (preview.picture !== null && preview.picture !== undefined) picture.innerHTML = preview.picture;
      else {
        applyLook(picture, preview.look);
        for (const el of picture.querySelectorAll(".rc-target")) el.classList.remove("rc-target");
        for (const el of picture.querySelectorAll(".rc-target-model")) el.classList.remove("rc-target-model");
      }
      t.boardRoot.dataset.previewSeq = String(seq + 1);
    }
  }
  requestAnimationFrame(() => setTimeout(() => { moment.drawn = performance.now(); }, 0));
  trigger("tap", { id, seq, n });
  clearTimeout(t.lost);
  t.lost = setTimeout(() => answer(t, null), ANSWER_WAIT_MS);
}

function answer(t, data) {
  const moment = t.pending;
  if (!moment) return;
  if (data && (data.answered || 0) < moment.n) return; // not yet its answer
  moment.answered = performance.now();
  moment.outcome = !data ? "lost" : data.seq > moment.seq ? "stored" : "refused";
  t.pending = null;
  clearTimeout(t.lost);
  if (!data) { // no answer: the state Python sent last is the state
    if (t.boardData) drawBoard(t, t.boardData, () => {});
    if (t.offersData) drawOffers(t, t.offersData);
  }
}

export default function ({ data, parentElement, setStateValue, setTriggerValue }) {
  const root = parentElement.querySelector(".rc-rec");
  if (!root || !data) return;
  const t = table(data.game);
  if (data.part === "previews") {
    t.previews = { seq: data.seq, by: data.previews || {} };
    return;
  }
  if (data.part === "board") {
    if (!root.__built) {
      root.innerHTML = '<div class="rc-rec-title"></div><div class="rc-rec-status"></div><div class="rc-record-board"></div>';
      root.__built = true;
      root.addEventListener("click", (ev) => {
        if (!ev.target.closest(".rc-record-board")) return;
        if (!tables[root.dataset.game].pending) boardTap(tables[root.dataset.game], ev);
      });
    }
    root.dataset.game = data.game;
    t.boardRoot = root;
    t.boardTrigger = setTriggerValue;
    const confirmed = t.pending;
    t.boardData = data;
    if (confirmed && (data.answered || 0) < confirmed.n) return; // the tap not answered yet: keep its drawing
    drawBoard(t, data, setStateValue);
    answer(t, data);
    return;
  }
  if (!root.__built) {
    root.innerHTML = '<div class="rc-offers-pending"></div><div class="rc-offers"></div>';
    root.__built = true;
  }
  t.offersRoot = root;
  t.offersTrigger = setTriggerValue;
  t.offersData = data;
  if (t.pending && (data.answered || 0) < t.pending.n) return;
  drawOffers(t, data);
  answer(t, data);
}
