"""The map in docs/architecture.md, checked: no import circle anywhere, and every import runs
down the layers.

Every ``import`` counts, a deferred one inside a function too: a deferred import hides a
circle from Python at start-up, not from a reader of the code. The table below is the one
the docs draw; a new package gets its row here and there in the same change.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "hardware", "calibration", "vision", "kiosk")

#: Each layer and the layers it may import (besides itself, the standard library and
#: third-party packages). Most specific prefix wins.
MAY_IMPORT: dict[str, set[str]] = {
    "games": set(),
    "hardware": {"games"},
    "calibration": {"games"},
    "vision": {"games", "calibration"},
    "vision.synthetic": {"games", "calibration", "vision"},
    "kiosk.files": {"games", "calibration"},
    "kiosk.gamelog": {"games", "calibration", "kiosk.files"},
    "kiosk.play": {"games", "hardware", "calibration", "kiosk.files", "kiosk.gamelog"},
    "kiosk.camera": {"games", "calibration", "vision", "vision.synthetic", "kiosk.files"},
    "kiosk.club.wire": set(),
    "kiosk.club.publish": {"kiosk.club.wire", "kiosk.files", "kiosk.gamelog"},
    "kiosk.club.server": {"games", "kiosk.club.wire", "kiosk.play"},
    "kiosk.doctor": {"games", "hardware", "calibration", "vision", "kiosk.files", "kiosk.gamelog",
                     "kiosk.camera"},
    "kiosk.app": {"games", "hardware", "calibration", "vision", "kiosk.files", "kiosk.gamelog",
                  "kiosk.play", "kiosk.camera", "kiosk.club.wire", "kiosk.club.publish"},
    "kiosk.cli": {"games", "hardware", "calibration", "vision", "vision.synthetic", "kiosk.files",
                  "kiosk.gamelog", "kiosk.play", "kiosk.camera", "kiosk.club.wire", "kiosk.club.publish",
                  "kiosk.club.server", "kiosk.doctor", "kiosk.app"},
    "kiosk": set(),
}


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The project modules ``name`` imports, wherever in the file the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: set(imports_of(name, path, known)) for name, path in known.items()}


def layer_of(module: str) -> str:
    best = ""
    for layer in MAY_IMPORT:
        if (module == layer or module.startswith(layer + ".")) and len(layer) > len(best):
            best = layer
    assert best, f"{module} is in no layer: give its package a row in MAY_IMPORT and docs/architecture.md"
    return best


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of two or more modules."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles():
    assert circles(graph()) == []


def test_every_import_runs_down_the_layers():
    wrong = []
    for module, targets in graph().items():
        mine = layer_of(module)
        for target in targets:
            theirs = layer_of(target)
            if theirs != mine and theirs not in MAY_IMPORT[mine]:
                wrong.append(f"{module} imports {target} ({mine} may not import {theirs})")
    assert wrong == []


def test_the_checks_catch_what_they_are_for():
    """A circle and an upward import written into a made-up graph are both found."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert layer_of("kiosk.app.screens.game") == "kiosk.app"
    assert "kiosk.cli" not in MAY_IMPORT[layer_of("kiosk.app.screens.game")]
    assert layer_of("kiosk.club.server.board") == "kiosk.club.server"


def test_every_package_is_on_the_map():
    """docs/architecture.md names every package of the product."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    packages = {name for name, path in modules().items() if path.name == "__init__.py"}
    missing = sorted(p for p in packages if f"`{p.replace('.', '/')}/`" not in text)
    assert missing == []
