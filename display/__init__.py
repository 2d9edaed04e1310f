"""The display: the end of the flow, where people see the hall and act on it.

It reads the bus (every table's ``state``, ``events``, ``violations`` and ``health``, the tournament's
``round`` and ``standings``) as the ``scoreboard`` user, and writes only the tables' ``commands`` as the
``console`` user; it knows the table service through the bus alone, and runs the tournament
(``referee.tournament``) in-process for the organisers.

- :mod:`display.feed`: the two MQTT connections; :mod:`display.view`: the hall as the display sees it (pure);
  :mod:`display.said`: its words (events, violations, the console's detail of a table), in every language;
- :mod:`display.hub`: the hall's changes to every open page (Server-Sent Events);
  :mod:`display.kept`: the tables' timelines kept across a restart;
- :mod:`display.app`, :mod:`display.routers`: the FastAPI app, its pages (Jinja templates) and REST API;
  :mod:`display.deps`: what every router shares (the app's context, the clock, the reader's language, the login);
- :mod:`display.guard`, :mod:`display.store`: the console's doors, users and audit log; :mod:`display.names`: user
  names that read alike;
- :mod:`display.actions`, :mod:`display.flags`, :mod:`display.plays`: the console's actions on a table, in words;
- :mod:`display.tournament`: the console's side of the tournament; :mod:`display.schemas`: every body and answer;
  :mod:`display.invalid`: a body the API could not validate (a 422), said with its field named in our words;
- :mod:`display.cli`: ``cardtable display serve|user|backup``; :mod:`display.deadline`: its HTTP connections, each with a
  deadline for its request's head.
"""
