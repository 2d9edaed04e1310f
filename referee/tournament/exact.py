"""Points kept exact, and written as people write them.

Places shared at a table share their points (seed 004 附件一: 第一名积5分，第二名积3分，第三名积2分，
第四名积1分): three players first take (5 + 3 + 2) / 3 = 10/3 each, four take 11/4. Summed as
floats such shares drift (11.000000000000002 beats 11 and the 小分 never decides), so every point,
score and tie-break is exact from the numbers entered to the standings: an int when whole, else a
:class:`~fractions.Fraction`.

On the wire (the MQTT payloads, ``--json``) a whole number is a JSON integer and any other an exact
string ``"10/3"`` (numerator/denominator in lowest terms, the sign in front); :func:`exact` reads
both back. On paper and screen a fraction is a mixed number: ``3又1/3`` in Chinese, ``3 1/3`` in
English.

>>> exact(2.5), exact("10/3"), exact(4), exact(Fraction(8, 2))
(Fraction(5, 2), Fraction(10, 3), 4, 4)
>>> exact(0.1) == Fraction(1, 10)  # a decimal as it was written, not its binary neighbour
True
>>> [wire(x) for x in (Fraction(10, 3), Fraction(8, 2), Fraction(-5, 2))]
['10/3', 4, '-5/2']
>>> [written(x, "zh") for x in (Fraction(10, 3), Fraction(-7, 2), Fraction(2, 3), Fraction(11))]
['3又1/3', '-3又1/2', '2/3', '11']
>>> written(Fraction(35, 12), "en"), written(None, "en")
('2 11/12', '')
>>> exact(float("nan"))
Traceback (most recent call last):
...
ValueError: not a finite number: nan
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

_WIRE = re.compile(r"-?[0-9]+/[0-9]+")


def exact(x) -> int | Fraction:
    """A number exactly: an int when whole (plain ints keep the common case fast), else a Fraction.
    It reads an int, a finite float (as the decimal it prints as), a Fraction, or a wire string
    ``"n/d"``; anything else (NaN, infinity, a bool, text) is a ValueError."""
    if type(x) is int:
        return x
    if isinstance(x, Fraction):
        value = x
    elif type(x) is float:
        if not math.isfinite(x):
            raise ValueError(f"not a finite number: {x!r}")
        value = Fraction(repr(x))
    elif isinstance(x, str) and _WIRE.fullmatch(x) and not x.endswith("/0"):
        value = Fraction(x)
    else:
        raise ValueError(f"not a number: {x!r}")
    return value.numerator if value.denominator == 1 else value


def is_number(x) -> bool:
    """Whether ``x`` is an int or a finite float (not a bool, NaN or infinity).

    >>> [is_number(x) for x in (3, -2.5, True, float("inf"), "3")]
    [True, True, False, False, False]
    """
    return type(x) is int or (type(x) is float and math.isfinite(x))


def wire(x) -> int | str:
    """The payloads' form: an int when whole, else ``"n/d"``."""
    x = exact(x)
    return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def written(x, lang: str = "zh") -> str:
    """A number as a person writes it: whole, or a mixed number (``3又1/3``, ``3 1/3``); None is blank."""
    if x is None:
        return ""
    x = exact(x)
    if x.denominator == 1:
        return str(x.numerator)
    whole, part = divmod(abs(x.numerator), x.denominator)
    sign = "-" if x < 0 else ""
    if whole == 0:
        return f"{sign}{part}/{x.denominator}"
    return f"{sign}{whole}{'又' if lang == 'zh' else ' '}{part}/{x.denominator}"


__all__ = ["Fraction", "exact", "is_number", "wire", "written"]
