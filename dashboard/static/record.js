// The Record page's board: the picture Python drew, where a tap on a hex or a model is reported back
// (setTriggerValue "tap": {hex: "q,r", model: id}). It knows no rule and no geometry: the hex is the one
// drawn under the finger, the model the one whose outline holds it; Python decides what the tap records.
export default function ({ data, parentElement, setTriggerValue }) {
  const root = parentElement.querySelector(".rc-record-board");
  if (!root) return;
  if (root.dataset.token !== data.token) {
    root.innerHTML = data.html;
    root.dataset.token = data.token;
    root.classList.remove("rc-busy");
    const targets = new Set(data.targets || []);
    for (const el of root.querySelectorAll("polygon.rc-hex[data-hex]")) {
      if (targets.has(el.dataset.hex)) el.classList.add("rc-target");
    }
    const models = new Set(data.models || []);
    for (const el of root.querySelectorAll("g.rc-model")) {
      if (models.has(el.id.slice("model-".length))) el.classList.add("rc-target-model");
    }
  }
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
