"""The play tracker on rendered frame sequences (a hand passing over, a slow fan, a cleared trick), and on
readings written by hand for the sanity flags."""

from __future__ import annotations

from dataclasses import replace

from referee.catalogue.sentences import Sentences
from referee.reasons import Reason
from vision.read import SeenCard, read_frame
from vision.tracker import Tracker, drain, for_game, step
from vision.train.synth.scene import Hand

from vision_frames import frame, model, play

FPS = 10


def run(states: list[tuple], tracker: Tracker | None = None, until: float | None = None):
    """Feed rendered frames at FPS: ``states`` is [(from_time, cards, hands[, missed])]; ``missed``: the reader
    finds no card and no seat busy on those frames (glare, a dark frame, a hand the mask missed), their pixels
    (``Reading.bare``) as rendered. Returns every play and the tracker (its removals not drained)."""
    tracker = tracker or Tracker(settle_s=0.8)
    cache: dict[int, object] = {}
    plays = []
    end = until if until is not None else states[-1][0] + 2.0
    n = 0
    while n / FPS <= end:
        at = n / FPS
        k = max(i for i, (t0, *_) in enumerate(states) if t0 <= at)
        if k not in cache:
            _, cards, hands, *missed = states[k]
            reading = read_frame(frame(cards, hands).image, model())
            cache[k] = replace(reading, cards=(), busy={}) if missed and missed[0] else reading
        reading = cache[k]
        tracker, out = step(tracker, list(reading.cards), reading.busy, at, reading.bare)
        plays += out
        n += 1
    return plays, tracker


S_PAIR = play("S", ["HQ", "HQ"], "row", 21)
HAND_OVER_S = (Hand((0.5, 1.2), (0.5, 0.74), 0.1, (120, 160, 210)),)


def test_a_hand_passing_over_a_play_does_not_emit_it_again():
    plays, _ = run([(0.0, [], ()), (0.5, S_PAIR, ()), (2.0, S_PAIR, HAND_OVER_S), (3.5, S_PAIR, ())])
    assert [(p.seat, p.cards) for p in plays] == [("S", ("HQ", "HQ"))]
    assert 0.5 <= plays[0].at < 0.5 + 0.2 and not plays[0].reasons  # dated when the cards came to rest


def test_a_hand_over_new_cards_delays_the_play():
    plays, _ = run([(0.0, [], ()), (0.5, S_PAIR, HAND_OVER_S), (2.5, S_PAIR, ())])
    assert [(p.seat, p.cards) for p in plays] == [("S", ("HQ", "HQ"))]
    assert 2.5 <= plays[0].at < 2.5 + 0.2  # when the hand left them, not before


def test_a_slow_fan_is_one_play():
    fan = play("E", ["C5", "C6", "C7", "C8"], "fan", 22)
    states = [(0.0, [], ())] + [(0.3 + 0.4 * i, fan[: i + 1], ()) for i in range(4)]
    plays, _ = run(states)
    assert [(p.seat, p.cards) for p in plays] == [("E", ("C5", "C6", "C7", "C8"))]


def test_a_cleared_trick_starts_the_next():
    trick = S_PAIR + play("E", ["H3", "H4"], "row", 23)
    again = play("S", ["HQ", "HQ"], "row", 24)  # the same cards (other decks) in the next trick
    plays, tracker = run([(0.0, S_PAIR, ()), (1.5, trick, ()), (3.0, [], ()), (4.5, again, ())])
    assert [(p.seat, p.cards) for p in plays] == [("S", ("HQ", "HQ")), ("E", ("H3", "H4")), ("S", ("HQ", "HQ"))]
    assert sorted(tracker.left) == ["H3", "H4", "HQ", "HQ"]


def test_cards_picked_up_are_removals_and_a_missed_corner_is_not():
    t = Tracker(settle_s=0.5)
    south, east = [seen("SA", "S")], [seen("H3", "E", at=(0.8, 0.5)), seen("H4", "E", at=(0.8, 0.55))]
    for at in (0.0, 0.6):
        t, _ = step(t, south, {}, at)
    for at in (1.0, 1.6):
        t, _ = step(t, south + east[:1], {}, at)  # E's second card unseen (a missed corner): no removal
    t, gone = drain(t)
    assert gone == ()
    for at in (2.0, 2.2, 2.6):
        t, _ = step(t, east, {"S": at < 2.5}, at, BARE_S)  # S's area empty, but an arm over it until 2.5
    t, gone = drain(t)
    assert gone == ()
    for at in (2.8, 3.0, 3.2):
        t, _ = step(t, east, {}, at, BARE_S)
    t, gone = drain(t)
    assert [(r.seat, r.cards, r.reasons) for r in gone] == [("S", ("SA",), ())]
    for at in (4.0, 4.2, 4.4, 4.6):
        t, _ = step(t, [], {}, at, {s: True for s in "SENW"})
    t, gone = drain(t)
    assert [(r.seat, r.cards, r.reasons) for r in gone] == [("E", ("H3", "H4"), ())] and t.lead_size is None
    assert sorted(t.left) == ["H3", "H4", "SA"]


BARE_S = {"S": True, "E": False, "N": True, "W": True}


def test_a_pickup_is_sure_only_when_frames_showed_the_table_bare_there():
    """A removal is an early pickup to the table (牌一经触桌，不得收回, 003 第13条). It is sure only when at least
    CLEAR_FRAMES frames, every frame of the settle time, showed the seat's zone bare; a camera that stalled (two
    frames) or frames that still show something there leave it flagged for a person."""
    def pickup(frames: list[tuple[float, dict | None]]):
        t = Tracker(settle_s=0.5)
        for at in (0.0, 0.6):
            t, _ = step(t, [seen("SA", "S")], {}, at)
        for at, bare in frames:
            t, _ = step(t, [], {}, at, bare)
        return drain(t)[1]

    assert pickup([(1.0, BARE_S), (1.2, BARE_S), (1.5, BARE_S)])[0].reasons == ()
    hidden = (Reason("vision.hidden", cards=("SA",)),)
    assert pickup([(1.0, BARE_S), (1.5, BARE_S)])[0].reasons == hidden  # two frames: a stalled camera
    assert pickup([(1.0, BARE_S), (1.2, {"S": False}), (1.5, BARE_S)])[0].reasons == hidden
    assert pickup([(1.0, None), (1.2, None), (1.5, None)])[0].reasons == hidden  # the reader cannot tell
    assert Sentences("zh").reason(hidden[0]).startswith("读不到 ♠A 了，但摄像机没有足够久地看到那里露出桌面")


def test_a_hand_taking_a_play_up_on_rendered_frames_is_a_sure_removal():
    _, tracker = run([(0.0, [], ()), (0.5, S_PAIR, ()), (2.0, S_PAIR, HAND_OVER_S), (2.5, [], HAND_OVER_S), (3.0, [], ())])
    assert [(r.seat, r.cards, r.reasons) for r in drain(tracker)[1]] == [("S", ("HQ", "HQ"), ())]


def test_a_read_that_vanished_or_a_hand_the_mask_missed_is_no_sure_removal():
    """Glare or a dark frame hides a play's indices for 1.5 s, or a hand lies over it that the busy mask missed: the
    reader reads nothing there, but the frames show card-white (or the hand), not the table. The removal is flagged
    for a person (a sure one was an early pickup, 牌一经触桌，不得收回, raised on a glare), and the cards read again
    are flagged too (read again where they were picked up, or after their trick looked taken), never a new sure
    play."""
    for hands in ((), HAND_OVER_S):
        plays, tracker = run([(0.0, [], ()), (0.5, S_PAIR, ()), (2.0, S_PAIR, hands, True), (3.5, S_PAIR, ())])
        tracker, gone = drain(tracker)
        assert [(r.seat, r.cards, r.reasons) for r in gone] == [
            ("S", ("HQ", "HQ"), (Reason("vision.hidden", cards=("HQ", "HQ")),))]
        assert [(p.seat, p.cards) for p in plays] == [("S", ("HQ", "HQ"))] * 2
        assert plays[1].confidence < 0.9 and plays[1].reasons


def test_a_card_laid_on_the_seats_own_card_is_a_new_play():
    """Climbing games: each seat plays again in the trick (掼蛋: 选手依次轮流压牌, 后一家打出的牌必须比前一家打出的牌
    大, 002 比赛规则), and a seat may drop its card onto its own earlier one. A card read where that card lay after a
    hand laid it there is new: another face is sent; the same face (decks of identical cards) is sent flagged, as
    it may be the same card moved. A hand passing over the seat leaves its card where it lay: nothing is sent."""
    first = play("S", ["SA"], "row", 41, spot=(0.5, 0.8))
    east = play("E", ["S2"], "row", 48)
    hand = (Hand((0.5, 1.2), (0.5, 0.78), 0.1, (120, 160, 210)),)
    for top, flagged in ((play("S", ["H9"], "row", 42, spot=(0.502, 0.801)), ()),
                         (play("S", ["SA"], "row", 47, spot=(0.506, 0.802)), (Reason("vision.on_top", card="SA",
                                                                                         under_card="SA"),))):
        plays, _ = run([(0.0, [], ()), (0.5, first, ()), (2.0, first + east, ()), (3.5, first + east, hand),
                        (4.0, first + east + top, hand), (4.5, first + east + top, ())], for_game("guandan", settle_s=0.8, decks=2))
        assert [(p.seat, p.cards) for p in plays] == [("S", ("SA",)), ("E", ("S2",)), ("S", (top[0].name,))]
        assert plays[2].reasons == flagged
    plays, _ = run([(0.0, [], ()), (0.5, first, ()), (2.0, first, hand), (2.5, first, ())])
    assert [(p.seat, p.cards) for p in plays] == [("S", ("SA",))]


def seen(name, seat, conf=0.99, at=(0.5, 0.8)):
    return SeenCard(name, conf, at, seat)


def test_a_tractor_card_a_hand_straightened_is_no_second_play():
    """A Tractor seat plays once a trick: its card nudged a few mm by a hand (straightened) is that card, not one laid on
    it (which only a climbing game's seat does)."""
    t, _ = step(for_game("tractor", settle_s=0.5), [], {}, 0.0)
    t, _ = step(t, [seen("SA", "S", 0.95)], {}, 1.0)
    t, (play,) = step(t, [seen("SA", "S", 0.95)], {}, 1.6)
    t, _ = step(t, [seen("SA", "S", 0.95)], {"S": True}, 2.0)  # a hand over the play
    moved = seen("SA", "S", 0.95, at=(0.507, 0.8))  # 7 mm over
    t, _ = step(t, [moved], {}, 2.5)
    t, plays = step(t, [moved], {}, 3.1)
    assert play.cards == ("SA",) and plays == ()


def _settle(t, cards, at, busy=None):
    """``cards`` read from ``at``, with ``busy`` seats (a hand over them) at first, then still for 0.6 s (a settle of
    0.5 s): the plays of the last reading."""
    if busy:
        t, _ = step(t, cards, busy, at)
    t, _ = step(t, cards, {}, at + 0.1)
    return step(t, cards, {}, at + 0.7)


def test_a_climbing_seat_plays_again_in_a_trick_unflagged_and_cards_added_unseen_are_flagged():
    """002 比赛规则: 选手依次轮流压牌 -- in a Guandan trick a seat plays again, laying its next play by hand onto the
    table where its first still lies, and a play need not be the lead's size (a bomb, 炸弹: 四张或四张以上相同点数的牌;
    a new lead once the others passed). A Tractor camera flagged each such play (``vision.added``, ``vision.wrong_size``)
    so every second play of a seat went to a person. Cards that appear with no hand seen over the seat are still cards
    added to a play: flagged."""
    pair = [seen("S5", "S"), seen("H5", "S", at=(0.53, 0.8))]
    bomb = [seen("C9", "S", at=(0.35, 0.8)), seen("D9", "S", at=(0.38, 0.8)), seen("H9", "S", at=(0.41, 0.8)),
            seen("S9", "S", at=(0.44, 0.8))]
    east = [seen("S7", "E", at=(0.8, 0.5)), seen("H7", "E", at=(0.8, 0.53))]
    for game, flagged in (("guandan", ()), ("tractor", ("vision.wrong_size", "vision.added"))):
        t, _ = step(for_game(game, settle_s=0.5, decks=2), [], {}, -0.1)
        t, (first,) = _settle(t, pair, 0.0)
        t, (second,) = _settle(t, pair + east, 1.0, busy={"E": True})
        t, (again,) = _settle(t, pair + east + bomb, 2.0, busy={"S": True})  # S lays its bomb by hand beside its pair
        assert [p.cards for p in (first, second, again)] == [("H5", "S5"), ("H7", "S7"), ("C9", "D9", "H9", "S9")]
        assert tuple(r.key for r in again.reasons) == flagged and (again.confidence < 0.9) == bool(flagged)
    t, _ = _settle(for_game("guandan", settle_s=0.5, decks=2), pair, 0.0)
    t, (added,) = _settle(t, pair + [seen("D5", "S", at=(0.56, 0.8))], 1.0)  # no hand seen: added to the pair
    assert added.cards == ("D5",) and [r.key for r in added.reasons] == ["vision.added"] and added.confidence < 0.9


def test_flags_need_a_person_and_never_judge():
    t, _ = step(Tracker(settle_s=0.5, decks=2), [], {}, -0.1)  # the camera started on an empty table
    t, _ = step(t, [seen("SA", "S"), seen("SA", "S", at=(0.55, 0.8))], {}, 0.0)
    t, plays = step(t, [seen("SA", "S"), seen("SA", "S", at=(0.55, 0.8))], {}, 0.6)
    assert plays[0].cards == ("SA", "SA") and plays[0].reasons == ()
    table = [seen("SA", "S"), seen("SA", "S", at=(0.55, 0.8)), seen("SA", "E", 0.95, (0.8, 0.5)),
             seen("D4", "E", 0.7, (0.8, 0.55)), seen("D5", "E", 0.99, (0.8, 0.6))]
    t, _ = step(t, table, {}, 1.0)
    t, plays = step(t, table, {}, 1.6)
    (p,) = plays
    assert p.seat == "E" and p.cards == ("D4", "D5", "SA") and p.confidence < 0.9
    assert [Sentences("en").reason(r) for r in p.reasons] == [
        "unsure read (0.70)", "a play of the wrong size (3 cards, the lead had 2)", "more copies than the decks hold: ♠A x3"]


def test_a_card_that_already_left_the_table():
    t = Tracker(settle_s=0.5, decks=1)
    for at in (0.0, 0.6):
        t, _ = step(t, [seen("C9", "W", at=(0.2, 0.5))], {}, at)
    for at in (1.0, 1.2, 1.6):  # cleared
        t, _ = step(t, [], {}, at)
    for at in (2.0, 2.6):
        t, plays = step(t, [seen("C9", "N", at=(0.5, 0.2))], {}, at)
    assert plays[0].reasons == (Reason("vision.left", card="C9"),) and plays[0].confidence < 0.9
    assert Sentences("zh").reason(plays[0].reasons[0]) == "本手已离开桌面的牌又出现了：♣9"


def test_a_busy_seat_waits():
    t = Tracker(settle_s=0.5)
    for at in (0.0, 0.6, 1.2):
        t, plays = step(t, [seen("SA", "S")], {"S": True}, at)
        assert plays == ()


def test_a_card_read_differently_later_is_not_a_second_play():
    """A pair whose one card is first read as another suit, then right: one play (flagged), not two."""
    first = [SeenCard("CA", 0.5, (0.48, 0.78), "S"), SeenCard("SA", 0.97, (0.52, 0.78), "S")]
    later = [SeenCard("SA", 0.6, (0.481, 0.78), "S"), SeenCard("SA", 0.97, (0.52, 0.78), "S")]
    t, out = Tracker(settle_s=0.5), []
    for at, cards in ((0.0, first), (0.6, first), (1.0, later), (1.6, later), (2.5, later)):
        t, plays = step(t, cards, {}, at)
        out += plays
    assert [(p.seat, p.cards) for p in out] == [("S", ("CA", "SA"))] and out[0].reasons  # unsure: for a person
    t, plays = step(t, later + [SeenCard("S4", 0.95, (0.50, 0.78), "S")], {}, 3.0)  # a card really added
    t, plays = step(t, later + [SeenCard("S4", 0.95, (0.50, 0.78), "S")], {}, 3.6)
    assert [p.cards for p in plays] == [("S4",)]


def test_a_card_read_again_where_its_seat_just_picked_it_up_is_flagged():
    """Glare on a seat's only card for longer than ``settle_s`` looked like a pickup (``removed``); read again, the
    card was sent as a new play, sure, and a table took it as the next lead. Now a person says which it is."""
    t, _ = step(Tracker(settle_s=0.5), [], {}, -0.1)
    for at in (0.0, 0.6):
        t, plays = step(t, [seen("SA", "S")], {}, at)
    assert plays[0].reasons == ()
    for at in (1.0, 1.6):  # the card unread (glare), nothing over the seat: picked up, said
        t, _ = step(t, [seen("D4", "E", at=(0.8, 0.5))], {}, at)
    t, removals = drain(t)
    assert [r.cards for r in removals] == [("SA",)]
    for at in (2.0, 2.6):
        t, plays = step(t, [seen("SA", "S"), seen("D4", "E", at=(0.8, 0.5))], {}, at)
    (p,) = plays
    assert p.reasons == (Reason("vision.returned", card="SA"),) and p.confidence < 0.9
    assert Sentences("zh").reason(p.reasons[0]).startswith("刚被收起的 ♠A 又在原处出现")


def test_cards_on_the_table_when_the_camera_starts_are_flagged():
    """A camera started again knows nothing of what it sent: the trick lying there was sent again, sure, and accepted
    as new plays. Cards found at its first reading are flagged; cards played after it are not."""
    t, plays = step(Tracker(settle_s=0.5), [seen("SA", "S")], {}, 0.0)
    t, plays = step(t, [seen("SA", "S")], {}, 0.6)
    assert plays[0].reasons == (Reason("vision.restarted"),) and plays[0].confidence < 0.9
    table = [seen("SA", "S"), seen("S4", "E", at=(0.8, 0.5))]
    for at in (1.0, 1.6):
        t, plays = step(t, table, {}, at)
    assert plays[0].cards == ("S4",) and plays[0].reasons == ()
