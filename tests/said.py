"""What the rules engines' reasons say in the words of the logs and the judge (English, card codes, seat letters):
``raises(E, "words")`` is ``pytest.raises(E, match="words")`` read through ``referee.catalogue.sentences.told``, and
``words(reason)`` a reason (``referee.reasons``) so said."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from referee.reasons import Reason
from referee.catalogue.sentences import Sentences, told


@contextlib.contextmanager
def raises(kind: type[BaseException], match: str) -> Iterator[pytest.ExceptionInfo]:
    with pytest.raises(kind) as info:
        yield info
    text = told(info.value)
    assert re.search(match, text), f"{match!r} not found in {text!r}"


def words(reason: Reason | None) -> str | None:
    return None if reason is None else Sentences("en", codes=True).reason(reason)
