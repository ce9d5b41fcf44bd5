// Makes laro an installable app: registers the service worker (/sw.js, whose scope is the whole site), which keeps
// the client's own files for offline use and shows the offline page without a network. Every page loads this.

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => console.warn("laro: no service worker", error));
}
