// Install the service worker (served at /sw.js, scope "/"), so that the app opens offline.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // no service worker (a private window, an old browser): the app still works online
  });
}
