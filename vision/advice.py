"""What the detail a camera sees a table at means for a venue, in words (``cardtable vision calibrate`` says it of
a table, an enrolment of its photos): a deck never seen is read far worse under 1.6 camera px per canonical px,
an enrolled deck's confidence is seldom vouched for there, and under ``ENROLLED_DETAIL`` even an enrolled deck is read
worse.

>>> enrolled_advice(2.0, "en")
''
>>> enrolled_advice(1.2, "en").startswith("; under 1.6 an enrolled deck is read well")
True
"""

from __future__ import annotations

from referee.catalogue import say

# Below this detail even a deck enrolled at the venue's own camera is read worse (``models/README.md``, "An enrolled
# deck on more tables, and by the detail of the frame"): at 1920 x 1080 it missed 4% of its cards below 0.85, 1-2% up
# to this, and about 0.5% above it (0.54% on 300 fresh tables under cameras at 1.05-1.27, the twenty-fifth
# session's "An enrolled deck at 1920 x 1080 under a camera mounted as asked"; 1 of 766 on fewer, before)
ENROLLED_DETAIL = 1.05


def detail_note(frame, calibration, lang: str = "zh") -> str:
    """How finely the camera sees the cards: its px per canonical px at the table's centre (``vision/README.md``),
    and what a venue loses below 1.6 (a deck never seen) and ``ENROLLED_DETAIL`` (an enrolled deck too)."""
    px = calibration.detail
    h, w = frame.shape[:2]
    note = say(lang, "vision.detail", width=w, height=h, px=f"{px:.2f}")
    return note + (say(lang, "vision.detail_low") if px < 1.6 else "") + enrolled_advice(px, lang)


# Below this detail an enrolled deck's confidence was seldom vouched for by fresh tables (`models/README.md`, "Sure
# only where fresh tables vouch for it"): at 1920 x 1080 (1.05-1.3) 1 check in 6 vouched, at 2560 x 1920 (about 2) 5
# in 6; where none does, nothing is sure and every play goes to a person
VOUCHED_DETAIL = 1.6


def enrolled_advice(px: float, lang: str = "zh") -> str:
    """What a venue whose camera shows the table at ``px`` loses with an enrolled deck, and what to do; "" from
    ``VOUCHED_DETAIL`` up."""
    if px < ENROLLED_DETAIL:
        return say(lang, "vision.detail_enrolled_low", least=ENROLLED_DETAIL)
    return say(lang, "vision.detail_unvouched", finer=VOUCHED_DETAIL) if px < VOUCHED_DETAIL else ""
