"""The whole hall on one machine (issue 9): ``cardtable hall`` and its parts.

- :mod:`referee.hall.plan`: the tables, the pair-swiss field, the seats of a round (pure);
- :mod:`referee.hall.supervisor`: starts, restarts and stops every process (``cardtable hall``);
- :mod:`referee.hall.procs`: child processes in their own process groups;
- :mod:`referee.hall.organiser`: the tournament, the rounds, ``assign`` and ``start_round``;
- :mod:`referee.hall.referee`: rules on the console's flags, looking at the table;
- :mod:`referee.hall.scene`: the physical table between the players and the camera;
- :mod:`referee.hall.player`: the bots of one table (``cardtable hall player``);
- :mod:`referee.hall.camera`: the camera and vision of one table (``cardtable hall camera``).
"""
