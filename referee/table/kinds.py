"""Every flag and violation kind's names, in one place: ``board``, the seat board's short Chinese (its line holds 32
characters), and the names that the timeline, the console and the scoreboard show in Chinese and English. The
Chinese follows the rulebooks' own words (``shared/seeds``: 暴露张, 牌张数目不符, 甩错牌, 拿底牌 before the
declare window ends).

>>> KINDS["kitty_window"]
Names(board='拿底过早', zh='拿底过早', en='kitty taken early')
>>> name("peeking", "zh"), name("peeking", "en"), name("no_such_kind", "en")
('偷看他人的牌', 'peeking', 'no_such_kind')
"""

from __future__ import annotations

from typing import NamedTuple


class Names(NamedTuple):
    board: str
    zh: str
    en: str


KINDS: dict[str, Names] = {
    # the camera and the rules engines' flags
    "unsure": Names("识别存疑", "识别存疑", "unsure read"),
    "impossible": Names("不可能的出牌", "不可能的出牌", "impossible play"),
    # violations (and flags that become one when the referee confirms them)
    "overtime": Names("超时", "超时", "overtime"),
    "late_arrival": Names("迟到", "迟到", "late arrival"),
    "kitty_window": Names("拿底过早", "拿底过早", "kitty taken early"),
    "revoke": Names("藏张", "藏张", "revoke"),
    "failed_throw": Names("甩错牌", "甩错牌", "failed throw"),
    "illegal_lead": Names("出错牌", "出错牌", "illegal lead"),
    "wrong_card_count": Names("牌数不符", "牌张数目不符", "wrong card count"),
    "out_of_turn": Names("越序出牌", "越序出牌", "out of turn"),
    "exposed_card": Names("暴露张", "暴露张", "exposed card"),
    "early_pickup": Names("提前收牌", "提前收牌", "early pickup"),
    "foul": Names("犯规", "犯规", "foul"),
    "return_late": Names("还牌超时", "还牌超时", "return card late"),
    "illegal_return": Names("还牌违规", "还牌违规", "illegal return card"),
    "illegal_tribute": Names("进贡违规", "进贡违规", "illegal tribute"),
    "tribute_not_largest": Names("进贡非最大", "进贡不是最大的牌", "tribute not the largest card"),
    # San Da Yi's fouls (seed 004 三)
    "count_report": Names("违规报牌", "违规报牌", "count reported out of time"),
    "ask_out_of_turn": Names("非出牌时问牌", "非出牌时问牌", "asked a count out of turn"),
    "wrong_answer": Names("答牌不当", "答牌不当", "wrong count answer"),
    "talking": Names("交谈", "交谈", "talking"),
    "spoken_pass": Names("口说不要", "口说不要", "a spoken pass"),
    "hurrying": Names("催牌", "催牌", "hurrying others"),
    "peeking": Names("偷看", "偷看他人的牌", "peeking"),
    "signalling": Names("暗示性手势", "暗示性手势", "signalling"),
}


def name(kind: str, lang: str) -> str:
    """The name of ``kind`` in ``lang`` ("zh", "en" or "board"); an unknown kind is its own name."""
    names = KINDS.get(kind)
    return getattr(names, lang) if names else kind


def names(lang: str) -> dict[str, str]:
    """Every kind's name in ``lang`` (what the pages' script gets)."""
    return {kind: getattr(n, lang) for kind, n in KINDS.items()}
