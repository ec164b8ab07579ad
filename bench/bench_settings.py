"""Settings for the load benchmark (bench/load.py): the project's, with a bare endpoint added."""

from arlington_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bench_urls"
