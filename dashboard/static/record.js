// The Record page's board. Python draws it once (data.html, under data.key) and on every run sends the look
// of its every element (data.look: [element id, attribute, value]); this module applies the look in place,
// so a tap costs no new drawing. A tap on a hex or a model is reported back (setTriggerValue "tap":
// {hex: "q,r", model: id}); the key of the drawing it holds is its state ("held"), so that Python sends the
// drawing again only to a browser that lost it. It knows no rule and no geometry: the hex is the one drawn
// under the finger, the model the one whose outline holds it; Python decides what the tap records.
function setValue(el, attr, value) {
  if (attr === "text") el.textContent = value ?? "";
  else if (attr === "html") el.innerHTML = value ?? "";
  else if (value === null || value === undefined) el.removeAttribute(attr);
  else el.setAttribute(attr, value);
}

export default function ({ data, parentElement, setStateValue, setTriggerValue }) {
  const root = parentElement.querySelector(".rc-record-board");
  if (!root) return;
  if (root.dataset.key !== data.key) {
    if (!data.html) { setStateValue("held", ""); return; } // lost: ask for the drawing again
    root.innerHTML = data.html;
    root.dataset.key = data.key;
    root.__els = new Map([...root.querySelectorAll("[id]")].map((el) => [el.id, el]));
    setStateValue("held", data.key);
  }
  const els = root.__els;
  for (const [id, attr, value] of data.look || []) {
    const el = els.get(id);
    if (el) setValue(el, attr, value);
  }
  const svg = root.querySelector("svg.rc-board");
  if (svg) svg.setAttribute("data-seq", String(data.seq));
  const targets = new Set(data.targets || []);
  for (const el of root.querySelectorAll("polygon.rc-hex[data-hex]")) el.classList.toggle("rc-target", targets.has(el.dataset.hex));
  const models = new Set(data.models || []);
  for (const el of root.querySelectorAll("g.rc-model")) el.classList.toggle("rc-target-model", models.has(el.id.slice("model-".length)));
  root.classList.remove("rc-busy");
  if (root.__rcTap) return;
  root.__rcTap = true;
  let count = 0;
  root.addEventListener("click", (ev) => {
    let hex = null;
    let model = null;
    const scope = root.getRootNode(); // the component may live in a shadow root
    const under = (scope.elementsFromPoint ? scope : document).elementsFromPoint(ev.clientX, ev.clientY);
    for (const el of under) {
      if (!root.contains(el)) continue;
      if (!hex && el.dataset && el.dataset.hex) hex = el.dataset.hex;
      const g = el.closest && el.closest("g.rc-model");
      if (!model && g) model = g.id.slice("model-".length);
    }
    if (!hex && !model) return;
    root.classList.add("rc-busy");
    setTriggerValue("tap", { hex, model, n: ++count });
  });
}
