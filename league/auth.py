"""Who may log in: everyone Django's model backend lets in, except the demo
scorer's published password on a production set-up.

``demo_league`` creates a scorer whose password is printed in the README, so a
newcomer can try the staff pages. A database built that way and then served
with DEBUG off would keep a login anyone can guess; this backend refuses any
account whose password is that published one while DEBUG is off, both at login
and for a session opened before the switch.
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.hashers import check_password

DEMO_LOGIN = "scorer"
DEMO_PASSWORD = "scorer"


@functools.lru_cache(maxsize=256)
def has_demo_password(encoded: str) -> bool:
    """Whether a stored password hash is the published demo password.

    Memoised on the hash, so a session check costs one hashing per process,
    not one per request.
    """
    return bool(encoded) and check_password(DEMO_PASSWORD, encoded)


class NoDemoLoginBackend(ModelBackend):
    def user_can_authenticate(self, user: Any) -> bool:
        if not settings.DEBUG and has_demo_password(user.password or ""):
            return False
        return super().user_can_authenticate(user)
