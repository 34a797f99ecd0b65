"""``python manage.py deliver_webhooks [--loop]``: send the webhook deliveries
that are due (``league.webhooks``), once or until stopped. The web processes
send them already (a thread each); this drains the outbox without a web
process (after a restart with no traffic, or with ``WEBHOOK_THREAD=0``)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from league import webhooks


class Command(BaseCommand):
    help = "Send the webhook deliveries that are due; --loop keeps looking every few seconds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", action="store_true", help="Keep running, looking every --every seconds.")
        parser.add_argument("--every", type=float, default=5.0)

    def handle(self, *args: Any, loop: bool, every: float, **options: Any) -> None:
        while True:
            sent = 0
            while (n := webhooks.deliver_due()):
                sent += n
            if sent or not loop:
                self.stdout.write(f"{sent} deliveries tried")
            if not loop:
                return
            time.sleep(every)
