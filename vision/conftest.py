"""pytest runs the docstring examples of vision/ (``testpaths``); the training modules need torch (the ``train``
extra, absent on CI), so they are not collected."""

collect_ignore = ["train/detector.py", "train/index.py", "train/fit.py"]
