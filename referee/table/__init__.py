"""The table service: one table's referee behind the bus, between the camera and board that speak to it
and the scoreboard, console and tournament that listen (its topics: ``bus/PROTOCOL.md``).

- :mod:`referee.table.service`: the thin shell (``cardtable table run``): inputs from the bus, logged, judged,
  published; its parts: :mod:`referee.table.intake` (the inputs' sessions, each batch logged before it is
  acknowledged), :mod:`referee.table.outputs` (what was logged applied, its outputs published),
  :mod:`referee.table.recovery` (the log on start: held, replayed, checked), :mod:`referee.table.deadlines` (what
  time rules), :mod:`referee.table.health` (whether it hears its table, its ``health``);
  :mod:`referee.table.cli`: the ``cardtable table`` commands; :mod:`referee.table.refused`: a service
  that will not start says why on the bus (its retained ``status``);
- :mod:`referee.table.log`, :mod:`referee.table.witness`: the append-only event log and how the service knows
  it is whole; :mod:`referee.table.guard`: what the service believes of an input's time and pace;
- :mod:`referee.table.reducer`: what every game's table shares (pure: inputs in, a new table and outputs out);
  :mod:`referee.table.tractor` (the Tractor table), :mod:`referee.table.climbing` (what the climbing games'
  tables share) with :mod:`referee.table.guandan` and :mod:`referee.table.sandayi`; :mod:`referee.table.tables`:
  the table of a rulebook's game;
- :mod:`referee.table.clock`: the shot clock, late arrival and the round clock as values;
  :mod:`referee.table.steady`: the service's own time, which a step of the computer's clock does not move;
- :mod:`referee.table.amend`: a settled dispute, and the plays after it judged again;
  :mod:`referee.table.answer`: a console command's answer (``applied`` or ``rejected``);
- :mod:`referee.table.scenario`: the judge's ``clock`` op, a real table driven through timed inputs;
- :mod:`referee.table.simulate` (Tractor), :mod:`referee.table.simulate_climbing` (Guandan, San Da Yi): bots
  at a table through the broker; :mod:`referee.table.simulators`: the simulator of a rulebook's game
  (``cardtable table simulate``);
- :mod:`referee.table.timeline`: a log as a readable timeline (``cardtable table replay``);
  :mod:`referee.table.retell`: the events a log published, told again for a tournament that lost them
  (``cardtable table events``).

The words of its events are the catalogue's (``referee.catalogue.kinds``, ``referee.catalogue.sentences``).
Nothing is imported here, so each part loads on its own (the log needs no jsonschema).
"""
