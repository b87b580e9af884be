"""The import structure: ``ddsolver`` never imports ``ai``; inside ``ai`` imports point one
way (down the layers of the architecture) and never form a loop.

Every import statement counts, also those inside functions (a lazy import is still a
dependency).  Modules are compared at the level of ``ai``'s top-level modules and
subpackages (``ai.bidding.sa.slam`` is part of ``ai.bidding``).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Set

ROOT = Path(__file__).resolve().parent.parent

#: The layers of ai, lowest first (see README, "Layout"): a module may import modules of a
#: lower layer only.  A new top-level module or subpackage of ai gets a line here.
LAYERS = {
    "ai.constraints": 0,
    "ai.players": 1,
    "ai.inference": 1,
    "ai.sampling": 2,
    "ai.bidding": 3,
    "ai.cardplay": 3,
    "ai.robot": 4,
    "ai.game": 5,
    "ai.chicago": 6,
    "ai.daily": 7,
    "ai.match": 7,
    "ai.tui": 8,
    "ai.protocols": 9,
    "ai.web": 10,
    "ai.cli": 11,
    "ai.__main__": 12,
    "ai": 13,            # the package's public face imports from the modules, never the reverse
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path) -> Set[str]:
    mod = _module_name(path)
    package = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.add(target)
            # "from ai import x" may name a submodule x
            for a in node.names:
                out.add(f"{target}.{a.name}")
    return out


def _unit(name: str) -> str:
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else name


def _ai_graph() -> Dict[str, Set[str]]:
    graph: Dict[str, Set[str]] = {}
    for path in sorted((ROOT / "ai").rglob("*.py")):
        src = _unit(_module_name(path))
        for target in _imports(path):
            if target == "ai" or target.startswith("ai."):
                dst = _unit(target)
                if dst != src:
                    graph.setdefault(src, set()).add(dst)
    return graph


def test_ddsolver_never_imports_ai():
    bad = []
    for path in sorted((ROOT / "ddsolver").rglob("*.py")):
        for target in _imports(path):
            if target == "ai" or target.startswith("ai."):
                bad.append(f"{path.relative_to(ROOT)} imports {target}")
    assert not bad, bad


def test_every_unit_of_ai_has_a_layer():
    units = {_unit(_module_name(p)) for p in (ROOT / "ai").rglob("*.py")}
    missing = sorted(u for u in units if u not in LAYERS)
    assert not missing, f"add these to LAYERS in {__file__}: {missing}"
    # and no layer for a unit that is gone (a stale line would hide a wrong new one)
    stale = sorted(u for u in LAYERS if u not in units)
    assert not stale, f"remove these from LAYERS in {__file__}: {stale}"


def test_imports_inside_ai_point_down():
    graph = _ai_graph()
    bad = [f"{a} (layer {LAYERS.get(a)}) imports {b} (layer {LAYERS.get(b)})"
           for a, targets in graph.items() for b in targets
           if b in LAYERS and a in LAYERS and LAYERS[b] >= LAYERS[a]]
    assert not bad, bad


def _find_loop(graph: Dict[str, Set[str]]):
    """A loop of ``graph`` as a list of nodes (first = last), or ``None``."""
    state: Dict[str, int] = {}
    path: list = []

    def visit(node: str):
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_loop_inside_ai():
    loop = _find_loop(_ai_graph())
    assert loop is None, "import loop: " + " -> ".join(loop or ())


def test_the_checks_see_a_loop():
    """The loop finder is not vacuous: made-up graphs with and without a loop."""
    assert _unit("ai.bidding.sa.slam") == "ai.bidding"
    assert _find_loop({"ai.a": {"ai.b"}, "ai.b": {"ai.c"}, "ai.c": {"ai.a"}}) == \
        ["ai.a", "ai.b", "ai.c", "ai.a"]
    assert _find_loop({"ai.a": {"ai.b", "ai.c"}, "ai.b": {"ai.c"}}) is None
