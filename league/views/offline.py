"""What a phone fetches to price hands without network (OFFLINE_CONTRACT.md):
the Pyodide runtime and the server's own Python (``league.offline_assets``), and one
game as the engine reads it. The runtime and the Python are public (they hold
nothing of the league's); a game's state is for its scorers only."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from league import offline_assets
from league.access import game_for_scorer
from league.services import entry
from league.views.access import staff_required

ENGINE_JS = offline_assets.REPO / "league" / "static" / "league" / "engine.js"
CONTENT_TYPES = {".js": "text/javascript", ".wasm": "application/wasm", ".zip": "application/zip",
                 ".json": "application/json"}


@require_GET
def engine_info(request: HttpRequest) -> JsonResponse:
    """Whether offline entry is on, and every URL (with its size) the phone must keep."""
    st = offline_assets.status()
    files = []
    if st.available:
        # engine.json itself too: engine.js reads it first, offline as well.
        files = [reverse("offline-engine"), reverse("offline-engine-js"), reverse("offline-engine-zip")]
        files += [reverse("offline-runtime", args=[name]) for name in offline_assets.RUNTIME_FILES]
    return JsonResponse({
        "available": st.available, "notice": st.notice, "pyodide": offline_assets.PYODIDE_VERSION, "files": files,
        "bytes": sum(s["bytes"] for s in st.sizes.values()) if st.available else 0,
        "gzip_bytes": sum(s["gzip_bytes"] for s in st.sizes.values()) if st.available else 0,
        "sizes": st.sizes if st.available else {},
    })


@require_GET
def runtime(request: HttpRequest, name: str) -> FileResponse:
    """One file of the pinned Pyodide runtime (its version never changes under this URL)."""
    path = offline_assets.ASSETS / name
    if name not in offline_assets.RUNTIME_FILES or not path.is_file():
        raise Http404("offline entry is off: the Pyodide runtime was not fetched")
    packed = path.with_name(name + ".gz")
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "") and packed.is_file()
    # FileResponse would guess "application/gzip" for the .gz: the type is the file's own.
    response = FileResponse((packed if gzipped else path).open("rb"), content_type=CONTENT_TYPES[path.suffix])
    if gzipped:
        response["Content-Encoding"] = "gzip"
    response["Vary"] = "Accept-Encoding"
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_GET
def engine_zip(request: HttpRequest) -> HttpResponse:
    """The phone's Python (scoring, league.entry) as one zip, with an ETag."""
    z = offline_assets.engine_zip()
    if request.headers.get("If-None-Match") == z.etag:
        return HttpResponseNotModified(headers={"ETag": z.etag})
    return HttpResponse(z.data, content_type="application/zip", headers={"ETag": z.etag, "Cache-Control": "no-cache"})


@require_GET
def engine_js(request: HttpRequest) -> HttpResponse:
    """engine.js under /staff/, inside the service worker's scope."""
    return HttpResponse(ENGINE_JS.read_bytes(), content_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


@staff_required
@require_GET
def game_state(request: HttpRequest, pk: int) -> JsonResponse:
    """The game as the phone's engine reads it: its GAME RECORD, the seats'
    names, the next hand's number and the digest of the stored hands."""
    # The game's read as the staff page's requests share it (entry.read_game): a page's
    # offline_assets.json after a save reads nothing again.
    return JsonResponse(entry.phone_state(entry.read_game(game_for_scorer(request, pk))))
