"""The import structure of ``scoring`` and ``league``, read with ``ast`` (no
module is imported): the pure packages import no Django, not even through a
module of ours; no import cycle, between modules or between packages; every
module sits in a layer (``LAYERS``) and imports nothing from a layer above its own; no module imports a private
name of another (save inside one pure package), and no view module takes a
name through another view module.

Every import counts, at the top of a module or inside a function (a
function-level import only postpones the cycle), except under
``if TYPE_CHECKING:``. A module of a package of models (``league/models/``)
counts as the package, as Django loads them together. ``pytest -s
tests/test_import_graph.py`` (or ``python tests/test_import_graph.py``)
prints a report: modules, layers, the import depth and its longest chain,
cycles, upward imports, private imports, cycles between packages (refused
too), the largest modules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "league")

# The pure packages and modules (no Django, fast tests of their own; STYLE.md).
PURE = ("scoring", "league.tenhou", "league.seating", "league.event", "league.entry", "league.tiebreaks",
        "league.ratings")
DJANGO = ("django", "django_tables2", "axes", "django_ratelimit", "csp", "whitenoise")

# Packages whose modules count as one node: Django loads every model module
# when the app is ready, so models.games -> versions -> models is one cycle.
ONE_NODE = ("league.models",)

# The layers, lowest first: a module imports from its own layer or lower
# ones, never from a higher one. A module's layer is that of the longest
# prefix naming it; a module no prefix names fails the test (give it one).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The database's limits, the order of names and the bounded memo:
    # standard library only, shared by the pure packages and the app.
    ("leaves", ("league.db_bounds", "league.collation", "league.bounded_map")),
    ("engine", ("scoring",)),
    ("pure", PURE[1:]),
    # Leaves: our words, limits, settings and the cache stamps; no model.
    ("base", ("league", "league.stamps", "league.engine_words", "league.charts",
              "league.offline_assets", "league.settings", "league.auth", "league.errormail", "league.formats",
              "league.api")),
    ("models", ("league.models",)),
    # Multi-row writes and the reads that rank, export, check access or deliver.
    ("services and read models", ("league.services", "league.standings", "league.access", "league.exports",
                                  "league.game_records", "league.game_record_header", "league.stats", "league.ema",
                                  "league.csv_cells",
                                  "league.backup", "league.webhooks")),
    ("presentation", ("league.forms", "league.templatetags", "league.tables", "league.script_words",
                      "league.round_names")),
    ("web", ("league.views", "league.middleware", "league.admin")),
    ("entry points", ("league.urls", "league.apps", "league.wsgi", "league.management", "league.migrations")),
)

@dataclass
class Module:
    name: str
    path: Path
    lines: int
    imports: set[str] = field(default_factory=set)  # modules of ours (nodes)
    external: set[str] = field(default_factory=set)  # top-level names of everything else
    names: set[tuple[str, str]] = field(default_factory=set)  # (module of ours, name) from `from m import name`
    borrowed: set[str] = field(default_factory=set)  # names bound by a `from m import name` at the top


def module_name(path: Path, root: Path = REPO) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def node_of(name: str) -> str:
    for package in ONE_NODE:
        if name == package or name.startswith(package + "."):
            return package
    return name


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, skipping the bodies of ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def build_graph(root: Path = REPO) -> dict[str, Module]:
    """Every module of ``scoring`` and ``league`` by dotted name, with the
    modules of ours it imports, resolved as Python would resolve them."""
    paths = sorted(p for package in PACKAGES for p in (root / package).rglob("*.py"))
    modules = {module_name(p, root): Module(module_name(p, root), p, len(p.read_text(encoding="utf-8").splitlines()))
               for p in paths}
    for name, module in modules.items():
        is_package = module.path.name == "__init__.py"
        tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
        module.borrowed = {a.asname or a.name for s in tree.body if isinstance(s, ast.ImportFrom) for a in s.names}
        for stmt in _imports(tree):
            if isinstance(stmt, ast.Import):
                targets = [(alias.name, None) for alias in stmt.names]
            else:
                base = stmt.module or ""
                if stmt.level:
                    anchor = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = anchor[: len(anchor) - (stmt.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [(f"{base}.{a.name}", a.name) if f"{base}.{a.name}" in modules else (base, a.name)
                           for a in stmt.names]
            for target, imported in targets:
                if target.split(".")[0] not in PACKAGES:
                    module.external.add(target.split(".")[0])
                    continue
                while target not in modules and "." in target:  # `import league.x.y` of a name
                    target = target.rsplit(".", 1)[0]
                module.imports.add(target)
                if imported is not None and not target.endswith("." + imported):
                    module.names.add((target, imported))
    return modules


def node_graph(modules: dict[str, Module]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, module in modules.items():
        edges = graph.setdefault(node_of(name), set())
        edges.update(node_of(t) for t in module.imports)
    for node, edges in graph.items():
        edges.discard(node)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def is_pure(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PURE)


def django_reached(modules: dict[str, Module], start: str) -> list[str] | None:
    """The chain of imports from ``start`` to a module that imports Django, or None."""
    seen = {start: [start]}
    queue = [start]
    while queue:
        name = queue.pop(0)
        if set(DJANGO) & modules[name].external:
            return seen[name]
        for target in sorted(modules[name].imports):
            if target not in seen:
                seen[target] = [*seen[name], target]
                queue.append(target)
    return None


def pure_package(name: str) -> str | None:
    """The pure package (not a single module) that ``name`` belongs to, or None."""
    return next((p for p in PURE if name.startswith(p + ".")), None)


def private_imports(modules: dict[str, Module]) -> set[tuple[str, str, str]]:
    """Every import of a private name (one leading underscore) of another
    module, as (importer, imported module, name). A pure package shares its
    private helpers among its own modules (``league.tenhou``'s readers, the
    ``scoring`` engine), as a library does; anywhere else a helper two
    modules need is a public name of a small module."""
    return {(name, target, imported) for name, module in modules.items()
            for target, imported in module.names
            if target != name and imported.startswith("_") and not imported.startswith("__")
            and not (pure_package(name) and pure_package(name) == pure_package(target))}


def is_view(name: str) -> bool:
    return name.startswith("league.views.")


def view_reexports(modules: dict[str, Module]) -> set[tuple[str, str, str]]:
    """A view module importing from another view module a name that module
    itself imported (``can_score`` through ``views.staff``): it goes to the
    name's own module instead, so that views do not lean on each other."""
    return {(name, target, imported) for name, module in modules.items() if is_view(name)
            for target, imported in module.names
            if is_view(target) and target != name and imported in modules[target].borrowed}


def layer_of(name: str) -> int | None:
    """The index in ``LAYERS`` of the longest prefix naming ``name``, or None."""
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    return None if best is None else best[1]


def upward_imports(modules: dict[str, Module]) -> list[tuple[str, str]]:
    """Every (importer, imported) where the imported module's layer is above the importer's."""
    found = []
    for name, module in sorted(modules.items()):
        for target in sorted(module.imports):
            low, high = layer_of(name), layer_of(target)
            if low is not None and high is not None and high > low:
                found.append((name, target))
    return found


def depth(graph: dict[str, set[str]]) -> tuple[int, list[str]]:
    """The longest chain of imports, a cycle counted as one step (the graph
    of its strongly connected components), with the chain."""
    component = {node: node for node in graph}
    for cycle in cycles(graph):
        label = "{" + ", ".join(sorted(cycle)) + "}"
        component.update(dict.fromkeys(cycle, label))
    dag: dict[str, set[str]] = {}
    for node, edges in graph.items():
        dag.setdefault(component[node], set()).update(component.get(e, e) for e in edges)
    for node, edges in dag.items():
        edges.discard(node)
    memo: dict[str, list[str]] = {}

    def longest(node: str) -> list[str]:
        if node not in memo:
            memo[node] = [node, *max((longest(c) for c in sorted(dag.get(node, ()))), key=len, default=[])]
        return memo[node]

    chain = max((longest(n) for n in sorted(dag)), key=len)
    return len(chain) - 1, chain


def unit_graph(modules: dict[str, Module]) -> dict[str, set[str]]:
    """The graph of packages and top-level modules (``scoring`` whole,
    ``league.views``, ``league.game_records``...): no cycle either, so that
    within one layer too a package is read before the ones that use it (the
    services use the read models, never the reverse)."""
    def unit(name: str) -> str:
        return "scoring" if name.startswith("scoring") else ".".join(name.split(".")[:2])

    graph: dict[str, set[str]] = {}
    for name, module in modules.items():
        graph.setdefault(unit(name), set()).update(unit(t) for t in module.imports)
    for node, edges in graph.items():
        edges.discard(node)
    return graph


def report(modules: dict[str, Module] | None = None) -> str:
    modules = modules or build_graph()
    graph = node_graph(modules)
    n, chain = depth(graph)
    largest = sorted(modules.values(), key=lambda m: -m.lines)[:5]
    in_league = max((m for m in modules.values() if m.name.startswith("league.")), key=lambda m: m.lines)
    layers = [sum(layer_of(name) == i for name in modules) for i in range(len(LAYERS))]
    found = cycles(graph)
    upward = upward_imports(modules)
    private = private_imports(modules)
    units = unit_graph(modules)
    unit_depth, _ = depth(units)
    lines = [
        f"{len(modules)} modules ({sum(m.lines for m in modules.values()):,} lines), "
        f"{sum(len(e) for e in graph.values())} imports between {len(graph)} nodes",
        f"{len(LAYERS)} layers: " + ", ".join(f"{name} ({count})" for (name, _), count in zip(LAYERS, layers, strict=True)),
        f"import depth: {n} ({' -> '.join(chain)})",
        f"cycles: {len(found)}", *(f"  {' <-> '.join(sorted(c))}" for c in found),
        f"upward imports: {len(upward)}", *(f"  {a} -> {b}" for a, b in upward),
        f"private imports: {len(private)}", *(f"  {a} imports {c} from {b}" for a, b, c in sorted(private)),
        f"{len(units)} packages and top-level modules, import depth {unit_depth}, cycles between them: "
        + ("; ".join(" <-> ".join(sorted(c)) for c in cycles(units)) or "none"),
        f"largest module in league/: {in_league.name} ({in_league.lines:,} lines)",
        "largest modules: " + ", ".join(f"{m.name} ({m.lines:,} lines)" for m in largest),
    ]
    return "\n".join(lines)


MODULES = build_graph()


def test_the_pure_packages_import_no_django() -> None:
    pure = [name for name in MODULES if is_pure(name)]
    assert len(pure) > 20 and "scoring.game" in pure and "league.tiebreaks" in pure
    assert {name: chain for name in pure if (chain := django_reached(MODULES, name))} == {}


def test_no_import_cycle() -> None:
    assert cycles(node_graph(MODULES)) == []


def test_no_cycle_between_packages() -> None:
    """``league.services`` uses ``league.standings``, so no read model uses a
    service; the scripts' words use the round names, not the template tags."""
    assert cycles(unit_graph(MODULES)) == []


def test_every_module_has_a_layer() -> None:
    assert [name for name in MODULES if layer_of(name) is None] == []


def test_no_import_points_up_a_layer() -> None:
    assert upward_imports(MODULES) == []


def test_no_module_imports_a_private_name_of_another() -> None:
    assert private_imports(MODULES) == set()


def test_no_view_imports_a_name_through_another_view() -> None:
    assert view_reexports(MODULES) == set()


# The views' shared helpers: small public modules any page module may import.
VIEW_HELPERS = ("league.views.access", "league.views.params", "league.views.cached", "league.views.refusals",
                "league.views.entry_form", "league.views.game_page")
# A page that shows a part of another family's page: the event's players page holds the sign-up desk.
PAGE_PARTS = {("league.views.event_staff", "league.views.signup")}


def page_imports(modules: dict[str, Module]) -> set[tuple[str, str]]:
    """Every (page module, page module) import within ``league.views``, save of the helpers."""
    return {(name, target) for name, module in modules.items() if is_view(name)
            for target in module.imports
            if is_view(target) and target != name and target not in VIEW_HELPERS}


def test_no_page_module_imports_another() -> None:
    """A helper two page modules share is in a small public module
    (``VIEW_HELPERS``), so the views are one layer deep, not a stack."""
    assert page_imports(MODULES) - PAGE_PARTS == set()


def test_every_middleware_of_ours_is_in_one_module() -> None:
    """A class named ``*Middleware`` lives in ``league/middleware.py``, and
    every middleware of ours that the settings list is from there."""
    classes = {(name, node.name) for name, module in MODULES.items()
               for node in ast.walk(ast.parse(module.path.read_text(encoding="utf-8")))
               if isinstance(node, ast.ClassDef) and node.name.endswith("Middleware")}
    assert {name for name, _ in classes} == {"league.middleware"}
    settings = ast.parse((REPO / "league" / "settings.py").read_text(encoding="utf-8"))
    listed = {node.value for node in ast.walk(settings)
              if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith("Middleware")}
    ours = {path for path in listed if path.startswith("league.")}
    assert ours == {f"league.middleware.{cls}" for _, cls in classes}


def test_the_checks_find_what_they_guard_against(tmp_path: Path) -> None:
    """A small tree with one of each fault: the checks are not vacuous."""
    files = {
        "scoring/__init__.py": "",
        "scoring/core.py": "def f():\n    from league import helper\n",
        "league/__init__.py": "",
        "league/helper.py": "from django.db import models\n",
        "league/a.py": "from league import b\n",
        "league/b.py": "def f():\n    from . import a\n",
        "league/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from league import a\n",
        "league/views/__init__.py": "",
        "league/views/one.py": "from .two import _helper, public\n",
        "league/views/two.py": "from league.views import __doc__\nfrom league.helper import models\n",
        "league/views/three.py": "from league.views.two import models\n",
        "league/services/__init__.py": "",
        "league/services/three.py": "from league.helper import _rounding\n",
        "league/tenhou/__init__.py": "",
        "league/tenhou/read.py": "from league.tenhou.tiles import _notation\n",
        "league/tenhou/tiles.py": "",
        # Packages that lean on each other through different modules: no module cycle, a package cycle.
        "league/pkg1/__init__.py": "",
        "league/pkg1/x.py": "from league.pkg2 import y\n",
        "league/pkg1/w.py": "",
        "league/pkg2/__init__.py": "",
        "league/pkg2/y.py": "",
        "league/pkg2/z.py": "from league.pkg1 import w\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    modules = build_graph(tmp_path)
    assert django_reached(modules, "scoring.core") == ["scoring.core", "league.helper"]
    assert cycles(node_graph(modules)) == [frozenset({"league.a", "league.b"})]
    assert sorted(cycles(unit_graph(modules)), key=sorted) == [frozenset({"league.a", "league.b"}),
                                                              frozenset({"league.pkg1", "league.pkg2"})]
    assert private_imports(modules) == {("league.views.one", "league.views.two", "_helper"),
                                        ("league.services.three", "league.helper", "_rounding")}
    assert view_reexports(modules) == {("league.views.three", "league.views.two", "models")}
    assert page_imports(modules) == {("league.views.one", "league.views.two"), ("league.views.three", "league.views.two")}
    assert ("league.services.three", "league.helper") not in upward_imports(modules)  # helper: base (prefix league)
    assert upward_imports(modules) == [("scoring.core", "league.helper")]
    assert modules["league.typed"].imports == set()


def test_report() -> None:
    text = report(MODULES)
    print("\n" + text)
    assert text.startswith(f"{len(MODULES)} modules")


if __name__ == "__main__":
    print(report())
