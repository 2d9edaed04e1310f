// Every word the pages show comes from the catalogue (referee/catalogue, both languages, served as
// /catalogue.js: CATALOGUE); the sentences of events, violations, flags and the console's actions come said
// already, in both languages or the reader's, from the server. The page comes in the reader's language (the server's
// one rule, display/deps.py language: the switch's cookie, else the browser's Accept-Language, else Chinese); the
// switch changes it without a reload and keeps the choice in that cookie, so every request after it (the console's
// calls, an export link, the next page) is answered in it.
"use strict";
let LANG = document.body.dataset.lang === "en" ? "en" : "zh";
function W(key) { const w = CATALOGUE[LANG][key] ?? CATALOGUE.zh[key]; return w === undefined ? key.split(".").pop() : w; }
function fill(template, values) {  // {name} placeholders, {{ and }} for braces (referee/catalogue)
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (m, name) => name ? String(values[name] ?? "?") : m[0]);
}
function T(key, values) { const w = W("ui." + key); return values ? fill(w, values) : w; }
function BECAUSE(kind) {  // why a round was paired again (the round payload's repaired.because), a change of an unknown kind in general words
  return kind === "correct" ? T("because_correct") : T("because_change");
}
function SEATW(s) { return W("seat." + s); }
function KINDW(k) { return W("kind." + k); }
function PHASEW(s) {  // a table's phase, in its game's word where it has one (三打一's kitty is taken, not buried: 拿底牌)
  const k = `phase.${GAMES[s.rulebook]}.${s.phase}`;
  return CATALOGUE[LANG][k] ?? CATALOGUE.zh[k] ?? W("phase." + s.phase);
}
function TIMEW(at) {  // a moment the bus gave (seconds since the epoch) as the hall's clock showed it: 14:03:27
  return new Date(at * 1000).toLocaleTimeString(LANG === "en" ? "en-GB" : "zh-CN", { hour12: false });
}
function SAID(text) { return text ? text[LANG] ?? text.zh ?? "" : ""; }  // a sentence the server said in both languages
function EXACT(v) {  // an exact number of the tournament topics (an integer, or "10/3") as people write it: 3又1/3, 3 1/3
  const m = /^(-?)(\d+)\/(\d+)$/.exec(String(v ?? ""));
  if (!m) return String(v ?? "");
  const n = Number(m[2]), d = Number(m[3]), whole = Math.floor(n / d), part = n % d;
  if (!part) return m[1] + whole;
  return m[1] + (whole ? whole + (LANG === "zh" ? "又" : " ") : "") + part + "/" + d;
}
function AGO(s) {  // how long ago, as people say it: 9 秒, 4 分 37 秒, 62 分钟 (最后消息 7200 秒前 read as a number to work out)
  const m = Math.floor(s / 60);
  return fill(W(s < 60 ? "word.secs" : s < 600 ? "word.min_sec" : "word.mins"), { s: s < 60 ? s : s % 60, m });
}
function RANKW(rank) { return rank === "T" ? "10" : String(rank ?? ""); }  // a rank as the cards show it: the bus's T is 10
function RESULTW(said) {  // won / drawn / lost, places (place1, tied2, forfeited), or levels reached (A+: past A): 级 K : 级 10
  return said.map(x => CATALOGUE.zh["said." + x] !== undefined ? W("said." + x) : `${T("level")} ${RANKW(x)}`).join(" : ");
}
function PRIZEW(prize) { return prize ? W("prize." + prize) : ""; }  // a prize by its Chinese name, in the reader's language
function entryText(e) {  // an entry as the hall knows it: its lot number (抽签号) and its name
  return [e.lot ? T("lot_no", { n: e.lot }) : "", e.name].filter(Boolean).join(" ");
}
function entryWords(e) {  // the same, with its unit: 1号 名字 单位 (the console's and the scoreboard's)
  return [entryText(e), e.unit !== e.name ? e.unit : ""].filter(Boolean).join(" ");
}
function pairWords(e) {  // an entry of a round (at a table, a bye; the console's pickers): a pair of pair Swiss by its
  // team (e.team, display/tournament.py entries_named), as the standings and the audit lines (display/actions.py
  // entry_named) name the team (the unit once), its players after it: 1号 一队 单位01 甲、乙
  if (!e.team) return entryWords(e);
  return [e.lot ? T("lot_no", { n: e.lot }) : "", e.team, e.unit !== e.team ? e.unit : "", e.name].filter(Boolean).join(" ");
}
function CODE(text) {  // a sentence as HTML, the catalogue's `code` (a command, an option, a header) in a code font, its
  // backticks the catalogue's mark for it, not words to show
  return esc(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}
function esc(s) { return String(s ?? "").replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }
function applyWords() {
  document.documentElement.lang = LANG === "en" ? "en" : "zh-CN";
  document.querySelectorAll("[data-t]").forEach(el => { el.textContent = T(el.dataset.t); });
  document.querySelectorAll("[data-tp]").forEach(el => { el.placeholder = T(el.dataset.tp); });
}
function switchLanguage(onChange) {
  LANG = LANG === "zh" ? "en" : "zh";
  document.cookie = `lang=${LANG}; path=/; max-age=31536000; samesite=strict`;
  applyWords();
  onChange();
}
