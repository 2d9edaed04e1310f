"""pytest runs the docstring examples of vision/ (``testpaths``); the training modules need torch (the ``train``
extra, absent on CI), so it is not collected."""

collect_ignore = ["train.py", "index_train.py", "fit.py"]
