// The scoreboard pages (/, /big, /tables/{id}): one live stream (SSE), no polling, no reloads.
"use strict";
const PAGE = document.body.dataset.page;
const ONE = document.body.dataset.table || null;
const ROTATE_MS = 12000;
const hall = { feed: true, cut: false, tables: {}, tournament: null, rounds: {}, standings: {} };
const GAMES = JSON.parse(document.body.dataset.games || "{}");  // rulebook -> its game (routers/pages.py)
const SCORES = JSON.parse(document.body.dataset.scores || "{}");  // tournament system -> its standings' score column (routers/pages.py)
const ROWS = JSON.parse(document.body.dataset.rows || "{}");  // tournament system -> what its standings' rows are: player, team (routers/pages.py)
const TOLD = JSON.parse(document.body.dataset.told || "{}");  // rulebook -> the most cards left a tile tells (报牌; routers/pages.py)
const $ = sel => document.querySelector(sel);

function view(t) { return hall.tables[t] || (hall.tables[t] = { table: t, state: null, status: null, violations: [], timeline: [], bids: {}, results: [], got: performance.now() }); }

// ---------------------------------------------------------------- tiles
function teamName(name) { return CATALOGUE.zh["team." + name] ? W("team." + name) : SEATW(name); }
function teamHTML(team, s) {  // card points only where the game counts them (Tractor); the climbing games' are always 0
  const names = team.seats.map(x => esc(s.players[x] || SEATW(x))).join(" / ");
  // the dealer's side marked beside its levels and points (庄家 南 alone left the reader to work out which row is whose)
  const mark = team.seats.includes(s.dealer) && team.name !== "dealer" ? ` <i class="dealer" title="${T("dealer")}">${T("dealer_mark")}</i>` : "";
  const lvl = team.level ? `<span class="lvl">${T("level")} ${esc(RANKW(team.level))}</span>` : "";
  const pts = GAMES[s.rulebook] === "tractor" ? ` <span class="pts">${T("points", { n: team.points })}</span>` : "";
  return `<div class="team" data-team="${esc(team.name)}"><b>${esc(teamName(team.name))}</b>${mark} <span class="names">${names}</span> ${lvl}${pts}</div>`;
}
function matchText(s) {  // a match of several games (002 规程 三 2: 三局两胜): 局数 南北 1:0 东西（三局两胜）, "" where none
  const [a, b] = s.teams;
  if (a?.games == null || b?.games == null) return "";
  const games = T("match_games", { a: esc(teamName(a.name)), score: `${a.games}:${b.games}`, b: esc(teamName(b.name)) });
  const n = Number.isInteger(s.best_of) ? s.best_of : 0;  // the match's length, from the table (an older table's state: none)
  const count = k => k < 10 ? [...W("word.counts")][k] : k;  // 三局两胜, best of 3
  const of = n > 1 ? T("best_of", { n: count(n), need: count(Math.floor(n / 2) + 1) }) : "";
  return `<span class="games">${of ? T("match_of", { games, of }) : games}</span>`;
}
// San Da Yi's totals of the round (004 一 1), once a game of it has been scored: 累计 0 beside every seat of game 1 said nothing
const scored = s => s.totals && (s.hand > 1 || Object.values(s.totals).some(n => n !== 0));
const UNDEALT = new Set(["idle", "arriving", "dealing"]);  // no hand dealt yet (the table counts what it will deal): no count
function seatHTML(seat, s, bids, offline) {  // bids: San Da Yi's, each seat's this hand (it limits the seat's bombs)
  const played = (s.current_trick?.plays || []).filter(p => p.seat === seat).map(p => p.cards).flat();
  // an offline table times nobody and waits for no one: its last clock, frozen, and its seat on turn lit would read as a
  // live table's (离线 says why)
  const clock = s.clocks[seat];
  const clk = clock.left === null || offline ? "" : `<span class="clk${clock.left < 5 ? " low" : ""}" data-left="${clock.left}" data-running="${clock.running}">${secs(Math.ceil(clock.left))}</span>`;
  const flagged = s.flags.some(f => f.seat === seat) ? " flagged" : "";
  return `<div class="seat ${seat}${s.turn === seat && !offline ? " turn" : ""}${flagged}" data-seat="${seat}">` +
    `<div class="who"><span class="pname">${SEATW(seat)} ${esc(s.players[seat] || "")}</span>${s.dealer === seat ? ` <i class="dealer" title="${T("dealer")}">${T("dealer_mark")}</i>` : ""}` +
    `${seat in bids ? ` <span class="bid">${esc(W("bid." + bids[seat]))}</span>` : ""}` +
    `${scored(s) ? ` <span class="total">${T("round_total", { n: esc(s.totals[seat]) })}</span>` : ""}</div>` +  // San Da Yi's 累计 (004 一 1)
    `<div><span class="count">${UNDEALT.has(s.phase) ? "" : countText(s.cards[seat], TOLD[s.rulebook])}</span> ${clk}</div>` +
    `<div class="played">${cardsHTML(played)}</div></div>`;
}
function secs(n) { return fill(W("word.secs"), { s: n }); }  // a clock's seconds with their unit: 9 秒, 9 s
function countText(n, told) {  // above the book's told_at the count is the players' secret (002 九 3, 004 三(一)3): null
  return n === null ? T("cards_untold", { n: told }) : T("cards_left", { n });
}
function violationHTML(v, full) {  // said by the server (display/view.py): the tile's brief line, or the whole sentence
  // the whole sentence with the rulebook's article it was judged by, quoted as the book has it (the seeds are Chinese)
  const rule = full && v.rule?.article ? ` <span class="rule">${T("rule_article", { article: `<q lang="zh-CN">${esc(v.rule.article)}</q>` })}</span>` : "";
  return `<li class="v ${esc(v.status)}" data-flag="${esc(v.flag)}" data-kind="${esc(v.kind)}">${saidHTML(SAID(full ? v.say : v.brief))}${rule}</li>`;
}
const PARTS = ["head", "call", "teams", "info", "result", "N", "W", "E", "S", "flags", "viol"];
const SKELETON = `<div class="part" data-p="head"></div><div class="part" data-p="call"></div><div class="part" data-p="teams"></div><div class="part" data-p="info"></div>` +
  `<div class="part" data-p="result"></div>` +
  `<div class="felt">${["N", "W", "E", "S"].map(x => `<div class="part" data-p="${x}"></div>`).join("")}</div>` +
  `<div class="part" data-p="flags"></div><div class="part" data-p="viol"></div>`;
function agoText(el, v) {  // a stale or stalled tile's "heard N s ago" (stream.js), kept current by tick()
  const ago = el.querySelector(".ago"), text = ago ? heardText(v) : "";
  if (ago && ago.textContent !== text) ago.textContent = text;
}
function deviceHTML(v) {  // a camera or a board that does not see or answer the table (its devices), in words
  const said = { camera: { lost: T("camera_lost"), offline: T("camera_offline") }, board: { lost: T("board_lost"), offline: T("board_offline") } };
  return Object.entries(v.devices || {}).map(([d, p]) => said[d]?.[p.status] ? ` <b class="device ${esc(d)}-${esc(p.status)}">${esc(said[d][p.status])}</b>` : "").join("");
}
// A table whose service would not start (refused: view.receive) is 未能启动 on these public pages, not 离线, and
// its table page asks the players to call an organiser; why (another table's log, a damaged file, its path) is the
// console's alone: the server sends the public none of it. Its status online again (a right service started), or
// offline without why: as any table.
function refused(v) { return v.status === "offline" && !!v.refused; }
function tileParts(v) {  // each part of a tile as HTML; a part is written again only when its HTML changed
  const s = v.state;
  const live = liveness(hall, v), status = live || v.status || "unknown", cut = live === "stale";
  const badge = live ? `<span class="badge ${status}">${T(cut ? "stale" : "stalled")}</span> <span class="ago"></span>`
    : `<span class="badge ${status}">${refused(v) ? T("not_started") : T(status)}</span>`;
  const games = GAMES[s?.rulebook] === "sandayi";  // San Da Yi plays games (局: 004 每轮进行8局比赛), the others hands (盘)
  const at = { hand: s?.hand, trick: s?.trick };
  const ht = !s?.hand ? "" : games ? T(s.trick ? "game_trick" : "game_of", at) : T(s.trick ? "hand_trick" : "hand_of", at);
  const phase = s ? `<span class="phase">${esc(PHASEW(s))}</span> <span class="ht">${ht}</span>${s.paused ? ` <span class="paused">${T("paused")}</span>` : ""}` : "";
  const parts = {
    head: `<header><a class="name" href="/tables/${encodeURIComponent(v.table)}">${esc(v.table)}</a> ${phase} ${badge}${deviceHTML(v)}</header>`,
    call: PAGE === "table" && refused(v) ? `<p class="call">${T("not_started_call")}</p>` : "",
    viol: v.violations.length ? `<ul class="viol">${v.violations.slice(-3).reverse().map(x => violationHTML(x)).join("")}</ul>` : "",
  };
  if (!s) return { ...parts, teams: `<p class="empty">${T("no_state")}</p>` };  // nothing heard of its game yet: said, not a blank tile
  const t = s.trump, rank = t && t.rank ? T("level_rank", { rank: RANKW(t.rank) }) : "";  // a Tractor hand of no trump suit (无主): the level apart
  const trump = !t ? "" : GAMES[s.rulebook] === "guandan" ? rank  // Guandan has no trump suit: the level played (打 2)
    : `${T("trump")} ${t.suit ? suitHTML(t.suit) + esc(RANKW(t.rank)) : [T("no_trump"), rank].filter(Boolean).join(" · ")}`;
  const named = s.teams.some(x => x.name === "dealer");  // San Da Yi's dealer is a side of its own, named in the teams' rows
  const dealer = s.dealer && !named ? `${T("dealer")} ${SEATW(s.dealer)}` : "";
  parts.teams = `<div class="teams">${s.teams.map(t => teamHTML(t, s)).join("")}</div>`;
  // the hand's (game's) result and the round's, as the table said them, from the hand's end to the next hand's first play
  parts.result = v.results?.length ? `<ul class="result">${v.results.map(r => `<li data-kind="${esc(r.kind)}">${saidHTML(SAID(r.say))}</li>`).join("")}</ul>` : "";
  parts.info = `<div class="info">${[dealer, trump, matchText(s)].filter(Boolean).join(" · ")}${s.round.last_hand ? ` <b class="lh">${T(games ? "last_game" : "last_hand")}</b>` : ""}</div>`;
  for (const x of "NWES") parts[x] = seatHTML(x, s, v.bids || {}, v.status === "offline");
  parts.flags = s.flags.length ? `<div class="flags">⚑ ${T("flags_line", { flags: s.flags.map(f => `<span data-flag="${esc(f.flag)}">${SEATW(f.seat)} ${esc(KINDW(f.kind))} ${cardsHTML(f.cards)}</span>`).join(" ") })}</div>` : "";
  return parts;
}
function renderTile(t) {
  const v = view(t);
  const box = PAGE === "table" ? $("#one") : $("#wall .tiles");
  if (!box || (PAGE === "table" && t !== ONE)) return;
  let el = document.getElementById("tile-" + t);
  if (!el) {
    el = document.createElement("article");
    el.id = "tile-" + t;
    el.innerHTML = SKELETON;
    el.shown = {};
    el.parts = Object.fromEntries([...el.querySelectorAll(".part")].map(x => [x.dataset.p, x]));
    const after = [...box.children].find(c => c.dataset.table > t);
    box.insertBefore(el, after || null);
    el.dataset.table = t;
    el.hidden = PAGE === "big";  // shown by the next slide of the wall
    RESIZED?.observe(el);
    $("#wall .empty")?.remove();
  }
  const parts = tileParts(v);
  for (const p of PARTS) {
    const html = parts[p] || "";
    if (el.shown[p] !== html) { el.parts[p].innerHTML = html; el.shown[p] = html; refit(); }
  }
  const cls = `tile ${liveness(hall, v) || v.status || "unknown"}${v.state?.paused ? " paused" : ""}${v.state?.flags.length ? " has-flags" : ""}`;
  if (el.className !== cls) el.className = cls;
  el.dataset.seq = v.state ? v.state.seq : "";
  el.dataset.status = v.status || "unknown";
  el.dataset.live = liveness(hall, v);
  agoText(el, v);
}
const dirty = new Set();
let flushing = 0;
function later(t) {  // render each changed tile once per frame, however many states came meanwhile
  dirty.add(t);
  if (flushing) return;
  const run = () => { if (!flushing) return; clearTimeout(flushing); flushing = 0; dirty.forEach(renderTile); dirty.clear(); };
  flushing = setTimeout(run, 100);  // when no frame comes (a hidden page)
  requestAnimationFrame(run);
}

// ---------------------------------------------------------------- tournament
function column(name) { return W("column." + name); }  // the system's score and tie-break columns, named in Chinese
// tournament system -> what orders its standings, in each language, with the seed's article (routers/pages.py rankings)
const RANKING = JSON.parse(document.querySelector("#standings")?.dataset.ranking || "{}");
function renderStandings() {
  const box = $("#standings .body");
  if (!box) return;
  const s = hall.standings[hall.tournament];
  if (!s) { box.innerHTML = `<p class="empty">${T("no_standings")}</p>`; return; }
  askAwards(s);
  $("#standings .sub").textContent = `${s.name} · ${T("round_of", { round: s.round, rounds: hall.rounds[hall.tournament]?.rounds ?? s.round })}`;
  // numbers stand right-aligned under right-aligned headers (th.num and td.num); the rows are players (选手) or teams (队)
  const solo = ROWS[s.system] === "player";
  box.innerHTML = `<table class="standings"><thead><tr><th class="num">${T("rank")}</th><th>${T(solo ? "row_player" : "row_team")}</th><th class="num">${esc(column(SCORES[s.system]))}</th>` +
    s.columns.map(c => `<th class="num">${esc(column(c))}</th>`).join("") + `<th>${T("prize")}</th></tr></thead><tbody>` +
    s.rows.map(r => `<tr class="${r.prize ? "prize" : r.withdrawn ? "withdrawn" : ""}" data-entry="${esc(r.id)}"><td class="num">${r.withdrawn ? esc(T("withdrawn")) : r.rank}` +
      `${r.by_lot ? `<span class="lot-mark" title="${esc(T("by_lot"))}">${esc(T("lot_mark"))}</span>` : ""}</td>${whoHTML(r)}` +
      `<td class="num score">${esc(EXACT(r.score))}</td>${r.tiebreaks.map(x => `<td class="num">${esc(EXACT(x))}</td>`).join("")}<td>${esc(prizesOf(s, r).map(PRIZEW).join(W("prize.and")))}</td></tr>`).join("") +
    `</tbody></table>` + (s.rows.some(r => r.by_lot) ? `<p class="legend">${esc(T("by_lot"))}</p>` : "") +
    (RANKING[s.system] ? `<p class="ranking">${esc(RANKING[s.system][LANG] ?? RANKING[s.system].zh)}</p>` : "");
  refit();  // the big screen's pages of rows
}
function whoHTML(r) {  // a row's name and unit in one cell, as the pairings name them; a team named after its unit is
  // named once (a column of each read 数学学院 数学学院, and on a phone squeezed both to a character a line)
  return `<td class="who">${esc(r.name)}${r.unit !== r.name ? ` <small class="unit">${esc(r.unit)}</small>` : ""}</td>`;
}
function prizesOf(s, row) {  // its placed prize, then the system's awards the display serves (referee.tournament.base.awarded)
  return (row.prize ? [row.prize] : []).concat(AWARDED[s.tournament]?.rows.get(row.id) || []);
}
const AWARDED = {};  // tournament id -> its rows' awards (row id -> prizes), asked of the display once per standings published (routers/public.py)
async function askAwards(s) {  // none where the display runs no such tournament: the payload's placed prizes alone
  if (AWARDED[s.tournament]?.at === s.at) return;
  const asked = AWARDED[s.tournament] = { at: s.at, rows: AWARDED[s.tournament]?.rows || new Map() };
  const got = await fetch(`/api/tournaments/${encodeURIComponent(s.tournament)}/awards`).then(x => x.ok ? x.json() : null).catch(() => null);
  if (AWARDED[s.tournament] !== asked) return;  // later standings published meanwhile ask again
  asked.rows = new Map(Object.entries(got || {}));
  renderStandings();
}
function repairedHTML(r) {  // a round paired again before it was played: which change, which tables (the round payload's repaired)
  const x = r.repaired;
  if (!x) return "";
  const tables = x.tables.map(t => t.table).concat(x.byes ? [T("byes")] : []).join(W("word.list"));
  return `<p class="repaired">${esc(T("repaired", { round: x.round, because: BECAUSE(x.because), tables }))}</p>`;
}
function entriesKnown() {  // every entry the page has by name: the standings' rows, the pairings' entries (lot numbers too)
  const known = new Map();
  for (const s of Object.values(hall.standings)) for (const r of s.rows) known.set(r.id, r);
  for (const r of Object.values(hall.rounds)) for (const p of r.tables) for (const e of p.entries) known.set(e.id, e);
  return known;
}
function renderPairings() {
  const box = $("#pairings .body");
  if (!box) return;
  const r = hall.rounds[hall.tournament];
  if (!r) { box.innerHTML = `<p class="empty">${T("no_round")}</p>`; return; }
  $("#pairings .sub").textContent = `${r.name} · ${T("round_of", { round: r.round, rounds: r.rounds })}`;
  const rows = [...r.tables].sort((a, b) => a.table.localeCompare(b.table, undefined, { numeric: true }));
  const moved = new Set((r.repaired?.tables || []).map(x => x.table));  // nothing about the draw changes silently
  const ranked = hall.standings[r.tournament]?.rows || [], asked = ASKED[r.tournament];
  const ids = new Set(ranked.map(x => x.id));
  if (r.tables.some(p => p.result || p.entries.some(e => !ids.has(e.id)))) askEntries(r);  // what the payloads lack
  const said = asked?.at === r.at ? asked.results : {};  // a result as read (pair Swiss: the levels reached), of this very round
  // 退赛, seated forfeited: an entry ranked withdrawn, or a pair withdrawn (pair Swiss ranks teams; a team plays on without it)
  const gone = new Set([...ranked, ...(asked?.entries.values() || [])].filter(x => x.withdrawn).map(x => x.id));
  box.innerHTML = repairedHTML(r) + `<table class="pairings"><thead><tr><th>${T("table")}</th><th>${T("teams")}</th><th class="num">${T("result")}</th></tr></thead><tbody>` +
    rows.map(p => `<tr data-table="${esc(p.table)}"${moved.has(p.table) ? ` class="repaired"` : ""}><td><a href="/tables/${encodeURIComponent(p.table)}">${esc(p.table)}</a>` +
      `${moved.has(p.table) ? ` <b class="repaired-mark">${esc(T("repaired_mark"))}</b>` : ""}</td>` +
      `<td>${p.entries.map(e => pairingHTML(e, asked?.entries.get(e.id)?.team) +
        `${gone.has(e.id) ? ` <b class="withdrawn-mark">${T("withdrawn")}</b>` : ""}` +
        `${(p.forfeits || []).includes(e.id) ? ` <b class="forfeited">${T("forfeit")}</b>` : ""}`).join(` <b>${T("versus")}</b> `)}</td>` +
      `<td class="num">${!p.result ? "" : esc(said[p.table] ? RESULTW(said[p.table]) : p.result.scores.map(EXACT).join(" : "))}</td></tr>`).join("") + `</tbody></table>` +
    (r.byes.length ? `<p class="byes">${esc(T("byes_line", { byes: byes(r).join(W("word.list")) }))}</p>` : "");
  refit();  // the big screen's pages of rows
}
function pairingHTML(e, team) {  // an entry of the pairings by its name and unit; a pair of pair Swiss by its team, as the
  // standings name it (whoHTML: the unit once), its players after it (the team from the display's entries, askEntries)
  if (!team) return `${esc(e.name)} <small>${esc(e.unit)}</small>`;
  return `${esc(team)}${e.unit !== team ? ` <small class="unit">${esc(e.unit)}</small>` : ""} <small class="pair">${esc(e.name)}</small>`;
}
function byes(r) {  // a round's byes named as the console names them (1号 名字 单位), never by the tournament's ids
  const known = entriesKnown(), asked = ASKED[r.tournament]?.entries || new Map();
  if (r.byes.some(id => !known.has(id) && !asked.has(id))) askEntries(r);
  return r.byes.map(id => { const e = asked.get(id) || known.get(id);  // the display's first: a pair by its team
    return (e ? pairWords(e) : id) + ((r.byes_forfeited || []).includes(id) ? T("bye_forfeited") : ""); });
}
const ASKED = {};  // tournament id -> its entries and the round's results as read, asked of the display once per round published (routers/public.py)
async function askEntries(r) {  // a bye the page has no name for, a pair withdrawn, a result read otherwise than its scores
  if (ASKED[r.tournament]?.at === r.at) return;
  ASKED[r.tournament] = { at: r.at, entries: ASKED[r.tournament]?.entries || new Map(), results: {} };
  const id = encodeURIComponent(r.tournament), ask = path => fetch(path).then(x => x.ok ? x.json() : null).catch(() => null);
  const [got, results] = await Promise.all([ask(`/api/tournaments/${id}/entries`), ask(`/api/tournaments/${id}/results?round=${r.round}`)]);
  if (ASKED[r.tournament].at !== r.at) return;  // a later round published meanwhile asks again
  ASKED[r.tournament].entries = new Map((got || []).map(e => [e.id, e]));  // none where the display runs no such tournament: ids
  ASKED[r.tournament].results = results || {};
  if (got || results) renderPairings();
}

// ---------------------------------------------------------------- clocks, banner
function roundClock() {
  let left = null, lastHand = false, notice = false;
  for (const v of Object.values(hall.tables)) {
    const r = v.state?.round;
    if (!r || v.status === "offline" || liveness(hall, v)) continue;  // a clock no live table runs is not shown running
    lastHand ||= r.last_hand; notice ||= r.notice;
    if (r.left !== null) {
      const now = r.left - (v.state.phase === "round_over" ? 0 : (performance.now() - v.got) / 1000);
      left = Math.max(left ?? 0, now);
    }
  }
  return { left, lastHand, notice };
}
function mmss(s) { s = Math.max(0, Math.floor(s)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; }
function tick() {
  const { left, lastHand, notice } = roundClock();
  const box = $("#roundclock");
  if (box) box.innerHTML = (left !== null ? `${T("round_left")} <b>${mmss(left)}</b>` : "") +
    (lastHand ? ` <span class="notice lh">${T("last_hand")}</span>` : notice ? ` <span class="notice">${T("notice")}</span>` : "");
  document.querySelectorAll(".tile").forEach(el => {
    const v = hall.tables[el.dataset.table];
    if (v && el.dataset.live !== liveness(hall, v)) renderTile(v.table);
    else if (v) agoText(el, v);
  });
  document.querySelectorAll(".clk[data-running=true]").forEach(el => {
    const v = hall.tables[el.closest(".tile").dataset.table];
    if (liveness(hall, v)) return;  // a table not live here runs no clock: shown as it stopped (an offline one shows none)
    const left = Number(el.dataset.left) - (performance.now() - v.got) / 1000;
    const text = secs(Math.max(0, Math.ceil(left)));
    if (el.textContent !== text) el.textContent = text;
    if (el.classList.contains("low") !== left < 5) el.classList.toggle("low", left < 5);
  });
  $("#banner").hidden = hall.feed || hall.cut;  // the display cut off from the broker
  $("#cut").hidden = !hall.cut;  // this page cut off from the display
}

// ---------------------------------------------------------------- the table page
function renderTimeline() {
  const box = $("#timeline ol");
  if (!box || !ONE) return;
  headTimeline();
  const s = view(ONE).state;  // an empty list says so
  box.innerHTML = foldPickups(view(ONE).timeline).map(eventHTML).reverse().join("") || emptyTimelineHTML(s, GAMES[s?.rulebook] === "sandayi");
  const all = $("#allviolations");
  if (all) all.innerHTML = view(ONE).violations.slice().reverse().map(v => violationHTML(v, true)).join("") || `<li class="empty">${T("no_violations")}</li>`;
}
function headTimeline() {  // San Da Yi plays games (局: 004 每轮进行8局比赛), the others hands (盘)
  const head = $("#timeline h2"), games = GAMES[view(ONE).state?.rulebook] === "sandayi";
  head.textContent = T(games ? "timeline_games" : "timeline");
  head.dataset.t = games ? "timeline_games" : "timeline";  // the language switch says it again
}
function eventHTML(e) {  // the event as the server said it (display/view.py), and its cards as pictures
  const time = TIMEW(e.at);
  const cards = e.data.cards || (e.data.card ? [e.data.card] : null);
  return `<li data-seq="${e.seq}" data-kind="${esc(e.kind)}"${e.rejudged ? ' class="was"' : ""}><time>${time}</time>${entryNoHTML(e)} <span class="said">${saidHTML(SAID(e.say))}</span> ${Array.isArray(cards) ? cardsHTML(cards) : ""}${rejudgedHTML(e)}</li>`;
}

// ---------------------------------------------------------------- big screen rotation
let slide = 0;
function show(which) { for (const id of ["standings", "pairings", "wall"]) $("#" + id).hidden = id !== which; }
function pageSize(tiles) {  // as many tiles as the screen shows whole, measured on the wall's own slide
  if (!tiles.length) return 1;
  show("wall");
  tiles.forEach(el => { el.hidden = false; });
  const grid = $("#wall .tiles"), style = getComputedStyle(grid);
  const cols = style.gridTemplateColumns.split(" ").length, gap = parseFloat(style.rowGap) || 0;
  const room = window.innerHeight - grid.getBoundingClientRect().top, tallest = () => Math.max(...tiles.map(el => el.offsetHeight));
  // a tile taller than the screen (a throw of many cards a seat, violations said) draws the page's tiles smaller until
  // it fits, and full size again once it shrinks: never cut by the screen's edge
  grid.style.removeProperty("--fit");
  for (let i = 0, tall = tallest(); tall > room && i < 4; i++, tall = tallest())
    grid.style.setProperty("--fit", ((parseFloat(grid.style.getPropertyValue("--fit")) || 1) * room / tall * 0.98).toFixed(3));
  return cols * Math.max(1, Math.floor((room + gap) / (tallest() + gap)));
}
function rowsPage(id) {  // the standings' or pairings' rows a page of the big screen shows whole, measured on its slide:
  // a tournament of 40 players ran off the bottom of the screen, the last places never shown
  const rows = [...document.querySelectorAll(`#${id} tbody tr`)];
  if (!rows.length) return { rows, size: 1 };
  show(id);
  rows.forEach(el => { el.hidden = false; });
  const body = $(`#${id} tbody`).getBoundingClientRect(), below = $("#" + id).getBoundingClientRect().bottom - body.bottom;
  const tall = Math.max(...rows.map(el => el.offsetHeight)), room = window.innerHeight - body.top - below;
  return { rows, size: Math.max(1, Math.floor(room / tall)) };
}
function sizes() {  // what a page of each slide holds (rows, tiles)
  const tiles = [...document.querySelectorAll("#wall .tile")];
  return { standings: rowsPage("standings"), pairings: rowsPage("pairings"), wall: { rows: tiles, size: pageSize(tiles) } };
}
function fit() {  // the slide shown paged again at once when a change of size changes what a page holds: a tile grown (a
  // violation said, a trick of many cards, its fonts come) or standings published anew are never cut, and once a tile
  // shrinks the page fills again
  if (PAGE !== "big" || !document.body.dataset.slide) return;
  rotate(document.body.dataset.slide);  // the slide shown, paged anew
}
let refitting = false;
function refit() {  // fit in the next frame, once however many tiles changed: a tile drawn anew, hidden on another page
  // too (it may be the tallest), whatever drew it (a state, a violation, a status); or a shown one resized (its fonts)
  if (PAGE !== "big" || refitting) return;
  refitting = true;
  requestAnimationFrame(() => { refitting = false; fit(); });
}
const RESIZED = PAGE === "big" ? new ResizeObserver(refit) : null;
function rotate(again) {  // the slides: each page of the standings, of the pairings, of the tiles; `again`, the slide
  // shown (standings:1), paged anew: that page, or its panel's last where it has fewer now (a table cleared, rows gone)
  // a panel with no rows (no standings, no pairings: before round 1, tables outside the tournament) has no slide: it
  // was 12 s of 暂无对阵 on the hall's screen each turn; the wall stays (暂无牌桌 where there is nothing at all)
  const paged = Object.entries(sizes()).filter(([id, x]) => x.rows.length || id === "wall");
  const slides = paged.flatMap(([id, x]) =>
    Array.from({ length: Math.max(1, Math.ceil(x.rows.length / x.size)) }, (_, i) => `${id}:${i}`));
  if (again) {
    const [id, page] = again.split(":"), own = slides.filter(x => x.startsWith(id + ":"));
    slide = own.length ? slides.indexOf(own[Math.min(Number(page), own.length - 1)]) : 0;
  }
  slide = slide % slides.length;
  const [which, page] = slides[slide].split(":");
  show(which);
  for (const [id, x] of paged) x.rows.forEach((el, i) => { el.hidden = id === which && Math.floor(i / x.size) !== Number(page); });
  document.body.dataset.slide = slides[slide];
  slide += 1;
}

// ---------------------------------------------------------------- the stream
function renderAll() {
  applyWords();
  if (ONE) view(ONE);  // the table page shows its table even before it said anything
  Object.keys(hall.tables).sort().forEach(renderTile);
  if (!Object.keys(hall.tables).length && $("#wall .tiles")) $("#wall .tiles").innerHTML = `<p class="empty">${T("no_tables")}</p>`;
  renderStandings(); renderPairings(); renderTimeline(); tick();
}
function listen(on) {  // the stream's events (stream.js); cut off from the display, the page says so (a snapshot follows)
  on("snapshot", m => {
    const s = JSON.parse(m.data);
    Object.assign(hall, { feed: s.feed, cut: false, tournament: s.tournament, rounds: s.rounds, standings: s.standings, tables: {} });
    for (const [t, v] of Object.entries(s.tables)) {
      // counted from when the table made its state (a table quiet for minutes is not counted from now)
      hall.tables[t] = Object.assign({ timeline: [], got: performance.now() - 1000 * (v.state_age ?? 0),
                                       healthGot: performance.now() - 1000 * (v.live?.age ?? 0) }, v);
    }
    document.querySelectorAll(".tile").forEach(el => el.remove());
    dirty.clear();
    renderAll();
    if (PAGE === "big") rotate(document.body.dataset.slide);
  });
  on("state", m => {
    const c = JSON.parse(m.data), v = view(c.table);
    Object.assign(v, { state: c.data, bids: c.bids || {}, results: c.results || [], got: performance.now() });
    later(c.table);
    if (c.table === ONE && $("#timeline h2")) v.timeline.length ? headTimeline() : renderTimeline();  // empty: says why
  });
  on("health", m => {
    const c = JSON.parse(m.data), v = view(c.table), was = liveness(hall, v);
    v.health = c.data; v.healthGot = performance.now() - 1000 * (c.age ?? 0);
    if (liveness(hall, v) !== was) renderTile(c.table);
  });
  on("device", m => {
    const c = JSON.parse(m.data), v = view(c.table);
    v.devices = { ...v.devices, [c.data.device]: c.data };
    renderTile(c.table);
  });
  on("status", m => {
    const c = JSON.parse(m.data), v = view(c.table);
    v.status = c.data.status; v.refused = !!c.data.refused;
    renderTile(c.table); tick();
  });
  on("cleared", m => {  // its retained state deleted on the broker: the table and its tile go (view.receive)
    const t = JSON.parse(m.data).table;
    delete hall.tables[t]; dirty.delete(t); document.getElementById("tile-" + t)?.remove(); renderAll(); refit();
  });
  on("violation", m => {
    const c = JSON.parse(m.data), v = view(c.table);
    v.violations = v.violations.filter(x => x.flag !== c.data.flag).concat([c.data]).slice(-6);
    renderTile(c.table); if (c.table === ONE) renderTimeline();
  });
  on("event", m => {
    const c = JSON.parse(m.data), v = view(c.table), e = c.data;
    v.timeline = withEvent(v.timeline, e);
    if (c.table === ONE) renderTimeline();
  });
  const tournament = m => {
    const c = JSON.parse(m.data);
    (m.type === "round" ? hall.rounds : hall.standings)[c.tournament] = c.data;
    hall.tournament = c.tournament;
    renderStandings(); renderPairings();
  };
  on("round", tournament);
  on("standings", tournament);
  on("feed", m => { hall.feed = JSON.parse(m.data).data.connected; tick(); });
  on("open", () => { document.body.dataset.live = "1"; });
}

$("#lang").addEventListener("click", () => switchLanguage(renderAll));
renderAll();
liveStream(listen, () => { hall.cut = true; tick(); })("/api/stream" + (ONE ? "?table=" + encodeURIComponent(ONE) : ""));
setInterval(tick, 250);
if (PAGE === "big") { document.body.classList.add("big"); rotate(); setInterval(() => rotate(), ROTATE_MS); }
