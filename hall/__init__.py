"""The hall: what wires the processes of a whole hall together, above every other package.

A real hall runs each process on its own machine, as ``cardtable hall setup`` writes them: the broker,
per table its service (``referee.table``), camera (``vision``) and board bridge (``bridge``), the
tournament service and the scoreboard (``display``). ``cardtable hall`` (``make demo``) runs them all on
one machine, with bots for the people: the players at each table, the camera's view of their cards,
the organiser and the referee at the console.

- :mod:`hall.setup`: a real hall's files: the broker's configuration, each machine's credentials and units;
- :mod:`hall.certs`: a hall's own CA and the console machine's certificate, for TLS (``cardtable hall certs``);
- :mod:`hall.plan`: the tables, the pair-swiss field, the seats of a round (pure);
- :mod:`hall.supervisor`: starts, restarts and stops every process (``cardtable hall``);
- :mod:`hall.procs`: child processes in their own process groups, each ending when the supervisor does;
- :mod:`hall.reaper`: when the supervisor ends, however, what it started ends too (the broker, grandchildren);
- :mod:`hall.organiser`: the tournament, the rounds, ``assign`` and ``start_round``;
- :mod:`hall.referee_bot`: rules on the console's flags, looking at the table;
- :mod:`hall.scene`: the physical table between the players and the camera;
- :mod:`hall.player`: the bots of one table (``cardtable hall player``);
- :mod:`hall.camera`: the camera and vision of one table (``cardtable hall camera``);
- :mod:`hall.cli`: the ``cardtable hall`` commands.

The hall may import every package; nothing imports the hall.
"""
