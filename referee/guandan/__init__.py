"""The Guandan (掼蛋) referee: one hand's play, the tribute before it, the levels after it.

Pure functions over immutable values; nothing here does I/O or reads a clock (times are
passed in). Combinations and their readings are ``referee.climbing.combos``; every rule
is a setting of the rulebook (``referee/rulebooks/sanjiang-2012.toml``). Data flows:
``tribute`` (进贡, 还牌, who leads) -> ``hand`` (turns, 接风, finish order, card counts,
rulings proven by later plays, each a ``rulings.Ruling`` with the plays that prove it) -> ``levels``
(levels won, the game and the match). ``bots`` builds random legal plays for property tests and the demo.
"""
