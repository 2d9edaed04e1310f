// The console's tournament panel: registration (by hand or the CSV/XLSX form), the tournament, its rounds (a pairing
// made by mistake undone), results and corrections, forfeits, late arrivals, exports. Uses api(), act(), T() of console.js and i18n.js.
"use strict";
const SYSTEMS = Object.keys(CATALOGUE.zh).filter(k => k.startsWith("system.")).map(k => k.slice(7));  // each system is named there
let DRAWN = 0;  // the latest drawing asked for: an older one that answers late is dropped
// tournament system -> its standings' score column and what its rows are (the page's data, routers/pages.py)
const [BOOK_SCORES, BOOK_ROWS] = ["scores", "rows"].map(k => JSON.parse(document.body.dataset[k] || "{}"));
let SHOWN = null;  // the round shown when it is an earlier one than the latest (its results corrected there); null: the latest
async function tournamentPanel(sent = null) {  // sent: the form (or table row) whose typing was just accepted
  const box = $("#c-tournament .body"), n = ++DRAWN;
  const t = await api("GET", "/api/console/tournament" + (SHOWN ? `?round=${SHOWN}` : "")).catch(e => e);  // 404: none made yet
  const html = !(t instanceof Error) ? roundHTML(t) : t.status === 404 ? await registrationHTML() : unreadHTML(t);
  if (n !== DRAWN) return;
  const was = document.activeElement && box.contains(document.activeElement) ? document.activeElement : null;
  // the focus back on the very field: a radio by its value too (it went to the row's last one, the other side, so a
  // Space pressed after a redraw picked the wrong winner)
  const at = el => fieldKey(el) + (el.type === "radio" ? "=" + el.value : "");
  const typed = typing(box, sent), focus = was ? at(was) : null, caret = was ? selection(was) : null;
  box.innerHTML = html;  // redrawn whenever the tournament publishes: what the organiser is typing survives it
  box.querySelectorAll("input, select").forEach(el => {
    const k = fieldKey(el);
    if (el.type === "radio" || el.type === "checkbox") { if (typed.has(k + "=" + el.value)) el.checked = typed.get(k + "=" + el.value); }
    else if (typed.has(k)) el.value = typed.get(k);
    if (at(el) === focus) { el.focus(); if (caret) try { el.setSelectionRange(...caret); } catch { /* a field without a caret */ } }
  });
}
function selection(el) {  // the caret or the selected text of a text field: the next key typed lands where it would have
  try { return el.selectionStart === null ? null : [el.selectionStart, el.selectionEnd, el.selectionDirection]; } catch { return null; }
}
function fieldKey(el) {  // a field by its form's id or its table's row, and its name
  const at = el.form?.getAttribute("id") || el.closest("tr")?.dataset.table || el.id || "";
  return `${at}|${el.name}`;
}
function typing(box, sent) {  // the fields changed and not yet sent (a file input cannot be set again)
  const typed = new Map();
  box.querySelectorAll("input:not([type=file]), select").forEach(el => {
    const k = fieldKey(el);
    if (sent && k.startsWith(sent + "|")) return;
    if (el.type === "radio") { if (el.checked !== el.defaultChecked && el.checked) typed.set(k + "=" + el.value, true); }
    else if (el.type === "checkbox") { if (el.checked !== el.defaultChecked) typed.set(k + "=" + el.value, el.checked); }
    else if (el.tagName === "SELECT" ? [...el.options].some(o => o.selected !== o.defaultSelected) : el.value !== el.defaultValue) typed.set(k, el.value);
  });
  return typed;
}
async function registrationHTML() {
  const list = await api("GET", "/api/console/entries").catch(e => e), mine = organiser();
  return (list instanceof Error ? `<h3>${T("entries")}</h3>` + unreadHTML(list) +  // a damaged draft: cleared here, or an import replaces it
    (list.status === 500 ? `<p><button id="t-clear" data-needs="organiser">${T("clear_entries")}</button></p>` : "") : `<h3>${T("entries")} (${list.entries.length})</h3><ol class="entries">` +
    list.entries.map(e => `<li data-entry="${esc(e.id)}">${esc(e.unit)}${e.team !== e.unit ? " · " + esc(e.team) : ""} · ${esc(e.name)}</li>`).join("") + `</ol>`) +
    `<form id="t-entry" data-needs="organiser"><input name="unit" placeholder="${T("unit")}" required> <input name="team" placeholder="${T("team")}" size="${hintSize(T("team"))}">` +
    ` <input name="pair" placeholder="${T("pair")}" size="4">` +
    ` <input name="players" placeholder="${T("players")}" size="${hintSize(T("players"))}" required> <button>${T("add_entry")}</button></form>` +
    `<form id="t-import" data-needs="organiser"><label class="file"><input type="file" name="file" accept=".csv,.xlsx" required>` +  // the browser's own words hidden
    `<span class="pick-file">${T("choose_file")}</span> <span class="file-name">${T("no_file")}</span></label> <button>${T("import")}</button></form>` +
    `<p class="hint" id="t-next">${esc(T(mine ? "next_register" : "next_register_referee"))}</p>` +
    `<form id="t-new" data-needs="organiser"><select name="system">${SYSTEMS.map(x => `<option value="${x}">${esc(W("system." + x))}</option>`).join("")}</select>` +
    ` <input name="name" placeholder="${T("name")}" required> <input name="id" placeholder="${T("tournament_id")}" value="main" pattern="[A-Za-z0-9_\\-]{1,32}">` +
    ` <input name="rounds" type="number" min="1" max="30" placeholder="${T("rounds")}"> <button>${T("new_tournament")}</button></form>`;
}
const hintSize = text => [...text].reduce((n, c) => n + (c.codePointAt(0) > 0x2e80 ? 2 : 1), 1);  // a box its hint fits (a CJK character: two)
function roundHTML(view) {
  const known = new Map((view.entries || []).map(e => [e.id, e]));
  // marked 退赛 where it sits (individual tables: an empty seat, forfeited); a pair named by its team (pair Swiss)
  const out = e => ({ ...e, withdrawn: !!known.get(e.id)?.withdrawn, team: known.get(e.id)?.team || "" });
  const said = view.results || {};  // a result as read where its scores are not that (pair Swiss: the levels each side reached)
  const t = { ...view, round: { ...view.round, tables: view.round.tables.map(x => ({ ...x, entries: x.entries.map(out), said: said[x.table], seen: view.changed?.[x.table] })) } }, r = t.round;
  const named = id => known.has(id) ? pairWords(known.get(id)) : id;  // as the hall knows it, not by its internal id
  // a round paired again before it was played says so: the change, each table as announced (nothing changes silently)
  const moved = new Map((r.repaired?.tables || []).map(x => [x.table, x.before.map(named)]));
  const tables = r.repaired ? r.repaired.tables.map(x => x.table).concat(r.repaired.byes ? [T("byes")] : []).join(W("word.list")) : "";
  const notice = r.repaired ? `<p class="repaired" id="t-repaired">${esc(T("repaired", { round: r.repaired.round, because: BECAUSE(r.repaired.because), tables }))}` +
    (r.repaired.byes ? ` · ${esc(T("byes"))}: ${esc(T("was"))} ${esc(r.repaired.byes.before.map(named).join(W("word.list")) || "-")}` : "") + `</p>` : "";
  const notes = new Map();  // the tables' reports the tournament service could not record: said at the table until entered
  for (const n of t.unrecorded || []) notes.set(n.table, [...(notes.get(n.table) || []), n]);
  const pairs = t.system !== "individual-tables", latest = r.round === t.paired;
  const rows = r.tables.map(x => {
    if (!pairs) return scoresRow(x, moved.get(x.table), notes.get(x.table));
    const gone = new Set(x.forfeits || []);  // a forfeit standing is said after the entry, as the sheets and the big screen say it
    const names = x.entries.map((e, i) => `<label data-entry="${esc(e.id)}"><input type="radio" name="w-${esc(x.table)}" value="${i}"` +
      ` aria-label="${esc(T("winner_is", { entry: calledText(e) }))}"> ${entryHTML(e)}</label>` +
      `${gone.has(e.id) ? `<b class="forfeited">${esc(T("forfeited"))}</b>` : ""}` +
      ` <button data-forfeit="${esc(e.id)}" aria-label="${esc(T("forfeit_of", { entry: calledText(e) }))}">${T("forfeit")}</button>`).join(` <b>${T("versus")}</b> `);
    // a table without its result is entered, one with it corrected with a reason: never both offered (录入结果 over a
    // result was refused 请改用更正, 更正 of none recorded a correction of nothing)
    return tableRow(x, moved.get(x.table), names, gamesHTML(t.best_of) + (!x.result ? `<button data-result="record">${T("record_result")}</button>` :
      `<input name="reason" placeholder="${T("reason")}" aria-label="${T("reason")}" size="8"> <button data-result="correct">${T("correct")}</button>`),
    notes.get(x.table));
  }).join("");
  const unpublished = t.unpublished ? `<p class="error" id="t-unpublished">${CODE(t.unpublished)}</p>` : "";
  const byes = r.byes.map(e => named(e) + ((r.byes_forfeited || []).includes(e) ? T("bye_forfeited") : ""));
  return unpublished + `<p><b>${esc(t.name)}</b> · ${esc(W("system." + t.system))} · ${T("round_of", { round: t.paired, rounds: t.rounds })}${t.finished ? " · " + T("finished") : ""}</p>` +
    roundsNav(t) + (latest ? nextHTML(t) : `<p class="hint" id="t-earlier">${esc(T("earlier_round", { round: r.round, latest: t.paired }))}</p>`) +
    // finished: nothing to pair, and no round to seat again (its start re-sent the tables their seats)
    `<p>${latest && !t.finished ? `<button id="t-pair" data-needs="organiser">${T("next_round")}</button> ${startHTML(t)}` : ""}` +
    ` <a href="/api/console/tournament/export.xlsx">${T("export")} XLSX</a> <a href="/api/console/tournament/export.csv">CSV</a>` +
    ` <a href="/api/console/tournament/export.html" target="_blank" id="t-print">${T("print")}</a>` +  // opened as a page, styled
    ` <a href="/api/console/tournament/export.html?download=1" id="t-print-file">${T("print_download")}</a></p>` +
    notice + `<table id="t-round" data-round="${r.round}"><thead><tr><th>${T("table")}</th><th>${T("teams")}${pairs ? ` <small class="hint">${T("pick_winner")}</small>` : ""}</th><th>${T("result")}</th><th>${T("actions")}</th></tr></thead><tbody>${rows}</tbody></table>` +
    (byes.length ? `<p id="t-byes">${esc(T("byes_line", { byes: byes.join(W("word.list")) }))}</p>` : "") + standingsHTML(t) + (latest ? moreHTML(t) : "");
}
function standingsHTML(t) {  // the standings as the tournament ranks them (its own standings view, never worked out
  // here): each compared column, the order they compare in words (t.ranking, as the exports say it); on a phone a row
  // wraps, each number under its head's words (data-head), none out of sight
  const s = t.standings;
  if (!t.paired || !s?.rows?.length) return "";
  const solo = BOOK_ROWS[s.system] === "player", known = new Map((t.entries || []).map(e => [e.id, e]));
  const heads = [T("rank"), T(solo ? "row_player" : "row_team"), W("column." + BOOK_SCORES[s.system]), ...s.columns.map(c => W("column." + c))];
  const cell = (i, html, cls = "num") => `<td class="${cls}" data-head="${esc(heads[i])}">${html}</td>`;
  const rows = s.rows.map(r => {
    const lot = known.get(r.id)?.lot, name = solo && lot ? `<span class="lot">${esc(T("lot_no", { n: lot }))}</span> ${esc(r.name)}` : esc(r.name);
    return `<tr data-entry="${esc(r.id)}"${r.withdrawn ? ` class="withdrawn"` : ""}>` +
      cell(0, (r.withdrawn ? esc(T("withdrawn")) : r.rank) + (r.by_lot ? `<span class="lot-mark" title="${esc(T("by_lot"))}">${esc(T("lot_mark"))}</span>` : ""), "num rank") +
      cell(1, name + (r.unit !== r.name ? ` <small>${esc(r.unit)}</small>` : ""), "who") + cell(2, esc(EXACT(r.score)), "num score") +
      r.tiebreaks.map((x, i) => cell(3 + i, esc(EXACT(x)))).join("") + `</tr>`;
  }).join("");
  return `<section id="t-standings"><h3>${esc(T("standings"))}</h3>` +
    `<table><thead><tr>${heads.map((h, i) => `<th${i === 1 ? "" : ` class="num"`}>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>` +
    (s.rows.some(r => r.by_lot) ? `<p class="legend">${esc(T("by_lot"))}</p>` : "") + `<p class="hint" id="t-ranking">${esc(t.ranking)}</p></section>`;
}
function moreHTML(t) {  // what is entered for the latest round only: the hall's lot, late arrivals (once paired, until finished), a unit or entry withdrawn, the rounds, its pairing undone
  const r = t.round;
  return (t.lot_open ? lotHTML(t.entries) : "") +
    `<div class="more">` +  // a late arrival is of a round being played: none before round 1 is paired (its picker was empty) nor once finished
    (r.round && !t.finished ? `<form id="t-late"><fieldset><legend>${T("late")}</legend><label for="t-late-entry">${T("late_entry")}</label> <select id="t-late-entry" name="entry" required>` +
    `<option value="">${T("choose")}</option>${r.tables.flatMap(x => x.entries).filter(e => !e.withdrawn).sort((a, b) => a.lot - b.lot)
      .map(e => `<option value="${esc(e.id)}">${esc(calledText(e))}</option>`).join("")}</select>` +
    ` <label>${T("minutes")} <input name="minutes" type="number" min="0" step="0.5" size="5" required></label>` +
    ` <button>${T("record_late")}</button></fieldset></form>` : "") +
    withdrawHTML(t) +
    `<form id="t-rounds" data-needs="organiser"><fieldset><legend>${T("rounds")}</legend><label>${T("rounds_total")} <input name="rounds" type="number" min="1" max="100" value="${t.rounds}" required></label>` +
    ` <button>${T("set_rounds")}</button></fieldset></form>${unpairHTML(r)}</div>`;
}
function unpairHTML(r) {  // a round paired by mistake, undone before any result (the server says why it refuses a round under way)
  if (!r.round || r.tables.some(x => x.result)) return "";
  return `<form id="t-unpair" data-needs="organiser"><fieldset><legend>${T("unpair_legend")}</legend>` +
    `<label>${T("unpair_why")} <input name="reason" size="16"></label> <button>${T("unpair")}</button></fieldset></form>`;
}
function withdrawHTML(t) {  // one picker: a unit (all its entries) or one entry (disqualified), never both; none withdrawn;
  // an entry as its audit line will name it (a pair of pair Swiss by its team: pairWords), so is the confirmation
  if (t.finished) return `<p class="hint" id="t-withdraw-closed" data-needs="organiser">${esc(T("withdraw_closed"))}</p>`;
  const still = t.entries.filter(e => !e.withdrawn).sort((a, b) => (a.lot || Infinity) - (b.lot || Infinity));
  const units = [...new Set(still.map(e => e.unit))].sort((a, b) => a.localeCompare(b, "zh"));
  const options = (kind, items) => items.map(([v, words]) => `<option value="${kind}:${esc(v)}">${esc(words)}</option>`).join("");
  return `<form id="t-withdraw" data-needs="organiser"><fieldset><legend>${T("withdrawal")}</legend><label for="t-withdraw-who">${T("withdraw_who")}</label> <select id="t-withdraw-who" name="who">` +
    `<option value="">${T("choose")}</option><optgroup label="${esc(T("withdraw_unit"))}">${options("unit", units.map(u => [u, u]))}</optgroup>` +
    `<optgroup label="${esc(T("withdraw_entry"))}">${options("entry", still.map(e => [e.id, pairWords(e)]))}</optgroup></select>` +
    ` <label>${T("why")} <input name="reason" size="12"></label> <button>${T("record_withdrawal")}</button></fieldset></form>`;
}
function withdrawal(f) {  // the call's body ({unit} or {entry}, the reason) and the words naming who; a field left empty: said (thrown)
  const who = f.elements.who, reason = f.elements.reason.value.trim(), at = who.value.indexOf(":");
  if (at < 0) throw new Error(T("withdraw_pick"));
  if (!reason) throw new Error(T("withdraw_reason"));
  return { body: { [who.value.slice(0, at)]: who.value.slice(at + 1), reason }, who: who.selectedOptions[0].textContent };
}
function roundsNav(t) {  // every round paired, to see an earlier one and correct its results
  if (t.paired < 2) return "";
  const shown = t.round.round;
  return `<nav id="t-rounds-nav">${esc(T("rounds_nav"))} ` + Array.from({ length: t.paired }, (_, i) => i + 1).map(n =>
    `<button data-show="${n}"${n === shown ? ` aria-current="true" disabled` : ""}>${esc(T("round_n", { n }))}</button>`).join(" ") + `</nav>`;
}
function organiser() {  // whether the reader may press the organiser's controls (data-needs="organiser")
  return ME?.role === "organiser";
}
function nextHTML(t) {  // what comes next, in words: what the reader can do, for a referee what the organiser does
  const r = t.round, open = r.tables.filter(x => !x.result).length, mine = organiser();
  const oneRound = t.rounds === 1, oneTable = open === 1;  // said as one: not "all 1 rounds", "1 tables"
  const said = t.finished ? T(oneRound ? "next_finished_one" : "next_finished", { rounds: t.rounds })
    : !r.round || !open ? T(mine ? "next_pair" : "next_pair_referee", { round: t.paired + 1 })
    : !t.started ? T(mine ? "next_start" : "next_start_referee", { round: r.round }) : T(oneTable ? "next_result" : "next_results", { n: open });
  return `<p class="hint" id="t-next">${mine && t.lot_open && !t.paired ? esc(T("next_lot")) + " " : ""}${esc(said)}</p>`;
}
function gamesHTML(bestOf) {  // a best-of-three match: the games won, the winner's first (三2: only 1:1 is played on)
  if (bestOf < 2) return "";
  return `<select name="games" aria-label="${esc(T("games"))}" title="${esc(T("games"))}">` +
    ["2:0", "2:1", "1:0"].map(g => `<option value="${g}">${g}</option>`).join("") + `</select> `;
}
function lotHTML(entries) {  // the lot drawn in the hall: each entry by its name and unit, the number it drew typed beside it
  const all = [...entries].sort((a, b) => (a.lot || Infinity) - (b.lot || Infinity));
  return `<form id="t-lot" data-needs="organiser"><fieldset><legend>${T("hall_lot")}</legend>` + all.map(e => `<label>${esc(entryWords({ ...e, lot: null }))}` +
    ` <input name="lot-${esc(e.id)}" data-entry="${esc(e.id)}" value="${e.lot || ""}" inputmode="numeric" size="3" required></label>`).join(" ") +
    ` <button>${T("enter_lot")}</button></fieldset></form>`;
}
function lotOrder(f) {  // the entries by the numbers typed, 1 first; every number from 1 once, else said and nothing sent,
  // naming the numbers nobody has and those typed twice (twelve fields to search by eye)
  const drawn = [...f.querySelectorAll("input[data-entry]")].map(el => [Number(el.value.trim()), el.dataset.entry]);
  const n = drawn.length, counts = new Map();
  drawn.forEach(([x]) => counts.set(x, (counts.get(x) || 0) + 1));
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter(x => !counts.has(x));  // none missing: each once
  if (missing.length) {
    const twice = [...counts].filter(([x, k]) => k > 1 && Number.isInteger(x) && x >= 1 && x <= n).map(([x]) => x).sort((a, b) => a - b);
    throw new Error(T("lot_each_once", { n }) + T("lot_missing", { missing: missing.join(W("word.list")) }) +
      (twice.length ? T("lot_twice", { twice: twice.join(W("word.list")) }) : ""));
  }
  return drawn.sort(([a], [b]) => a - b).map(([, e]) => e);
}
function calledText(e) {  // an entry of the round in words (a screen reader's label, the late arrival's list) as its audit
  // line names it where that is a team (a pair of pair Swiss: pairWords), else by its lot number and name
  return e.team ? pairWords(e) : entryText(e);
}
function entryHTML(e) {  // the same, with its unit; its id (the sheets', the lot form's) on hover; a pair of pair Swiss by
  // its team, as the standings name it (the unit once), its players after it
  const [name, pair] = e.team ? [e.team, ` <small class="pair">${esc(e.name)}</small>`] : [e.name, ""];
  return `<span class="entry" title="${esc(e.id)}">${e.lot ? `<span class="lot">${esc(T("lot_no", { n: e.lot }))}</span> ` : ""}${esc(name)}` +
    `${e.unit && e.unit !== name ? ` <small>${esc(e.unit)}</small>` : ""}${pair}</span>` +
    (e.withdrawn ? ` <b class="withdrawn-mark">${esc(T("withdrawn"))}</b>` : "");
}
function bookName(b) {  // a rulebook by its title in the reader's language (the venue's in Chinese)
  return LANG === "zh" ? b.title : b.title_en;
}
function startHTML(t) {  // the latest round's start, with the rulebook its tables play; once started, said instead
  const r = t.round, books = t.rulebooks.some(b => b.name === t.rulebook) ? t.rulebooks : [...t.rulebooks, { name: t.rulebook, title: t.rulebook, title_en: t.rulebook }];
  const book = books.find(b => b.name === t.rulebook);
  if (!r.round) return "";
  if (t.started) return `<span id="t-started">${esc(T("round_started", { round: r.round, rulebook: bookName(book) }))}</span>`;
  return `<span data-needs="organiser"><label for="t-rulebook">${T("rulebook")}</label> <select id="t-rulebook" name="rulebook">` +
    books.map(b => `<option value="${esc(b.name)}"${b.name === t.rulebook ? " selected" : ""}>${esc(bookName(b))}</option>`).join("") +
    `</select> <button id="t-start">${esc(T("start_round_n", { round: r.round }))}</button></span>`;
}
function tableRow(x, was, names, actions, notes) {  // a table of the round: who plays, its result, what may be entered
  const done = (x.result ? `<span class="finished">${T("finished")} ${esc(x.said ? RESULTW(x.said) : x.result.scores.map(EXACT).join(" : "))}</span>` : T("in_play")) +
    (notes || []).map(n => `<p class="error unrecorded" data-report="${esc(n.report)}">${esc(T("unrecorded"))}${esc(SAID(n.reason))}</p>`).join("");
  return `<tr data-table="${esc(x.table)}" data-seen="${esc(x.seen ?? "")}"${was ? ` class="repaired"` : ""}><td>${esc(x.table)}` +
    `${was ? ` <b class="repaired-mark">${esc(T("repaired_mark"))}</b>` : ""}</td><td>${names}` +
    `${was ? ` <small class="was">${esc(T("was"))} ${esc(was.join(" / ") || "-")}</small>` : ""}</td><td>${done}</td><td>${actions}</td></tr>`;
}
// A San Da Yi table (individual-tables, seed 004): each player's 小分 over the round and their 弃权, entered as one
// change (refused whole, with the server's words beside the form); over a result, a correction restating the table
// with a reason. A forfeit stands until corrected: before a result its box stays ticked. Seats S E N W by the suit
// drawn, ♠ ♥ ♣ ♦ (004 一、4: 按照黑红梅方逆时针依次落座).
const SAID_AT = new Map();  // a form's id -> why the server refused what it sent (kept across redraws until accepted)
function decimal(v) {  // an exact number of the payloads as the organiser would type it again: 25/2 -> 12.5
  const m = /^(-?\d+)\/(\d+)$/.exec(String(v));
  return m ? String(Number(m[1]) / Number(m[2])) : String(v);
}
function scoresRow(x, was, notes) {
  const id = `t-scores-${x.table}`, gone = new Set(x.forfeits || []), correct = !!x.result;
  const players = x.entries.map((e, i) => {
    const seat = "SENW"[i], standing = gone.has(e.id) && !correct, score = correct ? decimal(x.result.scores[i]) : "";
    return `<span class="player" data-entry="${esc(e.id)}"><b>${esc(SEATW(seat))} ${"♠♥♣♦"[i]}</b> ${entryHTML(e)}` +
      ` <input name="score-${esc(e.id)}" value="${esc(score)}" inputmode="decimal" size="6" autocomplete="off" form="${id}"` +
      ` aria-label="${esc(e.name)} ${T("small_score")}" placeholder="${T("small_score")}">` +
      ` <label${standing ? ` title="${T("forfeit_stands")}"` : ""}><input type="checkbox" name="forfeit" value="${esc(e.id)}" form="${id}"` +
      `${gone.has(e.id) ? " checked" : ""}${standing ? " disabled" : ""}> ${T("forfeit")}</label>` +
      `${correct ? ` <small class="points">${T("score")} ${esc(EXACT(x.result.points[i]))}</small>` : ""}</span>`;
  }).join("<br>");
  const said = SAID_AT.get(id);
  return tableRow(x, was, players, `<form id="${id}" class="scores" data-table="${esc(x.table)}"${correct ? ` data-correct="1"` : ""}>` +
    (correct ? `<input name="reason" placeholder="${T("reason")}" size="8" required> ` : "") +
    `<button>${T(correct ? "correct_scores" : "enter_scores")}</button></form>` +
    `<p class="form-said error" role="alert"${said ? "" : " hidden"}>${CODE(said || "")}</p>`, notes);
}
function scoreOf(text, absent) {  // a number as typed (full-width digits and minus too), else the text: the server says why
  const s = text.trim().replace(/[０-９．－＋]/g, c => String.fromCharCode(c.charCodeAt(0) - 0xFEE0)).replace(/^[−–]/, "-");
  if (s === "") return absent ? 0 : "";  // the absent seat scores 0; a seat left blank is sent blank: the server names it
  const exact = s.replace(/\D/g, "").replace(/^0+/, "").length <= 15;  // more digits than a double keeps: sent as text, refused
  return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(s) && exact ? Number(s) : s;
}
function scoresBody(f) {
  const boxes = [...f.elements].filter(el => el.name === "forfeit");  // the form's fields sit in the players' cell (form=)
  const forfeits = boxes.filter(b => b.checked && !b.disabled).map(b => b.value);  // a ticked box disabled: the forfeit stands
  const scores = boxes.map(b => scoreOf(f.elements["score-" + b.value].value, b.checked));
  const body = { round: Number($("#t-round").dataset.round), table: f.dataset.table, result: { scores }, forfeits };
  return { ...body, ...seen(f.closest("tr")), ...(f.dataset.correct ? { correct: true, reason: f.elements.reason.value } : {}) };
}
function seen(row) {  // a result or correction names the table as the page showed it: refused if it changed since
  return row?.dataset.seen ? { seen: Number(row.dataset.seen) } : {};
}
function formJSON(form) { return Object.fromEntries([...new FormData(form)].filter(([, v]) => v !== "")); }
document.addEventListener("change", ev => {  // the file chosen, by its name
  if (ev.target.matches("#t-import input[type=file]")) ev.target.form.querySelector(".file-name").textContent = ev.target.files[0]?.name || T("no_file");
});
document.addEventListener("submit", ev => {
  const f = ev.target, id = f.getAttribute("id") || "";  // f.id would be the form's "id" input
  if (!id.startsWith("t-")) return;
  ev.preventDefault();
  let call;
  if (id === "t-entry") call = () => api("POST", "/api/console/entries", formJSON(f));
  if (id === "t-import") {  // it replaces the entries registered (those added by hand too): confirmed first; declined, nothing sent
    const n = document.querySelectorAll("#c-tournament ol.entries li").length, file = f.elements.file.files[0]?.name || "";
    if (n && !confirm(T("import_replaces", { n, file }))) return;
    call = () => api("POST", "/api/console/entries/import", new FormData(f));
  }
  if (id === "t-new") { const b = formJSON(f); if (b.rounds) b.rounds = Number(b.rounds); call = () => api("POST", "/api/console/tournament", b); }
  if (id === "t-lot") call = () => api("POST", "/api/console/tournament/lot", { order: lotOrder(f) });
  if (id === "t-withdraw") {  // irreversible: confirmed first, in words naming it; not confirmed, nothing sent
    let asked;
    try { asked = withdrawal(f); } catch (e) { act(() => { throw e; }); return; }
    if (!confirm(T("withdraw_confirm", { who: asked.who, reason: asked.body.reason }))) return;
    call = () => api("POST", "/api/console/tournament/withdrawals", asked.body);
  }
  if (id === "t-unpair") {  // asked why, then confirmed in words naming the round; either missing, nothing sent
    const round = Number($("#t-round").dataset.round), reason = f.elements.reason.value.trim();
    if (!reason) { act(() => { throw new Error(T("unpair_reason")); }); return; }
    if (!confirm(T("unpair_confirm", { round, reason }))) return;
    call = () => api("POST", `/api/console/tournament/rounds/${round}/unpair`, { reason });
  }
  if (id === "t-rounds") call = () => api("PUT", "/api/console/tournament/rounds", { rounds: Number(f.elements.rounds.value) });
  if (id === "t-late") call = () => api("POST", "/api/console/tournament/late",
    { round: Number($("#t-round").dataset.round), entry: f.elements.entry.value, minutes: Number(f.elements.minutes.value) });
  if (f.classList.contains("scores")) {
    const body = scoresBody(f);
    call = () => api("POST", "/api/console/tournament/results", body).then(
      out => { SAID_AT.delete(id); return out; }, e => { SAID_AT.set(id, e.message); throw e; });
  }
  act(call).then(ok => tournamentPanel(ok ? id : null));
});
document.addEventListener("keydown", ev => {  // Enter on a round row's winner (or its reason) presses the row's action, as
  // a form's Enter does: 录入结果, or 更正 once it has its result (the row is no form: Enter did nothing, a keyboard had to Tab on)
  const el = ev.target;
  if (ev.key !== "Enter" || el.form || !el.matches("#t-round input[type=radio], #t-round input[name=reason]")) return;
  ev.preventDefault();
  const row = el.closest("tr");  // the row offers one: 录入结果 before its result, 更正 after (which asks why, if not said)
  row.querySelector("button[data-result=record], button[data-result=correct]")?.click();
});
document.addEventListener("click", ev => {
  const b = ev.target.closest("#c-tournament button");
  if (!b || b.closest("form")) return;
  const round = Number($("#t-round")?.dataset.round);
  const row = b.closest("tr");
  let call;
  if (b.id === "t-clear") call = () => api("DELETE", "/api/console/entries");
  if (b.dataset.show) { SHOWN = Number(b.dataset.show); tournamentPanel(); return; }
  if (b.id === "t-pair") { SHOWN = null; call = () => api("POST", "/api/console/tournament/rounds"); }
  if (b.id === "t-start") call = () => api("POST", `/api/console/tournament/rounds/${round}/start`, { rulebook: $("#t-rulebook").value.trim() || null });
  if (b.dataset.forfeit) {  // with a reason written: a correction (a forfeit over a result stands only as one)
    const reason = row.querySelector("input[name=reason]")?.value || "";  // none before the table's result
    call = () => api("POST", "/api/console/tournament/forfeits", { round, table: row.dataset.table, entries: [b.dataset.forfeit], ...(reason ? { correct: true, reason, ...seen(row) } : {}) });
  }
  if (b.dataset.result) {
    const picked = row.querySelector("input[type=radio]:checked");
    if (!picked) { act(() => { throw new Error(T("pick_first")); }); return; }  // said, nothing sent
    const body = { round, table: row.dataset.table, result: { winner: Number(picked.value) }, ...seen(row) };  // a side: of the pairing shown
    const games = row.querySelector("select[name=games]")?.value.split(":").map(Number);  // the winner's games first
    if (games) body.result.games = picked.value === "0" ? games : games.reverse();
    if (b.dataset.result === "correct") {  // a correction says why (the log and the audit keep it): asked before anything is sent
      Object.assign(body, { correct: true, reason: row.querySelector("input[name=reason]").value.trim() });
      if (!body.reason) { act(() => { throw new Error(T("correct_reason")); }); return; }
    }
    call = () => api("POST", "/api/console/tournament/results", body);
  }
  if (call) act(call).then(ok => tournamentPanel(ok && row ? row.dataset.table : null));
});
