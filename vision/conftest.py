"""pytest runs the docstring examples of vision/ (``testpaths``); the training modules need torch and the drawn
decks Pillow (the ``train`` extra, absent on CI), so they are not collected where those are missing."""

from importlib.util import find_spec

collect_ignore = ["train/detector.py", "train/index.py", "train/fit.py"]
if find_spec("PIL") is None:
    collect_ignore.append("train/synth/decks.py")
