// The organisers' console: login, table commands, flags with their frames, the tournament, the audit log.
// Everything goes through the REST API with the session cookie; the hall comes from the live stream.
"use strict";
const $ = sel => document.querySelector(sel);
const hall = { tables: {} };
let ME = null;

async function api(method, path, body) {
  const opts = { method, headers: { "Accept-Language": LANG }, credentials: "same-origin" };  // refusals come in the page's language
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const r = await fetch(path, opts);
  const data = r.status === 204 ? null : (r.headers.get("content-type") || "").includes("json") ? await r.json() : await r.text();
  if (!r.ok) throw new Error((data && data.detail) || `${r.status}`);
  return data;
}
function say(text, bad) { const el = $("#result"); el.textContent = text; el.className = bad ? "error" : ""; }
async function act(fn) {
  try { await fn(); say(T("done")); } catch (e) { say(`${T("error")}: ${e.message}`, true); }
  loadAudit();
}

// ---------------------------------------------------------------- login
async function whoAmI() {
  try { ME = await api("GET", "/api/me"); } catch { ME = null; }
  $("#login").hidden = !!ME; $("#desk").hidden = !ME;
  if (ME) { $("#me").textContent = `${ME.user} (${ME.role})`; renderTables(); loadFlags(); loadAudit(); renderTournament(); }
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
    const done = s && s.phase === "round_over";
    return `<tr data-table="${esc(t)}"><td><a href="/tables/${encodeURIComponent(t)}">${esc(t)}</a></td>` +
      `<td>${s ? esc(T("phase")[s.phase] || s.phase) : ""} ${v.status === "offline" ? `<b class="error">${T("offline")}</b>` : ""}</td>` +
      `<td class="${done ? "finished" : ""}">${done ? T("finished") : s && s.phase !== "idle" ? T("in_play") : ""}</td>` +
      `<td><button data-cmd="start_round" data-t="start_round">${T("start_round")}</button> ` +
      `<button data-cmd="last_hand">${T("last_hand")}</button> <button data-cmd="stop_round">${T("stop_round")}</button></td></tr>`;
  }).join("");
}
$("#c-tables").addEventListener("click", ev => {
  const b = ev.target.closest("button[data-cmd]");
  if (!b) return;
  const t = b.closest("tr").dataset.table;
  act(() => api("POST", `/api/console/tables/${encodeURIComponent(t)}/commands`, { command: b.dataset.cmd }));
});
$("#all-last-hand").addEventListener("click", () => act(() => api("POST", "/api/console/last-hand")));
// A dispute over an accepted play: its entry is the seq shown beside it in the table's timeline.
$("#amend-form").addEventListener("submit", ev => {
  ev.preventDefault();
  const f = new FormData(ev.target);
  const cards = String(f.get("cards")).trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
  act(() => api("POST", `/api/console/tables/${encodeURIComponent(f.get("table"))}/plays/${Number(f.get("entry"))}`, { cards }));
});
// The referee's rulings on what no camera sees: San Da Yi's fouls (FOULS, with the page: the rulebooks'
// [fouls] kinds), 报到 and 摊打.
const RULINGS = { ...Object.fromEntries(FOULS.map(k => [`foul:${k}`, { ruling: "foul", kind: k }])),
  "report:play": { ruling: "report", play: true }, "report:no_play": { ruling: "report", play: false }, "open_hand": { ruling: "open_hand" } };
function renderRulings() {
  const f = $("#ruling-form");
  const keep = [f.seat.value, f.what.value];
  f.seat.innerHTML = "SENW".split("").map(s => `<option value="${s}">${esc(SEATW(s))}</option>`).join("");
  f.what.innerHTML = Object.keys(RULINGS).map(k => `<option value="${k}">${esc(k.startsWith("foul:") ? T("foul_of")(k.slice(5)) :
    T(k === "report:play" ? "report_play" : k === "report:no_play" ? "report_no_play" : "open_hand"))}</option>`).join("");
  if (keep[0]) [f.seat.value, f.what.value] = keep;
}
renderRulings();
$("#ruling-form").addEventListener("submit", ev => {
  ev.preventDefault();
  const f = ev.target;
  act(() => api("POST", `/api/console/tables/${encodeURIComponent(f.table.value.trim())}/rulings`, { ...RULINGS[f.what.value], seat: f.seat.value }));
});

// ---------------------------------------------------------------- flags
let flagsAsked = 0;
async function loadFlags() {
  if (!ME) return;
  const asked = ++flagsAsked;
  const flags = await api("GET", "/api/console/flags").catch(() => []);
  if (asked !== flagsAsked) return;  // a later answer is on its way
  const box = $("#c-flags .body");
  box.innerHTML = flags.length ? flags.map(f =>
    `<div class="flag-card" data-table="${esc(f.table)}" data-flag="${esc(f.flag)}">` +
    (f.frame ? `<figure><img src="${esc(f.frame.url)}" alt="${T("frame")}"><figcaption>${esc(f.frame.reason)}</figcaption></figure>` : `<div class="noframe">${T("no_frame")}</div>`) +
    `<div><p><b>${esc(f.table)}</b> ${SEATW(f.seat)} · ${esc(T("kind")[f.kind] || f.kind)} · ${esc(f.text)}</p><p>${cardsHTML(f.cards)}</p>` +
    `<p><button data-how="confirm">${T("confirm")}</button> <button data-how="dismiss">${T("dismiss")}</button></p>` +
    `<p><input name="cards" placeholder="${T("cards_to_correct")}" value="${esc(f.cards.join(" "))}"> <button data-how="correct">${T("correct")}</button></p></div></div>`
  ).join("") : `<p class="empty">${T("no_flags")}</p>`;
}
$("#c-flags").addEventListener("click", ev => {
  const b = ev.target.closest("button[data-how]");
  if (!b) return;
  const card = b.closest(".flag-card"), how = b.dataset.how;
  const body = { how };
  if (how === "correct") body.cards = card.querySelector("input[name=cards]").value.trim().split(/[\s,]+/).filter(Boolean);
  act(() => api("POST", `/api/console/tables/${encodeURIComponent(card.dataset.table)}/flags/${encodeURIComponent(card.dataset.flag)}`, body));
});

// ---------------------------------------------------------------- audit
async function loadAudit() {
  if (!ME) return;
  const rows = await api("GET", "/api/console/audit?limit=50").catch(() => []);
  $("#c-audit tbody").innerHTML = rows.map(r => `<tr><td>${new Date(r.at * 1000).toLocaleString(LANG === "en" ? "en-GB" : "zh-CN")}</td>` +
    `<td>${esc(r.user)}</td><td>${esc(r.action)} ${esc(JSON.stringify(r.detail))}</td></tr>`).join("");
}

// ---------------------------------------------------------------- the stream (tables and their flags)
let flagKey = "";
function flagsChanged() {
  const key = Object.values(hall.tables).map(v => (v.state?.flags || []).map(f => v.table + f.flag).join()).join("|");
  if (key !== flagKey) { flagKey = key; loadFlags(); }
}
function connect() {
  const es = new EventSource("/api/stream");
  es.addEventListener("snapshot", m => { hall.tables = JSON.parse(m.data).tables; flagsChanged(); if (ME) renderTables(); });
  es.addEventListener("state", m => {
    const c = JSON.parse(m.data);
    const v = hall.tables[c.table] || (hall.tables[c.table] = { table: c.table, status: null });
    const phase = v.state?.phase; v.state = c.data;
    flagsChanged();
    if (ME && phase !== c.data.phase) renderTables();
  });
  es.addEventListener("status", m => {
    const c = JSON.parse(m.data);
    (hall.tables[c.table] || (hall.tables[c.table] = { table: c.table, state: null })).status = c.data.status;
    if (ME) renderTables();
  });
  es.addEventListener("round", () => ME && renderTournament());
  es.addEventListener("standings", () => ME && renderTournament());
}
function renderTournament() { tournamentPanel(); }

$("#lang").addEventListener("click", () => switchLanguage(() => { renderRulings(); if (ME) { renderTables(); loadFlags(); loadAudit(); renderTournament(); } }));
applyWords();
whoAmI();
connect();
