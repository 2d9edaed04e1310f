"""Training the camera's networks, apart from the runtime (torch: the ``train`` extra; the runtime never imports
anything here, a contract in ``pyproject.toml`` keeps it so).

- :mod:`vision.train.detector`: the corner-index detector (``models/cards.onnx``), trained from scratch on
  rendered frames; :mod:`vision.train.index`: the corner-index classifier (``models/index.onnx``);
  :mod:`vision.train.fit`: the loop both share (seeded data workers, checkpoints, resuming); :mod:`vision.train.join`:
  several classifiers made one, their probabilities averaged (``cardtable vision join``; onnx only);
- :mod:`vision.train.synth`: the scene renderer they learn from (the committed art, decks drawn from seeds);
- :mod:`vision.train.deck`, :mod:`vision.train.enrol`: a venue's own deck, scanned or photographed on the
  table, made an art style and taught to the classifier (``cardtable vision deck``);
- :mod:`vision.train.sure`: where sure begins for one deck, the classifier's confidence fitted on reads of tables
  of it drawn by the renderer (``cardtable vision sure``; the runtime reads the fit through ``vision.confidence``);
  :mod:`vision.train.tries`: every check of that fit kept beside it, each after the first vouching at a higher level.
- :mod:`vision.train.cli`: the training's ``cardtable vision`` commands, ``train`` and ``join``, and
  :mod:`vision.train.deck_command` (``deck``) and :mod:`vision.train.sure_command` (``sure``).
"""
