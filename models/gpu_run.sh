#!/usr/bin/env bash
# The prepared run for a session that is lent a GPU (models/README.md, "A wider classifier trained on this machine"):
# the join's second member trained further from candidate/gpu.onnx at width 2 on the committed styles and 30,000 drawn
# decks. For the device tool, from the repository root, with the training fonts carried (the font packages cannot be
# installed there). Made here first:
#   tar -chJf fonts.tar.xz $(.venv/bin/python -c 'from vision.train.synth import decks; print(*sorted({*decks.rank_fonts(), *decks.suit_fonts()}))')
# then: run(command="bash models/gpu_run.sh", carry=["fonts.tar.xz"], timeout_s=600). It writes $OUT/index.onnx and
# $OUT/train.log. Back here: join it with the first member and judge the join on a fresh set by the standing rule:
#   git show 084930f:models/index.onnx > first.onnx
#   .venv/bin/cardtable vision join first.onnx DIR/index.onnx --out DIR/joined.onnx
#   .venv/bin/python bench/eval_vision.py --families 30 --calibration --drawn 3 --raw --index DIR/joined.onnx ...
# DEVICE, WORKERS, MINUTES and BATCH change the run (a check on a CPU: DEVICE=cpu WORKERS=1 MINUTES=0.2 BATCH=16).
set -euo pipefail
: "${OUT:?the folder to write to (the device tool sets it)}"
fonts=$(mktemp -d)
tar -xJf fonts.tar.xz -C "$fonts"
CARDTABLE_TRAIN_FONTS=$fonts python3 models/train.py --part index --from models/candidate/gpu.onnx --width 2 \
  --decks 30000 --device "${DEVICE:-cuda}" --workers "${WORKERS:-15}" --minutes "${MINUTES:-7}" --batch "${BATCH:-256}" \
  --lr 1e-3 --seed 2055 --out "$OUT" 2>&1 | tee "$OUT/train.log"
