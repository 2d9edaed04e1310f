"""Fit the confidence calibration of an index classifier (``vision/confidence.py``) on reads of the calibration
families, never the test ones (plain script):

    .venv/bin/python bench/eval_vision.py --families 20 --calibration --raw --reads cal.jsonl   # reads to fit on
    .venv/bin/python bench/fit_confidence.py cal.jsonl --index models/index.onnx            # -> models/index.sure.json
    .venv/bin/python bench/fit_confidence.py cal.jsonl --index venue/index.onnx --target 0.0005   # an enrolled deck

The reads must come from the classifier being calibrated; their raw beliefs are fitted (``--raw`` reads without a
calibration, so that a stale one beside a new classifier does not stop the reading). Prints, for both kinds of read, where sure begins and what share of the calibration reads is then sure
and wrong; the test families are measured afterwards with ``eval_vision.py --families``, the calibration in place.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.confidence import TARGET, Calibration, fit, path_for  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("reads", type=Path, help="JSON lines of eval_vision.py --reads (calibration families)")
    p.add_argument("--index", type=Path, default=Path("models/index.onnx"), help="the classifier the reads came from")
    p.add_argument("--target", type=float, default=TARGET, help=f"wrong share allowed among sure reads ({TARGET})")
    a = p.parse_args(argv)
    rows = [json.loads(line) for line in a.reads.read_text().splitlines() if line.strip()]
    if not rows or any(r.get("raw") is None for r in rows):
        print(f"error: {a.reads} holds no raw beliefs (read it with this code's eval_vision.py --reads)", file=sys.stderr)
        return 2
    families = sorted({r["family"] for r in rows})
    if any(not f.startswith("cal-") for f in families):
        print(f"error: {a.reads} holds reads of test families ({families}): calibrate on --calibration only",
              file=sys.stderr)
        return 2
    reads = [(r["raw"], r["right"], 1 if r["conflict"] else r["corners"]) for r in rows]
    sure_at = fit(reads, a.target)
    for kind, t in sure_at.items():
        mine = [(raw, right) for raw, right, corners in reads if (corners >= 2) == (kind == "2")]
        sure = [right for raw, right in mine if t is not None and raw >= t]
        print(f"{'both corners' if kind == '2' else 'one corner'}: {len(mine)} reads, sure from raw "
              f"{'never' if t is None else f'{t:.6f}'}: {len(sure)} sure ({len(sure) / max(1, len(mine)):.1%}), "
              f"{len(sure) - sum(sure)} of them wrong")
    cal = Calibration(sure_at, a.target, f"{a.reads.name}: {len(rows)} reads of {', '.join(families)}")
    out = path_for(a.index)
    cal.write(out, a.index)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
