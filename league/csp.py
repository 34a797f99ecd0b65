"""The Content-Security-Policy's two forms (docs/deploy.md,
"Content-Security-Policy").

Every page carries the site's one policy, built by django-csp from
``settings.CONTENT_SECURITY_POLICY``. What only the staff game page's script
fetches and never shows as a document (the live preview's fragment, which
the script puts into the page; the save's answer in place and a kept
batch's answer, JSON the script reads) carries ``FRAGMENT_POLICY``: nothing
may load, nothing may frame it, no form may post from it. A browser applies
no policy to a ``fetch``'s answer, so the page's own policy is what guards
what the script puts in place; were such an answer ever opened as a
document, it would load nothing.

django-csp builds its policy (and the report-only one) again for every
response, exempted or not: 0.1 ms of a live preview's 1.3-1.6 ms of CPU
(``tests/benchmarks/bench_phases.py``, issue 28), for a header no browser
reads on a script's fetch. ``league.middleware.CSPMiddleware`` is
django-csp's, which passes a response marked by ``as_fragment`` as it is.
"""

from __future__ import annotations

from typing import TypeVar

from csp.constants import HEADER
from django.http import HttpResponseBase

# default-src covers scripts, styles, images, fonts, connections, workers,
# frames and objects; the other three do not fall back to it.
FRAGMENT_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

Response = TypeVar("Response", bound=HttpResponseBase)


def as_fragment(response: Response) -> Response:
    """``response``, which only the page's script fetches, with ``FRAGMENT_POLICY``."""
    response[HEADER] = FRAGMENT_POLICY
    response._tenbou_fragment = True  # type: ignore[attr-defined]
    return response


def is_fragment(response: HttpResponseBase) -> bool:
    """Whether ``response`` went through ``as_fragment`` and keeps its policy."""
    return getattr(response, "_tenbou_fragment", False) and response.get(HEADER) == FRAGMENT_POLICY
