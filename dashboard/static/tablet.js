// The dashboard on a tablet: the page's style for narrow screens (data.css, static/tablet.css) is put on the
// page once, and the sidebar, open when a tab first loads the dashboard on a screen narrower than data.narrow
// px, is folded away once for that tab (sessionStorage): a person who opens it again — to sign in — finds it
// open after a reload (a sign-out's, which says why in it). window.__rcSidebarFolded: the fold is decided.
const FOLDED = "rollcall-sidebar-folded";

export default function ({ data }) {
  if (!document.getElementById("rc-tablet-css")) {
    const style = document.createElement("style");
    style.id = "rc-tablet-css";
    style.textContent = data.css || "";
    document.head.appendChild(style);
  }
  if (window.__rcSidebarFolded) return;
  let once = false;
  try { once = sessionStorage.getItem(FOLDED) === "1"; } catch (e) { /* no storage: fold at each load */ }
  if (once || window.innerWidth >= (data.narrow || 1100)) { window.__rcSidebarFolded = true; return; }
  const fold = () => {
    const bar = document.getElementById("stSidebar");
    if (!bar) return false;
    if (bar.getAttribute("data-collapsed") === "false") {
      const button = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
      if (button) button.click();
    }
    try { sessionStorage.setItem(FOLDED, "1"); } catch (e) { /* as above */ }
    window.__rcSidebarFolded = true;
    return true;
  };
  if (!fold()) requestAnimationFrame(fold);
}
