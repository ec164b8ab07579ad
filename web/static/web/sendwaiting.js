// Every signed-in page sends the hands waiting in this phone's outbox once the connection
// returns: a hand recorded without one may wait behind a page that is not its match's (the
// start page, which the service worker shows for a page it never kept). It starts once the
// page's own scripts have run (the load event), so that a page that shows what is sent (the
// match page) hears of it: there, the page has started the outbox itself already.
import { start } from "./outbox.js";

if (document.readyState === "complete") start();
else window.addEventListener("load", () => start(), { once: true });
