"""The live preview's own steps, warm, one by one (issue 28): the posted
hand's parse (``PostedHand``: ``clean_fields``, then ``HandEntry``), the
pricing and its words (``priced``: ``preview_entry``, ``describe_payments``,
the digest) and the markup (``preview_html``), each called in a loop
outside any request.

    python tests/benchmarks/bench_preview_steps.py [--loops 3000] [--language en] [--before DIR]

Not collected by pytest. Set up as ``bench_entry.py`` sets up (a throwaway
SQLite file), a game of six hands saved through the page, then the seventh
hand posted as the page posts it (a ron with a riichi stick). Each figure is
the best of five rounds of ``--loops`` calls, in microseconds of process CPU.
A request pays these steps with colder caches (``bench_phases.py --taps``
times them inside a tap); this says what the code itself costs, with far
less noise than a request. ``--before DIR`` runs the same in a copy of the
code before (``git archive <rev> | tar -x -C DIR``), in a fresh process
right after this one's.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("TENBOU_BENCH_CODE") or Path(__file__).resolve().parents[2])
sys.path.insert(0, str(ROOT))
# The bodies come from this folder's builder whatever tree is measured (one without it too).
sys.path.append(str(Path(__file__).resolve().parent))
import form_body  # noqa: E402


def measure(loops: int, language: str) -> list[tuple[str, float]]:
    from tests.benchmarks import bench_entry as be

    be._setup(tempfile.mkdtemp(prefix="bench-steps-"))
    from django.http import QueryDict
    from django.urls import reverse
    from django.utils import translation

    from league.models import Game
    from league.services import describe_payments, entry
    from league.templatetags.hand_preview import preview_html
    from league.views.entry_form import PostedHand, priced

    translation.activate(language)
    bench = be.Bench()
    bench.client = form_body.csrf_client(bench.client)
    headers = {**form_body.HEADERS, "HTTP_X_TENBOU_ENTRY": "1"}
    url = reverse("staff-game", args=[bench.game.pk])
    for i in range(6):
        form = form_body.EntryPage(bench.client.get(url).content.decode())
        form.tap(form_body.hand_choices(i))
        shown = bench.client.post(reverse("staff-preview", args=[bench.game.pk]), form.preview_body(), **headers)
        form.shown(re.search(rb'data-digest="([^"]+)"', shown.content).group(1).decode())  # type: ignore[union-attr]
        saved = bench.client.post(url, form.save_body(), **headers)
        assert saved.headers.get("X-Tenbou-Saved"), saved.status_code
    form = form_body.EntryPage(bench.client.get(url).content.decode())
    form.tap(form_body.hand_choices(1))
    now = entry.read_game(Game.objects.get(pk=bench.game.pk))
    number = now.next_number
    posted = entry.claimed(QueryDict(form.preview_body()), now, mutable=False)
    form = PostedHand(now, number, posted)
    shown = entry.preview_entry(now, number, form.hand)
    context = {"form": form, "names": form.names, **priced(now, form, None)}

    def whole() -> Any:
        f = PostedHand(now, number, posted)
        return preview_html({"form": f, "names": f.names, **priced(now, f, None)})

    steps: list[tuple[str, Callable[[], Any]]] = [
        ("PostedHand (the parse)", lambda: PostedHand(now, number, posted)),
        ("priced (pricing, words, digest)", lambda: priced(now, form, None)),
        ("  preview_entry", lambda: entry.preview_entry(now, number, form.hand)),
        ("  describe_payments", lambda: describe_payments(shown.played.result, now.names)),
        ("  entry.digest", lambda: entry.digest(form.hand)),
        ("preview_html (the markup)", lambda: preview_html(context)),
        ("the three together", whole),
    ]
    out = []
    for label, fn in steps:
        for _ in range(200):
            fn()
        best = []
        for _ in range(5):
            start = time.process_time_ns()
            for _ in range(loops):
                fn()
            best.append((time.process_time_ns() - start) / loops / 1000)
        out.append((label, min(best)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loops", type=int, default=3000)
    parser.add_argument("--language", default="en")
    parser.add_argument("--before", type=Path)
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; best of 5 x {args.loops} calls, "
          f"us of process CPU, language {args.language}")
    print(f"-- {ROOT}")
    for label, us in measure(args.loops, args.language):
        print(f"   {us:8.2f}  {label}")
    if args.before:
        sys.stdout.flush()
        # The same script, measuring the copy before (its code on the path, this file's steps).
        env = {**os.environ, "TENBOU_BENCH_CODE": str(args.before.resolve())}
        subprocess.run([sys.executable, __file__, "--loops", str(args.loops), "--language", args.language],
                       env=env, check=True)


if __name__ == "__main__":
    main()
