"""Vision: the start of the flow, the camera above each table.

A frame in, the cards on the table out: the table's markers give the view (:mod:`vision.calibrate`,
:mod:`vision.geometry`, :mod:`vision.canon`), our own networks find and read each card (:mod:`vision.detect`,
:mod:`vision.model`, :mod:`vision.read`, :mod:`vision.confidence`, with onnxruntime only; under a deck's calibration,
whether a card looks like that deck's: :mod:`vision.fingerprint`), and the tracker turns
a stream of frames into plays (:mod:`vision.tracker`), which :mod:`vision.watch` publishes on the bus as the
table's ``observed`` and ``removed``, and whether it still sees the table (:mod:`vision.presence`). A read the model is unsure of says so, and so does a play the game makes
doubtful (:mod:`vision.sanity`); a person confirms it. :mod:`vision.patch` cuts a corner index out for the
classifier; :mod:`vision.overlay` draws what calibration found, for a person to check; :mod:`vision.cli` has the
``cardtable vision`` commands (:mod:`vision.options`: their arguments' types and errors; :mod:`vision.advice`: what
the camera's detail means for a venue); :mod:`vision.whole` writes a model or a calibration whole or not at all.

Training the networks (:mod:`vision.train`: torch, the ``train`` extra) is apart: the runtime never imports it.
"""
