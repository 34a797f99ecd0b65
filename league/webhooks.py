"""Sending the outbox (``league.models.Delivery``): after the commit, in a thread
of the web process itself, and from ``manage.py deliver_webhooks``.

Each delivery is one POST of the stored body, signed (``X-Tenbou-Signature``,
HMAC-SHA256 under the hook's secret), with the same ``X-Tenbou-Delivery`` id on
every retry; retried with ``BACKOFF``, given up after ``MAX_ATTEMPTS``. Never
reached: a non-http(s) URL, one with a user and password, a host with any
address that is not globally routable (checked, then connected to; no
redirects; answers cut at ``READ_SECONDS`` and ``MAX_ANSWER_BYTES``). A delivery
is claimed by a conditional update before it is sent, so two processes never
send it at once. docs/api.md, "Webhooks".
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import hmac
import ipaddress
import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from django.conf import settings
from django.db import connection
from django.utils import timezone

from league.models import Delivery

logger = logging.getLogger(__name__)

CONNECT_SECONDS = 3.0
READ_SECONDS = 5.0  # a receiver that hangs is cut off here
MAX_ANSWER_BYTES = 64 * 1024
MAX_ATTEMPTS = 8
# Seconds before attempt n + 1 after n failures: 30 s, 2 min, 8 min, 30 min, then hourly.
BACKOFF = (30, 120, 480, 1800, 3600, 3600, 3600)
LEASE_SECONDS = 60  # longer than one send can take (connect + read + the cut-off)
POLL_SECONDS = 15  # how often the thread looks for retries that fell due
SIGNATURE = "X-Tenbou-Signature"
DELIVERY = "X-Tenbou-Delivery"
EVENT = "X-Tenbou-Event"


def sign(secret: str, body: bytes) -> str:
    """The signature header's value: ``sha256=`` and the HMAC-SHA256 of the body.

    >>> sign("s3cret", b'{"event":"game_finished"}')
    'sha256=1047a9c62c62bb0e86bc6998b5ddc77de324f460f6a1881d0e0f8fde1762a10f'
    """
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class Refused(Exception):
    """A target Tenbou will not send to, and why (shown to the director)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _allowed(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 is loopback
    if ip.is_loopback and getattr(settings, "WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS", False):
        return True
    return ip.is_global and not ip.is_multicast


@dataclass(frozen=True)
class Target:
    url: str  # with the checked address in place of the name
    host: str  # the name, for the Host header and TLS
    host_header: str
    address: str


def check_target(url: str, *, resolve: Callable[..., Any] = socket.getaddrinfo) -> Target:
    """Where ``url`` may be reached, or ``Refused``: the scheme, the host, and
    every address its name resolves to."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise Refused("bad_url", f"not a URL: {exc}") from None
    if parts.scheme not in ("http", "https"):
        raise Refused("scheme", "only http and https URLs are sent to")
    if parts.username or parts.password:
        raise Refused("credentials", "a URL with a user or password is not sent to")
    host = parts.hostname
    if not host:
        raise Refused("bad_url", "the URL has no host")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        found = resolve(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise Refused("unresolved", f"{host} does not resolve: {exc}") from None
    addresses = []
    for info in found:
        text = str(info[4][0]).split("%")[0]
        ip = ipaddress.ip_address(text)
        if not _allowed(ip):
            raise Refused("address", f"{host} resolves to {ip}, which is not a public address")
        addresses.append(ip)
    if not addresses:
        raise Refused("unresolved", f"{host} has no address")
    ip = addresses[0]
    netloc = f"[{ip}]:{port}" if ip.version == 6 else f"{ip}:{port}"
    default = port == (443 if parts.scheme == "https" else 80)
    header = (f"[{host}]" if ":" in host else host) + ("" if default else f":{port}")
    return Target(url=urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, "")), host=host,
                  host_header=header, address=str(ip))


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    status: int | None
    error: str


@functools.cache
def _tls() -> ssl.SSLContext:
    # Made once: loading the certificate authorities is most of what a new
    # client costs, CPU the web process's own requests would wait for.
    return ssl.create_default_context()


def send(url: str, secret: str, event: str, delivery_id: str, body: bytes) -> Outcome:
    """One POST, cut off when slow or large; never raises for the receiver's sake."""
    try:
        target = check_target(url)
    except Refused as exc:
        return Outcome(False, None, exc.message)
    headers = {"Content-Type": "application/json", "User-Agent": "Tenbou-Webhooks/1", "Host": target.host_header,
               EVENT: event, DELIVERY: delivery_id, SIGNATURE: sign(secret, body)}
    timeout = httpx.Timeout(READ_SECONDS, connect=CONNECT_SECONDS)
    started = time.monotonic()
    try:
        # No environment proxies (trust_env): the checked address is the one connected to.
        # No pooled connections: a connection checked for one name is never reused for another.
        with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False, verify=_tls(),
                          limits=httpx.Limits(max_keepalive_connections=0)) as client:
            with client.stream("POST", target.url, content=body, headers=headers,
                               extensions={"sni_hostname": target.host}) as response:
                size = 0
                for chunk in response.iter_raw():
                    size += len(chunk)
                    if size > MAX_ANSWER_BYTES or time.monotonic() - started > READ_SECONDS + CONNECT_SECONDS:
                        break  # what the answer says past here does not matter: cut off
                status = response.status_code
    except httpx.HTTPError as exc:
        return Outcome(False, None, f"{type(exc).__name__}: {exc}"[:200])
    if 300 <= status < 400:
        return Outcome(False, status, "a redirect: redirects are not followed")
    return Outcome(200 <= status < 300, status, "" if 200 <= status < 300 else f"answered {status}")


def deliver_due(*, now: datetime.datetime | None = None, limit: int = 20) -> int:
    """Send up to ``limit`` deliveries that are due; how many were tried."""
    now = now or timezone.now()
    due = list(Delivery.objects.filter(state=Delivery.State.PENDING, next_attempt_at__lte=now)
               .order_by("next_attempt_at", "pk").values_list("pk", "next_attempt_at")[:limit])
    tried = 0
    for pk, when in due:
        lease = now + datetime.timedelta(seconds=LEASE_SECONDS)
        # Claimed by whoever moves it first: another process finds it no longer due.
        if not Delivery.objects.filter(pk=pk, state=Delivery.State.PENDING, next_attempt_at=when).update(
                next_attempt_at=lease):
            continue
        delivery = Delivery.objects.select_related("hook").get(pk=pk)
        outcome = send(delivery.hook.url, delivery.hook.secret, delivery.event, str(delivery.delivery_id),
                       delivery.body.encode())
        tried += 1
        record(delivery, outcome, now=now)
    return tried


def record(delivery: Delivery, outcome: Outcome, *, now: datetime.datetime) -> None:
    """The attempt's outcome on the delivery: delivered, tried again later (the
    backoff counted from ``now``, the round's time), or given up."""
    attempts = delivery.attempts + 1
    fields: dict[str, Any] = {"attempts": attempts, "last_status": outcome.status, "last_error": outcome.error[:200]}
    if outcome.delivered:
        fields.update(state=Delivery.State.DELIVERED, delivered_at=now)
    elif attempts >= MAX_ATTEMPTS or not delivery.hook.active:
        fields.update(state=Delivery.State.FAILED)
    else:
        fields.update(next_attempt_at=now + datetime.timedelta(seconds=BACKOFF[min(attempts, len(BACKOFF)) - 1]))
    Delivery.objects.filter(pk=delivery.pk).update(**fields)


# -- the thread in the web process ------------------------------------------------------------------


_wake = threading.Event()
_thread: threading.Thread | None = None
_thread_lock = threading.Lock()


def wake() -> None:
    """Ask the process's delivery thread to look at the outbox now, starting
    it on first use (``WEBHOOK_THREAD``; off, only ``deliver_webhooks`` sends)."""
    global _thread
    if not getattr(settings, "WEBHOOK_THREAD", True):
        return
    if _thread is None or not _thread.is_alive():
        with _thread_lock:
            if _thread is None or not _thread.is_alive():
                _thread = threading.Thread(target=_run, name="tenbou-webhooks", daemon=True)
                _thread.start()
    _wake.set()


def _run() -> None:
    while True:
        _wake.wait(timeout=POLL_SECONDS)
        _wake.clear()
        if not getattr(settings, "WEBHOOK_THREAD", True):
            continue  # turned off since it started (a test's settings)
        try:
            while deliver_due():
                pass
        except Exception:  # a database hiccup must not end the thread: the next wake tries again
            logger.exception("webhook delivery failed")
        finally:
            # This thread's own connection, closed between rounds: it holds nothing while it waits.
            connection.close()
