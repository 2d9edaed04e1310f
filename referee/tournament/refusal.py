"""Why a request is refused, in Chinese first and in English: the console shows the reason in the reader's
language (the request's ``Accept-Language``), the command line in ``--lang``'s. ``str()`` is the Chinese.

>>> e = Refusal("没有参赛单位 e07", "no entry e07")
>>> str(e), e.text("en"), e.text("zh")
('没有参赛单位 e07', 'no entry e07', '没有参赛单位 e07')
"""

from __future__ import annotations


class Refusal(ValueError):
    """A request that cannot be applied, with its reason in both languages; nothing changes."""

    def __init__(self, zh: str, en: str) -> None:
        super().__init__(zh, en)
        self.zh, self.en = zh, en

    def __str__(self) -> str:
        return self.zh

    def text(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh
