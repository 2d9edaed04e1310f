"""Vision: the start of the flow, the camera above each table.

A frame in, the cards on the table out: the table's markers give the view (:mod:`vision.calibrate`,
:mod:`vision.geometry`, :mod:`vision.canon`), our own networks find and read each card (:mod:`vision.detect`,
:mod:`vision.model`, :mod:`vision.read`, :mod:`vision.confidence`, with onnxruntime only), and the tracker turns
a stream of frames into plays (:mod:`vision.tracker`), which :mod:`vision.watch` publishes on the bus as the
table's ``observed`` and ``removed``. A read the model is unsure of says so; a person confirms it.

Training the networks (torch, the ``train`` extra) is apart: the runtime never imports it.
"""
