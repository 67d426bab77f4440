"""A real Dask cluster on this machine: ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1, each worker in its own working directory, as a cluster of several machines would
run them. A census and a count sent to it give the table and the number one machine gives,
and a worker killed while it holds census work loses nothing: the scheduler hands that work
to the other worker and the census completes with the same rows.

Every process is started in its own session and ended by its id when the test is done.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from kt_formal.survey.report import census_table
from kt_formal.survey.store import Store
from tests.conftest import ROOT

pytest.importorskip("dask.distributed")

pytestmark = pytest.mark.slow

#: Seconds to wait for the scheduler file, the workers, and for a command.
START_SECONDS = 120
RUN_SECONDS = 600
CENSUS = ("census", "5..6", "5..6", "--remove-squares", "2", "--workers", "2", "--time-limit", "60")


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("KT_FORMAL_DEBUG", None)
    return env


def _dask_cli() -> list[str]:
    """The ``dask`` command (``dask scheduler``, ``dask worker``) of this interpreter."""
    return [sys.executable, "-m", "dask"]


class Cluster:
    """A scheduler and workers started as processes; :meth:`stop` ends each by its id."""

    def __init__(self, base, workers: int = 2):
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        base.mkdir(parents=True, exist_ok=True)
        self.file = base / "scheduler.json"
        self.scheduler = self._start(base / "scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0",
                                     "--no-dashboard", "--scheduler-file", self.file)
        self.address = self._address()
        for i in range(workers):
            where = base / f"worker{i}"
            self.workers.append(self._start(where, "worker", "--scheduler-file", self.file, "--host", "127.0.0.1",
                                            "--name", f"worker{i}",
                                            "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                            "--local-directory", where, "--death-timeout", "60"))
        with self.client() as c:
            c.wait_for_workers(workers, timeout=START_SECONDS)

    def _start(self, where, *args) -> subprocess.Popen:
        where.mkdir(parents=True, exist_ok=True)
        log = open(where / "log.txt", "w")
        proc = subprocess.Popen([*_dask_cli(), *map(str, args)], cwd=where, env=_env(), stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.procs.append(proc)
        return proc

    def _address(self) -> str:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self.scheduler.poll() is None, "the scheduler ended at its start"
            try:
                address = json.loads(self.file.read_text())["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.2)
                continue
            assert address.startswith("tcp://127.0.0.1:"), address
            return address
        raise AssertionError("the scheduler wrote no address in time")

    def client(self):
        from dask.distributed import Client

        return Client(self.address, timeout="30s")

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=20)


@pytest.fixture
def cluster(tmp_path, request):
    c = None

    def stop():
        if c is not None:
            c.stop()

    request.addfinalizer(stop)
    c = Cluster(tmp_path / "cluster")
    return c


def _run(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kt_formal", *map(str, args)], capture_output=True, text=True,
                          timeout=RUN_SECONDS, env=_env(), **kwargs)


def _table(path):
    with Store.open(path, readonly=True) as s:
        return census_table(s)


def _one_machine_table(tmp_path):
    run = _run(*CENSUS, "--db", tmp_path / "one.sqlite")
    assert run.returncode == 0, run.stderr
    return _table(tmp_path / "one.sqlite")


def test_a_census_and_a_count_on_two_workers_equal_one_machine(cluster, tmp_path):
    run = _run(*CENSUS, "--db", tmp_path / "cluster.sqlite", "--dask", cluster.address)
    assert run.returncode == 0, run.stderr
    got = _table(tmp_path / "cluster.sqlite")
    assert got == _one_machine_table(tmp_path) and len(got) > 1000
    counts = []
    for extra in ((), ("--dask", cluster.address)):
        run = _run("count", "6", "6", "--json", *extra)
        assert run.returncode == 0, run.stderr
        counts.append(json.loads(run.stdout)["count"])
    assert counts[0] == counts[1] == 9862  # OEIS A001230: closed tours of 6 x 6


def _held_by(client, name: str) -> int:
    """Tasks the worker named ``name`` is working on or holds in its queue."""
    info = client.scheduler_info()["workers"]
    address = next((a for a, w in info.items() if w.get("name") == name), None)
    return len(client.processing().get(address, ())) if address else 0


def test_a_worker_killed_mid_census_loses_nothing(cluster, tmp_path):
    victim = cluster.workers[0]
    db = tmp_path / "killed.sqlite"
    census = subprocess.Popen([sys.executable, "-m", "kt_formal", *CENSUS, "--db", str(db), "--dask", cluster.address],
                              env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        with cluster.client() as c:
            deadline = time.monotonic() + START_SECONDS
            while _held_by(c, "worker0") == 0:
                assert census.poll() is None, "the census ended before the worker held any of it"
                assert time.monotonic() < deadline, "the worker was given no census work"
                time.sleep(0.02)
            os.kill(victim.pid, signal.SIGKILL)
            victim.wait(timeout=20)
            out, err = census.communicate(timeout=RUN_SECONDS)
            assert census.returncode == 0, err
            assert len(c.scheduler_info()["workers"]) == 1  # the scheduler saw the worker go
    finally:
        if census.poll() is None:
            os.killpg(census.pid, signal.SIGKILL)
            census.wait(timeout=20)
    assert _table(db) == _one_machine_table(tmp_path)
