// Keeps a public tournament page up to date while it is on screen (a phone, or the room's wall):
// every data-refresh seconds it asks for the page again with the ETag it last had, answered 304
// with no body while nothing changed, and otherwise swaps in the new <main>. The page reads the
// same without it.
(() => {
  "use strict";
  let tag = null;
  let timer = null;

  async function poll() {
    clearTimeout(timer);
    if (document.visibilityState === "visible") {
      try {
        const headers = tag ? { "If-None-Match": tag } : {};
        const response = await fetch(location.href, { headers, cache: "no-store" });
        if (response.status === 200) {
          tag = response.headers.get("ETag");
          const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
          const main = fresh.querySelector("main");
          if (main) {
            document.querySelector("main").replaceWith(document.adoptNode(main));
          }
          document.body.dataset.refresh = fresh.body.dataset.refresh || "";
        } else if (response.status === 404) {
          return; // the link was revoked: the page stays as it was, and stops asking
        }
      } catch (error) {
        // offline for a moment: ask again at the next turn
      }
    }
    const seconds = Number(document.body.dataset.refresh);
    if (seconds > 0) {
      timer = setTimeout(poll, seconds * 1000);
    }
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      poll();
    }
  });
  const seconds = Number(document.body.dataset.refresh);
  if (seconds > 0) {
    timer = setTimeout(poll, seconds * 1000);
  }
})();
