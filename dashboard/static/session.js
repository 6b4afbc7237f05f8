// The device's sign-in in the browser (dashboard/session.py). Python keeps the key; the browser keeps only a
// random session id, in a cookie the server sets and clears itself (HttpOnly: this script cannot read it) when
// this module hands it the ticket Python gave (data.op), and tells the other tabs of this browser about it (they
// sign in or out with it, asking the server for a ticket of the cookie's sign-in). A tab signed out is loaded
// again afresh (op.reload), so that nothing typed by the one signed in stays in its forms; the word why is kept
// for the fresh page. A person's tap or key on the page is told to the server (the only use that keeps the device
// signed in: the server decides); when no tap or key came in any tab for data.idle_ms, the page is woken to ask
// the server ("idle"). While the sidebar is folded away, a small chip at the top says who is signed in. While the
// page has lost the server (Streamlit's connection status shows), a banner says so in the page's language: what is
// tapped then is not stored; once the server is back, Streamlit runs the page again and it shows the game as stored.
const LAST_INPUT = "rollcall-last-input";
const NOTICE = "rollcall-signed-out";
const INPUTS = ["pointerdown", "keydown", "touchstart"]; // a tap or a key: a person's use
const USED_EVERY_MS = 5000; // the server hears of use at most this often (a quarter of a short idle time)
// the chip lives on the page, outside the component's styles: its own, shown while the sidebar is folded away; at
// the top of the page's scrolled content (not fixed to the screen), so that it scrolls away with the page's top
// instead of lying over what the page scrolls under it (the Record page's board)
const CHIP_CSS = `
#rc-device-chip { position: absolute; top: .5rem; right: 3.5rem; z-index: 1000001; display: none; align-items: center;
  gap: .5rem; max-width: calc(100vw - 7.5rem); padding: .2rem .25rem .2rem .75rem; border-radius: 1.25rem;
  border: 1px solid rgba(49, 51, 63, .2); background: var(--st-background-color, #fff); color: inherit;
  font-family: var(--st-font, sans-serif); font-size: .9rem; box-shadow: 0 1px 3px rgba(0, 0, 0, .08); }
body:has(#stSidebar[data-collapsed="true"]) #rc-device-chip { display: flex; }
#rc-device-chip .rc-device-who { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
#rc-device-chip button { min-height: 36px; padding: 0 .8rem; border-radius: 1rem; cursor: pointer; font: inherit;
  border: 1px solid rgba(49, 51, 63, .25); background: transparent; color: inherit; white-space: nowrap; }`;

function post(dev, route, body) {
  return fetch(`${dev.data.routes}/${route}`, {
    method: "POST", credentials: "same-origin", cache: "no-store",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
  });
}

async function apply(dev, op, tabs) {
  try {
    const answer = await post(dev, op.kind === "set" ? "claim" : "clear", { ticket: op.ticket });
    if (!answer.ok) return false;
  } catch (e) {
    return false; // the server was not reached: the next run hands the same op again
  }
  if (tabs) tabs.postMessage({ kind: op.kind });
  if (op.kind === "clear" && op.reload) {
    try { if (op.notice) sessionStorage.setItem(NOTICE, op.notice); } catch (e) { /* storage refused */ }
    location.reload();
    return false;
  }
  return true;
}

function notice(root, data) {
  if (!root) return;
  let text = null;
  try { text = sessionStorage.getItem(NOTICE); sessionStorage.removeItem(NOTICE); } catch (e) { /* storage refused */ }
  if (text) {
    root.textContent = text;
    root.classList.add("rc-device-notice");
  } else if (data.signed_in) {
    root.textContent = "";
    root.classList.remove("rc-device-notice");
  }
}

function lastInput(dev) {
  let shared = 0;
  try { shared = Number(localStorage.getItem(LAST_INPUT)) || 0; } catch (e) { /* storage refused */ }
  return Math.max(dev.lastInput, shared);
}

function device() {
  if (window.__rollcallDevice) return window.__rollcallDevice;
  const dev = { lastInput: Date.now(), stored: 0, told: 0, applying: null, applied: null, timer: null, every: 0,
                idleSent: false, data: {}, set: {} };
  const used = () => {
    const now = Date.now();
    dev.lastInput = now;
    dev.idleSent = false;
    if (now - dev.stored > 1000) {
      dev.stored = now;
      try { localStorage.setItem(LAST_INPUT, String(now)); } catch (e) { /* storage refused */ }
    }
    const every = Math.min(USED_EVERY_MS, (dev.data.idle_ms || 60000) / 4);
    if (dev.data.signed_in && dev.data.routes && now - dev.told > every) {
      dev.told = now;
      post(dev, "used").catch(() => { dev.told = 0; }); // not heard: told at the next tap
    }
  };
  for (const name of INPUTS) document.addEventListener(name, used, { capture: true, passive: true });
  used();
  window.__rollcallDevice = dev;
  return dev;
}

function watch(dev) {
  const data = dev.data;
  if (!data.signed_in) return;
  const now = Date.now();
  if (now - lastInput(dev) >= data.idle_ms + 500 && !dev.idleSent) {
    dev.idleSent = true; // woken once; the server's answer is the page's next run
    dev.set.trigger("idle", now);
  }
}

function channel(dev, name) {
  if (!window.BroadcastChannel) return null;
  if (!dev.channel || dev.channelName !== name) {
    if (dev.channel) dev.channel.close();
    dev.channel = new BroadcastChannel(name);
    dev.channelName = name;
    dev.channel.onmessage = async (ev) => {
      if (ev.data.kind !== "set") { dev.set.trigger("tab", { kind: ev.data.kind }); return; }
      try { // a ticket of the sign-in the cookie now holds: this tab follows it without seeing it
        const answer = await (await post(dev, "ticket")).json();
        dev.set.trigger("tab", { kind: "set", ticket: answer.ticket });
      } catch (e) { /* not reached: this tab signs in at its next load */ }
    };
  }
  return dev.channel;
}

const OFFLINE_CSS = `
#rc-offline { position: fixed; left: 50%; transform: translateX(-50%); top: 3.2rem; z-index: 1000002; display: none;
  max-width: min(92vw, 40rem); padding: .6rem 1rem; border-radius: .5rem; background: #b3261e; color: #fff;
  font-family: var(--st-font, sans-serif); font-size: 1rem; box-shadow: 0 2px 8px rgba(0, 0, 0, .25); }
body.rc-lost #rc-offline { display: block; }
body.rc-lost [data-testid="stConnectionStatus"] label { display: none; }`;

function connection(dev) {
  let el = document.getElementById("rc-offline");
  if (!el) {
    const style = document.createElement("style");
    style.id = "rc-offline-css";
    style.textContent = OFFLINE_CSS;
    document.head.appendChild(style);
    el = document.createElement("div");
    el.id = "rc-offline";
    el.setAttribute("role", "alert");
    document.body.appendChild(el);
  }
  el.textContent = (dev.data.texts && dev.data.texts.offline) || "";
  if (dev.watching) return;
  dev.watching = setInterval(() => { // Streamlit shows its connection status only while it is not connected
    const lost = !!document.querySelector('[data-testid="stConnectionStatus"]');
    document.body.classList.toggle("rc-lost", lost);
  }, 300);
}

function chip(dev) {
  let el = document.getElementById("rc-device-chip");
  const who = dev.data.signed_in;
  if (!who) { if (el) el.remove(); return; }
  if (!document.getElementById("rc-device-chip-css")) {
    const style = document.createElement("style");
    style.id = "rc-device-chip-css";
    style.textContent = CHIP_CSS;
    document.head.appendChild(style);
  }
  if (!el) {
    el = document.createElement("div");
    el.id = "rc-device-chip";
    el.innerHTML = '<span class="rc-device-who"></span><button type="button">Sign out</button>';
    el.querySelector("button").addEventListener("click", () => dev.set.trigger("sign_out", Date.now()));
  }
  const page = document.querySelector('[data-testid="stMain"]') || document.body; // what scrolls
  if (el.parentElement !== page) {
    if (page !== document.body && getComputedStyle(page).position === "static") page.style.position = "relative";
    page.prepend(el);
  }
  el.querySelector(".rc-device-who").textContent = who;
  el.querySelector("button").textContent = (dev.data.texts && dev.data.texts.sign_out) || "Sign out";
}

export default function ({ data, parentElement, setStateValue, setTriggerValue }) {
  const dev = device();
  dev.data = data;
  dev.set = { state: setStateValue, trigger: setTriggerValue };
  if (!data.signed_in) dev.idleSent = false;
  const tabs = channel(dev, `rollcall-device:${data.cookie}`);
  const op = data.op;
  if (op && dev.applied !== op.nonce && dev.applying !== op.nonce) {
    dev.applying = op.nonce;
    apply(dev, op, tabs).then((done) => {
      dev.applying = null;
      if (!done) return;
      dev.applied = op.nonce;
      dev.set.state("applied", op.nonce);
    });
  }
  notice(parentElement.querySelector(".rc-device"), data);
  const every = Math.max(250, Math.min(data.idle_ms / 4, 10000));
  if (dev.every !== every) {
    if (dev.timer) clearInterval(dev.timer);
    dev.every = every;
    dev.timer = setInterval(() => watch(dev), every);
  }
  chip(dev);
  connection(dev);
}
