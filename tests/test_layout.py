"""The repository's layout rules (issue 19): benchmarks are a package run as modules, with
no ``sys.path`` edits, and the tests import no benchmark."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("suites", "comparisons", "diagnostics", "quality")


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_benchmarks_are_a_package_split_by_kind():
    bench = ROOT / "benchmarks"
    assert (bench / "__init__.py").is_file()
    for kind in KINDS:
        assert (bench / kind / "__init__.py").is_file(), kind
    # scripts live in a folder of their kind; only shared modules stay at the top
    top = {p.name for p in bench.glob("*.py")}
    assert top == {"__init__.py", "bench_sets.py", "dds_ctypes.py"}, (
        f"{sorted(top)}: a benchmark script goes into benchmarks/<kind>/ ({', '.join(KINDS)}) "
        f"and runs as python -m benchmarks.<kind>.<name> from the repository root")
    assert {p.parent.name for p in _modules(bench)} <= {"benchmarks", *KINDS}


def test_no_sys_path_edits_in_benchmarks():
    offenders = []
    for path in _modules(ROOT / "benchmarks"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr == "path"
                    and isinstance(node.value, ast.Name) and node.value.id == "sys"):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        text = path.read_text(encoding="utf-8")
        if "sys.path" in text:      # also inside code run by a child process
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == [], ("run benchmarks as modules (python -m benchmarks.<kind>.<name>) "
                             "from the repository root and import by package "
                             "(from benchmarks.bench_sets import ...) instead")


def test_benchmark_modules_import_each_other_by_package():
    """``from bench_sets import ...`` worked only with the folder on sys.path."""
    local = {p.stem for p in _modules(ROOT / "benchmarks")} - {"__init__"}
    for path in _modules(ROOT / "benchmarks"):
        bare = {name for name in _imported(path) if name.split(".")[0] in local}
        assert bare == set(), (path.relative_to(ROOT), bare)


def test_no_test_imports_a_benchmark():
    """What a test needs lives in the packages (ddsolver, ai) or in tests/, not in a
    benchmark script (e.g. the bidding-quality measure is ai.bidding.quality)."""
    offenders = {}
    for path in _modules(ROOT / "tests"):
        bench = {name for name in _imported(path) if name.split(".")[0] == "benchmarks"}
        if bench:
            offenders[path.name] = sorted(bench)
    assert offenders == {}
