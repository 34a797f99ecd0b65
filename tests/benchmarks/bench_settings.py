"""The project's settings with the benchmark's URLs (see bench_urls.py)."""

from league.settings import *  # noqa: F403

ROOT_URLCONF = "tests.benchmarks.bench_urls"
