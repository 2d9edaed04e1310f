"""The Tractor (拖拉机/升级) engine: one general engine, configured by the rulebooks in ``referee/rulebooks``.

Pure functions over immutable values; nothing here does I/O or reads a clock.
Data flows: ``trumps`` (card order) -> ``units`` (combinations) -> ``follow`` and
``leads`` (what may be played) -> ``tricks`` (who wins) -> ``scoring`` -> ``hand``
(evidence-based judging of a whole hand) and ``game`` (levels, dealer, declaring). ``bots`` builds random
legal leads and follows for the demo, property tests and benchmarks.
"""
