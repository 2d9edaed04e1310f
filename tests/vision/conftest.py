"""The vision tests' helpers (rendered frames with known truth) live beside them in ``vision_frames.py``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
