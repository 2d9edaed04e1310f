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

// How live a table is on a page: one rule for the scoreboard's tiles and the console's rows, on the page's clock. "stale"
// while the page is cut off from the display (its stream down: `hall.cut`) or the display from the broker (`hall.feed`
// false): nothing shown is live, the page says since when it heard from the table. "stalled" while its service says
// online but its health stopped (none for three periods) or names a problem: it does not referee, whatever its status
// says (a table that never sent a health keeps its status). `healthGot`: when the display heard its health (the page
// counts from then: the stream's `age`), `got`: its state.
function healthAge(v) { return (performance.now() - v.healthGot) / 1000; }
function liveness(hall, v) {
  if (hall.cut || hall.feed === false) return "stale";
  const h = v.health;
  return v.status === "online" && h && (h.problem || healthAge(v) > 3 * h.every) ? "stalled" : "";
}
function heardText(v) {  // "heard N s ago": since the page last heard from the table (its health, else its state); "" never
  const since = v.health ? v.healthGot : v.got;
  return since === undefined ? "" : T("heard", { ago: AGO(Math.max(0, Math.round((performance.now() - since) / 1000))) });
}
