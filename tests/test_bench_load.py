"""bench/load.py's CPU time by process: what a request costs the app server, the database and
the cache, beside the throughput ratio."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.load import CPU_KINDS, cpu_per_request, cpu_seconds

# Waits for "go", spends WORK seconds of its own CPU time, says "done", then waits for the end.
BURNER = """
import sys, time
sys.stdin.readline()
start = time.process_time()
while time.process_time() - start < float(sys.argv[1]):
    pass
print("done", flush=True)
sys.stdin.readline()
"""
WORK = 0.3


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_the_cpu_time_a_server_spends_is_counted_as_the_apps():
    server = subprocess.Popen(
        [sys.executable, "-c", BURNER, str(WORK)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        before = cpu_seconds(server.pid)
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write("go\n")
        server.stdin.flush()
        assert server.stdout.readline().strip() == "done"  # the work is spent
        after = cpu_seconds(server.pid)
        other = cpu_seconds(-1)  # no server: the same machine, nothing counted as the app's
    finally:
        server.communicate("end\n", timeout=30)
    assert set(before) == set(after) == set(CPU_KINDS)
    spent = after["app"][server.pid] - before["app"][server.pid]
    assert WORK - 0.02 <= spent < WORK + 1, spent  # clock ticks of 10 ms at most either way
    assert other["app"] == {}
    per_request = cpu_per_request(before, after, 100)
    assert per_request["app"] == pytest.approx(1000 * spent / 100)
    assert per_request["db"] >= 0 and per_request["cache"] >= 0
    assert cpu_per_request({}, after, 100) == {}  # no /proc: nothing to say


def test_a_process_that_ends_between_two_readings_takes_its_time_with_it():
    """PostgreSQL serves other clients too: a backend that exits during the run (a connection
    closed) must not make the database's share go below zero, nor one that starts count twice."""
    before = {"app": {10: 1.0}, "db": {20: 5.0, 21: 40.0}, "cache": {}}
    after = {"app": {10: 1.5}, "db": {20: 5.2, 22: 0.3}, "cache": {30: 0.1}}
    per_request = cpu_per_request(before, after, 100)
    assert per_request == pytest.approx({"app": 5.0, "db": 5.0, "cache": 1.0})
