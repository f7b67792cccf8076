"""Fixtures for the web table's tests: a real server in a subprocess, Chromium through
Playwright, and a throwaway PostgreSQL cluster when the machine has PostgreSQL's binaries."""

from __future__ import annotations

import functools
import glob
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from ginrummy.engine.sealer import DealSealer
from ginrummy.engine.shuffle import SERVER_SEED_BYTES
from ginrummy.server import create_app
from ginrummy.server.store import Store

# The store keeps live secrets encrypted (a key is required for PostgreSQL; for SQLite a key
# file is made beside the database). One key for this test process, set before any store or
# server starts, so that every store and every server the tests start (they inherit the
# environment) reads what the others wrote, whatever the order the tests run in. The key-file
# path is tested on its own (test_store_secrets passes its own environment).
os.environ.setdefault("GINRUMMY_SECRET_KEY", Fernet.generate_key().decode())

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: How long a server or database may take to come up before the test fails.
STARTUP_SECONDS = 60


def http_get(url: str, **kwargs: Any) -> httpx.Response:
    """``GET`` to a test server over plain HTTP (see :func:`http_request`)."""
    return http_request("GET", url, **kwargs)


def http_post(url: str, **kwargs: Any) -> httpx.Response:
    """``POST`` to a test server over plain HTTP (see :func:`http_request`)."""
    return http_request("POST", url, **kwargs)


def http_request(method: str, url: str, **kwargs: Any) -> httpx.Response:
    """One request on a connection of its own, as ``httpx.request`` makes it, but without a
    TLS context: httpx loads the CA bundle into one for every client it makes (about 55 ms of
    CPU, more than the request itself), and a test server is plain HTTP on loopback."""
    return httpx.request(method, url, verify=False, **kwargs)


def loopback_client(**kwargs: Any) -> httpx.Client:
    """A keep-alive ``httpx.Client`` for a test server, without a TLS context (as above)."""
    return httpx.Client(verify=False, **kwargs)


def retried(call: Callable[[], httpx.Response]) -> httpx.Response:
    """``call`` again while its connection fails (a worker killed or a server restarting), for
    up to :data:`STARTUP_SECONDS` (the time a process may take to come up)."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        try:
            return call()
        except httpx.TransportError:
            time.sleep(0.05)  # poll until a worker answers
    return call()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``ginrummy serve`` in a subprocess, on a free port, over a given database URL, with
    ``args`` added to its command line (this folder is on its import path, for policies)."""

    def __init__(self, db_url: str, log: Path, args: tuple[str, ...] = ()) -> None:
        self.db_url = db_url
        self.log_path = log
        self.args = args
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> Server:
        port = free_port()
        self.log = open(self.log_path, "a", encoding="utf-8")  # noqa: SIM115
        path = [str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ginrummy", "serve", "--port", str(port), "--db", self.db_url,
             *self.args],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(path)},
        )
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_path.read_text()}")
            try:
                if http_get(self.url + "/api/options", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer in time")
            # Poll until it answers (the readiness condition), a few times a second.
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing: what a crash looks like."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if hasattr(self, "log"):
            self.log.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


#: The page tests' server: each test's browser is a new player, all from 127.0.0.1, a dozen a
#: minute at times, past the real limit on new players per address (10 a minute); the limits
#: themselves are tested in test_rate_limits.py and test_abuse_bounds_workers.py.
PAGE_SERVER_ARGS = ("--rate-limit", "players_address=600/minute")


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("server")
    server = Server(f"sqlite:///{folder / 'games.sqlite3'}", folder / "server.log",
                    PAGE_SERVER_ARGS).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: ./scripts/test installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


# PostgreSQL -------------------------------------------------------------------------------


def _pg_bindir() -> str | None:
    found = shutil.which("pg_ctl")
    candidates = [os.path.dirname(os.path.realpath(found))] if found else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for d in candidates:
        if os.path.exists(os.path.join(d, "initdb")) and os.path.exists(os.path.join(d, "pg_ctl")):
            return d
    return None


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A database URL of a throwaway PostgreSQL cluster (or ``GINRUMMY_TEST_PG_URL``)."""
    given = os.environ.get("GINRUMMY_TEST_PG_URL")
    if given:
        yield given
        return
    bindir = _pg_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL's server binaries (initdb, pg_ctl) are not installed")
    prefix: list[str] = []
    user = pwd.getpwuid(os.geteuid()).pw_name
    if os.geteuid() == 0:  # initdb refuses to run as root: use the postgres account
        try:
            pw = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' account to run PostgreSQL")
        prefix = ["runuser", "-u", "postgres", "--"]
        user = "postgres"
    folder = tempfile.mkdtemp(prefix="ginrummy-pg-")
    data = os.path.join(folder, "data")
    if os.geteuid() == 0:
        os.chown(folder, pw.pw_uid, pw.pw_gid)
    port = free_port()
    log = os.path.join(folder, "pg.log")
    run = lambda *args: subprocess.run(  # noqa: E731
        [*prefix, *args], check=True, capture_output=True, text=True, timeout=STARTUP_SECONDS
    )
    try:
        run(f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", user, "--no-sync")
        run(
            f"{bindir}/pg_ctl", "-D", data, "-l", log, "-w", "-t", str(STARTUP_SECONDS),
            "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -F", "start",
        )
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"could not start PostgreSQL: {exc.stderr or exc.stdout}")
    try:
        yield f"postgresql+psycopg://{user}@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
            capture_output=True, timeout=STARTUP_SECONDS,
        )
        shutil.rmtree(folder, ignore_errors=True)


# The in-process API on a fresh SQLite store, for the API tests (modules that need another
# store or app settings define their own fixture of the same name).
@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield s
    s.close()


@pytest.fixture()
def known_deals(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``known_deals(n)``: from then on the in-process web table takes its server seeds and
    match seeds from ``random.Random(n)`` instead of :mod:`secrets`, so a test that plays
    matches to their end plays the same deals, and lasts as long, on every run (with secret
    seeds the whole match of test_people.py took 2 to 28 s). Everything else, the seals'
    checks included, is as in play."""
    from ginrummy.server import sealing, service

    def use(n: int) -> None:
        rng = random.Random(n)
        known = functools.partial(DealSealer, new_seed=lambda: rng.randbytes(SERVER_SEED_BYTES))
        monkeypatch.setattr(service, "DealSealer", known)
        monkeypatch.setattr(sealing, "DealSealer", known)
        monkeypatch.setattr(service, "secrets",
                            types.SimpleNamespace(token_hex=lambda k: rng.randbytes(k).hex()))

    return use


@pytest.fixture()
def client(store: Store) -> Iterator[TestClient]:
    # The coach answers in the request's thread: its worker processes run at a lower priority
    # (limits.COACH_NICENESS), which beside the other test worker's load starves them; the
    # pool of processes has its own tests (test_hardening_cpu.py).
    # Used as a context manager, the client keeps one event loop thread for all its requests
    # and runs the app's lifespan, as a server does (without it, every request starts a thread
    # and an event loop of its own: about twice the time a request).
    with TestClient(create_app(store=store, coach_processes=0)) as c:
        yield c
