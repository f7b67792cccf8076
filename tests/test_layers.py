"""The package's layers (issue 39, docs/architecture.md): every module sits in a layer's folder,
imports only its own layer and the ones below it, and no import cycle exists.

The graph is read from the source with :mod:`ast`, every import counted: at the top of a
module, inside a function and under ``if TYPE_CHECKING`` alike (a reader follows them all).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "ginrummy"

#: The layers, lowest first: a module may import its own layer and those before it.
LAYERS = ("engine", "words", "players", "coach", "lessons", "selfplay", "env", "tui", "server",
          "cli")

#: The modules outside the layers' folders, and the layers each may import: the package's
#: front (re-exports of the engine, and the old names' finder), ``python -m ginrummy``, and
#: the finder itself (standard library only).
ROOT = {"ginrummy": {"engine", "ginrummy._moved"}, "ginrummy.__main__": {"cli"},
        "ginrummy._moved": set()}


def module_names() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = ("ginrummy", *path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of the package's own modules (the importing module left out)."""
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    where = ".".join(base + ([node.module] if node.module else []))
                else:
                    where = node.module or ""
                # ``from package import module`` imports the module; else the names' module.
                targets = [f"{where}.{a.name}" if f"{where}.{a.name}" in modules else where
                           for a in node.names]
            for target in targets:
                while target not in modules and "." in target:
                    target = target.rpartition(".")[0]
                if target in modules and target != name:
                    edges[name].add(target)
    return edges


def layer_of(module: str) -> str:
    """The layer of a module (its folder below ``ginrummy``), or the module's own name for
    the few outside the folders (:data:`ROOT`)."""
    if module in ROOT:
        return module
    return module.split(".")[1]


def upward(edges: Mapping[str, Iterable[str]]) -> list[str]:
    """Every import that reaches up a layer (or, from outside the layers, beyond what
    :data:`ROOT` allows), as ``a -> b (layer -> layer)``."""
    bad = []
    for source, targets in edges.items():
        for target in targets:
            a, b = layer_of(source), layer_of(target)
            if source in ROOT:
                if b not in ROOT[source]:
                    bad.append(f"{source} -> {target} ({a} -> {b})")
                continue
            if target == "ginrummy":
                # The package's front re-exports the engine: only layers above it use it.
                if a == "engine":
                    bad.append(f"{source} -> {target} (engine -> the package's front)")
                continue
            if b in ROOT or LAYERS.index(b) > LAYERS.index(a):
                bad.append(f"{source} -> {target} ({a} -> {b})")
    return sorted(bad)


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import cycles: each strongly connected group of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


MODULES = module_names()
EDGES = imports(MODULES)


def test_every_module_sits_in_a_layer() -> None:
    outside = [m for m in MODULES if m not in ROOT and layer_of(m) not in LAYERS]
    assert not outside, f"modules outside the layers' folders: {outside}"


def test_no_module_reaches_up_a_layer() -> None:
    assert not upward(EDGES), "\n".join(upward(EDGES))


def test_the_engine_imports_nothing_else_of_ours() -> None:
    engine = {m: t for m, t in EDGES.items() if layer_of(m) == "engine"}
    assert engine, "no engine modules found"
    leaks = [f"{m} -> {t}" for m, ts in engine.items() for t in ts if layer_of(t) != "engine"]
    assert not leaks, leaks


def test_no_import_cycle() -> None:
    assert not cycles(EDGES), cycles(EDGES)


def test_the_graph_is_read_whole() -> None:
    # Imports inside functions and under TYPE_CHECKING count: the checks below would pass on
    # an empty graph.
    assert "ginrummy.server.store.migrations" in EDGES["ginrummy.server.store.repository"]
    assert "ginrummy.engine.settle" in EDGES["ginrummy.server.store.models"]  # TYPE_CHECKING
    assert sum(len(t) for t in EDGES.values()) > 300


@pytest.mark.parametrize("edges,bad", [
    ({"ginrummy.engine.hand": {"ginrummy.players.simple"}},
     ["ginrummy.engine.hand -> ginrummy.players.simple (engine -> players)"]),
    ({"ginrummy.tui.table": {"ginrummy.server.app"}},
     ["ginrummy.tui.table -> ginrummy.server.app (tui -> server)"]),
    ({"ginrummy.engine.hand": {"ginrummy"}},
     ["ginrummy.engine.hand -> ginrummy (engine -> the package's front)"]),
    ({"ginrummy": {"ginrummy.server.app"}},
     ["ginrummy -> ginrummy.server.app (ginrummy -> server)"]),
    ({"ginrummy": {"ginrummy._moved", "ginrummy.engine.cards"}}, []),
    ({"ginrummy.server.app": {"ginrummy.engine.hand", "ginrummy"}}, []),
])
def test_an_upward_import_is_found(edges: dict[str, set[str]], bad: list[str]) -> None:
    assert upward(edges) == bad


def test_a_cycle_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
