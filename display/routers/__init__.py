"""The app's routers, one per concern: public scoreboard data and its live stream, HTML pages,
login and users, console actions on the tables, the tournament, the audit log, the display's own health."""
