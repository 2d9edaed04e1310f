"""The runtime (everything in vision/ but vision/train/) never imports torch, nor does the renderer (the hall's
camera renders with it); the layers' contract keeps the runtime from importing vision/train/ at all."""

import subprocess
import sys


def test_runtime_never_imports_torch():
    code = ("import sys, vision.cli, vision.read, vision.watch, vision.tracker, vision.overlay, vision.patch, vision.train.synth.render; "
            "vision.cli.add_parser; assert 'torch' not in sys.modules, 'torch imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
