// A page's live stream (SSE: a snapshot, then every change), the scoreboard's pages' and the console's. It never goes
// quiet unnoticed: the display says something at least every `alive` s (hub.KEEPALIVE_S, told in the snapshot), and a
// stream silent for two of those and 5 s more (a network dropped without a reset, a laptop woken after the display
// gave its stream up: the browser would wait on it for ever) is taken for cut, as one the browser saw drop: `cut()` is
// told and it is opened again (a snapshot follows). One closed for good by an HTTP error (a refusal, a proxy's 502:
// the browser does not try again) is opened again after 5-10 s, spread, not all pages at once.
"use strict";
const RETRY_MS = 5000;
function liveStream(listen, cut) {  // listen(on): on(type, f) for each event the page takes; returns open(url)
  let es = null, url = "", heard = performance.now(), alive = 15;
  function open(to = url) {
    es?.close();
    url = to; heard = performance.now();
    const mine = es = new EventSource(url);
    const on = (type, f) => mine.addEventListener(type, m => { if (mine === es) { heard = performance.now(); f(m); } });
    on("alive", () => {});
    on("snapshot", m => { alive = JSON.parse(m.data).alive ?? alive; });
    listen(on);
    mine.onerror = () => {  // the browser opens it again by itself (a snapshot follows), but not after an HTTP error
      if (mine !== es) return;
      cut();
      if (mine.readyState === EventSource.CLOSED) setTimeout(() => mine === es && open(), RETRY_MS + Math.random() * RETRY_MS);
    };
  }
  setInterval(() => { if (es && performance.now() - heard > 1000 * (2 * alive + 5)) { cut(); open(); } }, 1000);
  return open;
}
