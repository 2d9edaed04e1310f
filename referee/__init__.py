"""The referee: the rules as pure code, and the two services that apply them in a hall.

The kernel is pure (values in, values out; no I/O, no clock, no network): :mod:`referee.cards`,
:mod:`referee.seats`, the typed rulebooks (:mod:`referee.rulebooks`), the engines (:mod:`referee.tractor`;
:mod:`referee.climbing` with :mod:`referee.guandan` and :mod:`referee.sandayi`), why they refuse or rule
(:mod:`referee.reasons`: a catalogue key and values) and the words (:mod:`referee.catalogue`). On it stand
the judge (:mod:`referee.judge`, ``cardtable judge``), the terminal demo (:mod:`referee.demo`) and the two
services: the table service (:mod:`referee.table`: the camera's and the board's inputs from the bus, judged,
logged and published) and the tournament (:mod:`referee.tournament`: the tables' results from the bus, the
pairings and standings published); :mod:`referee.cli` has their commands. The services speak the bus (the
``bus`` package); the kernel knows nothing of it.
"""
