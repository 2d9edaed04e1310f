"""Reproduce ``models/cards.onnx`` from a seed (needs the ``train`` extra: torch, CPU is enough).

    .venv/bin/python models/train_cards.py --seed 2026 --steps 4000 --out models/cards.onnx --log models/train.log

Same as ``cardtable vision train``; the network, data and loss are in ``vision/train.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.train import train  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--steps", type=int, default=4000)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", type=Path, default=Path("models/cards.onnx"))
    p.add_argument("--log", type=Path, default=None)
    p.add_argument("--checkpoint", type=Path, default=None, help="resume from / save to this file every 250 steps")
    a = p.parse_args(argv)
    log_file = a.log.open("a") if a.log else None

    def log(line: str) -> None:
        print(line, flush=True)
        if log_file:
            log_file.write(line + "\n")
            log_file.flush()

    summary = train(a.out, seed=a.seed, steps=a.steps, threads=a.threads, log=log, checkpoint=a.checkpoint)
    log(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
