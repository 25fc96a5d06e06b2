"""The floors of the house, held by the imports (docs/adding-a-game.md, "The floors").

Every module under sheetkit/ is parsed (never imported) and every `import` in it is read:
at the top of the module, inside a function, under `if TYPE_CHECKING:`, all alike. Each
module sits on one floor of LAYERS, listed once, here, from the ground floor up. The test
fails on

- an import from a floor up to a higher one;
- a game package importing another game (each game knows only its own modules and the
  floors below the games);
- any import cycle between modules (a strongly connected component of two or more
  modules), function-level imports counted. An import inside a function only puts off
  *when* the module is loaded (the commands that only score start fast); the two modules
  still need each other, cannot be read, tested or moved one without the other, and the
  cycle only waits for the first caller that imports them in the other order. So it is no
  way out of a cycle here;
- a game's `rules.py` that loads pydantic, a rendering library or click when it is
  imported, through any chain of sheetkit modules (the floor plan: the rules are plain data
  and functions; the models stay in record.py and layout.py).

Not counted: the import of a package's `__init__` that Python makes before any module of
it (every module would then need its package, and a package that gathers its modules would
be a cycle with each of them), and the registry's late binding (`Ref("module:name")`,
`importlib.import_module` in sheetkit.games): that is how the floors below the games reach
a game without naming it.

Exceptions are edges (importer, imported) in ALLOWED or BEING_REWORKED, each with its
reason; an excused edge is left out of every check (so it may also be what breaks a cycle),
and an exception that no longer matches an import fails, so it goes when its import does.
"""

from __future__ import annotations

import ast
import sys
import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sheetkit"

# From the ground floor up. A pattern is a module's name, or "name.*" for every module
# below that package; the most precise pattern wins (sheetkit.paper.printing is not
# drawing, sheetkit.games.interface is no game). The order is what the code does: layouts
# load through the registry (interface); the games compose and annotate Scenes (drawing)
# and give verdicts (checking); the records reader and the printing drive every game
# through the registry, and the layout lint checks each layout's record template
# (printing above records); the history, the photo reader, the web page and the command
# line use all of it.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ground", ("sheetkit", "sheetkit.errors", "sheetkit.messages", "sheetkit.tomlfile", "sheetkit.schema",
                "sheetkit.grid", "sheetkit.resources", "sheetkit.forms", "sheetkit.memo")),
    ("interface", ("sheetkit.games", "sheetkit.games.interface", "sheetkit.layouts")),
    ("checking", ("sheetkit.checking", "sheetkit.checking.*")),
    ("drawing", ("sheetkit.paper", "sheetkit.paper.*")),
    ("games", ("sheetkit.games.*",)),
    ("records", ("sheetkit.checking.records",)),
    ("printing", ("sheetkit.paper.printing", "sheetkit.paper.lint", "sheetkit.paper.checked")),
    ("history", ("sheetkit.history", "sheetkit.history.*")),
    ("photo", ("sheetkit.photo", "sheetkit.photo.*")),
    ("web", ("sheetkit.web", "sheetkit.web.*")),
    ("cli", ("sheetkit.cli", "sheetkit.cli.*", "sheetkit.__main__")),
)

# What each floor is, for the docs (docs/adding-a-game.md copies the table made of both).
FLOORS = {
    "ground": "errors, the message catalogue, the guarded TOML reader, schema types, grids, forms, a memo",
    "interface": "the Game object, the registry of games, loading a layout through its game",
    "checking": "verdicts and findings, the replay shape, refusing files, the QR text",
    "drawing": "the Scene, its backends, measures, tables, annotations, pads, tiles",
    "games": "one package per game; a game imports no other game",
    "records": "reading and checking any record through the registry",
    "printing": "composing and writing a layout, the layout lint, the checked sheet",
    "history": "the SQLite store, stats, intake, export",
    "photo": "registering and reading a photo of a sheet",
    "web": "the web page",
    "cli": "the click commands",
}

# Edges that stay, each with why.
ALLOWED: dict[tuple[str, str], str] = {
}

# the web page on the game interface: done, nothing left here
BEING_REWORKED: dict[tuple[str, str], str] = {}

NO_RULES_IMPORT = ("pydantic", "pydantic_core", "reportlab", "PIL", "qrcode", "click")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _owner(name: str) -> str | None:
    """The sheetkit module a dotted name is or lies in (a module, or a name in one)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


TOP, FUNCTION, TYPING = "top", "function", "typing"  # where an import stands


@dataclass(frozen=True)
class Import:
    line: int
    where: str  # TOP: runs when the module is loaded; FUNCTION: when a function runs; TYPING: never


def _read(mod: str, path: Path) -> tuple[dict[str, Import], dict[str, Import]]:
    here = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    inside: dict[str, Import] = {}
    outside: dict[str, Import] = {}

    def note(table: dict[str, Import], name: str, imp: Import) -> None:
        old = table.get(name)
        if old is None or (old.where != TOP and imp.where == TOP):  # the import that loads it soonest
            table[name] = imp

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and where == TOP:
                inner = FUNCTION
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for branch in child.body:
                    visit(ast.Module([branch], []), TYPING)
                for branch in child.orelse:
                    visit(ast.Module([branch], []), where)
                continue
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = here.split(".")[: len(here.split(".")) - child.level + 1]
                    base = ".".join(up + ([base] if base else []))
                # `from package import module` imports that module; `from module import name` the module
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in child.names]
            for name in names:
                target = _owner(name) if name.split(".")[0] == "sheetkit" else None
                if target is None:
                    note(outside, name.split(".")[0], Import(child.lineno, inner))
                elif target != mod:
                    note(inside, target, Import(child.lineno, inner))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), TOP)
    return inside, outside


@cache
def imports() -> tuple[dict[str, dict[str, Import]], dict[str, dict[str, Import]]]:
    """(module -> {sheetkit module it imports: Import}, module -> {outside package: Import})."""
    read = {mod: _read(mod, path) for mod, path in MODULES.items()}
    return {m: r[0] for m, r in read.items()}, {m: r[1] for m, r in read.items()}


def _matches(pattern: str, mod: str) -> bool:
    return mod.startswith(pattern[:-1]) if pattern.endswith(".*") else mod == pattern


@cache
def layer_of(mod: str) -> int:
    """The floor of a module (its index in LAYERS): the most precise pattern that names it."""
    hits = [(not p.endswith(".*"), len(p), i) for i, (_, pats) in enumerate(LAYERS) for p in pats if _matches(p, mod)]
    if not hits:
        raise LookupError(mod)
    hits.sort(reverse=True)
    if len(hits) > 1 and hits[0][:2] == hits[1][:2] and hits[0][2] != hits[1][2]:
        raise LookupError(f"{mod}: on two floors, {LAYERS[hits[0][2]][0]} and {LAYERS[hits[1][2]][0]}")
    return hits[0][2]


def game_of(mod: str) -> str | None:
    """The game package a module belongs to (sheetkit.games.<game>...), if any."""
    parts = mod.split(".")
    return parts[2] if LAYERS[layer_of(mod)][0] == "games" and len(parts) > 2 else None


def _excused(edge: tuple[str, str]) -> bool:
    return edge in ALLOWED or edge in BEING_REWORKED


def _where(a: str, b: str) -> str:
    imp = imports()[0][a][b]
    return f"{MODULES[a].relative_to(ROOT)}:{imp.line}: {a} -> {b}" + ("" if imp.where == TOP else f" ({imp.where})")


def test_every_module_is_on_one_floor():
    lost = []
    for mod in MODULES:
        try:
            layer_of(mod)
        except LookupError as e:
            lost.append(str(e))
    assert not lost, "modules on no floor (or two) of LAYERS: " + ", ".join(lost)


def test_no_import_goes_up_a_floor():
    up = []
    for a, targets in imports()[0].items():
        for b in targets:
            if layer_of(b) > layer_of(a) and not _excused((a, b)):
                up.append(f"{_where(a, b)}  ({LAYERS[layer_of(a)][0]} imports {LAYERS[layer_of(b)][0]})")
    assert not up, "imports up a floor:\n" + "\n".join(up)


def test_a_game_imports_no_other_game():
    across = [_where(a, b) for a, targets in imports()[0].items() for b in targets
              if game_of(a) and game_of(b) and game_of(a) != game_of(b) and not _excused((a, b))]
    assert not across, "a game importing another game:\n" + "\n".join(across)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of two or more modules (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_cycle():
    graph = {a: {b for b in targets if not _excused((a, b))} for a, targets in imports()[0].items()}
    found = []
    for comp in _cycles(graph):
        inside = set(comp)
        found.append("cycle: " + ", ".join(comp) + "\n" + "\n".join(
            "    " + _where(a, b) for a in comp for b in sorted(graph[a] & inside)))
    assert not found, "\n".join(found)


def test_loading_the_rules_loads_no_models_or_rendering():
    """A game's rules.py, and every sheetkit module it loads when it is imported, import
    neither pydantic nor a rendering library nor click: the rules are plain data and
    functions (games/__init__.py, the floor plan). Imports inside functions and under
    TYPE_CHECKING are not followed: they do not run when the rules are loaded."""
    inside, outside = imports()
    bad = []
    for rules in (m for m in MODULES if m.endswith(".rules") and game_of(m)):
        chain = {rules: [rules]}
        todo = [rules]
        while todo:
            m = todo.pop()
            for lib in NO_RULES_IMPORT:
                if lib in outside[m] and outside[m][lib].where == TOP:
                    bad.append(f"{rules} loads {lib}: " + " -> ".join(chain[m])
                               + f" ({MODULES[m].relative_to(ROOT)}:{outside[m][lib].line})")
            for n, imp in inside[m].items():
                if imp.where == TOP and n not in chain:
                    chain[n] = chain[m] + [n]
                    todo.append(n)
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", ["ALLOWED", "BEING_REWORKED"])
def test_every_exception_is_still_an_import(name):
    listed = globals()[name]
    stale = [f"{a} -> {b}" for a, b in listed if b not in imports()[0].get(a, {})]
    assert not stale, f"{name} lists imports that are gone (remove them): " + ", ".join(stale)
    assert all(why.strip() for why in listed.values())


def floors_table() -> str:
    """The floors as docs/adding-a-game.md shows them, top floor first."""
    width = max(len(n) for n, _ in LAYERS)
    lines = []
    for name, patterns in reversed(LAYERS):
        lines.append(f"{name:<{width}}  {FLOORS[name]}")
        lines += textwrap.wrap(", ".join(patterns), 90, initial_indent=" " * (width + 4),
                               subsequent_indent=" " * (width + 4), break_on_hyphens=False)
    return "\n".join(lines)


def test_the_docs_show_these_floors():
    doc = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    assert floors_table() in doc, "docs/adding-a-game.md: copy the floors again:\n\n" + floors_table()


if __name__ == "__main__":  # python tests/test_layers.py: the table for the docs
    sys.stdout.write(floors_table() + "\n")
