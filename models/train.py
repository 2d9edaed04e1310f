"""Reproduce ``models/cards.onnx`` (the corner-index detector) and ``models/index.onnx`` (the index classifier)
from a seed; needs the ``train`` extra (torch). The same as ``cardtable vision train``, without the rest of the
system (only ``vision/`` is imported, so it runs wherever torch and OpenCV are):

    .venv/bin/python models/train.py --seed 2026 --out models                 # both, on the CPU
    python3 models/train.py --part index --device cuda --workers 6 --minutes 6.5 --batch 256 --out models

The networks, their data and losses are in ``vision/train/detector.py`` and ``vision/train/index.py``; the loop in
``vision/train/fit.py``; the runs behind the shipped files in ``models/README.md``.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import cli  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="models/train.py")
    cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(["vision", "train", *sys.argv[1:]])
    sys.exit(args.func(args))
