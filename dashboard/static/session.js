// The device's sign-in in the browser (dashboard/session.py). Python keeps the key; the browser keeps only a
// random session id, in a cookie this module writes and clears when Python says so (data.op), and tells the
// other tabs of this browser about it (they sign in or out with it). A tab signed out is loaded again afresh
// (op.reload), so that nothing typed by the one signed in stays in its forms; the word why is kept for the
// fresh page. It watches the device being used (taps, keys, the wheel: in every tab, through localStorage)
// and says when it was left alone for data.idle_ms ("idle"), or that it was used since the page last heard of
// it ("seen"). While the sidebar is folded away, a small chip at the top says who is signed in, with Sign out.
const LAST_INPUT = "rollcall-last-input";
const NOTICE = "rollcall-signed-out";
const INPUTS = ["pointerdown", "keydown", "touchstart", "wheel"];
// the chip lives on the page, outside the component's styles: its own, shown while the sidebar is folded away
const CHIP_CSS = `
#rc-device-chip { position: fixed; top: .5rem; right: 3.5rem; z-index: 1000001; display: none; align-items: center;
  gap: .5rem; max-width: calc(100vw - 7.5rem); padding: .2rem .25rem .2rem .75rem; border-radius: 1.25rem;
  border: 1px solid rgba(49, 51, 63, .2); background: var(--st-background-color, #fff); color: inherit;
  font-family: var(--st-font, sans-serif); font-size: .9rem; box-shadow: 0 1px 3px rgba(0, 0, 0, .08); }
body:has(#stSidebar[data-collapsed="true"]) #rc-device-chip { display: flex; }
#rc-device-chip .rc-device-who { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
#rc-device-chip button { min-height: 36px; padding: 0 .8rem; border-radius: 1rem; cursor: pointer; font: inherit;
  border: 1px solid rgba(49, 51, 63, .25); background: transparent; color: inherit; white-space: nowrap; }`;

function readCookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return "";
}

function apply(op, name, tabs) {
  const held = readCookie(name);
  if (op.kind === "set") writeCookie(name, op.sid);
  else if (!held || held === op.sid) writeCookie(name, ""); // not the sign-in another tab made meanwhile
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

function writeCookie(name, value) {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = value
    ? `${name}=${value}; Path=/; SameSite=Strict${secure}`
    : `${name}=; Path=/; SameSite=Strict; Max-Age=0${secure}`;
}

function lastInput(dev) {
  let shared = 0;
  try { shared = Number(localStorage.getItem(LAST_INPUT)) || 0; } catch (e) { /* storage refused */ }
  return Math.max(dev.lastInput, shared);
}

function device() {
  if (window.__rollcallDevice) return window.__rollcallDevice;
  const dev = { lastInput: Date.now(), stored: 0, mounted: Date.now(), applied: null, timer: null, every: 0,
                idleSent: false, data: {}, set: {} };
  const used = () => {
    const now = Date.now();
    dev.lastInput = now;
    if (now - dev.stored > 1000) {
      dev.stored = now;
      try { localStorage.setItem(LAST_INPUT, String(now)); } catch (e) { /* storage refused */ }
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
  const last = lastInput(dev);
  if (now - last >= data.idle_ms) {
    if (!dev.idleSent) { dev.idleSent = true; dev.set.trigger("idle", now); }
  } else if (last > dev.mounted && now - dev.mounted > data.idle_ms / 2) {
    dev.mounted = now; // used, and the page has not heard of it for a while
    dev.set.state("seen", now);
  }
}

function channel(dev, name) {
  if (!window.BroadcastChannel) return null;
  if (!dev.channel || dev.channelName !== name) {
    if (dev.channel) dev.channel.close();
    dev.channel = new BroadcastChannel(name);
    dev.channelName = name;
    dev.channel.onmessage = (ev) => dev.set.trigger("tab", { kind: ev.data.kind, sid: readCookie(dev.data.cookie) });
  }
  return dev.channel;
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
    document.body.appendChild(el);
  }
  el.querySelector(".rc-device-who").textContent = who;
  el.querySelector("button").textContent = (dev.data.texts && dev.data.texts.sign_out) || "Sign out";
}

export default function ({ data, parentElement, setStateValue, setTriggerValue }) {
  const dev = device();
  dev.data = data;
  dev.mounted = Date.now();
  dev.set = { state: setStateValue, trigger: setTriggerValue };
  if (!data.signed_in) dev.idleSent = false;
  const tabs = channel(dev, `rollcall-device:${data.cookie}`);
  const op = data.op;
  if (op && dev.applied !== op.nonce) {
    dev.applied = op.nonce;
    if (!apply(op, data.cookie, tabs)) return;
    setStateValue("applied", op.nonce);
  }
  notice(parentElement.querySelector(".rc-device"), data);
  const every = Math.max(250, Math.min(data.idle_ms / 4, 10000));
  if (dev.every !== every) {
    if (dev.timer) clearInterval(dev.timer);
    dev.every = every;
    dev.timer = setInterval(() => watch(dev), every);
  }
  chip(dev);
}
