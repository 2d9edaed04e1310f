"""The Tractor table as a pure reducer: a whole Tractor hand, clocks, flags, late arrival, replay."""

import random

import pytest

from bus.protocol import encode
from referee.cards import Cards, Decks
from referee.catalogue.sentences import Sentences
from referee.rulebooks import load
from referee.seats import SEATS, next_seat
from referee.table.clock import limits
from referee.table.reducer import CONFIDENT
from referee.table.tables import new_table
from referee.tractor.bots import deal, legal_follow, random_lead
from referee.tractor.game import Penalty
from referee.tractor.trumps import Trumps
from vision.sanity import SURE


class Driver:
    """Feeds a table inputs as the camera, the board and the console would; checks every output."""

    def __init__(self, rulebook="classic-3deck", at=1000.0):
        self.table = new_table("t1", rulebook)
        self.at, self.seq, self.outputs, self.log = at, 0, [], []

    def send(self, name, payload, dt=1.0):
        self.at += dt
        self.seq += 1
        payload = {"v": 1, "id": f"m{self.seq}", **payload}
        if name not in ("commands", "clock"):
            payload["at"] = self.at
        self.log.append((name, payload, self.at, self.seq))
        self.table, out = self.table.apply(name, payload, self.at, self.seq)
        for o in out:
            encode(o.name, o.payload)  # every output is valid under its schema
        encode("state", self.table.state(self.at))
        encode("board/out", self.table.board(self.at))
        self.outputs += out
        return out

    def kinds(self, name="events"):
        return [o.payload["kind"] for o in self.outputs if o.name == name]

    def payloads(self, name, kind):
        return [o.payload for o in self.outputs if o.name == name and o.payload["kind"] == kind]

    def start(self, late=None):
        self.send("commands", {"command": "assign", "rulebook": self.table.rulebook, "players": {s: s * 2 for s in SEATS}})
        self.send("commands", {"command": "start_round"})
        for seat in SEATS:
            self.send("board/in", {"seat": seat, "button": "ready"}, dt=(late or {}).get(seat, 1.0))

    def declare_and_take_kitty(self, seat="S", suit="H"):
        level = self.table.game.hand_level()
        self.send("observed", {"seat": seat, "cards": [suit + level], "confidence": 0.99})
        self.send("board/in", {"seat": "E", "button": "declare"})
        self.send("board/in", {"seat": seat, "button": "ready"}, dt=6.0)

    def play_hand(self, rng, slow=()):
        t = self.table
        rules = t.rules
        trumps = Trumps(rules, t.game.hand_level(), t.trump)
        hands, kitty = deal(rules.deal.decks, rules.deal.kitty, rng)
        self.play_out(trumps, hands, rng, slow)
        self.send("observed", {"seat": self.table.dealer, "cards": kitty.names(), "confidence": 0.99})

    def play_out(self, trumps, hands, rng, slow=()):
        """Plays the rest of the hand from ``hands``: random leads and legal follows."""
        while any(hands.values()):
            leader = self.table.turn()
            lead = random_lead(trumps, hands[leader], rng)
            self.play(leader, lead, hands, slow)
            seat, before = next_seat(leader), [lead]
            for _ in range(3):
                cards = legal_follow(trumps, hands[seat], lead, rng, before[1:])
                self.play(seat, cards, hands, slow)
                before.append(cards)
                seat = next_seat(seat)

    def play(self, seat, cards, hands, slow=()):
        dt = 12.0 if (seat, self.table._trick_no()) in slow else 2.0
        self.send("observed", {"seat": seat, "cards": cards.names(), "confidence": 0.99}, dt=dt)
        hands[seat] = hands[seat] - cards


def test_a_whole_hand_is_played_scored_and_the_next_dealt():
    d = Driver()
    d.start()
    assert d.table.phase == "dealing"
    d.declare_and_take_kitty("S", "H")
    assert (d.table.phase, d.table.dealer, d.table.trump) == ("kitty", "S", "H")
    d.play_hand(random.Random(3))
    kinds = d.kinds()
    assert kinds.count("play_accepted") == sum(1 for o in d.outputs if o.payload.get("kind") == "play_accepted")
    assert "trick_won" in kinds and "hand_scored" in kinds and "levels_changed" in kinds
    assert d.table.phase == "dealing" and d.table.hand_no == 2
    scored = next(o.payload["data"] for o in d.outputs if o.payload.get("kind") == "hand_scored")
    points = sum(o.payload["data"]["points"] for o in d.outputs if o.payload.get("kind") == "trick_won")
    assert 0 <= scored["defender_points"] <= 300 and points <= 300
    assert scored["defenders"] == "EW"  # S dealt: the side whose points these are, named for the pages (防家（东西）)


def test_slow_plays_trip_the_classic_clock_warning_then_points():
    """001 二十三: 领出不得超过15秒钟，按规定顺序跟牌、垫牌、将吃不超过10秒钟，如超过，第一次警告，以后每次扣20分."""
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    d.play_hand(random.Random(5), slow={("E", 1), ("E", 2)})
    clock = [o.payload for o in d.outputs if o.name == "violations" and o.payload["kind"] == "overtime"]
    e = [v for v in clock if v["seat"] == "E"]
    assert e[0]["penalty"]["warning"] is True and e[1]["penalty"]["points"] == 20
    assert e[0]["evidence"]["seconds"] == 12.0 and e[0]["evidence"]["limit"] == 10


def test_late_arrival_costs_points():
    """001 二: 6－10分钟，首盘扣20分."""
    d = Driver()
    d.start(late={"W": 7 * 60})
    late = d.payloads("violations", "late_arrival")
    assert [(v["seat"], v["penalty"]["points"]) for v in late] == [("W", 20)]
    assert d.table.penalties[0].kind == "late_10_min" and d.table.phase == "dealing"


# ---- late arrival as time passes: 001 二, 000 第十三条 ----

ART_2 = "迟到判罚: 5分钟之内警告，违例一次；6－10分钟，首盘扣20分；11－15分钟，首盘扣30分；16－20分钟，首盘自动放弃，对手自动升级；21分钟以上判该轮弃权"


def arrive(d, times, rulebook=None):
    """``start_round`` at ``d.at``, then each seat's ``ready`` at its minute:second (``"mm:ss"``) after it."""
    d.send("commands", {"command": "start_round"}, dt=0.0)
    start = d.at
    seconds = {seat: int(when.split(":")[0]) * 60 + float(when.split(":")[1]) for seat, when in times.items()}
    for seat, s in sorted(seconds.items(), key=lambda kv: kv[1]):
        d.send("board/in", {"seat": seat, "button": "ready"}, dt=start + s - d.at)
    return start


@pytest.mark.parametrize("book, when", [("classic-3deck", "21:00"), ("classic-3deck", "20:01"), ("zhongkai-2010", "20:01")])
def test_a_round_forfeit_for_lateness_ends_the_round_at_once(book, when):
    """001 二: 21分钟以上判该轮弃权; 000 第十三条: 21分钟以上判全队该轮弃权 -- the round ends then, lost by the late
    side: no hand is dealt (20:01 is in the 21-minute band: a started minute counts)."""
    d = Driver(book)
    arrive(d, {"S": "0:10", "N": "0:10", "W": "0:20", "E": when})
    (v,) = d.payloads("violations", "late_arrival")
    assert (v["seat"], v["penalty"]["forfeit"], v["evidence"]["seats"]) == ("E", "round", ["E"])
    assert v["rule"] == {"book": book, "article": limits(load(book)).rule("late").article[:64]} and "迟到" in v["rule"]["article"]
    (won,) = d.payloads("events", "game_won")
    assert won["data"] == {"team": "SN", "by": "late", "loser": "EW", "minutes": {"21:00": 21.0, "20:01": 20.02}[when]}
    assert d.table.phase == "round_over"
    assert Sentences("zh", "tractor").event(won) == "南北 胜出本局（对方迟到弃权）"
    assert "hand_started" not in d.kinds() and d.kinds()[-1] == "rejected"  # E's ready comes too late to count


def test_a_side_that_never_arrives_is_ruled_on_as_each_minute_passes():
    """001 二: each band applies the moment its minute passes, to a seat that has not pressed ``ready`` too: one
    violation for the side, published again (the same flag) with each later band; at 21 minutes the round is over."""
    d = Driver()
    arrive(d, {"S": "0:05", "N": "0:05", "E": "0:06"})
    start = d.at - 6
    assert d.table.next_deadline() == start + 60  # the first minute is the grace
    seen = []
    for minute in (1, 5, 10, 15, 20):
        assert d.table.next_deadline() == start + 60 * minute
        d.send("clock", {}, dt=start + 60 * minute + 0.5 - d.at)  # the service's entry once the minute passed
        seen.append(d.payloads("violations", "late_arrival")[-1])
    assert [v["penalty"]["text"] for v in seen] == ["warning", "points", "points", "forfeit_hand", "forfeit_round"]
    assert [v["penalty"]["points"] for v in seen] == [0, 20, 30, 0, 0] and len({v["flag"] for v in seen}) == 1
    assert all(v["seat"] == "W" and v["evidence"]["seats"] == ["W"] and ART_2.startswith(v["rule"]["article"][2:]) for v in seen)
    assert d.payloads("events", "game_won")[0]["data"] == {"team": "SN", "by": "late", "loser": "EW", "minutes": 20.01}
    assert d.table.phase == "round_over" and d.table.next_deadline() is None


def test_at_25_minutes_an_absent_seat_has_forfeited_the_round():
    """001 二: 21分钟以上判该轮弃权 -- a table at 25 minutes with a seat absent no longer says ``arriving``."""
    d = Driver()
    arrive(d, {"S": "0:05", "N": "0:05", "W": "0:06"})
    assert d.table.state(d.at + 25 * 60)["phase"] == "round_over"  # what the service shows then
    d.send("clock", {}, dt=25 * 60)
    (v,) = d.payloads("violations", "late_arrival")
    assert (v["seat"], v["penalty"]["forfeit"]) == ("E", "round") and d.table.phase == "round_over"


def test_a_ready_within_the_first_minute_is_on_time_and_a_started_minute_counts():
    """Decided where 001 二 is open (5分钟之内警告): pressing ``ready`` takes a moment, so a ready within the first
    minute is on time; after it, 5分钟之内 is a warning up to 5:00, and 5:01 is in the 6－10 band (首盘扣20分)."""
    d = Driver()
    arrive(d, {"S": "0:59", "N": "0:10", "E": "1:01", "W": "0:30"})
    assert [(v["seat"], v["penalty"]["warning"]) for v in d.payloads("violations", "late_arrival")] == [("E", True)]
    d = Driver()
    arrive(d, {"S": "0:10", "N": "0:10", "E": "5:00", "W": "0:30"})
    assert [v["penalty"]["text"] for v in d.payloads("violations", "late_arrival")] == ["warning"]
    d = Driver()
    arrive(d, {"S": "0:10", "N": "0:10", "E": "5:01", "W": "0:30"})
    assert [v["penalty"]["points"] for v in d.payloads("violations", "late_arrival")] == [20]


def test_lateness_is_per_side_the_later_partner_decides_one_penalty():
    """001 二 (decided: 迟到 is the pair's, as 000 第十三条 全队该轮弃权 and 002 十二 第2条 一方两位选手 read it): E at 3:00
    and W at 12:00 cost their side one penalty, W's band (首盘扣30分), not a warning and 30 points; no penalty for
    S and N, who were on time."""
    d = Driver()
    arrive(d, {"S": "0:10", "N": "0:10", "E": "3:00", "W": "12:00"})
    late = d.payloads("violations", "late_arrival")  # at E's ready EW were late (a warning), at W's 12 minutes
    assert [(v["seat"], v["penalty"]["text"], v["penalty"]["points"]) for v in late] == [("E", "warning", 0), ("W", "points", 30)]
    assert late[0]["flag"] == late[1]["flag"]  # one violation for the side, its band raised
    assert d.table.penalties == (Penalty("late_15_min", "W"),) and d.table.phase == "dealing"
    d = Driver()  # the same with the service's entries as time passes: one flag, last published at 30 points
    start = arrive(d, {"S": "0:10", "N": "0:10", "E": "3:00"})
    for minute in (5, 10):
        d.send("clock", {}, dt=start + 60 * minute + 1 - d.at)
    d.send("board/in", {"seat": "W", "button": "ready"}, dt=start + 12 * 60 - d.at)
    late = d.payloads("violations", "late_arrival")
    assert [v["penalty"]["points"] for v in late] == [0, 20, 30] and len({v["flag"] for v in late}) == 1
    assert d.table.penalties == (Penalty("late_15_min", "W"),)


def test_a_first_hand_forfeited_for_lateness_is_not_played():
    """001 二: 16－20分钟，首盘自动放弃，对手自动升级 -- decided: hand 1 is not played; the opponents go up one level
    and deal hand 2 (the late side's later player's 下家, as when a dealer's side loses the deal, 九 3)."""
    d = Driver()
    arrive(d, {"S": "0:10", "N": "0:10", "W": "0:20", "E": "17:30"})
    (v,) = d.payloads("violations", "late_arrival")
    assert (v["seat"], v["penalty"]["forfeit"]) == ("E", "hand")
    (gone,) = d.payloads("events", "hand_forfeited")
    assert gone["data"] == {"hand": 1, "team": "EW", "by": "late", "levels": 1}
    assert Sentences("zh", "tractor").event(gone) == "第 1 盘 东西 迟到弃权，对方升 1 级"
    levels = d.payloads("events", "levels_changed")[-1]["data"]
    assert levels == {"levels": {"SN": "3", "EW": "2"}, "dealer": "N"}
    started = d.payloads("events", "hand_started")[-1]["data"]
    assert (started["hand"], started["level"], started["dealer"]) == (2, "3", "N") and d.table.penalties == ()
    assert d.kinds()[-3:] == ["hand_forfeited", "levels_changed", "hand_started"]
    d.declare_and_take_kitty("N", "S")  # N deals: a level-3 card declares the trump suit
    assert (d.table.phase, d.table.dealer) == ("kitty", "N")


def test_both_sides_forfeiting_the_first_hand_both_go_up():
    """001 二 for each side (decided): both late 16－20 minutes, both sides' opponents go up (each side does), and
    the later side's later player's 下家 deals hand 2."""
    d = Driver()
    arrive(d, {"S": "0:10", "N": "16:30", "W": "0:20", "E": "18:00"})
    assert [e["data"]["team"] for e in d.payloads("events", "hand_forfeited")] == ["SN", "EW"]
    assert d.payloads("events", "levels_changed")[-1]["data"] == {"levels": {"SN": "3", "EW": "3"}, "dealer": "N"}


def test_an_unsure_read_pauses_until_confirmed():
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    d.send("observed", {"seat": "S", "cards": ["BJ"], "confidence": 0.5})
    assert d.table.flags and d.table.state(d.at)["paused"] and d.table.judge is None
    d.send("observed", {"seat": "E", "cards": ["SA"], "confidence": 0.99})
    assert d.kinds()[-1] == "play_waits" and d.table.judge is None  # nothing moves while a flag is open
    d.send("board/in", {"seat": "S", "button": "confirm"})
    assert not d.table.flags and d.table.judge.tricks[0].plays == (("S", Cards.parse("BJ")), ("E", Cards.parse("SA")))


def test_out_of_turn_is_a_flagged_violation_not_a_play():
    """000 第十七条: 越序出牌一旦成立，一次扣罚20分 — raised as a flag for the referee."""
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    d.send("observed", {"seat": "S", "cards": ["S3"], "confidence": 0.99})
    d.send("observed", {"seat": "N", "cards": ["S4"], "confidence": 0.99})
    v = [o.payload for o in d.outputs if o.name == "violations"][-1]
    assert (v["seat"], v["kind"], v["status"]) == ("N", "out_of_turn", "flagged")
    assert len(d.table.judge.tricks[0].plays) == 1
    d.send("commands", {"command": "confirm", "flag": v["flag"]})
    assert [o.payload["status"] for o in d.outputs if o.name == "violations"][-1] == "confirmed"
    assert d.table.penalties[-1].kind == "out_of_turn"


def test_replaying_the_inputs_gives_the_same_state():
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    d.play_hand(random.Random(9))
    again = new_table("t1", "classic-3deck")
    for name, payload, at, seq in d.log:
        again, _ = again.apply(name, payload, at, seq)
    assert again.state(d.at) == d.table.state(d.at)


def test_bad_inputs_change_nothing():
    d = Driver("zhongkai-2010")
    d.start()
    before = d.table
    d.send("board/in", {"seat": "S", "button": "pass"})
    d.send("commands", {"command": "confirm", "flag": "nope"})
    d.send("observed", {"seat": "W", "cards": ["S9"], "confidence": 0.99})  # no declaration (000 第十五条: 暴露张 在打牌过程中)
    assert d.kinds()[-3:] == ["rejected"] * 3
    assert d.table.state(d.at) | {"seq": 0, "at": 0} == before.state(d.at) | {"seq": 0, "at": 0}


def test_a_wrong_first_lead_changes_nothing_but_the_flag():
    d = Driver()
    d.start()
    d.declare_and_take_kitty("S", "H")
    d.send("observed", {"seat": "E", "cards": ["S3"], "confidence": 0.99})
    assert (d.table.phase, d.table.judge) == ("kitty", None)
    assert [f.kind for f in d.table.flags] == ["out_of_turn"]


def test_the_kitty_is_taken_only_after_the_draw():
    """000 第十条 2: 当盘第一位抓牌者示意抓牌完毕后，庄家应停顿5秒钟才拿底牌."""
    d = Driver()
    d.start()
    d.send("observed", {"seat": "S", "cards": ["H2"], "confidence": 0.99})
    d.send("board/in", {"seat": "S", "button": "ready"})
    assert d.kinds()[-1] == "rejected" and d.table.phase == "dealing"
    d.send("board/in", {"seat": "E", "button": "declare"})
    d.send("board/in", {"seat": "S", "button": "ready"}, dt=2.0)  # too early: a warning with the seconds
    early = [o.payload for o in d.outputs if o.name == "violations"][-1]
    assert (early["kind"], early["evidence"]["seconds"], early["penalty"]["warning"]) == ("kitty_window", 2.0, True)
    assert d.table.board(d.at)["seats"]["S"]["message"] == "拿底过早 警告"  # took it too early, not a timeout
    assert d.table.phase == "kitty"
    assert early["rule"]["article"].startswith("八 反揭原则〈4〉: 当庄家示意摸牌结束，应停顿5秒钟才能拿底牌")  # 001's own words


@pytest.mark.parametrize("book", ["shaoguan-2023", "shaoguan-2023-nokitty"])
def test_a_book_whose_seed_sets_no_wait_warns_no_early_kitty(book):
    """Seed 003 sets no wait between the draw and the kitty (its draw rule is 4: 摸牌时，当摸到还剩余8张底牌时，庄家应予以
    提示; 不留底牌打法 1: 庄家不留底牌): a dealer who takes it at once breaks no rule, and an overturn still counts until
    then. A warning there was a penalty the seed does not have."""
    d = Driver(book)
    d.start()
    d.send("board/in", {"seat": "E", "button": "declare"})
    d.send("board/in", {"seat": "S", "button": "ready"}, dt=0.5)
    assert d.table.phase == "kitty" and not [o for o in d.outputs if o.name == "violations"]
    assert "message" not in d.table.board(d.at)["seats"]["S"]


def test_cards_that_cannot_be_a_play_are_exposed_not_out_of_turn():
    """000 第十五条 暴露张 (一次扣罚20分): a seat not on turn shows cards that cannot be its next play
    (the wrong count), or the seat on turn shows the wrong count: flagged, with the book's penalty."""
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    d.send("observed", {"seat": "S", "cards": ["S3", "S3"], "confidence": 0.99})
    d.send("observed", {"seat": "N", "cards": ["S4"], "confidence": 0.99})  # not on turn, and one card to a pair
    v = [o.payload for o in d.outputs if o.name == "violations"][-1]
    assert (v["seat"], v["kind"], v["status"], v["penalty"]) == ("N", "exposed_card", "flagged", {"points": 20})
    assert d.table.board(d.at)["seats"]["N"] == {"clock": None, "on_turn": False, "cards": 39, "light": "amber",
                                                 "message": "暴露张 罚20分 待裁判确认"}
    d.send("commands", {"command": "dismiss", "flag": v["flag"]})
    assert "message" not in d.table.board(d.at)["seats"]["N"]
    d.send("observed", {"seat": "E", "cards": ["S5", "S6", "S7"], "confidence": 0.99})  # on turn, wrong count
    v = [o.payload for o in d.outputs if o.name == "violations"][-1]
    assert (v["seat"], v["kind"], v["status"]) == ("E", "exposed_card", "flagged")
    d.send("commands", {"command": "correct", "flag": v["flag"], "cards": ["S5", "S6"]})  # the referee corrects the read
    assert d.table.judge.tricks[0].plays[1] == ("E", Cards.parse("S5 S6"))


def test_a_correction_into_more_copies_than_the_decks_hold_is_refused_and_the_flag_stays():
    """000 第二条 (三副牌): a correction of four ♠5 was taken (and asked as a throw); no seat holds more copies of a
    card than the decks have: refused in words (cards.too_many), nothing changed, the flag still open."""
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    d.send("observed", {"seat": "S", "cards": ["S3", "S3"], "confidence": 0.99})
    d.send("observed", {"seat": "E", "cards": ["S5", "S6", "S7"], "confidence": 0.99})  # on turn, wrong count
    v = [o.payload for o in d.outputs if o.name == "violations"][-1]
    before = d.table
    d.send("commands", {"command": "correct", "flag": v["flag"], "cards": ["S5"] * 4})
    rejected = [o.payload for o in d.outputs if o.name == "events"][-1]
    assert rejected["kind"] == "rejected" and rejected["data"]["why"]["key"] == "cards.too_many", rejected
    assert d.table.flags == before.flags and d.table.judge.tricks[0].plays == before.judge.tricks[0].plays
    d.send("commands", {"command": "correct", "flag": v["flag"], "cards": ["S5", "S6"]})
    assert d.table.judge.tricks[0].plays[1] == ("E", Cards.parse("S5 S6")) and not d.table.flags


def test_a_violation_shows_on_the_seat_display_until_it_plays_again():
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    d.play_hand(random.Random(5), slow={("E", 1)})
    # E overran trick 1: its display said so (red, the words) until E played again in trick 2.
    boards, d2 = [], Driver()
    d2.start()
    d2.declare_and_take_kitty()
    tricks = []
    for name, payload, at, seq in d.log[len(d2.log):]:
        d2.table, _ = d2.table.apply(name, payload, at, seq)
        boards.append(d2.table.board(at)["seats"]["E"])
        tricks.append(d2.table._trick_no())
        if tricks[-1] > 3:
            break
    shown = [b for b in boards if b.get("message") == "超时 警告"]
    assert shown and all(b["light"] == "red" for b in shown)
    assert "message" not in boards[-1]


def test_a_trick_picked_up_before_every_seat_played_is_flagged():
    """牌一经触桌，不得收回: the camera sees a seat's cards leave the table before the trick is complete."""
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    d.send("observed", {"seat": "S", "cards": ["S3", "S3"], "confidence": 0.99})
    d.send("observed", {"seat": "E", "cards": ["S5", "S6"], "confidence": 0.99})
    d.send("removed", {"seat": "E", "cards": ["SA"], "confidence": 0.99})  # never on the table
    assert d.kinds()[-1] == "rejected" and not d.table.flags
    assert not d.send("removed", {"seat": "E", "cards": ["SK"], "confidence": 0.6})  # unsure, never on the table
    assert not d.table.flags
    d.send("removed", {"seat": "S", "cards": ["S3", "S3"], "confidence": 0.97})
    v = [o.payload for o in d.outputs if o.name == "violations"][-1]
    assert (v["seat"], v["kind"], v["status"]) == ("S", "early_pickup", "flagged")
    d.send("commands", {"command": "dismiss", "flag": v["flag"]})
    for seat, cards in (("N", ["S7", "S8"]), ("W", ["S9", "ST"])):
        d.send("observed", {"seat": seat, "cards": cards, "confidence": 0.99})
    before = len(d.outputs)
    d.send("removed", {"seat": "S", "cards": ["S3", "S3"], "confidence": 0.97})  # the trick is complete: normal
    assert d.kinds()[-1] == "picked_up" and len(d.outputs) == before + 1 and not d.table.flags


def test_an_unsure_early_pickup_is_a_flag_for_a_person_never_a_violation():
    """003 13: 比赛开始后，牌一经触桌，不得收回(跟错牌除外). An unsure read of cards taken back before the trick is complete
    may be a play read or laid wrongly: a flag (``unsure_pickup``, no violation) that pauses the table; dismissed,
    nothing changes; confirmed, the pickup is judged as a sure read. An unsure read of a trick cleared is no flag."""
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    d.send("observed", {"seat": "S", "cards": ["S3", "S3"], "confidence": 0.99})
    d.send("observed", {"seat": "E", "cards": ["S5", "S6"], "confidence": 0.99})
    before = d.table
    d.send("removed", {"seat": "E", "cards": ["S5", "S6"], "confidence": 0.6})
    [flag] = d.table.flags
    assert (flag.seat, flag.kind, sorted(flag.cards), flag.violation) == ("E", "unsure_pickup", ["S5", "S6"], None)
    assert d.table.on_hold and not d.payloads("violations", "early_pickup")
    why = d.payloads("events", "flag_raised")[-1]["data"]["why"]
    assert (why["key"], why["values"]["seat"], why["values"]["confidence"]) == ("table.unsure_pickup", "E", 0.6)
    assert Sentences("zh").flag(flag.json()).startswith("东 似乎在一圈未完时收回了 ♠6 ♠5，摄像机没有把握")
    d.send("commands", {"command": "correct", "flag": flag.flag, "cards": ["S5"]})  # a pickup is no play to correct
    assert d.kinds()[-1] == "rejected" and d.table.flags == (flag,)
    d.send("commands", {"command": "dismiss", "flag": flag.flag})
    assert not d.table.flags and d.table.cards_left() == before.cards_left()
    assert d.table._current_trick() == before._current_trick() and not d.payloads("violations", "early_pickup")
    d.send("removed", {"seat": "E", "cards": ["S5", "S6"], "confidence": 0.6})  # read unsure again: confirmed
    d.send("board/in", {"seat": "E", "button": "confirm"})  # the seat's own button answers it, as for an unsure play
    [early] = d.table.flags
    assert (early.kind, early.seat, early.violation["status"]) == ("early_pickup", "E", "flagged")
    d.send("commands", {"command": "dismiss", "flag": early.flag})
    for seat, cards in (("N", ["S7", "S8"]), ("W", ["S9", "ST"])):
        d.send("observed", {"seat": seat, "cards": cards, "confidence": 0.99})
    before = len(d.outputs)
    d.send("removed", {"seat": "S", "cards": ["S3", "S3"], "confidence": 0.6})  # the trick is complete: nothing to tell
    assert d.outputs[before:] == [] and not d.table.flags


def test_cards_shown_to_declare_and_taken_back_are_no_refused_pickup():
    """七, 八 (揭牌、反揭): a level card shown to declare goes back to the hand; the camera's removal of it was refused in
    words on the public timeline (面前没有摊开的 ♠2) seconds after the declaration it saw."""
    d = Driver()
    d.start()
    d.send("observed", {"seat": "E", "cards": ["S2"], "confidence": 0.99})  # E declares spades
    assert d.kinds()[-1] != "rejected"
    before = len(d.outputs)
    d.send("removed", {"seat": "E", "cards": ["S2"], "confidence": 0.99})
    assert d.outputs[before:] == [] and d.table.phase == "dealing"


def test_a_pickup_seen_after_the_next_lead_is_the_cleared_trick():
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    for seat, cards in (("S", ["S3", "S3"]), ("E", ["S5", "S6"]), ("N", ["S7", "S8"]), ("W", ["S9", "ST"])):
        d.send("observed", {"seat": seat, "cards": cards, "confidence": 0.99})
    leader = d.table.turn()
    d.send("observed", {"seat": leader, "cards": ["DA"], "confidence": 0.99})  # the next lead, seen first
    before = len(d.outputs)
    d.send("removed", {"seat": "E", "cards": ["S5", "S6"], "confidence": 0.97})
    assert [o.payload["kind"] for o in d.outputs[before:]] == ["picked_up"] and not d.table.flags
    d.send("removed", {"seat": leader, "cards": ["DA"], "confidence": 0.97})  # the lead itself: early
    assert d.table.flags[-1].kind == "early_pickup"

# -- unsure reads are never evidence ------------------------------------------------------------------------------
# A read the camera is unsure of never becomes evidence: an unsure read that would prove a revoke (藏张) costs nothing
# until a person confirms it, and every penalty of a hand comes from sure or confirmed reads only. The camera calls a
# read sure at the very number the table accepts (``vision.sanity.SURE`` and ``CONFIDENT``).


def _violations(d):
    return [o.payload for o in d.outputs if o.name == "violations"]


def _revoke_setup(d):
    """Trick 1: S leads SA, E follows D3 (no spade shown), N and W follow spades; S leads trick 2."""
    assert d.table.game.hand_level() not in "3459A" and d.table.trump == "H"
    for seat, card in (("S", "SA"), ("E", "D3"), ("N", "S4"), ("W", "S5"), ("S", "C4")):
        d.send("observed", {"seat": seat, "cards": [card], "confidence": 0.99})
    assert not _violations(d)


def test_an_unsure_read_that_would_prove_a_revoke_costs_nothing():
    """000 第十八条 藏张: E's spade in trick 2 would prove that E held one when it followed spades with a diamond.
    Read unsure, it is flagged and proves nothing; the referee's correction (a diamond) leaves no revoke."""
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    _revoke_setup(d)
    out = d.send("observed", {"seat": "E", "cards": ["S9"], "confidence": 0.6})
    assert [o.payload["kind"] for o in out if o.name == "events"] == ["flag_raised"]
    assert not _violations(d) and not d.table.penalties and len(d.table.judge.tricks[-1].plays) == 1
    flag = d.table.flags[0]
    assert flag.kind == "unsure"
    d.send("commands", {"command": "correct", "flag": flag.flag, "cards": ["D9"]})
    assert not d.table.flags and d.table.judge.tricks[-1].plays[-1] == ("E", Cards.parse("D9"))
    assert not _violations(d) and not d.table.judge.rulings


def test_the_same_read_confirmed_by_a_person_proves_the_revoke():
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    _revoke_setup(d)
    d.send("observed", {"seat": "E", "cards": ["S9"], "confidence": 0.6})
    assert not _violations(d)
    d.send("board/in", {"seat": "E", "button": "confirm"})
    revokes = [v for v in _violations(d) if v["kind"] == "revoke"]
    assert [(v["seat"], v["status"], v["evidence"]["trick"]) for v in revokes] == [("E", "confirmed", 1)]


def test_every_penalty_comes_from_sure_or_confirmed_reads():
    """Whole hands with revokes thrown in and a fifth of the reads unsure: an unsure read never makes a play, a
    ruling or a violation; each flag is then confirmed or corrected by a person, and only that makes the play."""
    rng = random.Random(11)
    d = Driver()
    d.start()
    d.declare_and_take_kitty()
    steps = []
    t = d.table
    trumps = Trumps(t.rules, t.game.hand_level(), t.trump)
    hands, _ = deal(t.rules.deal.decks, t.rules.deal.kitty, rng)
    while any(hands.values()):
        leader = d.table.turn()
        plays = [(leader, random_lead(trumps, hands[leader], rng))]
        seat = leader
        for _ in range(3):
            seat = next_seat(seat)
            follow = legal_follow(trumps, hands[seat], plays[0][1], rng)
            other = hands[seat] - follow
            if rng.random() < 0.15 and len(other) >= len(follow):  # a revoke, at times: any cards of the same count
                follow = Cards(list(other)[: len(follow)])
            plays.append((seat, follow))
        for seat, cards in plays:
            hands[seat] = hands[seat] - cards
            unsure = rng.random() < 0.2
            payload = {"seat": seat, "cards": cards.names(), "confidence": 0.55 if unsure else 0.98}
            out = d.send("observed", payload)
            steps.append((payload, out))
            if unsure:
                assert not [o for o in out if o.name == "violations"]
                assert not [o for o in out if o.payload.get("kind") == "play_accepted"]
                flag = d.table.flags[-1]
                if rng.random() < 0.5:
                    d.send("board/in", {"seat": seat, "button": "confirm"})
                else:
                    d.send("commands", {"command": "correct", "flag": flag.flag, "cards": cards.names()})
            while d.table.flags:  # anything else flagged is the referee's to settle
                d.send("commands", {"command": "dismiss", "flag": d.table.flags[0].flag})
    revokes = sum(v["kind"] == "revoke" for v in _violations(d))
    assert revokes >= 1
    for payload, out in steps:  # every camera read: only a sure one makes a play or a violation by itself
        if any(o.name == "violations" or o.payload.get("kind") == "play_accepted" for o in out):
            assert payload["confidence"] >= CONFIDENT, payload


def test_the_camera_calls_sure_what_the_table_accepts():
    assert SURE == CONFIDENT


def test_a_revoking_ruff_takes_the_lead_but_not_the_points_shaoguan():
    """003 (留底牌打法) 17: 在比赛过程中或该盘牌结束后发现对方没有按照规则出牌……按20分/张进行扣分，并且出错的牌只能跟出，
    不能作大牌计. E ruffs S's SK with H3 while holding S3 (led in trick 2, which proves the revoke): E took the
    trick at the table and led the next, but its 15 points are the dealer's, as SK is the best other play."""
    rng = random.Random(5)
    d = Driver("shaoguan-2023")
    d.start()
    d.declare_and_take_kitty("S", "H")
    kitty = Cards.parse("D2 D3 D4 D6 D7 D8 D9 C3")  # no points: nothing is captured
    trumps, hands = _stacked(d, {"S": "SK S6", "E": "H3 S3", "N": "S4 S8", "W": "S5 S9"}, kitty, rng)
    for trick in (("S", "SK"), ("E", "H3"), ("N", "S4"), ("W", "S5")), (("E", "S3"), ("N", "S8"), ("W", "S9"), ("S", "S6")):
        for seat, cards in trick:
            d.play(seat, Cards.parse(cards), hands)
    revokes = [v for v in _violations(d) if v["kind"] == "revoke"]
    assert [(v["seat"], v["evidence"]["trick"]) for v in revokes] == [("E", 1)]
    assert d.table.judge.defender_points() == 0  # the defenders' score on the table leaves trick 1 out
    d.play_out(trumps, hands, rng)
    d.send("observed", {"seat": "S", "cards": kitty.names(), "confidence": 0.99})
    won = [p["data"] for p in d.payloads("events", "trick_won")]
    assert (won[0]["trick"], won[0]["seat"], won[0]["points"]) == (1, "E", 15)
    scored = d.payloads("events", "hand_scored")[0]["data"]
    assert scored["defender_points"] == sum(w["points"] for w in won[1:] if w["seat"] in "EW")
    moved = [n["values"] for n in scored["notes"] if n["key"] == "tractor.note_cannot_win"]
    assert moved == [{"trick": 1, "seat": "E", "other": "S", "n": 15}]


def _stacked(d, need, kitty, rng):
    """The hand's trumps and the four hands, dealt at random around the cards each seat must hold and the kitty."""
    t = d.table
    deck = Decks(t.rules.deal.decks).full() - kitty
    for cards in need.values():
        deck = deck - Cards.parse(cards)
    rest = list(deck)
    rng.shuffle(rest)
    hands, at = {}, 0
    for s in SEATS:
        n = t.rules.deal.hand_size - len(Cards.parse(need.get(s, "")))
        hands[s], at = Cards.parse(need.get(s, "")) + Cards(rest[at : at + n]), at + n
    return Trumps(t.rules, t.game.hand_level(), t.trump), hands


def _kept_back(rulebook, buried, kept):
    """A whole hand dealt by S with ``buried`` + ``kept`` as the kitty; S shows only ``buried`` at the end."""
    rng = random.Random(8)
    d = Driver(rulebook)
    d.start()
    d.declare_and_take_kitty("S", "H")
    trumps, hands = _stacked(d, {}, Cards.parse(buried) + Cards.parse(kept), rng)
    d.play_out(trumps, hands, rng)
    d.send("observed", {"seat": "S", "cards": buried.split(), "confidence": 0.99})
    return d


def test_a_short_kitty_costs_the_dealer_160_and_the_point_cards_it_kept_shaoguan():
    """003 (留底牌打法) 12(4): 若打牌时发现庄家多埋或少埋底牌，则对方在所得分数的基础上加160分。……底牌少牌时则庄家丢弃
    少埋的张数，但若丢弃的是分牌，所丢弃分数再加到对方所得分数. S buried 7 cards and kept SK: fewer than a kitty while
    8 are unseen, they may as well be cards S held (the kitty then SK): a person says they are the kitty. The hand is
    scored, not refused; the one card of the decks never seen is the one S discards, its 10 points to the defenders."""
    d = _kept_back("shaoguan-2023", "D2 D3 D4 D6 D7 D8 D9", "SK")
    (flag,) = d.table.flags
    assert (flag.kind, flag.why.key, flag.cards) == ("wrong_card_count", "tractor.kitty_short_or_held", ("D9", "D8", "D7", "D6", "D4", "D3", "D2"))
    d.send("commands", {"command": "dismiss", "flag": flag.flag})
    assert "rejected" not in d.kinds() and d.table.phase in ("dealing", "round_over")  # scored (160 may end the game)
    misburied = [v for v in _violations(d) if v["kind"] == "misburied_kitty"]
    assert [(v["seat"], v["evidence"]["cards"], v["evidence"]["why"]["key"]) for v in misburied] == [
        ("S", ["SK"], "tractor.kitty_discarded")]
    scored = d.payloads("events", "hand_scored")[0]["data"]
    assert scored["settled_points"] == scored["defender_points"] + 160 + 10
    assert any(n["key"] == "tractor.note_points" and n["values"]["n"] == 170 for n in scored["notes"])


def _misburied(moved):
    """A hand of 003 dealt by S, its kitty D2 D3 D4 D6 D7 D8 DK SK, played out with ``pass`` (confirmed) for a seat out
    of cards: ``moved`` 1, S buried one card of its own too (多埋); -1, it kept SK (少埋). The cards it turns up, and
    those it holds at the end."""
    rng = random.Random(8)
    d = Driver("shaoguan-2023")
    d.start()
    d.declare_and_take_kitty("S", "H")
    kitty = Cards.parse("D2 D3 D4 D6 D7 D8 DK SK")
    trumps, hands = _stacked(d, {}, kitty, rng)
    moved_cards = Cards(list(hands["S"])[:1]) if moved > 0 else Cards.parse("SK")
    hands["S"], kitty = (hands["S"] - moved_cards, kitty + moved_cards) if moved > 0 else (hands["S"] + moved_cards, kitty - moved_cards)
    while d.table.phase in ("kitty", "playing"):
        seat, j = d.table.turn(), d.table.judge
        trick = j.tricks[-1] if j and j.tricks and not j.tricks[-1].complete else None
        if not hands[seat]:
            d.send("board/in", {"seat": seat, "button": "pass"})
            d.send("commands", {"command": "confirm", "flag": d.table.flags[-1].flag})
            continue
        before = [c for _, c in trick.plays[1:]] if trick else []
        d.play(seat, legal_follow(trumps, hands[seat], trick.plays[0][1], rng, before) if trick else random_lead(trumps, hands[seat], rng), hands)
    assert d.table.phase == "hand_over" and not d.table.flags
    return d, kitty, hands["S"]


def _charged_for_kitty(d):
    """The hand's score, asserting the dealer's wrong count was said again as its misburied kitty, costing nothing."""
    (scored,) = d.payloads("events", "hand_scored")
    wrong = [v for v in _violations(d) if v["kind"] == "wrong_card_count" and v["status"] == "confirmed"]
    assert (wrong[-1]["seat"], wrong[-1]["penalty"], wrong[-1]["evidence"]["why"]["key"]) == ("S", {}, "tractor.in_misburied")
    assert [n["values"]["kind"] for n in scored["data"]["notes"] if n["key"] == "tractor.note_points"] == ["misburied_kitty"]
    return scored["data"]


def test_an_overburied_kitty_turned_up_scores_the_hand_at_once_and_costs_160_only_shaoguan():
    """003 (留底牌打法) 12(4): 若打牌时发现庄家多埋或少埋底牌，则对方在所得分数的基础上加160分。若多牌时庄家从底牌里抽回
    多埋的张数. S buried 9 cards and held 51: out of cards a trick early, it presses ``pass`` (confirmed), then turns up
    its 9 cards. Every card of the decks has been seen, so the hand is scored then (it waited for a card held back that
    nobody holds, the kitty counted as the book's 8, until the dealer's ``ready``); and the 少牌 is the kitty's fault,
    priced as it, 160 (it cost 20 more, as a 12(2) wrong count)."""
    d, kitty, held = _misburied(1)
    assert not held
    d.send("observed", {"seat": "S", "cards": kitty.names(), "confidence": 0.99})
    assert [v["evidence"]["why"]["key"] for v in _violations(d) if v["kind"] == "misburied_kitty"] == ["tractor.kitty_misburied"]
    scored = _charged_for_kitty(d)
    assert scored["settled_points"] == scored["defender_points"] + 160


def test_a_card_kept_out_of_the_kitty_shown_first_is_asked_and_priced_once_shaoguan():
    """003 (留底牌打法) 12(4): 底牌少牌时则庄家丢弃少埋的张数，但若丢弃的是分牌，所丢弃分数再加到对方所得分数. S kept SK
    out of its kitty: one card is left in its hand at the end, shown first, alone. It was turned up as a kitty of one
    card, and the real kitty's 7 (DK among them) priced as the cards S discarded. Now a person is asked (a short kitty,
    or a card S held); held back, the 7 cards shown next are the kitty, and the held card's points count once with
    the 160, no 20 for a wrong count besides."""
    d, kitty, held = _misburied(-1)
    assert len(held) == 1 and held.points != 10
    d.send("observed", {"seat": "S", "cards": held.names(), "confidence": 0.99})
    (flag,) = d.table.flags
    assert (flag.kind, flag.why.key) == ("wrong_card_count", "tractor.kitty_short_or_held")
    d.send("commands", {"command": "confirm", "flag": flag.flag})
    d.send("observed", {"seat": "S", "cards": kitty.names(), "confidence": 0.99})
    assert [v["evidence"]["why"]["key"] for v in _violations(d) if v["kind"] == "misburied_kitty"] == ["tractor.kitty_misburied"]
    scored = _charged_for_kitty(d)
    assert scored["settled_points"] == scored["defender_points"] + 160 + held.points


def test_a_kitty_of_another_size_is_refused_in_words_where_the_book_has_no_rule_for_it():
    """001 (classic-3deck) has no 多埋/少埋底牌 penalty: a 7-card kitty shown at the end is refused
    (tractor.kitty_size) and the hand waits for the kitty the book deals."""
    d = _kept_back("classic-3deck", "D2 D3 D4 D6 D7", "SK")
    rejected = d.payloads("events", "rejected")[-1]["data"]
    assert rejected["why"]["key"] == "tractor.kitty_size" and d.table.phase == "hand_over"
    assert not [v for v in _violations(d) if v["kind"] == "misburied_kitty"]


def test_a_play_of_more_cards_than_the_seat_holds_is_flagged_not_ruled():
    """A read that makes a seat show more cards than a hand holds contradicts the game state: a misread pair, a
    trick the camera sent again, or a real 多牌. It was ruled ``wrong_card_count`` at once, with the book's penalty;
    now a person says which: dismissed it is nothing, confirmed it is played and ruled (the hand judge's
    ``wrong_card_count``)."""
    from dataclasses import replace

    for how in ("dismiss", "confirm"):
        d = Driver()
        d.start()
        d.declare_and_take_kitty()
        for seat, card in (("S", "SA"), ("E", "S4"), ("N", "S5"), ("W", "S6")):
            d.send("observed", {"seat": seat, "cards": [card], "confidence": 0.99})
        size, j = d.table.rules.deal.hand_size, d.table.judge
        d.table = d.table._with(judge=replace(j, shown=tuple((s, size - 1 if s == "S" else n) for s, n in j.shown)))
        d.send("observed", {"seat": "S", "cards": ["C3", "C3"], "confidence": 0.99})  # one card more than S holds
        (flag,) = d.table.state(d.at)["flags"]
        assert flag["kind"] == "too_many" and not d.payloads("violations", "wrong_card_count")
        d.send("commands", {"command": how, "flag": flag["flag"]})
        ruled = d.payloads("violations", "wrong_card_count")
        if how == "dismiss":
            assert not ruled and d.table.turn() == "S" and not d.table.state(d.at)["flags"]
        else:
            assert [(v["seat"], v["status"]) for v in ruled] == [("S", "confirmed")]
            assert d.payloads("events", "play_accepted")[-1]["data"]["cards"] == ["C3", "C3"]


def test_four_identical_level_cards_in_a_three_deck_game_are_a_misread_for_a_person():
    """000 第四条: 采用相同颜色的3副扑克 -- no hand shows four H2: the read is flagged (never a declaration that would
    block a real overturn with three), and the referee corrects it into what was shown."""
    d = Driver("zhongkai-2010")
    d.start()
    d.send("observed", {"seat": "S", "cards": ["H2"] * 4, "confidence": 0.99})
    flag = d.table.flags[-1]
    assert (flag.kind, flag.seat, d.table.declaring.standing) == ("impossible", "S", None)
    d.send("commands", {"command": "correct", "flag": flag.flag, "cards": ["H2", "H2"]})
    assert not d.table.flags and (d.table.declaring.standing.seat, d.table.declaring.standing.count) == ("S", 2)
    d.send("observed", {"seat": "E", "cards": ["S2"] * 3, "confidence": 0.99})
    assert d.table.declaring.standing.seat == "E"
    d.send("observed", {"seat": "E", "cards": ["S2"], "confidence": 0.99})  # 加固 past the decks: three shown already
    assert d.table.flags[-1].kind == "impossible" and d.table.declaring.standing.count == 3
    first = Driver("classic-3deck")  # 001 八: an overturn in the same suit (the first hand) counts the cards still shown
    first.start()
    first.send("observed", {"seat": "S", "cards": ["H2", "H2"], "confidence": 0.99})
    first.send("observed", {"seat": "E", "cards": ["H2"] * 3, "confidence": 0.99})
    assert first.table.flags[-1].kind == "impossible" and first.table.declaring.standing.seat == "S"


def test_a_replayed_first_hand_is_still_the_first_for_overturning_in_the_same_suit():
    """001 八: 第一副牌打2时，还可抢庄，同一门花色也可以; 001 十八: 如双方均错，则重新该局比赛 -- the first hand played
    again has no dealer yet, so an overturn may keep the suit, as in the first. What was ruled besides the offences
    that void the hand still counts: a late side's 首盘扣20分 (001 二) is taken in the first hand played out."""
    d = Driver("classic-3deck")
    d.start(late={"W": 7 * 60})
    d.declare_and_take_kitty("S", "H")
    late = d.table.penalties
    d.table = d.table._with(penalties=late + (Penalty("revoke", "E"), Penalty("revoke", "S")))  # both sides revoked
    d.play_hand(random.Random(7))
    assert d.payloads("events", "hand_scored")[-1]["data"]["replay"] is True
    assert d.table.hand_no == 2 and d.table.game.dealer is None and d.table.penalties == late
    d.send("observed", {"seat": "S", "cards": ["H2"], "confidence": 0.99})
    d.send("observed", {"seat": "E", "cards": ["H2", "H2"], "confidence": 0.99})
    assert d.kinds()[-1] == "declared" and d.table.declaring.standing.seat == "E"
    d.send("board/in", {"seat": "N", "button": "declare"})
    d.send("board/in", {"seat": "E", "button": "ready"}, dt=6.0)
    d.play_hand(random.Random(8))
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert scored["settled_points"] == scored["defender_points"] + 20  # W, on the dealer's side now, pays the defenders


def test_a_play_out_of_turn_costs_per_card_as_published_shaoguan_nokitty():
    """003 不留底牌打法 13: 故意抢先出牌……对手方按20分/张加分或已方按20分/张扣分 -- the flag says what confirming it
    costs: two cards, 40 points, as the hand is then settled."""
    d = Driver("shaoguan-2023-nokitty")
    d.start()
    d.declare_and_take_kitty("S", "H")
    d.send("observed", {"seat": "S", "cards": ["S4", "S4"], "confidence": 0.99})
    d.send("observed", {"seat": "N", "cards": ["S5", "S5"], "confidence": 0.99})
    v = [o.payload for o in d.outputs if o.name == "violations"][-1]
    assert (v["kind"], v["penalty"]["points"]) == ("out_of_turn", 40)
    d.send("commands", {"command": "confirm", "flag": v["flag"]})
    assert d.table.penalties[-1] == Penalty("out_of_turn", "N", 2)


def test_the_referee_rules_what_no_camera_sees_and_the_hand_is_settled_with_it():
    """003 18: 不能翻查其余三方之前的牌，如在警告后，仍乱查其他方的牌，一次罚40分 -- the referee's foul from the
    console (the book's [fouls] kinds), confirmed at once citing the article, costs its [penalties] entry when the
    hand is settled; a kind the book does not have, or one outside a hand, is refused in words and changes nothing."""
    d = Driver("shaoguan-2023")
    d.start()
    before = d.table
    d.send("commands", {"command": "foul", "seat": "N", "kind": "talking"})
    assert d.kinds()[-1] == "rejected" and "peeking" in d.payloads("events", "rejected")[-1]["data"]["why"]["values"]["kinds"]
    d.declare_and_take_kitty("S", "H")
    d.send("commands", {"command": "foul", "seat": "N", "kind": "peeking"})
    v = [o.payload for o in d.outputs if o.name == "violations"][-1]
    assert (v["seat"], v["kind"], v["status"], v["penalty"]) == ("N", "peeking", "confirmed", {"points": 40})
    assert v["rule"]["article"].startswith("18：")
    d.play_hand(random.Random(5))
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert scored["settled_points"] == scored["defender_points"] + 40  # the dealer's side (S, N) pays the defenders
    assert before.penalties == () and d.table.penalties == ()
    idle = Driver("classic-3deck")
    idle.send("commands", {"command": "foul", "seat": "E", "kind": "signalling"})
    assert idle.payloads("events", "rejected")[-1]["data"]["why"]["key"] == "table.no_game"


def test_signalling_by_the_dealers_side_says_it_steps_down_and_by_the_defenders_a_level():
    """001 十〈5〉: 不得以不正当手段来传递非法信息，一旦发现，轻则该轮自动下台或升级 (as 十八's 判自动下台或别人自动升级):
    the violation says what it costs the side that offends: the dealer's side only the deal (下台), the defenders a
    level to the dealer's side; the hand settled so (五: 防家上台 at 0 levels, unless their points give more)."""
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    for seat in ("N", "E"):
        d.send("commands", {"command": "foul", "seat": seat, "kind": "signalling"})
    said = [(v["seat"], v["penalty"]) for v in (o.payload for o in d.outputs if o.name == "violations")][-2:]
    assert said == [("N", {"deal": True}), ("E", {"levels": 1, "deal": True})]


def test_deliberate_delay_is_the_referees_to_record_and_costs_more_than_an_overrun():
    """001 二十三: 如超过，召裁判，第一次警告，以后每次扣20分，故意拖延时间，视情节，另由裁判重罚 -- no clock tells a
    deliberate delay from a slow play, so it is the referee's foul from the console; 重罚 is twice an overrun's 20
    points (decided), recorded again where the referee judges it heavier. Confirmed at once, settled with the hand."""
    d = Driver("classic-3deck")
    d.start()
    d.declare_and_take_kitty("S", "H")
    for _ in range(2):
        d.send("commands", {"command": "foul", "seat": "E", "kind": "deliberate_delay"})
    v = [o.payload for o in d.outputs if o.name == "violations"][-2:]
    assert [(x["seat"], x["kind"], x["status"], x["penalty"]) for x in v] == [("E", "deliberate_delay", "confirmed", {"points": 40})] * 2
    assert v[0]["rule"]["article"].startswith("二十三：") and "故意拖延时间，视情节，另由裁判重罚" in v[0]["rule"]["article"]
    d.play_hand(random.Random(5))
    scored = d.payloads("events", "hand_scored")[-1]["data"]
    assert scored["settled_points"] == scored["defender_points"] - 80  # the defenders (E, W) pay the dealer's side
