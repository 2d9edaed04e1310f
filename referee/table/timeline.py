"""``cardtable table replay PATH``: a table's event log as a readable timeline.

Every entry of the log is one line (time, ``#seq``, who sent it, the seat, the cards, button or
command), followed by what the table ruled on it, found by replaying the log through
``runtime.Table.apply`` exactly as the service does on start: the events (play accepted, trick won,
hand scored, ...) and the violations with their penalties. Chinese labels, ``--lang en`` for
English.

The log does not record the rulebook the service was started with: the replay takes
``rulebook``, else the rulebook of the log's first ``assign``, else ``classic-3deck``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee.table.amend import as_amended
from referee.table.kinds import name as kind_name
from referee.table.log import EventLog, LogError
from referee.table.protocol import check_table
from referee.table.reducer import family

DEFAULT_RULEBOOK = "classic-3deck"

LABELS: dict[str, dict[str, Any]] = {
    "zh": {
        "header": "牌桌 {table} 事件日志 {path}：{n} 条，规则 {rulebook}，自 {date}",
        "empty": "牌桌 {table} 事件日志 {path}：没有记录",
        "seats": {"S": "南", "E": "东", "N": "北", "W": "西"},
        "teams": {"SN": "南北", "EW": "东西"},
        "suits": {"S": "黑桃", "H": "红心", "D": "方块", "C": "梅花", None: "无主"},
        "inputs": {"observed": "摄像", "removed": "摄像（收牌）", "board/in": "按键", "commands": "指令", "clock": "计时"},
        "clock": "时间到（无输入，按时裁决）",
        "confidence": "置信度 {c:.2f}",
        "paren": "（{}）",
        "buttons": {"ready": "准备", "pass": "不出", "confirm": "确认", "referee": "召裁判",
                    "bid1": "叫一分", "bid2": "叫二分", "bid3": "叫三分", "declare": "亮主（摸牌结束）"},
        "commands": {"assign": "入座", "start_round": "开始本轮", "stop_round": "停止本轮",
                     "last_hand": "宣布最后一盘", "confirm": "确认标记", "dismiss": "撤销标记", "correct": "更正标记",
                     "amend": "更正已出的牌"},
        "rulebook": "规则 {r}",
        "runtime_error": "（运行时出错：{e}）",
        "nothing": "（无裁决）",
        "sep": "，",
        "events": {
            "assigned": "入座：{players}；{rulebook}",
            "round_started": "本轮开始",
            "ready": "{seat} 到场（迟到 {minutes_late} 分钟）",
            "hand_started": "第 {hand} 盘开始摸牌，打 {level}，庄家 {dealer}",
            "declared": "{seat} 亮主 {cards}",
            "draw_done": "摸牌结束（{seat} 按键）",
            "kitty_taken": "庄家 {dealer} 拿底牌，主 {trump}",
            "trump_named": "庄家 {seat} 定主 {suit}",
            "play_accepted": "接受出牌：第 {hand} 盘第 {trick} 圈 {seat} {cards}",
            "trick_won": "第 {trick} 圈 {seat} 赢，{points} 分",
            "hand_played": "第 {hand} 盘打完，等庄家亮底牌",
            "hand_scored": "第 {hand} 盘结算：防家得分 {defender_points}，结算后 {settled_points} → {result}",
            "levels_changed": "级别 {levels}；下一盘庄家 {dealer}",
            "game_won": "{team} 胜出本局",
            "game_won_late": "{team} 胜：对方迟到，判该轮弃权",
            "hand_forfeited": "第 {hand} 盘 {team} 迟到弃权，对方升 {levels} 级",
            "round_forfeited": "{teams} 均迟到，双方本轮弃权",
            "round_over": "本轮结束（共 {hands} 盘）",
            "round_stopped": "本轮停止",
            "last_hand": "本盘为最后一盘（第 {hand} 盘）",
            "flag_raised": "标记 {flag}：{seat} {kind}，待确认（{text}）",
            "flag_resolved": "标记 {flag} {how}",
            "amended": "第 {entry} 条的出牌更正为 {cards}，其后重新判定",
            "picked_up": "{seat} 收牌 {cards}",
            "referee_called": "{seat} 召裁判",
            "rejected": "拒绝：{reason}",
            "passed": "第 {hand} 盘第 {trick} 轮 {seat} 不出",
            "passed_forfeit": "第 {hand} 盘第 {trick} 轮 {seat} 超时，视作不出",
            "passed_sat_out": "第 {hand} 盘第 {trick} 轮 {seat} 停止一轮出牌，由下家出牌",
            "play_started": "第 {hand} 盘开始出牌，{leader} 先出",
            "tribute_shown": "{seat} 亮出 {cards}（抗贡）",
            "tribute_refused": "抗贡成立（{seats}）",
            "tribute_paid": "{seat} 进贡 {card}",
            "tribute_given": "进贡：{exchanges}",
            "card_returned": "{seat} 还牌 {card} 给 {to}",
            "foul_counted": "{seat} 犯规，{team} 本轮第 {fouls} 次（{limit} 次判负）",
            "bid": "{seat} {bid}",
            "dealer_chosen": "{dealer} 叫 {bid} 分成为庄家{first_bid_three}",
            "kitty_to_dealer": "庄家 {dealer} 拿底牌（{cards} 张）",
            "game_scored": "第 {hand} 局结算：庄家 {dealer}（叫 {bid} 分）{winner}；本局 {scores}；累计 {totals}",
        },
        "games": {
            "guandan": {
                "hand_started": "第 {hand} 盘开始抓牌，打 {level}",
                "hand_scored": "第 {hand} 盘结算：上游 {first}，名次 {finish}，{team} 升 {levels} 级",
                "levels_changed": "级别 {levels}；下一盘打 {level}",
                "game_won": "{team} 胜出本局（{by}）；局数 {games}",
                "round_over": "本轮结束（共 {hands} 盘，{by}）：级别 {levels}；领先 {ahead}",
            },
            "sandayi": {
                "hand_started": "第 {hand} 局开始，{first_bidder} 先叫",
                "round_over": "本轮结束（共 {hands} 局）；小分 {totals}；积分 {points}",
                "foul_counted": "{seat} 犯规（{kind}），本局第 {fouls} 次（{limit} 次作输者处理）",
                "reported": "庄家 {seat} 报到：{play}",
                "hand_opened": "庄家 {seat} 摊打",
            },
        },
        "bids": {1: "叫一分", 2: "叫二分", 3: "叫三分", "pass": "不叫"},
        "plays": {True: "打", False: "不打，庄家直接获胜"},
        "winners": {"dealer": "庄家胜", "allies": "同盟胜"},
        "bys": {"levels": "过A", "time": "时间到", "last_hand": "最后一盘打完", "fouls": "对方三次犯规",
                "late": "对方迟到弃权"},
        "level_tie": "同级",
        "first_bid_three": "（头撂）",
        "hows": {"confirm": "已确认", "dismiss": "已撤销", "correct": "已更正"},
        "results": {"dealer": "庄家方升 {n} 级", "defenders": "防家上台", "defenders_up": "防家上台并升 {n} 级",
                    "replay": "重打本盘"},
        "undecided": "未定",
        "violation": "违例（{status}）{kind} {seat}{where}：{penalty}{evidence}",
        "where": " 第 {hand} 盘第 {trick} 圈",
        "statuses": {"flagged": "待确认", "confirmed": "已确认", "dismissed": "已撤销"},
        "penalty": {"warning": "警告", "points": "扣 {n} 分", "levels": "对方升 {n} 级", "deal": "失庄",
                    "forfeit": "弃权（{what}）", "foul": "犯规", "none": "不罚"},
        "forfeits": {"turn": "本次出牌", "hand": "本盘", "round": "本轮"},
        "evidence": "；证据：{items}",
        "seconds": "用时 {s:.1f} 秒", "limit": "限 {s:g} 秒", "cards": "牌 {cards}",
    },
    "en": {
        "header": "table {table} event log {path}: {n} entries, rulebook {rulebook}, from {date}",
        "empty": "table {table} event log {path}: no entries",
        "seats": {"S": "S", "E": "E", "N": "N", "W": "W"},
        "teams": {"SN": "N-S", "EW": "E-W"},
        "suits": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", None: "no trumps"},
        "inputs": {"observed": "camera", "removed": "camera (picked up)", "board/in": "button", "commands": "command", "clock": "clock"},
        "clock": "time ran out (no input: what the time rules)",
        "confidence": "confidence {c:.2f}",
        "paren": " ({})",
        "buttons": {"ready": "ready", "pass": "pass", "confirm": "confirm", "referee": "referee",
                    "bid1": "bid 1", "bid2": "bid 2", "bid3": "bid 3", "declare": "declare (draw over)"},
        "commands": {"assign": "assign", "start_round": "start round", "stop_round": "stop round",
                     "last_hand": "last hand", "confirm": "confirm flag", "dismiss": "dismiss flag",
                     "correct": "correct flag", "amend": "amend a play"},
        "rulebook": "rulebook {r}",
        "runtime_error": "(the runtime failed: {e})",
        "nothing": "(no ruling)",
        "sep": ", ",
        "events": {
            "assigned": "seated: {players}; {rulebook}",
            "round_started": "round started",
            "ready": "{seat} arrived ({minutes_late} min late)",
            "hand_started": "hand {hand}: the draw starts, level {level}, dealer {dealer}",
            "declared": "{seat} declares {cards}",
            "draw_done": "the draw is over ({seat} pressed)",
            "kitty_taken": "dealer {dealer} takes the kitty, trumps {trump}",
            "trump_named": "dealer {seat} names {suit} trumps",
            "play_accepted": "play accepted: hand {hand} trick {trick} {seat} {cards}",
            "trick_won": "trick {trick} won by {seat}, {points} points",
            "hand_played": "hand {hand} played, waiting for the kitty",
            "hand_scored": "hand {hand} scored: defenders {defender_points}, settled {settled_points} -> {result}",
            "levels_changed": "levels {levels}; next dealer {dealer}",
            "game_won": "{team} win the game",
            "game_won_late": "{team} win: the opponents forfeit the round for lateness",
            "hand_forfeited": "hand {hand}: {team} forfeit it for lateness, the opponents go up {levels}",
            "round_forfeited": "{teams} both late: both forfeit the round",
            "round_over": "round over ({hands} hands)",
            "round_stopped": "round stopped",
            "last_hand": "this is the last hand (hand {hand})",
            "flag_raised": "flag {flag}: {seat} {kind}, waiting for a person ({text})",
            "flag_resolved": "flag {flag} {how}",
            "amended": "the play of entry {entry} amended to {cards}; everything after judged again",
            "picked_up": "{seat} picks up {cards}",
            "referee_called": "{seat} calls the referee",
            "rejected": "rejected: {reason}",
            "passed": "hand {hand} round {trick}: {seat} passes",
            "passed_forfeit": "hand {hand} round {trick}: {seat} out of time, the turn passes",
            "passed_sat_out": "hand {hand} round {trick}: {seat} sits this turn out (a confirmed violation)",
            "play_started": "hand {hand}: play starts, {leader} leads",
            "tribute_shown": "{seat} shows {cards} (refusing the tribute)",
            "tribute_refused": "the tribute is refused ({seats})",
            "tribute_paid": "{seat} pays {card} as tribute",
            "tribute_given": "tribute: {exchanges}",
            "card_returned": "{seat} returns {card} to {to}",
            "foul_counted": "{seat} fouls: {team}'s foul {fouls} this round (the round is lost at {limit})",
            "bid": "{seat} {bid}",
            "dealer_chosen": "{dealer} is the dealer with {bid}{first_bid_three}",
            "kitty_to_dealer": "dealer {dealer} takes the kitty ({cards} cards)",
            "game_scored": "game {hand} scored: dealer {dealer} (bid {bid}) {winner}; game {scores}; totals {totals}",
        },
        "games": {
            "guandan": {
                "hand_started": "hand {hand}: the draw starts, level {level}",
                "hand_scored": "hand {hand} scored: first {first}, finish {finish}, {team} up {levels}",
                "levels_changed": "levels {levels}; next hand at {level}",
                "game_won": "{team} win the game ({by}); games {games}",
                "round_over": "round over ({hands} hands, {by}): levels {levels}; ahead {ahead}",
            },
            "sandayi": {
                "hand_started": "game {hand}: {first_bidder} bids first",
                "round_over": "round over ({hands} games); game scores {totals}; round points {points}",
                "foul_counted": "{seat} fouls ({kind}): foul {fouls} this game (ruled the loser at {limit})",
                "reported": "dealer {seat} reports (报到): {play}",
                "hand_opened": "dealer {seat} plays the hand face up (摊打)",
            },
        },
        "bids": {1: "bids 1", 2: "bids 2", 3: "bids 3", "pass": "passes"},
        "plays": {True: "plays on", False: "does not play: the dealer wins at once"},
        "winners": {"dealer": "the dealer wins", "allies": "the three win"},
        "bys": {"levels": "passed A", "time": "time is up", "last_hand": "the last hand played", "fouls": "three fouls",
                "late": "late, forfeited"},
        "level_tie": "level",
        "first_bid_three": " (first-bid three)",
        "hows": {"confirm": "confirmed", "dismiss": "dismissed", "correct": "corrected"},
        "results": {"dealer": "the dealer's side goes up {n}", "defenders": "the defenders take over",
                    "defenders_up": "the defenders take over and go up {n}", "replay": "the hand is replayed"},
        "undecided": "undecided",
        "violation": "violation ({status}) {kind} {seat}{where}: {penalty}{evidence}",
        "where": " hand {hand} trick {trick}",
        "statuses": {"flagged": "flagged", "confirmed": "confirmed", "dismissed": "dismissed"},
        "penalty": {"warning": "warning", "points": "{n} points", "levels": "opponents up {n}", "deal": "loses the deal",
                    "forfeit": "forfeits the {what}", "foul": "foul", "none": "no penalty"},
        "forfeits": {"turn": "turn", "hand": "hand", "round": "round"},
        "evidence": "; evidence: {items}",
        "seconds": "{s:.1f} s used", "limit": "limit {s:g} s", "cards": "cards {cards}",
    },
}


class _Formatter:
    def __init__(self, lang: str, rulebook: str):
        self.say, self.lang = LABELS[lang], lang
        self.rulebook = rulebook
        self.game = self.say["games"].get(family(rulebook), {})

    def seat(self, seat: Any) -> str:
        return self.say["seats"].get(seat, self.say["undecided"] if seat is None else str(seat))

    def cards(self, cards: Any) -> str:
        return " ".join(cards) if isinstance(cards, list) else str(cards)

    def input(self, kind: str, p: dict) -> str:
        say = self.say
        who = say["inputs"].get(kind, kind)
        if kind == "clock":
            return f"{who} {say['clock']}"
        if kind in ("observed", "removed"):
            text = f"{self.seat(p['seat'])} {self.cards(p['cards'])}"
            if p.get("confidence", 1.0) < 1.0:
                text += say["paren"].format(say["confidence"].format(c=p["confidence"]))
            return f"{who} {text}"
        if kind == "board/in":
            return f"{who} {self.seat(p['seat'])} {say['buttons'].get(p['button'], p['button'])}"
        command = p.get("command")
        text = say["commands"].get(command, command)
        if command == "assign":
            text += " " + self.players(p["players"]) + " " + say["rulebook"].format(r=p["rulebook"])
        if "flag" in p:
            text += f" {p['flag']}"
        if "entry" in p:
            text += f" #{p['entry']}"
        if "cards" in p:
            text += f" → {self.cards(p['cards'])}"
        return f"{who} {text}"

    def players(self, players: dict) -> str:
        return self.say["sep"].join(f"{self.seat(s)} {n}" for s, n in players.items())

    def event(self, e: dict) -> str:
        say, kind = self.say, e["kind"]
        data = dict(e.get("data") or {})
        suffix = next((f"_{k}" for k in ("forfeit", "sat_out") if data.get(k)), "_late" if data.get("by") == "late" else "")
        template = self.game.get(kind) or say["events"].get(kind + suffix) or say["events"].get(kind)
        if template is None:
            return f"{kind} {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}"
        values = {k: v for k, v in data.items()}
        for key in ("seat", "dealer", "first", "first_bidder", "leader", "to"):
            if key in values or "{" + key + "}" in template:
                values[key] = self.seat(values.get(key))
        values |= self.climbing(data)
        if "cards" in values:
            values["cards"] = self.cards(values["cards"])
        if kind == "assigned":
            values["players"] = self.players(data.get("players", {}))
            values["rulebook"] = say["rulebook"].format(r=data.get("rulebook"))
        if kind in ("kitty_taken",):
            values["trump"] = say["suits"].get(data.get("trump"), data.get("trump")) if data.get("trump") \
                else say["undecided"]
        if kind == "trump_named":
            values["suit"] = say["suits"].get(data.get("suit"), data.get("suit"))
        if kind == "hand_scored":
            values["result"] = self.result(data)
        if kind in ("levels_changed", "round_over") and isinstance(data.get("levels"), dict):
            values["levels"] = self.levels(data.get("levels", {}))
        if kind in ("game_won", "foul_counted", "hand_scored", "hand_forfeited"):
            values["team"] = say["teams"].get(data.get("team"), data.get("team"))
        if kind == "round_forfeited":
            values["teams"] = say["sep"].join(say["teams"].get(x, x) for x in data.get("teams", []))
        if kind in ("flag_raised", "foul_counted"):
            values["kind"] = kind_name(data.get("kind"), self.lang)
        if kind == "reported":
            values["play"] = say["plays"][bool(data.get("play"))]
        if kind == "flag_resolved":
            values["how"] = say["hows"].get(data.get("how"), data.get("how"))
        try:
            return template.format_map(_Missing(values))
        except (ValueError, IndexError):
            return f"{kind} {json.dumps(data, ensure_ascii=False)}"

    def climbing(self, data: dict) -> dict:
        """The climbing games' values in words: seats and sides, bids, scores by seat, exchanges."""
        say, sep = self.say, self.say["sep"]
        out: dict[str, Any] = {}
        for key in ("finish", "seats"):
            if isinstance(data.get(key), list):
                out[key] = " ".join(self.seat(s) for s in data[key])
        for key in ("scores", "totals", "points"):
            if isinstance(data.get(key), dict):
                out[key] = sep.join(f"{self.seat(s)} {v:+g}" if key != "points" else f"{self.seat(s)} {v:g}" for s, v in data[key].items())
        if "bid" in data:
            out["bid"] = say["bids"].get(data["bid"], data["bid"]) if "dealer" not in data else data["bid"]
        if isinstance(data.get("games"), dict):
            out["games"] = sep.join(f"{say['teams'].get(t, t)} {n}" for t, n in data["games"].items())
        if "by" in data:
            out["by"] = say["bys"].get(data["by"], data["by"])
        if "winner" in data:
            out["winner"] = say["winners"].get(data["winner"], data["winner"])
        if "exchanges" in data:
            out["exchanges"] = sep.join(f"{self.seat(x['from'])} → {self.seat(x['to'])} {x['card']}" for x in data["exchanges"])
        if "ahead" in data:
            out["ahead"] = say["teams"].get(data["ahead"], say["level_tie"])
        out["first_bid_three"] = say["first_bid_three"] if data.get("first_bid_three") else ""
        return out

    def result(self, data: dict) -> str:
        results = self.say["results"]
        if data.get("replay"):
            return results["replay"]
        side, n = data.get("side"), data.get("levels", 0)
        if side == "dealer":
            return results["dealer"].format(n=n)
        return results["defenders_up" if n else "defenders"].format(n=n)

    def levels(self, levels: dict) -> str:
        return self.say["sep"].join(f"{self.say['teams'].get(team, team)} {rank}" for team, rank in levels.items())

    def violation(self, v: dict) -> str:
        say = self.say
        ev = v.get("evidence", {})
        where = say["where"].format(hand=ev["hand"], trick=ev["trick"]) if "hand" in ev and "trick" in ev else ""
        items = []
        if "seconds" in ev:
            items.append(say["seconds"].format(s=ev["seconds"]))
        if "limit" in ev:
            items.append(say["limit"].format(s=ev["limit"]))
        if ev.get("cards"):
            items.append(say["cards"].format(cards=self.cards(ev["cards"])))
        return say["violation"].format(
            status=say["statuses"].get(v.get("status"), v.get("status")),
            kind=kind_name(v.get("kind"), self.lang),
            seat=self.seat(v.get("seat")),
            where=where,
            penalty=self.penalty(v.get("penalty", {})),
            evidence=say["evidence"].format(items=say["sep"].join(items)) if items else "",
        )

    def penalty(self, p: dict) -> str:
        say = self.say["penalty"]
        parts = []
        if p.get("warning"):
            parts.append(say["warning"])
        if p.get("points"):
            parts.append(say["points"].format(n=p["points"]))
        if p.get("levels"):
            parts.append(say["levels"].format(n=p["levels"]))
        if p.get("deal"):
            parts.append(say["deal"])
        if p.get("forfeit"):
            parts.append(say["forfeit"].format(what=self.say["forfeits"].get(p["forfeit"], p["forfeit"])))
        if p.get("foul"):
            parts.append(say["foul"])
        if p.get("text") and not parts:
            parts.append(str(p["text"]))
        return self.say["sep"].join(parts) or say["none"]


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def _clock(at: float) -> str:
    t = time.localtime(at)
    return time.strftime("%H:%M:%S", t) + f".{int((at % 1) * 100):02d}"


def _table_of(path: Path) -> str:
    """A table id from the file's name (``t07.db`` -> ``t07``), else ``replay``."""
    try:
        return check_table(path.stem)
    except ValueError:
        return "replay"


def first_rulebook(log: EventLog) -> str | None:
    """The rulebook of the log's first ``assign`` command, or None."""
    for entry in log.entries():
        if entry.kind == "commands" and entry.payload.get("command") == "assign":
            return entry.payload.get("rulebook")
    return None


def timeline(path: str | Path, lang: str = "zh", rulebook: str | None = None, table: str | None = None,
             factory: Any = None) -> Iterator[str]:
    """The lines of the timeline of the log at ``path`` (see the module's docstring). ``table``:
    the table id to replay as (default: the file's name, ``t07.db`` -> ``t07``, else ``replay``)."""
    path = Path(path)
    if not path.is_file():
        raise LogError(f"no event log at {path}")
    fmt_lang = LABELS[lang]
    with EventLog.open(path) as log:
        table = table or log.meta("table") or _table_of(path)
        rulebook = rulebook or log.meta("rulebook") or first_rulebook(log) or DEFAULT_RULEBOOK
        fmt = _Formatter(lang, rulebook)
        if factory is None:
            from referee.table.runtime import new_table

            factory = new_table
        t = factory(table, rulebook)
        n = log.last_seq()
        originals = list(log.entries())
        judged = as_amended((e.kind, e.payload, e.at, e.seq) for e in originals)
        first = originals[0] if originals else None
        if first is None:
            yield fmt_lang["empty"].format(table=table, path=path)
            return
        date = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(first.at))
        yield fmt_lang["header"].format(table=table, path=path, n=n, rulebook=rulebook, date=date)
        width = len(str(n)) + 1
        for entry, (kind, payload, at, seq) in zip(originals, judged):
            head = f"{_clock(entry.at)}  {('#' + str(entry.seq)).rjust(width)}  "
            yield head + fmt.input(entry.kind, entry.payload)
            try:
                t, outputs = t.apply(kind, payload, at, seq)
            except Exception as exc:  # noqa: BLE001 - show it, go on as the service does
                yield " " * len(head) + fmt_lang["runtime_error"].format(e=exc)
                continue
            lines = []
            for out in outputs:
                if out.name == "events":
                    lines.append(fmt.event(out.payload))
                elif out.name == "violations":
                    lines.append(fmt.violation(out.payload))
            if not lines:
                lines = [fmt_lang["nothing"]]
            pad = " " * len(head)
            for i, line in enumerate(lines):
                yield f"{pad}{'└' if i == len(lines) - 1 else '├'} {line}"


def main(path: str, lang: str = "zh", rulebook: str | None = None, table: str | None = None) -> int:
    """``cardtable table replay``."""
    try:
        for line in timeline(path, lang, rulebook, table):
            print(line)
    except LogError as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # | head
        return 0
    return 0


__all__ = ["LABELS", "first_rulebook", "main", "timeline"]
