import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # climbing_kit.py: the climbing tables' tests' table and bots
