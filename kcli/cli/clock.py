"""When kcli started: the console entry point imports this first, and --debug stamps each request
line with the time since (kcli.cli.connection_options)."""

from __future__ import annotations

import time

STARTED = time.monotonic()
