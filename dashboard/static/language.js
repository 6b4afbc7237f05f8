// The browser remembers the language picked in the sidebar (dashboard/language.py): a cookie, kept a year,
// that the dashboard reads when this browser opens it again.
export default function ({ data }) {
  if (!data || !data.cookie || !data.lang) return;
  const held = document.cookie.split(";").map((p) => p.trim()).find((p) => p.startsWith(`${data.cookie}=`));
  if (held === `${data.cookie}=${data.lang}`) return;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${data.cookie}=${data.lang}; Path=/; Max-Age=31536000; SameSite=Strict${secure}`;
}
