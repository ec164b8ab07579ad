"""gunicorn's settings for the load benchmark (bench/load.py): none of the project's.

The project's gunicorn.conf.py refuses several workers with a cache kept by each process,
because every rate limit would be multiplied. The benchmark lifts the limits (its rates are
far above what it sends) and measures the application itself, so it keeps the local cache and
starts gunicorn with this file instead.
"""
