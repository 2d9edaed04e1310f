"""The follow order after a 地雷 of two bombs (seed 003 6(3) C), kept as rulebook data line by line.

003 6(3) C: AAAAKKKK牌型下的跟牌顺序：11223344 先于“1112222+散牌”先于“1122333+散牌”或“1112233+散牌”或
“1122233+散牌”先于11122299先于112233 55先于QQQQ9999先于QQQQ 8899先于QQJJ 8899 先于QQJJJJ 99先于
QQJJJ 999先于 QQQQ 999*先于QQJJ 999* 先于QQJJ 9977先于QQQ 999 7 7 ……

Some neighbours of the list never meet in one hand: whoever can play both also holds a shape of an
earlier line (QQJJJJ 99 with QQJJ 8899 holds 112233 55; QQJJJ 999 or QQQQ 999* beside a second tractor
or a bomb holds QQQQ 8899). Each line that can decide a hand has its case here.
"""

import pytest
import said

from referee.cards import Cards
from referee.judge import answer
from referee.rulebooks import load
from referee.rulebooks.shapes import parse
from referee.tractor.follow import follow_ruling, is_legal_follow
from referee.tractor.trumps import Trumps

SEED_6_3_C = (
    "11223344  先于“1112222+散牌”先于“1122333+散牌”或“1112233+散牌”或“1122233+散牌”先于11122299先于112233 55"
    "先于QQQQ9999先于QQQQ 8899先于QQJJ 8899 先于QQJJJJ 99先于QQJJJ 999先于 QQQQ 999*先于QQJJ 999* 先于QQJJ 9977"
    "先于QQQ 999 7 7 ……"
)
BOOKS = ("shaoguan-2023", "shaoguan-2023-nokitty")
LEAD = "SK SK SK SK SQ SQ SQ SQ"  # level A: the spades 3..J lie in one run below the lead's ranks


def C(s):
    return Cards.parse(s)


@pytest.mark.parametrize("book", BOOKS)
def test_the_data_is_the_seed_list_line_by_line(book):
    # 003 6(3) C (both 打法): one entry per 先于, the 或 choices of a line in one entry, in the seed's order
    lines = [[part.strip(" “”") for part in line.split("或")] for line in SEED_6_3_C.replace("……", "").split("先于")]
    listed = load(book).follow.listed[(4, 2)]
    assert [[s.text.replace(" ", "") for s in tier] for tier in listed] == [[p.replace(" ", "") for p in line] for line in lines]
    assert [[s for s in tier] for tier in listed] == [[parse(p) for p in line] for line in lines]


CASES = [  # (the seed's words, hand, a play of that line, a play the line puts after it)
    ("11223344 先于“1112222+散牌”", "S3 S3 S4 S4 S5 S5 S6 S6 S8 S8 S8 S9 S9 S9 S9 D3",
     "S3 S3 S4 S4 S5 S5 S6 S6", "S8 S8 S8 S9 S9 S9 S9 S3"),
    ("“1112222+散牌”先于“1122333+散牌”", "S3 S3 S3 S4 S4 S4 S4 S7 S7 S8 S8 S9 S9 S9 D3",
     "S3 S3 S3 S4 S4 S4 S4 S7", "S7 S7 S8 S8 S9 S9 S9 S3"),
    ("“1122333+散牌”或“1112233+散牌” 先于 QQJJ 8899", "S3 S3 S4 S4 S5 S5 S5 S7 S7 S7 S8 S8 S9 S9 D3",
     "S3 S3 S4 S4 S5 S5 S5 S7", "S3 S3 S4 S4 S7 S7 S8 S8"),
    ("“1112233+散牌” (the other choice of the same line)", "S3 S3 S4 S4 S5 S5 S5 S7 S7 S7 S8 S8 S9 S9 D3",
     "S7 S7 S7 S8 S8 S9 S9 S3", "S3 S3 S4 S4 S5 S5 S7 S7"),
    ("“1122233+散牌” (the third)", "S3 S3 S4 S4 S4 S5 S5 S9 ST D3",
     "S3 S3 S4 S4 S4 S5 S5 S9", "S3 S3 S4 S4 S4 S5 S9 ST"),
    ("“1122333+散牌” 先于 11122299", "S3 S3 S4 S4 S5 S5 S5 S8 S8 S8 S9 S9 S9 SJ SJ D3",
     "S3 S3 S4 S4 S5 S5 S5 S8", "S8 S8 S8 S9 S9 S9 SJ SJ"),
    ("11122299 先于 112233 55", "S3 S3 S3 S4 S4 S4 S7 S7 S8 S8 S9 S9 SJ SJ D3",
     "S3 S3 S3 S4 S4 S4 SJ SJ", "S7 S7 S8 S8 S9 S9 SJ SJ"),
    ("112233 55 先于 QQQQ9999", "S3 S3 S4 S4 S5 S5 S7 S7 SJ SJ SJ SJ S9 S9 S9 S9 D3",
     "S3 S3 S4 S4 S5 S5 S7 S7", "SJ SJ SJ SJ S9 S9 S9 S9"),
    ("QQQQ9999 先于 QQQQ 8899", "SJ SJ SJ SJ S8 S8 S8 S8 S3 S3 S4 S4 D3",
     "SJ SJ SJ SJ S8 S8 S8 S8", "SJ SJ SJ SJ S3 S3 S4 S4"),
    ("QQQQ 8899 先于 QQJJ 8899", "SJ SJ SJ SJ S3 S3 S4 S4 S7 S7 S8 S8 D3",
     "SJ SJ SJ SJ S3 S3 S4 S4", "S3 S3 S4 S4 S7 S7 S8 S8"),
    ("11122299 先于 … QQJJJJ 99", "S3 S3 S3 S4 S4 S4 S7 S7 S8 S8 S8 S8 SJ SJ D3",
     "S3 S3 S3 S4 S4 S4 SJ SJ", "S7 S7 S8 S8 S8 S8 SJ SJ"),
    ("QQQQ9999 先于 … QQJJJ 999", "S3 S3 S4 S4 S4 S7 S7 S7 SJ SJ SJ SJ S9 S9 S9 S9 D3",
     "SJ SJ SJ SJ S9 S9 S9 S9", "S3 S3 S4 S4 S4 S7 S7 S7"),
    ("QQJJ 999* 先于 QQJJ 9977", "SJ SJ ST ST S7 S7 S7 S4 S4 D3",
     "SJ SJ ST ST S7 S7 S7 S4", "SJ SJ ST ST S7 S7 S4 S4"),
]


@pytest.mark.parametrize("book", BOOKS)
@pytest.mark.parametrize("words, hand, first, after", CASES, ids=[c[0] for c in CASES])
def test_each_line_before_the_next(book, words, hand, first, after):
    # 003 6(3) C, as quoted in the module docstring: the first play is legal, the later line's is not
    t = Trumps.of(book, "A", "H")
    assert is_legal_follow(t, C(hand), C(LEAD), C(first)), words
    assert not is_legal_follow(t, C(hand), C(LEAD), C(after)), words


def _follow(hand, play):
    case = {"id": "f", "game": "tractor", "op": "follow", "rulebook": "shaoguan-2023", "level": "5", "trump": "H",
            "hand": hand.split(), "lead": "SA SA SA SA SK SK SK SK".split(), "play": play.split()}
    return answer(case)["result"]


def test_bomb_and_tractor_before_pair_and_bomb_joined():
    # 003 6(3) C: QQQQ 8899先于QQJJ 8899 先于QQJJJJ 99 -- holding QQ JJJJ 99 88, JJJJ 9988 is the follow
    hand = "SQ SQ SJ SJ SJ SJ S9 S9 S8 S8 D2"
    assert _follow(hand, "SJ SJ SJ SJ S9 S9 S8 S8") == "legal"
    assert _follow(hand, "SQ SQ SJ SJ SJ SJ S9 S9") == "illegal"


def test_two_bombs_before_a_pair_joined_to_a_bomb():
    # 003 6(3) C: QQQQ9999先于 ... QQJJJJ 99 -- holding QQQQ 9999 88, the two bombs, not 889999 QQ
    hand = "SQ SQ SQ SQ S9 S9 S9 S9 S8 S8 D2"
    assert _follow(hand, "SQ SQ SQ SQ S9 S9 S9 S9") == "legal"
    assert _follow(hand, "S8 S8 S9 S9 S9 S9 SQ SQ") == "illegal"


def test_a_ruling_names_the_line_of_the_list():
    # 003 6(3) C: QQQQ9999先于QQQQ 8899 -- the ruling cites the line the hand had to meet
    t = Trumps.of("shaoguan-2023", "A", "H")
    why = follow_ruling(t, C("SJ SJ SJ SJ S8 S8 S8 S8 S3 S3 S4 S4 D3"), C(LEAD), C("SJ SJ SJ SJ S3 S3 S4 S4"))
    assert why is not None and "QQQQ9999" in said.words(why) and "S8 S8 S8 S8" in said.words(why)


@pytest.mark.parametrize("book", BOOKS)
def test_a_shape_the_list_does_not_name_comes_after_it_by_the_general_order(book):
    # 003 6(3): 之后跟炸弹或拖拉机，三条、对子、散牌，依次类推 -- JJJJ 77 44 (a bomb and two pairs) is no line of C;
    # holding nothing the list names, the follower plays the bomb and both pairs (6(1): 没对牌跟散牌)
    t = Trumps.of(book, "A", "H")
    hand = "SJ SJ SJ SJ S7 S7 S4 S4 S9 D3"
    assert is_legal_follow(t, C(hand), C(LEAD), C("SJ SJ SJ SJ S7 S7 S4 S4"))
    assert not is_legal_follow(t, C(hand), C(LEAD), C("SJ SJ SJ SJ S7 S7 S4 S9"))
    assert not is_legal_follow(t, C(hand), C(LEAD), C("SJ SJ SJ S9 S7 S7 S4 S4"))


def test_the_bomb_tractor_itself_comes_first():
    # 003 6(1): 地雷跟地雷 -- before every line of 6(3) C
    t = Trumps.of("shaoguan-2023", "A", "H")
    hand = "S3 S3 S3 S3 S4 S4 S4 S4 S6 S6 S7 S7 S8 S8 S9 S9 D3"
    assert is_legal_follow(t, C(hand), C(LEAD), C("S3 S3 S3 S3 S4 S4 S4 S4"))
    assert not is_legal_follow(t, C(hand), C(LEAD), C("S6 S6 S7 S7 S8 S8 S9 S9"))


def test_the_list_is_checked_when_the_rulebook_loads():
    # rules are data, typed and checked when they load: a pattern of another size, an unreadable symbol,
    # the lead's own format or a shape of an earlier line is refused, as is a list 6(2) could override
    import tomllib

    from referee.rulebooks import HERE, RulebookError, build
    from referee.rulebooks.shapes import tiers

    for entries, words in (([["QQ*"]], "holds 3 cards, the lead 8"), ([["QQQQ?JJJ"]], "'?' is no rank"),
                           ([["99998888"]], "the lead's own format"), ([["QQQQ 9999"], ["3333 6666"]], "an earlier entry")):
        with pytest.raises(ValueError, match=words):
            tiers((4, 2), entries)
    raw = tomllib.loads((HERE / "shaoguan-2023.toml").read_text(encoding="utf-8"))
    raw["follow"]["listed"] = {"2x2": [["QQQ*"]]}
    with pytest.raises(RulebookError, match="outranked_frees_choice"):
        build(raw, "shaoguan-2023.toml")
