// The organisers' console: login, table commands, a table's hand and its plays corrected from a card picker,
// flags with their frames, the tournament, the audit log. Everything goes through the REST API with the session
// cookie; the hall comes from the live stream. Each action is confirmed in one line (the server says it in the
// reader's language), with an undo where the rules allow one.
"use strict";
const $ = sel => document.querySelector(sel);
const hall = { tables: {} };
const GAMES = JSON.parse(document.body.dataset.games || "{}");  // rulebook -> its game (routers/pages.py)
let ME = null;
let OPEN = null;  // the table whose hand is shown, and its timeline
let PICK = null;  // the play (or flag) being corrected: { table, entry, flag, seat, chosen: [cards] }

const SENDING = new Map();  // a change on its way, by its request: the same again meanwhile (a double click, an Enter
// pressed twice) gets the first one's answer, never sent twice (a foul recorded twice costs twice)
function api(method, path, body) {
  const key = method === "GET" || body instanceof FormData ? null : `${method} ${path} ${JSON.stringify(body ?? null)}`;
  if (key && SENDING.has(key)) return SENDING.get(key);
  const answer = request(method, path, body);
  if (key) { SENDING.set(key, answer); answer.catch(() => {}).finally(() => SENDING.delete(key)); }
  return answer;
}
async function request(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };  // said in the page's language: the server's one rule (deps.language)
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  // no answer (the network down, the display stopped): our words, not the browser's ("Failed to fetch", its language)
  const unreached = () => new Error(T("unreached") + (method === "GET" ? "" : T("unreached_change")));
  const r = await fetch(path, opts).catch(() => { throw unreached(); });
  if (r.status === 401 && ME && !["/api/me", "/api/login"].includes(path)) loggedOut();
  const data = r.status === 204 ? null : (r.headers.get("content-type") || "").includes("json") ? await r.json() : await r.text();
  if (!r.ok) throw Object.assign(data?.detail ? new Error(data.detail) : unreached(), { status: r.status });  // a proxy's page
  return data;
}
function unreadHTML(e) {  // what could not be read, said: never an empty list, nor the forms of a tournament not made
  return `<p class="error">${CODE(T("not_loaded") + e.message)}</p>`;
}
let UNDO = null;
function say(text, bad, undo) {
  const el = $("#result");
  el.querySelector(".line").innerHTML = CODE(text);
  el.className = bad ? "error" : "";
  UNDO = undo || null;
  $("#undo").hidden = !UNDO;
}
async function act(fn) {  // one action: its line (or why it was refused), and the undo the server offers; true when done
  let done = false;
  say(T("working"));  // said at once: a table's command waits up to routers/tables.py ANSWER_S for its answer
  try {
    const out = await fn(), many = Array.isArray(out) || Array.isArray(out?.sent);  // an action at every table
    const each = Array.isArray(out) ? out : many ? out.sent : [out];  // a line for each table it was sent to
    const unanswered = x => x?.answered === false;  // sent, and the table was not seen to take it
    const said = each.map(x => unanswered(x) ? T("unanswered", { said: x.said || T("done") }) : x?.said)
      .concat((out?.skipped || []).map(x => x.said)).filter(Boolean);  // the tables left out, and why
    say(said.join(W("word.sep")) || T("done"), each.some(unanswered), many ? null : out?.undo);
    done = true;
  } catch (e) { say(T("error", { error: e.message }), true); }
  loadAudit();
  return done;
}
// A form sent with a field empty or not as it takes (the fields' required, min, max, step, pattern): said in our words,
// the reader's language, the field named, as the withdrawal's are, and nothing sent. The browser's own bubble (its
// language, not the page's) is held back; the status line (the login's error line before a login) says it.
function fieldName(el) {  // a field by the words at it: its label (less what it holds), else its aria-label or placeholder
  const label = el.labels?.[0]?.cloneNode(true);
  label?.querySelectorAll("input, select, textarea, .file-name").forEach(x => x.remove());
  return label?.textContent.trim() || el.getAttribute("aria-label") || el.placeholder || el.name;
}
function fieldWrong(el) {  // what is wrong with a field, in words
  const v = el.validity, field = fieldName(el), bounds = { field, min: el.min, max: el.max, step: el.step };
  if (v.valueMissing && el.type === "file") return T("field_file");  // its label is an act: 选择报名表文件
  if (v.valueMissing) return el.tagName === "SELECT" ? T("field_choose", { field }) : T("field_empty", { field });
  if (v.patternMismatch) return T("field_id", { field, value: el.value });  // an id's letters: the tournament's
  if (v.rangeUnderflow || v.rangeOverflow) return T(el.max ? "field_range" : "field_min", bounds);
  if (v.stepMismatch) return T("field_step", bounds);
  return el.type === "number" ? T("field_number", { field }) : T("field_wrong", { field });
}
document.addEventListener("invalid", ev => {  // one for each field wrong, in order: the first is said and focused
  ev.preventDefault();
  const f = ev.target.form, first = f && [...f.elements].find(el => el.willValidate && !el.validity.valid);
  if (first !== ev.target) return;
  if (f.getAttribute("id") === "login-form") $("#login-error").textContent = fieldWrong(first);
  else say(T("error", { error: fieldWrong(first) }), true);
  first.focus();
}, true);
$("#undo").addEventListener("click", () => {  // an amendment amended back, a correction of a result corrected back
  const u = UNDO;
  if (u) act(() => api("POST", u.path, u.body)).then(() => { if (ME && u.path.includes("/tournament/")) renderTournament(); });
});

// ---------------------------------------------------------------- login
async function whoAmI() {
  try { ME = await api("GET", "/api/me"); } catch { ME = null; }
  $("#login").hidden = !!ME; $("#desk").hidden = !ME;
  if (ME) { renderMe(); renderTables(); loadInside(); loadFlags(); loadAudit(); renderTournament(); }
  else { INSIDE = {}; TAKEN = {}; }  // what the login read is not kept past it
  renderFeed();
}
function loggedOut() {  // the login ended (an evening's passed, the user removed, its password changed) on a page left
  // open: back to the login form, saying so; what was asked of the server meanwhile was not done (a 401 does nothing)
  ME = null; $("#login").hidden = false; $("#desk").hidden = true; TAKEN = {}; renderTaken();
  $("#login-error").textContent = T("session_ended");
}
function renderMe() {  // the desk says the user's role: a control that needs another (data-needs) is not offered (style.css)
  $("#me").textContent = T("me", { user: ME.user, role: W("role." + ME.role) });
  $("#desk").dataset.role = ME.role;
}
$("#login-form").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = new FormData(ev.target);
  try { await api("POST", "/api/login", { user: f.get("user"), password: f.get("password") }); $("#login-error").textContent = ""; }
  catch { $("#login-error").textContent = T("wrong_login"); }
  whoAmI();
});
$("#logout").addEventListener("click", async () => { await api("POST", "/api/logout"); whoAmI(); });

// ---------------------------------------------------------------- tables
function renderTables() {
  const body = $("#c-tables tbody");
  body.innerHTML = Object.keys(hall.tables).sort().map(t => {
    const v = hall.tables[t], s = v.state;
    const done = s && s.phase === "round_over", playing = s && !done && s.phase !== "idle";  // a round starts only between rounds
    // no next hand at a table between rounds (its round over, idle): no last hand to announce (the table refuses one,
    // table.last_hand_no_round); a table not heard of yet keeps it, its row the one place to announce it
    const lastHand = s && !playing ? "" : `<button data-cmd="last_hand">${T("last_hand")}</button> `;
    return `<tr data-table="${esc(t)}"><td><button class="open-table" data-open="${esc(t)}">${esc(t)}</button></td>` +
      `<td>${s ? esc(PHASEW(s)) : ""} ${v.status === "offline" ? `<b class="error">${T("offline")}</b>${refusedHTML(v)}` : ""}` +
      `${devicesHTML(v)}</td>` +
      `<td class="live">${liveHTML(v)}</td>` +
      `<td class="${done ? "finished" : ""}">${done ? T("finished") : playing ? T("in_play") : ""}</td>` +
      `<td>${playing ? "" : `<button data-cmd="start_round" data-needs="organiser">${T("start_round")}</button> `}` +
      `${lastHand}<button data-cmd="stop_round" data-needs="organiser">${T("stop_round")}</button></td></tr>`;
  }).join("") || `<tr><td colspan="5" class="empty">${T("no_tables")}</td></tr>`;  // none heard of yet: said, not an empty list
}
// What the stream, public, leaves out (said.inside: the pages hear that a service would not start, refused,
// and that a health names a problem, problem: true, never why: a file's path, an exception's words), asked for with the
// login (/api/console/tables) on a login, a snapshot, a refused status and a health that names a problem: why the
// service would not start (its log another table's, damaged, its rulebook unknown; said by the server in both
// languages: said.refused_said), the health's problem (said.problem_said), paced (a stalled table's health comes every 2 s).
let INSIDE = {};  // table -> its inside (not_started, problem)
const loadInside = paced(async () => {
  const rows = await api("GET", "/api/console/tables").catch(() => null);  // none: 未能启动, 无响应 alone
  if (rows && ME) { INSIDE = Object.fromEntries(rows.map(r => [r.table, r])); renderTables(); }
});
// A question of the server, logged in, asked when `ask` is called: one at a time, and the next a second after it at
// the soonest; those called meanwhile ask once more, then.
function paced(ask) {
  let busy = false, again = false;
  const load = async () => {
    if (!ME) return;
    if (busy) { again = true; return; }
    busy = true; again = false;
    try { await ask(); } finally { setTimeout(() => { busy = false; if (again) load(); }, 1000); }
  };
  return load;
}
function refusedHTML(v) {
  const why = v.refused && INSIDE[v.table]?.not_started;
  return v.refused ? ` <span class="refused">${why ? CODE(SAID(why.say)) : T("not_started")}</span>` : "";
}
// Does the table's camera see it, does its board answer (camera/status, board/status)? Only what is wrong is shown: a
// camera lost or offline sees no play of the table, a board down takes no press; the table's service then stops its
// clocks (its state says paused, with no flag open), and the row says so.
const DEVICE_SAID = {
  camera: { lost: () => T("camera_lost"), offline: () => T("camera_offline") },
  board: { lost: () => T("board_lost"), offline: () => T("board_offline") },
};
const LOST_SAID = { frames: () => T("lost_frames"), markers: () => T("lost_markers") };
function devicesHTML(v) {
  const none = v.status === "online" && !(v.devices && v.devices.camera);  // refereeing, no word from its camera
  const down = Object.entries(DEVICE_SAID).map(([d, said]) => {
    const p = v.devices && v.devices[d];
    if (!p || !said[p.status]) return "";
    const why = LOST_SAID[p.reason] ? ` (${esc(LOST_SAID[p.reason]())})` : "";
    return ` <b class="error device ${d}-${esc(p.status)}">${esc(said[p.status]())}</b>${why}`;
  }).join("");
  const held = !v.state?.paused ? "" : v.state.flags.length ? ` <span class="held">${esc(T("clocks_held_flags"))}</span>`  // till answered
    : down ? ` <span class="held">${esc(T("clocks_held"))}</span>` : "";
  return (none ? ` <b class="error device camera-none">${esc(T("camera_none"))}</b>` : "") + down + held + firmwareHTML(v);
}
// A board on older firmware than the release ships (bus/firmware.py, the page's data-firmware): it works, without the
// fixes since (the bridge's log says which, and how to flash it). Nothing for the shipped or a newer one.
function firmwareHTML(v) {
  const has = v.devices && v.devices.board && v.devices.board.firmware, shipped = $("#c-tables").dataset.firmware;
  const parts = s => String(s).split(".").map(Number), a = has ? parts(has) : [], b = parts(shipped);
  const older = has && (a[0] - b[0] || a[1] - b[1] || a[2] - b[2]) < 0;
  return older ? ` <span class="firmware-old">${esc(T("firmware_old", { firmware: has, shipped }))}</span>` : "";
}
// Is the table refereeing (stream.js: `liveness`, the tiles' rule)? Stalled, the row says why: no health for how
// long, else the problem it names (said by the server in the page's language, asked for with the login: loadInside).
// Not live on this page (cut off), or offline, it says since when the page heard from the table.
function problemHTML(p) { return p ? `<span class="problem">${esc(SAID(p.say) || p.problem)}</span>` : ""; }
function liveHTML(v) {
  const live = v ? liveness(hall, v) : "", h = v?.health, age = h ? healthAge(v) : 0;
  if (live === "stale") return `<b class="error stale">${T("stale")}</b>${heardText(v) && " " + esc(heardText(v))}`;
  if (live === "stalled") return `<b class="error stalled">${T("stalled")}</b> ${age > 3 * h.every
    ? esc(T("no_health", { ago: AGO(Math.round(age)) })) : problemHTML(INSIDE[v.table]?.problem)}`;
  if (v?.status === "online" && !h) return `<b class="error stalled">${T("stalled")}</b>`;  // online, no health yet: the
  // organiser's row errs towards "not live" (the scoreboard's tile keeps its status, liveness in stream.js)
  if (v?.status === "offline") return heardText(v) && `<span class="ago">${esc(heardText(v))}</span>`;  // since when, as its tile
  // its state heard, never its status (a service gone before it said online, its retained status cleared): not taken for
  // live, as its tile says
  if (v && !v.status && v.state) return `<b class="error unknown">${T("unknown")}</b>${heardText(v) && " " + esc(heardText(v))}`;
  if (!h || v.status !== "online") return "";
  const out = [h.input_at == null ? "" : esc(T("last_input", { ago: AGO(Math.max(0, Math.round(h.at - h.input_at + age))) }))];
  if (h.waiting > 20) out.push(esc(T("waiting_inputs", { n: h.waiting })));
  const who = k => k.startsWith("board/") ? T("from_board") : k === "commands" ? T("from_console") : T("from_camera");
  const off = Object.entries(h.clocks_off).map(([k, s]) => T("offset", { who: who(k), s: `${s > 0 ? "+" : ""}${Math.round(s)}` }));
  if (off.length) out.push(`<b class="error clock-off">${T("clock_off")}</b> ${esc(off.join(", "))}`);
  const dropped = Object.entries(h.dropped).map(([k, n]) => `${who(k)} ${n}`);
  if (dropped.length) out.push(`${T("dropped_inputs")} ${esc(dropped.join(", "))}`);
  return out.filter(Boolean).join(" · ");
}
function renderDropped() {  // the broker's own drops (a queue full), for the whole hall
  const el = $("#broker-dropped");
  el.hidden = !hall.brokerDropped;
  if (hall.brokerDropped) el.textContent = T("broker_dropped", { n: hall.brokerDropped });
}
function renderFeed() {  // #banner exactly while a command would be refused for the display being cut off from the
  // broker: its console connection down (Feed.can_send, the hall's `commands`), whatever its scoreboard connection does;
  // or this page cut off from the display (it cannot know). #stale while only the scoreboard connection is down (the
  // hall's `feed`): commands still go, but the tables and flags shown are not live
  $("#banner").hidden = hall.commands !== false || hall.cut;
  $("#stale").hidden = !(hall.feed === false && hall.commands !== false) || hall.cut;
  $("#cut").hidden = !hall.cut;  // this page cut off from the display: nothing it shows is live, nothing it sends goes
  renderTaken();
  if (hall.commands === false || hall.feed === false) loadTaken();
  tickLive();
}
// A connection of the display another display of its broker user took over stays down until the display is restarted
// (display.feed): why and what to do, asked for with the login (/api/console/health), in the page's language, paced
// (each render of the feed's banners while a connection is down asks)
let TAKEN = {};  // "scoreboard", "console" -> {zh, en}
const loadTaken = paced(async () => {
  const h = await api("GET", "/api/console/health").catch(() => null);
  if (h && ME) { TAKEN = h.taken; renderTaken(); }
});
function renderTaken() {
  const words = ME ? Object.values(TAKEN).map(w => w[LANG]) : [];
  $("#taken").hidden = !words.length;
  $("#taken").textContent = words.join(" ");
}
function tickLive() {
  for (const td of document.querySelectorAll("#c-tables td.live")) td.innerHTML = liveHTML(hall.tables[td.parentElement.dataset.table]);
  for (const p of document.querySelectorAll("#c-flags .not-live")) p.textContent = notLiveText(p.closest(".flag-card").dataset.table);
}
setInterval(tickLive, 1000);
setInterval(() => ME && renderTournament(), 15000);  // a tournament service gone silent publishes nothing to redraw on
$("#c-tables").addEventListener("click", ev => {
  const open = ev.target.closest("button[data-open]");
  if (open) { openTable(open.dataset.open); return; }
  const b = ev.target.closest("button[data-cmd]");
  if (!b) return;
  const t = b.closest("tr").dataset.table;
  act(() => api("POST", `/api/console/tables/${encodeURIComponent(t)}/commands`, { command: b.dataset.cmd }));
});
$("#all-last-hand").addEventListener("click", () => act(() => api("POST", "/api/console/last-hand")));
// The referee's rulings on what no camera sees, as the chosen table's rulebook takes them (data-rulings of the form,
// routers/pages.py): its fouls, and San Da Yi's 报到 and 摊打; nothing for a table not known or not yet assigned. A foul
// that names its cards (the book's card_points: 000 第十八条, the wrong play corrected) has the cards field, and only it.
const RULEBOOKS = JSON.parse($("#ruling-form").dataset.rulings);
function rulingsAt(table) {  // option value -> what the ruling sends, for that table's rulebook
  const book = RULEBOOKS[hall.tables[table]?.state?.rulebook] || { fouls: [], rulings: [], cards: [] };
  const more = { report: { "report:play": { ruling: "report", play: true }, "report:no_play": { ruling: "report", play: false } },
    open_hand: { open_hand: { ruling: "open_hand" } } };
  return Object.assign(Object.fromEntries(book.fouls.map(k => [`foul:${k}`, { ruling: "foul", kind: k }])),
    ...book.rulings.map(r => more[r]));
}
function renderRulings() {
  const f = $("#ruling-form"), rulings = rulingsAt(f.table.value.trim());
  const keep = [f.seat.value, f.what.value];
  f.seat.innerHTML = "SENW".split("").map(s => `<option value="${s}">${esc(SEATW(s))}</option>`).join("");
  f.what.innerHTML = Object.keys(rulings).map(k => `<option value="${k}">${esc(k.startsWith("foul:") ? T("foul_of", { kind: KINDW(k.slice(5)) }) :
    T(k === "report:play" ? "report_play" : k === "report:no_play" ? "report_no_play" : "open_hand"))}</option>`).join("") ||
    `<option value="" data-t="ruling_no_table">${esc(T("ruling_no_table"))}</option>`;
  f.what.disabled = f.querySelector("button").disabled = !Object.keys(rulings).length;
  if (keep[0]) f.seat.value = keep[0];
  if (keep[1] in rulings) f.what.value = keep[1];
  renderRulingCards();
}
function renderRulingCards() {  // the cards field, shown (and sent) for a foul that names its cards only
  const f = $("#ruling-form"), r = rulingsAt(f.table.value.trim())[f.what.value];
  const book = RULEBOOKS[hall.tables[f.table.value.trim()]?.state?.rulebook];
  f.cards.disabled = f.querySelector(".named-cards").hidden = !(r?.ruling === "foul" && book?.cards.includes(r.kind));
}
renderRulings();
$("#ruling-form").table.addEventListener("input", renderRulings);
$("#ruling-form").what.addEventListener("change", renderRulingCards);
$("#ruling-form").addEventListener("submit", ev => {
  ev.preventDefault();
  const f = ev.target;
  const t = f.table.value.trim(), named = f.cards.disabled ? [] : f.cards.value.toUpperCase().split(/[\s,，]+/).filter(Boolean);
  const cards = named.length ? { cards: named } : {};  // none named: the table says what the foul needs
  act(() => api("POST", `/api/console/tables/${encodeURIComponent(t)}/rulings`, { ...rulingsAt(t)[f.what.value], seat: f.seat.value, ...cards }));
});

// ---------------------------------------------------------------- a table's hand, and correcting a play
function openTable(t) {  // its hand comes with the stream of that table (a snapshot, then its events)
  OPEN = { table: t, timeline: [], violations: [], heard: false };  // heard: its snapshot came (till then no word on an empty list)
  $("#ruling-form").table.value = t;
  renderRulings();
  $("#c-timeline").hidden = false;
  $("#c-timeline .which").textContent = t;
  renderTimeline();
  connect(t);
}
function renderTimeline() {
  if (!OPEN) return;
  const head = $("#c-timeline h2 span"), games = GAMES[hall.tables[OPEN.table]?.state?.rulebook] === "sandayi";
  head.textContent = T(games ? "open_timeline_games" : "open_timeline");  // San Da Yi plays games (局), the others hands (盘)
  head.dataset.t = games ? "open_timeline_games" : "open_timeline";  // the language switch says it again
  $("#c-timeline ol").innerHTML = foldPickups(withFouls(OPEN.timeline, OPEN.violations)).reverse().map(e => {
    if (e.flag) return foulHTML(e);
    const cards = e.data.cards || (e.data.card ? [e.data.card] : null);
    const time = TIMEW(e.at);
    const picked = (PICK && PICK.entry === e.seq && e.kind === "play_accepted" ? " picked" : "") + (e.rejudged ? " was" : "");
    const play = e.kind === "play_accepted" ? ` tabindex="0" role="button"` : "";  // a play is picked by the keyboard too
    return `<li class="ev${picked}" data-seq="${e.seq}" data-kind="${esc(e.kind)}"${play}><time>${time}</time>${entryNoHTML(e)} ${saidHTML(SAID(e.say))} ${Array.isArray(cards) ? cardsHTML(cards) : ""}${rejudgedHTML(e)}</li>`;
  }).join("") || (OPEN.heard ? emptyTimelineHTML(hall.tables[OPEN.table]?.state, games) : "");  // an empty list says so
}
// The table's violations (one a flag, the latest word on it) among its events, each after the entry that logged it;
// none older than the timeline's first event (a hand no longer shown).
function withFouls(timeline, violations) {
  const from = timeline.length ? timeline[0].seq : Infinity, fouls = violations.filter(v => v.seq >= from);
  return timeline.concat(fouls).sort((a, b) => a.seq - b.seq || !!a.flag - !!b.flag);
}
function foulHTML(v) {  // said by the server (display/view.py): the seat, the foul, its status and penalty, its cards
  const time = TIMEW(v.at);
  const cards = v.evidence?.cards;
  return `<li class="ev v ${esc(v.status)}" data-seq="${v.seq}" data-kind="violation" data-flag="${esc(v.flag)}"><time>${time}</time> ` +
    `${saidHTML(SAID(v.say))} ${Array.isArray(cards) ? cardsHTML(cards) : ""}</li>`;
}
$("#c-timeline ol").addEventListener("click", ev => {
  const li = ev.target.closest("li[data-kind=play_accepted]");
  if (li) openPicker({ table: OPEN.table, entry: Number(li.dataset.seq) });
});
$("#c-timeline ol").addEventListener("keydown", ev => {  // Enter or Space on a play opens it, as a click does
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.matches("li[data-kind=play_accepted]")) { ev.preventDefault(); ev.target.click(); }
});
async function openPicker(what) {  // the cards its seat could have played: the decks minus what this hand has seen
  const q = what.entry ? `entry=${what.entry}` : `seat=${what.seat}`;
  try {
    const p = await api("GET", `/api/console/tables/${encodeURIComponent(what.table)}/choices?${q}`);
    PICK = { ...what, seat: p.seat, chosen: p.cards.slice(), choices: p.choices, said: p.said, whole: p.whole };
  } catch (e) { say(T("error", { error: e.message }), true); return; }
  $("#c-picker").hidden = false;
  renderPicker();
  renderTimeline();
  $("#c-picker").scrollIntoView({ block: "nearest" });
  $("#c-picker").focus();  // the next Tab is in the picker, not back at the top of the page
}
function pickHTML(card, left) {
  return `<button type="button" class="pick" data-card="${card}">${cardSVG(card)}${left === undefined ? "" : `<small>${T("picker_left", { n: left })}</small>`}</button>`;
}
function renderPicker() {
  if (!PICK) { $("#c-picker").hidden = true; return; }
  const used = {};
  PICK.chosen.forEach(c => { used[c] = (used[c] || 0) + 1; });
  $("#c-picker .of").textContent = PICK.said;
  $("#c-picker .partial").hidden = PICK.whole;  // the display missed plays of this hand: the counts left are too high
  $("#c-picker .chosen").innerHTML = PICK.chosen.length ? PICK.chosen.map(c => pickHTML(c)).join("") : T("picker_empty");
  $("#c-picker .choices").innerHTML = PICK.choices.filter(x => x.left > (used[x.card] || 0))
    .map(x => pickHTML(x.card, x.left - (used[x.card] || 0))).join("");
}
$("#c-picker").addEventListener("click", ev => {
  const b = ev.target.closest("button.pick");
  if (!b || !PICK) return;
  const where = b.closest(".chosen") ? ".chosen" : ".choices", at = [...$(`#c-picker ${where}`).children].indexOf(b);
  if (where === ".chosen") PICK.chosen.splice(PICK.chosen.indexOf(b.dataset.card), 1);  // take it out
  else PICK.chosen.push(b.dataset.card);  // add one copy
  renderPicker();
  // drawn anew, the pressed card's place keeps the focus (the same card, else its neighbour): a keyboard went back to the top
  const same = $(`#c-picker ${where} .pick[data-card="${b.dataset.card}"]`), kept = $(`#c-picker ${where}`).querySelectorAll(".pick");
  (same || kept[Math.min(at, kept.length - 1)] || $("#pick-ok")).focus();
});
$("#pick-close").addEventListener("click", () => { PICK = null; renderPicker(); renderTimeline(); });
$("#pick-ok").addEventListener("click", () => {
  if (!PICK || !PICK.chosen.length) return;
  const p = PICK, t = encodeURIComponent(p.table);
  PICK = null; renderPicker(); renderTimeline();
  act(() => p.flag ? api("POST", `/api/console/tables/${t}/flags/${encodeURIComponent(p.flag)}`, { how: "correct", cards: p.chosen })
                   : api("POST", `/api/console/tables/${t}/plays/${p.entry}`, { cards: p.chosen }));
});

// ---------------------------------------------------------------- flags
let flagsAsked = 0;
async function loadFlags() {
  if (!ME) return;
  const asked = ++flagsAsked;
  const flags = await api("GET", "/api/console/flags").catch(e => e);
  if (asked !== flagsAsked) return;  // a later answer is on its way
  const box = $("#c-flags .body");
  if (flags instanceof Error) { box.innerHTML = unreadHTML(flags); return; }  // never "no flags"
  $("#c-flags h2 .n").textContent = flags.length || "";  // a long evening's list runs to metres on a phone
  box.innerHTML = flags.length ? flags.map(f =>
    `<div class="flag-card" data-table="${esc(f.table)}" data-flag="${esc(f.flag)}" data-seat="${esc(f.seat)}">` +
    (f.frame ? `<figure><img src="${esc(f.frame.url)}" alt="${T("frame")}"><figcaption>${esc(f.table)} · ${esc(SEATW(f.frame.seat))} · ` +
      `${TIMEW(f.frame.at)}</figcaption></figure>` : `<div class="noframe">${T("no_frame")}</div>`) +
    `<div><p><b>${esc(f.table)}</b> ${saidHTML(f.said)}</p>${cameraHTML(f.frame)}${f.cards.length ? `<p>${cardsHTML(f.cards)}</p>` : ""}` +
    `<p class="error not-live">${esc(notLiveText(f.table))}</p><p>${answersHTML(f)}</p></div></div>`
  ).join("") : `<p class="empty">${T("no_flags")}</p>`;
}
// Beside a flag's buttons, a table that may not take its answer: offline, stalled, or of no status heard (stream.js
// liveness, the tiles' rule); its row in the tables' list says it too, far above on a phone. The page cut off: its banner.
function notLiveText(table) {
  const v = hall.tables[table], live = v ? liveness(hall, v) : "stale";
  const down = live === "stalled" ? "stalled" : live ? "" : v.status === "offline" ? "offline" : v.status ? "" : "unknown";
  return down ? T("flag_not_live", { table, state: T(down) }) : "";
}
// A flag's buttons: first, for a flag with choices (a Tractor captive led, 001 十五: 要说明“甩牌”的结构; a Guandan
// wildcard play, lead or follow, 002 二: 须出牌时说明), one dismiss for each reading its player may have stated, its words where the
// table gives them (到 8 的顺子) and its units' cards (♠K♠K + ♠A♠A♠A); its confirm says none was stated, and what that means
function answersHTML(f) {
  const words = f.choice_words || [];
  const readings = (f.choices || []).map((units, i) => `<button data-how="dismiss" data-reading="${i + 1}">` +
    `${esc(words[i] ? `${T("dismiss_said")} ${words[i]}` : T("dismiss_reading"))} ${units.map(cardsHTML).join(" + ")}</button>`);
  const kind = f.choices?.length ? (f.kind === "play_reading" ? "play_reading" : "choices") : f.kind;
  return readings.concat(f.actions.map(how => `<button data-how="${how}">${esc(howWords(how, kind))}</button>`)).join(" ");
}
const HOW_WORDS = { confirm: () => T("confirm"), dismiss: () => T("dismiss"), correct: () => T("correct"),
  "confirm:choices": () => T("confirm_unstated"), "confirm:play_reading": () => T("confirm_unstated_lowest"),
  "confirm:referee_called": () => T("confirm_referee_called"), "confirm:no_play": () => T("confirm_no_play"),
  "confirm:stalled": () => T("confirm_stalled"), "correct:stalled": () => T("correct_stalled"), "confirm:idle": () => T("confirm_idle") };
function howWords(how, kind) {  // a flag's answer as it means for its kind (a stalled seat's correct enters the play seen)
  return (HOW_WORDS[`${how}:${kind}`] || HOW_WORDS[how])();
}
// Why the camera kept the frame (the vision reasons: a corner read as another card, a play of the wrong size, ...), in
// the camera's own words and language (the frames topic says it once, in words): shown on pages of that language, as
// every free text from the tables is.
function cameraHTML(frame) {
  if (!frame || /[\u3400-\u9fff]/.test(frame.reason) !== (LANG === "zh")) return "";
  return `<p class="camera">${esc(T("camera_said") + frame.reason)}</p>`;
}
$("#c-flags").addEventListener("click", ev => {
  const b = ev.target.closest("button[data-how]");
  if (!b) return;
  const card = b.closest(".flag-card"), how = b.dataset.how;
  if (how === "correct") { openPicker({ table: card.dataset.table, flag: card.dataset.flag, seat: card.dataset.seat }); return; }
  const reading = b.dataset.reading ? { reading: Number(b.dataset.reading) } : {};  // the structure stated
  act(() => api("POST", `/api/console/tables/${encodeURIComponent(card.dataset.table)}/flags/${encodeURIComponent(card.dataset.flag)}`, { how, ...reading }));
});

// ---------------------------------------------------------------- audit
async function loadAudit() {
  if (!ME) return;
  const rows = await api("GET", "/api/console/audit?limit=50").catch(e => e);
  if (rows instanceof Error) { $("#c-audit tbody").innerHTML = `<tr class="error"><td colspan="2">${CODE(T("not_loaded") + rows.message)}</td></tr>`; return; }
  $("#c-audit tbody").innerHTML = rows.map(r => `<tr data-action="${esc(r.action)}"${r.action === "damaged" ? ' class="error"' : ""}><td>${new Date(r.at * 1000).toLocaleString(LANG === "en" ? "en-GB" : "zh-CN", { hour12: false })}</td>` +
    `<td>${esc(r.text)}</td></tr>`).join("");
}

// ---------------------------------------------------------------- the stream (tables, their flags, the open table's hand)
let flagKey = "", streamOf = null;  // the table whose hand the stream brings
function flagsChanged() {
  const key = Object.values(hall.tables).map(v => (v.state?.flags || []).map(f => v.table + f.flag).join()).join("|");
  if (key !== flagKey) { flagKey = key; loadFlags(); }
}
const openStream = liveStream(listen, () => { hall.cut = true; renderFeed(); });  // cut off from the display (a snapshot follows)
function connect(table) {
  streamOf = table;
  openStream("/api/stream" + (table ? "?table=" + encodeURIComponent(table) : ""));
}
function listen(on) {  // the stream's events (stream.js)
  on("snapshot", m => {
    const s = JSON.parse(m.data);
    hall.tables = s.tables;
    for (const v of Object.values(hall.tables)) {
      v.healthGot = performance.now() - 1000 * (v.live?.age ?? 0); v.got = performance.now() - 1000 * (v.state_age ?? 0);
    }
    hall.cut = false;
    hall.brokerDropped = s.broker_dropped; renderDropped();
    hall.commands = s.commands; hall.feed = s.feed; renderFeed();
    if (OPEN && s.tables[OPEN.table]) {
      OPEN.timeline = s.tables[OPEN.table].timeline || []; OPEN.violations = s.tables[OPEN.table].violations || [];
      OPEN.heard = true; renderTimeline();
    }
    flagsChanged(); renderRulings(); if (ME) { renderTables(); loadInside(); }
  });
  on("broker", m => { hall.brokerDropped = JSON.parse(m.data).data.dropped; renderDropped(); });
  on("feed", m => { const d = JSON.parse(m.data).data; hall.commands = d.commands; hall.feed = d.connected; renderFeed(); });
  on("health", m => {
    const c = JSON.parse(m.data);
    const v = hall.tables[c.table] || (hall.tables[c.table] = { table: c.table, state: null, status: null });
    v.health = c.data; v.healthGot = performance.now() - 1000 * (c.age ?? 0);
    if (c.data.problem) loadInside();  // which problem, the console asks (the stream says only that there is one)
  });
  on("state", m => {
    const c = JSON.parse(m.data);
    const v = hall.tables[c.table] || (hall.tables[c.table] = { table: c.table, status: null });
    const was = v.state; v.state = c.data; v.got = performance.now();
    flagsChanged();
    if (was?.rulebook !== c.data.rulebook && c.table === $("#ruling-form").table.value.trim()) renderRulings();  // assigned
    if (ME && (was?.phase !== c.data.phase || was?.paused !== c.data.paused)) renderTables();  // the row shows both
    if (OPEN?.table === c.table && !OPEN.timeline.length) renderTimeline();  // an empty list says why
  });
  on("device", m => {
    const c = JSON.parse(m.data);
    const v = hall.tables[c.table] || (hall.tables[c.table] = { table: c.table, state: null, status: null });
    v.devices = { ...(v.devices || {}), [c.data.device]: c.data };
    if (ME) renderTables();
  });
  on("status", m => {
    const c = JSON.parse(m.data);
    const v = hall.tables[c.table] || (hall.tables[c.table] = { table: c.table, state: null });
    v.status = c.data.status; v.refused = !!c.data.refused;
    if (ME) { renderTables(); if (v.refused) loadInside(); }
  });
  on("cleared", m => { delete hall.tables[JSON.parse(m.data).table]; flagsChanged(); if (ME) renderTables(); });
  on("event", m => {
    const c = JSON.parse(m.data), e = c.data;
    if (!OPEN || c.table !== OPEN.table) return;
    OPEN.timeline = withEvent(OPEN.timeline, e);
    renderTimeline();
  });
  on("violation", m => {  // a foul at the open table, flagged, confirmed or dismissed: its line in the timeline
    const c = JSON.parse(m.data);
    if (!OPEN || c.table !== OPEN.table) return;
    OPEN.violations = OPEN.violations.filter(x => x.flag !== c.data.flag).concat([c.data]);
    renderTimeline();
  });
  on("round", () => ME && renderTournament());
  on("standings", () => ME && renderTournament());
  on("open", () => { document.body.dataset.live = streamOf || "1"; });
}
function renderTournament() { tournamentPanel(); }

$("#lang").addEventListener("click", () => switchLanguage(() => {
  renderRulings(); renderTaken();
  if (ME) { renderMe(); renderTables(); renderTimeline(); loadFlags(); loadAudit(); renderTournament(); }
  if (PICK) { const chosen = PICK.chosen; openPicker(PICK).then(() => { if (PICK) { PICK.chosen = chosen; renderPicker(); } }); }
}));
applyWords();
whoAmI();
connect(null);
