"""The tree passes ruff (the rules in pyproject.toml), so that ``python -m pytest`` catches
what ``.ci/run``'s lint step would."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_passes():
    exe = shutil.which("ruff")
    cmd = [exe] if exe else [sys.executable, "-m", "ruff"]
    try:
        out = subprocess.run(cmd + ["check", "--output-format", "concise", "."], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        pytest.skip("ruff is not installed (pip install -e '.[test]' installs it)")
    if "No module named ruff" in out.stderr:
        pytest.skip("ruff is not installed (pip install -e '.[test]' installs it)")
    assert out.returncode == 0, out.stdout + out.stderr
