"""Benchmark scripts; a package so that gunicorn can load ``bench.bench_settings``."""
