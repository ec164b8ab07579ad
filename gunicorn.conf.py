"""gunicorn's settings for this project: read from the directory gunicorn is started in.

gunicorn refuses to start several workers when the site's cache is kept by each process: every
rate limit, password guessing included, would be multiplied by the number of workers. Set
REDIS_URL, or CACHE_BACKEND=database (docs/deployment.md).
"""

import os


def on_starting(server):
    if server.cfg.workers <= 1:
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arlington_site.settings")
    import django

    django.setup()
    from arlington_site.checks import PER_PROCESS_CACHE, per_process_cache

    if per_process_cache():
        raise SystemExit(
            f"Refusing to start {server.cfg.workers} workers: {PER_PROCESS_CACHE.msg} "
            f"{PER_PROCESS_CACHE.hint}"
        )
