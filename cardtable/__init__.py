"""The ``cardtable`` command: one entry point that lists every package's command group.

The packages follow the flow of a card: the camera's ``vision`` -> the ``bus`` -> the ``referee``'s table
service -> the ``bus`` -> the ``display``, with the table board's ``bridge`` beside the referee and the
``hall`` wiring them together. Each package owns its commands (a ``cli`` module with ``add_parser``);
this package only lists them (:mod:`cardtable.cli`), so none of them owns the others. Beside it, what every
command and service shares: the command line's language (:mod:`cardtable.lang`), the one logging set-up
(:mod:`cardtable.logs`), a checked copy of a running service's file (:mod:`cardtable.backup`, which also
tells such a file, so that no command writes over one) and the watchdog that ends a service whose loop hangs, so that
its presence (the bridge's board, the camera) is not left ``online`` (:mod:`cardtable.watchdog`).
"""
