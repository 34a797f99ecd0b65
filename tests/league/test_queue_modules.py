"""The offline queue is small ES modules, no build step (issue 30): queue.js is
gone; ``league/static/league/queue/`` holds the modules the page loads (main.js,
which imports the rest), each under 250 lines, each reached from main.js by its
imports, and every one kept by the service worker for an offline reload."""

from __future__ import annotations

import re
from pathlib import Path

from django.test import Client
from django.urls import reverse

from league.views.webapp import QUEUE_MODULES

STATIC = Path(__file__).resolve().parents[2] / "league" / "static" / "league"
IMPORT = re.compile(r'^import \{([^}]*)\} from "\./(\w+)\.js";$', re.M)


def imports(name: str) -> dict[str, set[str]]:
    """The modules ``name`` imports, each with the names it takes."""
    text = (STATIC / "queue" / f"{name}.js").read_text()
    return {module: {n.strip() for n in names.split(",")} for names, module in IMPORT.findall(text)}


def test_queue_js_is_gone_and_its_modules_are_small() -> None:
    assert not (STATIC / "queue.js").exists()
    on_disk = sorted(p.stem for p in (STATIC / "queue").glob("*.js"))
    assert on_disk == sorted(QUEUE_MODULES)
    assert {"store", "banner", "pricing", "sending", "conflict", "login"} <= set(on_disk)
    for name in on_disk:
        lines = (STATIC / "queue" / f"{name}.js").read_text().count("\n")
        assert lines <= 250, f"queue/{name}.js has {lines} lines"


def test_main_reaches_every_module_and_each_import_is_exported() -> None:
    seen, todo = set(), ["main"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for module, names in imports(name).items():
            text = (STATIC / "queue" / f"{module}.js").read_text()
            exported = set(re.findall(r"^export function (\w+)", text, re.M))
            exported |= {n for decl in re.findall(r"^export const ([^;]+);", text, re.M)
                         for n in re.findall(r"(?:^|,)\s*(\w+)\s*=", decl)}
            assert names <= exported, f"{name}.js imports {sorted(names - exported)} that {module}.js does not export"
            todo.append(module)
    assert seen == set(QUEUE_MODULES)


def test_the_worker_keeps_every_module(client: Client) -> None:
    text = client.get(reverse("staff-sw")).content.decode()
    for name in QUEUE_MODULES:
        assert f'"/static/league/queue/{name}.js"' in text
