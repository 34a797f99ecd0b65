"""Error mail to ADMINS that says when it could not be sent.

Django's ``AdminEmailHandler`` sends with ``fail_silently=True``: with no mail
server answering, the admins never hear of the 500 and nothing says why. This
handler sends the same mail, and when sending fails it logs the failure to the
``league.errormail`` logger (stderr only, so a failing mail never tries to mail
itself). The error itself is on stderr already, through the ``stderr`` handler.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core import mail
from django.utils.log import AdminEmailHandler

log = logging.getLogger(__name__)


class LoggedAdminEmailHandler(AdminEmailHandler):
    def send_mail(self, subject: str, message: str, *args: Any, **kwargs: Any) -> None:
        try:
            connection = mail.get_connection(backend=self.email_backend, fail_silently=False)
            mail.mail_admins(subject, message, *args, connection=connection, **kwargs)
        except Exception as err:  # any failure of the mail server or its address: said, never raised
            log.error("could not mail the error to ADMINS (%s): %s: %s", subject, type(err).__name__, err)
