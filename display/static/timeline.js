// A table's timeline as a page keeps it: the hand in play and the one before it, so a play disputed once its
// hand is over is still there to correct; an amended play marks what was judged from it on (rejudged: the
// amendment's seq). The same rule as display/view.py, TableView.with_event.
"use strict";
const TIMELINE_KEPT = 1200;
function withEvent(timeline, e) {
  const data = JSON.stringify(e.data);  // a duplicate (QoS 1): the same seq, kind and data (one entry may say a kind twice)
  for (let i = timeline.length - 1; i >= 0 && (timeline[i].until ?? timeline[i].seq) >= e.seq; i--) {
    const x = timeline[i];
    if (x.seq === e.seq && x.kind === e.kind && JSON.stringify(x.data) === data) return timeline;
    if (x.seq < e.seq && x.kind === "rejected" && e.kind === "rejected" && sameRefusal(x, e)) return timeline;
  }
  // The same refusal one after another (a stuck button) is one line with a count.
  const last = timeline[timeline.length - 1];
  if (last && last.kind === "rejected" && e.kind === "rejected" && sameRefusal(last, e))
    return timeline.slice(0, -1).concat([{ ...last, repeats: (last.repeats ?? 1) + 1, until: e.seq }]);
  if (e.kind === "round_started") return [e];
  const start = e.kind === "hand_started" ? timeline.map(x => x.kind).lastIndexOf("hand_started") : -1;
  let kept = start >= 0 ? timeline.slice(start) : timeline;
  if (e.kind === "amended") {
    const first = e.data?.entry ?? e.seq;
    kept = kept.map(x => first <= x.seq && x.seq < e.seq ? { ...x, rejudged: e.seq } : x);
  }
  return kept.concat([e]).slice(-TIMELINE_KEPT);
}
// What an empty timeline says: nothing yet (San Da Yi plays games, 局), or, for a table that had already done something
// before the display began listening (the broker keeps no events: a display started or restarted mid-round), that its
// events before then were not received: not "no events this hand yet" beside a trick under way.
function emptyTimelineHTML(s, games) {
  return `<li class="empty">${s && s.seq > 0 ? T("events_missed") : T(games ? "no_events_games" : "no_events")}</li>`;
}
// Two refusals that say the same of the same kind of input (their inputs' ids aside).
function sameRefusal(a, b) {
  const sans = d => JSON.stringify(Object.entries(d || {}).filter(([k]) => k !== "id").sort(([x], [y]) => (x < y ? -1 : 1)));
  return sans(a.data) === sans(b.data);
}
// A play's entry number (its input's seq in the table's log), as the console's audit line and the picker name the play
// they correct (第 37 条): a referee reading 更正了第 37 条 finds that play on the timeline.
function entryNoHTML(e) {
  return e.kind === "play_accepted" ? ` <small class="entry-no">${esc(T("entry_no", { n: e.seq }))}</small>` : "";
}
// The mark of a line the table judged again after an amendment; the count of a refusal said again and again.
function rejudgedHTML(e) {
  return (e.rejudged ? ` <small class="rejudged">${T("rejudged")}</small>` : "")
    + (e.repeats ? ` <small class="repeats">×${e.repeats}</small>` : "");
}
// A trick's cards collected: each seat's pickup is an event of its own (its camera's `removed` read: picked_up), four
// lines a trick repeating the cards the plays above them show. Pickups one after another are one line naming the seats
// (the seat still to collect is the one not named); a pickup alone (cards shown out of turn taken back) keeps its cards.
function foldPickups(timeline) {
  const out = [];
  for (const e of timeline) {
    const last = out[out.length - 1];
    if (e.kind === "picked_up" && last?.kind === "picked_up") out[out.length - 1] = { ...last, seats: (last.seats || [last.data.seat]).concat([e.data.seat]) };
    else out.push(e);
  }
  return out.map(e => !e.seats ? e
    : { ...e, data: {}, say: { [LANG]: T("picked_up_seats", { seats: e.seats.map(SEATW).join(W("word.list")) }) } });
}
