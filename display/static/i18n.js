// Every word the pages show, Chinese first; the switch changes the language without a reload. The names of
// flag and violation kinds come with the page (KIND_NAMES, from referee/table/kinds.py).
"use strict";
const WORDS = {
  zh: {
    title: "cardtable 赛场", hall: "赛场实况", nav_board: "记分牌", nav_big: "大屏", nav_console: "控制台",
    switch: "English", standings: "积分榜", pairings: "本轮对阵", wall: "牌桌实况", rank: "名次", entry: "参赛队",
    unit: "单位", score: "积分", prize: "奖项", table: "桌号", teams: "对阵", result: "结果", byes: "轮空",
    round_of: (r, n) => `第 ${r} 轮 / 共 ${n} 轮`, round_left: "本轮剩余", last_hand: "最后一盘", notice: "本轮即将结束",
    offline: "离线", online: "在线", unknown: "未知", no_feed: "与消息服务器的连接中断，数据可能不是最新",
    hand_trick: (h, t) => `第 ${h} 盘 · 第 ${t} 圈`, dealer: "庄家", trump: "主", level: "级", points: "分",
    cards_left: "张", flags: "待裁判", violations: "违例", timeline: "本盘记录", no_trump: "无主",
    no_tables: "暂无牌桌", no_standings: "暂无积分榜", no_round: "暂无对阵", paused: "暂停",
    seat: { S: "南", E: "东", N: "北", W: "西" },
    phase: { idle: "空闲", arriving: "入座", dealing: "摸牌", bidding: "叫牌", kitty: "扣底", playing: "出牌",
             hand_over: "本盘结束", round_over: "本轮结束" },
    kind: KIND_NAMES.zh,
    status: { flagged: "待确认", confirmed: "已确认", dismissed: "已撤销" },
    ev: {
      play_accepted: d => `${SEATW(d.seat)} 出牌`, trick_won: d => `第 ${d.trick} 圈 ${SEATW(d.seat)} 赢，${d.points} 分`,
      hand_started: d => `第 ${d.hand} 盘开始，打 ${d.level}`, hand_scored: d => `第 ${d.hand} 盘结算：闲家 ${d.defender_points} 分`,
      levels_changed: d => `升级：${Object.entries(d.levels).map(([k, v]) => k + " " + v).join("，")}`,
      flag_raised: d => `${SEATW(d.seat)} 待裁判：${d.text}`, flag_resolved: d => `标记 ${d.flag} 已处理（${d.how}）`,
      amended: d => `第 #${d.entry} 条出牌更正，其后重新判定`, picked_up: d => `${SEATW(d.seat)} 收牌`,
      round_started: () => "本轮开始", round_over: () => "本轮结束", last_hand: () => "宣布最后一盘",
      kitty_taken: d => `${SEATW(d.dealer)} 扣底`, declared: d => `${SEATW(d.seat)} 亮主`, ready: d => `${SEATW(d.seat)} 就座`,
      rejected: d => `拒绝：${d.reason}`, game_won: d => `${d.team} 胜`, hand_played: d => `第 ${d.hand} 盘出完`,
    },
    login: "登录", logout: "退出", user: "用户名", password: "密码", wrong_login: "用户名或密码错误",
    actions: "操作", start_round: "开始本轮", stop_round: "结束本轮", announce_last: "全场宣布最后一盘", amend_play: "更正已出的牌", amend_entry: "序号", amend_cards: "牌", amend: "更正",
    confirm: "确认", dismiss: "撤销", correct: "更正", cards_to_correct: "正确的牌（空格分隔）", frame: "现场画面",
    no_frame: "无画面", no_flags: "没有待确认的标记", audit: "操作记录", when: "时间", who: "操作人", what: "内容",
    finished: "已完成", in_play: "进行中", tournament: "赛事", entries: "报名", add_entry: "添加",
    import: "导入 CSV/XLSX", new_tournament: "新建赛事", next_round: "编排下一轮", record_result: "录入结果",
    forfeit: "弃权", late: "迟到", export: "导出", name: "名称", rounds: "轮数", system: "赛制",
    done: "完成", error: "错误", players: "选手（、分隔）", reason: "更正原因", minutes: "迟到分钟", print: "打印",
    ruling: "裁判判定（三打一）", seat_word: "座位", ruling_what: "判定", record: "记录", foul_of: k => `犯规：${T("kind")[k] || k}`,
    report_play: "庄家报到：打", report_no_play: "庄家报到：不打", open_hand: "庄家摊打",
  },
  en: {
    title: "cardtable hall", hall: "Hall live", nav_board: "Scoreboard", nav_big: "Big screen", nav_console: "Console",
    switch: "中文", standings: "Standings", pairings: "This round", wall: "Tables live", rank: "Rank", entry: "Entry",
    unit: "Unit", score: "Score", prize: "Prize", table: "Table", teams: "Pairing", result: "Result", byes: "Byes",
    round_of: (r, n) => `Round ${r} of ${n}`, round_left: "Round ends in", last_hand: "Last hand", notice: "Round ending soon",
    offline: "offline", online: "online", unknown: "unknown", no_feed: "Lost the broker connection: data may be stale",
    hand_trick: (h, t) => `hand ${h} · trick ${t}`, dealer: "Dealer", trump: "Trump", level: "level", points: "pts",
    cards_left: "cards", flags: "For the referee", violations: "Violations", timeline: "This hand", no_trump: "no trump",
    no_tables: "No tables yet", no_standings: "No standings yet", no_round: "No pairings yet", paused: "paused",
    seat: { S: "S", E: "E", N: "N", W: "W" },
    phase: { idle: "idle", arriving: "arriving", dealing: "drawing", bidding: "bidding", kitty: "kitty", playing: "playing",
             hand_over: "hand over", round_over: "round over" },
    kind: KIND_NAMES.en,
    status: { flagged: "flagged", confirmed: "confirmed", dismissed: "dismissed" },
    ev: {
      play_accepted: d => `${SEATW(d.seat)} plays`, trick_won: d => `trick ${d.trick} to ${SEATW(d.seat)}, ${d.points} pts`,
      hand_started: d => `hand ${d.hand} starts at ${d.level}`, hand_scored: d => `hand ${d.hand} scored: defenders ${d.defender_points}`,
      levels_changed: d => `levels: ${Object.entries(d.levels).map(([k, v]) => k + " " + v).join(", ")}`,
      flag_raised: d => `${SEATW(d.seat)} flagged: ${d.text}`, flag_resolved: d => `flag ${d.flag} resolved (${d.how})`,
      amended: d => `play #${d.entry} amended; everything after judged again`, picked_up: d => `${SEATW(d.seat)} picks up`,
      round_started: () => "round started", round_over: () => "round over", last_hand: () => "last hand announced",
      kitty_taken: d => `${SEATW(d.dealer)} takes the kitty`, declared: d => `${SEATW(d.seat)} declares`, ready: d => `${SEATW(d.seat)} seated`,
      rejected: d => `rejected: ${d.reason}`, game_won: d => `${d.team} wins`, hand_played: d => `hand ${d.hand} played out`,
    },
    login: "Log in", logout: "Log out", user: "User", password: "Password", wrong_login: "Wrong user name or password",
    actions: "Actions", start_round: "Start round", stop_round: "Stop round", announce_last: "Last hand, all tables", amend_play: "Amend an accepted play", amend_entry: "Entry", amend_cards: "Cards", amend: "Amend",
    confirm: "Confirm", dismiss: "Dismiss", correct: "Correct", cards_to_correct: "The right cards (space separated)", frame: "Frame",
    no_frame: "no frame", no_flags: "No flags waiting", audit: "Audit log", when: "When", who: "Who", what: "What",
    finished: "finished", in_play: "in play", tournament: "Tournament", entries: "Entries", add_entry: "Add",
    import: "Import CSV/XLSX", new_tournament: "New tournament", next_round: "Pair next round", record_result: "Record result",
    forfeit: "Forfeit", late: "Late", export: "Export", name: "Name", rounds: "Rounds", system: "System",
    done: "done", error: "error", players: "players (、 separated)", reason: "reason", minutes: "minutes late", print: "Print",
    ruling: "Referee's ruling (San Da Yi)", seat_word: "Seat", ruling_what: "Ruling", record: "Record", foul_of: k => `foul: ${T("kind")[k] || k}`,
    report_play: "dealer reports (报到), plays on", report_no_play: "dealer reports (报到), does not play", open_hand: "dealer plays face up (摊打)",
  },
};
let LANG = document.body.dataset.lang === "en" ? "en" : "zh";
function T(key) { const w = WORDS[LANG][key]; return w === undefined ? WORDS.zh[key] ?? key : w; }
function SEATW(s) { return T("seat")[s] || s; }
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
