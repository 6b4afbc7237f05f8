// The dashboard on a tablet: the page's style for narrow screens (data.css, static/tablet.css) is put on the
// page once, and the sidebar, open when the page loads on a screen narrower than data.narrow px, is folded
// away once (a scorekeeper opens it again to sign in; it is not folded again while the page stays loaded).
export default function ({ data }) {
  if (!document.getElementById("rc-tablet-css")) {
    const style = document.createElement("style");
    style.id = "rc-tablet-css";
    style.textContent = data.css || "";
    document.head.appendChild(style);
  }
  if (window.__rcSidebarFolded || window.innerWidth >= (data.narrow || 1100)) return;
  const fold = () => {
    const bar = document.getElementById("stSidebar");
    if (!bar) return false;
    window.__rcSidebarFolded = true;
    if (bar.getAttribute("data-collapsed") === "false") {
      const button = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
      if (button) button.click();
    }
    return true;
  };
  if (!fold()) requestAnimationFrame(fold);
}
