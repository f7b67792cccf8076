"""The modules' names before the package was split into layers (issue 39), still importable.

``import ginrummy.simulate`` or ``from ginrummy.store import Store`` gives the module that now
lives at ``ginrummy.selfplay.simulate`` or ``ginrummy.server.store``: the same module object
under both names (classes, ``isinstance`` and pickles agree). New code uses the new names;
docs/architecture.md lists the layers.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["MOVED", "PACKAGES_MOVED", "install", "new_name"]

#: Old module (below ``ginrummy.``) -> its new name. (``ginrummy.selfplay``, a module before,
#: is the self-play package now, which keeps the module's names: play_hand, play_match.)
MOVED: dict[str, str] = {
    "errors": "engine.errors",
    "cards": "engine.cards",
    "melds": "engine.melds",
    "solve": "engine.solve",
    "settle": "engine.settle",
    "rules": "engine.rules",
    "move": "engine.move",
    "events": "engine.events",
    "legal": "engine.legal",
    "view": "engine.view",
    "hand": "engine.hand",
    "match": "engine.match",
    "record": "engine.record",
    "shuffle": "engine.shuffle",
    "sealer": "engine.sealer",
    "verify": "engine.verify",
    "native": "engine.native",
    "develop": "engine.develop",
    "table": "engine.table",
    "players.base": "engine.player",
    "explain": "words.explain",
    "sheet": "words.sheet",
    "cheatsheet": "words.cheatsheet",
    "names": "words.names",
    "strategy": "lessons.strategy",
    "simulate": "selfplay.simulate",
    "simray": "selfplay.distributed",
    "simstats": "selfplay.summary",
    "simplot": "selfplay.plot",
    "dataset": "selfplay.dataset",
    "tournament": "selfplay.tournament",
    "stats": "selfplay.stats",
    "store": "server.store",
    "store_keys": "server.store.keys",
    "store_limits": "server.store.limits",
    "store_ratings": "server.store.ratings",
    "store_tokens": "server.store.tokens",
    "fields": "server.fields",
}

#: Packages moved whole: every module below the old name moved below the new one.
PACKAGES_MOVED: dict[str, str] = {
    "web": "server",
    "commands": "cli",
    "migrations": "server.store.migrations",
}


def new_name(old: str) -> str | None:
    """The new full name of the old full module name ``old`` (``ginrummy.simulate``), or
    ``None`` when that name did not move."""
    if not old.startswith("ginrummy."):
        return None
    rest = old[len("ginrummy."):]
    if rest in MOVED:
        return "ginrummy." + MOVED[rest]
    for before, after in PACKAGES_MOVED.items():
        if rest == before or rest.startswith(before + "."):
            return "ginrummy." + after + rest[len(before):]
    return None


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module of its new name (imported first, if need be)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system gave the module the old name's spec: it keeps its own.
        module.__spec__ = self.spec


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = new_name(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))


def install() -> None:
    """Let the old names import (once; ``ginrummy/__init__.py`` calls it)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
