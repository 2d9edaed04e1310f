"""Reproduce ``models/cards.onnx`` (the corner-index detector) and ``models/index.onnx`` (the index classifier)
from a seed; needs the ``train`` extra (torch, CPU is enough). The same as ``cardtable vision train``:

    .venv/bin/python models/train.py --seed 2026 --out models                 # both, about an hour on 2 cores
    .venv/bin/python models/train.py --part index --seed 2026 --out models    # the classifier alone

The networks, their data and losses are in ``vision/train.py`` and ``vision/index_train.py``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["vision", "train", *sys.argv[1:]]))
