"""Put tests/ on sys.path, so the op table (``opinfo``) and its test helpers import here too."""

import sys
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parents[1] / "tests"
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))
