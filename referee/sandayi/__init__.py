"""The San Da Yi (三打一) engine: one dealer against three, two decks (seed 004, 附件一).

Pure functions over immutable values; nothing here does I/O or reads a clock. Every
setting is in the rulebook file (``referee/rulebooks/usst-2016.toml``); combinations and
their order come from ``referee.climbing.combos``.

Data flows: ``seats`` (turn order, who bids first) -> ``bidding`` (叫分, the dealer) ->
``bombs`` (炸弹限制) -> ``game`` (the state of one game fed events: bids, the kitty, 报到,
摊打, plays, passes, fouls) -> ``scoring`` (the game's scores) -> ``round`` (a table's 8 games:
each player's 小分 and round points; the final standing over the rounds is the tournament's,
``referee.tournament.individual``). ``bots`` plays whole games for tests and the demo.
"""
