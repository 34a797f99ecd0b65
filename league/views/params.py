"""The query and form parameters the views read, parsed once the same way:
a whole number in the databases' range, a date, a name search, a table's
sort and page; with ``whole`` and ``canonical`` a parsed value is the one
string a page's cache key holds."""

from __future__ import annotations

import datetime

from django.core.paginator import EmptyPage
from django.http import HttpRequest
from django_tables2 import RequestConfig, Table

from league.db_bounds import int_param
from league.views.cached import canonical

MAX_PER_PAGE = 500


def configure_table(request: HttpRequest, table: Table, *, per_page: int) -> None:
    """Sorting and pagination of ``table`` from the query string, as
    ``RequestConfig`` does, but any page size or page number a person can
    type gives a page: sizes outside 1 to MAX_PER_PAGE are ``per_page``, a
    page past the last is the last."""
    RequestConfig(request, paginate=False).configure(table)
    size = int_param(request.GET.get(table.prefixed_per_page_field), maximum=MAX_PER_PAGE) or per_page
    page = int_param(request.GET.get(table.prefixed_page_field)) or 1
    try:
        table.paginate(per_page=size, page=page)
    except EmptyPage:
        table.paginate(per_page=size, page=table.paginator.num_pages)


SEARCH_LENGTH = 40


def search_param(value: str) -> str | None:
    """A name search as the page and its cache key hold it: spaces trimmed
    and collapsed, at most SEARCH_LENGTH characters, without ``&``, ``=``
    and ``|``, which would blur the cache key's parts; None when empty.

    >>> search_param("  jun   ko "), search_param("a&b=c"), search_param("  ")
    ('jun ko', 'abc', None)
    """
    text = " ".join(value.translate({ord(c): None for c in "&=|"}).split())[:SEARCH_LENGTH].strip()
    return text or None


def whole(value: str) -> str | None:
    """A whole-number parameter as the cache key holds it (``int_param``'s reading)."""
    return canonical(int_param(value))


def date_param(value: str | None) -> datetime.date | None:
    """A query parameter as an ISO date, or None when absent or not one."""
    try:
        return datetime.date.fromisoformat(value) if value else None
    except ValueError:
        return None


def site_root(request: HttpRequest) -> str:
    """The site's address as this request reached it, for the links a mail carries."""
    return request.build_absolute_uri("/").rstrip("/")
