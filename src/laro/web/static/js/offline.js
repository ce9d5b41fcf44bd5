// The offline page: its words in the page's language, a button that tries again, and a reload once the server
// answers again (the service worker answers a page with this one while the server cannot be reached).

import { languageSwitch, loadStrings, onLangChange, t } from "./i18n.js";

function words() {
  document.title = `${t("offline.title")} — laro`;
  document.getElementById("offline-title").textContent = t("offline.title");
  document.getElementById("offline-text").textContent = t("offline.text");
  document.getElementById("offline-retry").textContent = t("offline.retry");
}

await loadStrings(null);
words();
onLangChange(words);
document.getElementById("lang-slot").replaceWith(languageSwitch());
document.getElementById("offline-retry").addEventListener("click", () => location.reload());

const EVERY_MS = 3000;
let timer = null;

/** Open the page asked for once the server answers it again (asked past the worker: a HEAD is not kept). */
async function tryAgain() {
  try {
    const answer = await fetch(location.href, { method: "HEAD", cache: "no-store" });
    if (answer.ok) return location.reload();
  } catch {
    /* still offline */
  }
  timer = setTimeout(tryAgain, EVERY_MS);
}
timer = setTimeout(tryAgain, EVERY_MS);
window.addEventListener("online", () => {
  clearTimeout(timer);
  tryAgain();
});
