"""Self-play on Ray: the same jobs as on local processes, run as Ray tasks.

A :class:`RaySession` either starts a local Ray for the run (``ginrummy simulate --ray``) or joins
an existing cluster (``--ray ADDRESS``). Its :meth:`RaySession.parts` runs each
:class:`~ginrummy.selfplay.simulate.Job` as one task of :func:`~ginrummy.selfplay.simulate.play_job`
and hands the parts back in job order, as the local runner does; since every game is a pure function
of the master seed and its index, the results are the same on Ray as anywhere else, and only the
speed changes.

Ray is an optional extra (``pip install "ginrummy[ray]"``): this module imports it only when a
session starts, and says how to install it when it is missing.

A local Ray is kept to this machine: its services listen on the loopback interface only
(127.0.0.1), it gets ``workers`` CPUs, no dashboard, and its workers import the same
``ginrummy`` as this process (its folder is put on their ``PYTHONPATH``; nothing is uploaded).
On a cluster, ``ginrummy`` must be installed on every node, at the same version.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from ..engine.errors import GinRummyError
from .dataset import require
from .simulate import WINDOW_PER_WORKER, BackendError, InOrder, Job, Part, play_job

__all__ = ["LOCAL", "RaySession"]

#: The ``--ray`` value that means "start a local Ray for this run".
LOCAL = "local"

#: Ray's switch between a node reachable from other machines and a loopback-only node (the
#: default on macOS and Windows). Read when Ray is imported; set while a local Ray starts.
_LOOPBACK_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _import_ray() -> Any:
    return require("ray", "ray", "--ray (self-play on Ray)")


#: Seconds to wait for a Ray head's port to answer before giving up on the address.
PROBE_SECONDS = 5.0


def _probe(address: str) -> None:
    """Refuse at once a ``HOST:PORT`` or ``ray://HOST:PORT`` where nothing listens:
    ``ray.init`` would keep retrying for minutes. (``auto`` goes to ``ray.init`` as it is.)"""
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        return
    host = host.strip("[]") or "127.0.0.1"
    try:
        with socket.create_connection((host, int(port)), timeout=PROBE_SECONDS):
            pass
    except OSError as exc:
        raise BackendError(f"cannot reach Ray at {address!r} "
                           f"({exc.strerror or exc})") from None


class RaySession:
    """A connection to Ray for one run: ``address`` ``None`` (or ``"local"``) starts a local
    Ray with ``workers`` CPUs (default: one per core); any other address is passed to
    ``ray.init(address=...)`` (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``). A process that
    is already connected to Ray (a notebook, a test session) runs on that Ray instead. Use it
    as a context manager; it shuts down (or disconnects from) the Ray it started on leaving."""

    def __init__(self, address: str | None = None, *, workers: int | None = None) -> None:
        self.local = address is None or address == LOCAL
        self.address = LOCAL if self.local else str(address)
        ray = _import_ray()
        #: False when this process was already connected to Ray: the session uses that Ray
        #: (whatever ``address`` says) and leaves it running.
        self.owned = not ray.is_initialized()
        try:
            if self.owned and self.local:
                self._start_local(ray, workers)
            elif self.owned:
                _probe(self.address)
                ray.init(address=self.address, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.ERROR)
        except GinRummyError:
            raise
        except Exception as exc:  # ConnectionError, RuntimeError, ValueError from ray.init
            raise BackendError(f"cannot start Ray at {self.address!r}: {exc}") from None
        self._ray = ray
        self._task = ray.remote(num_cpus=1)(play_job)
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

    @staticmethod
    def _start_local(ray: Any, workers: int | None) -> None:
        source = str(Path(__file__).resolve().parent.parent)
        path = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH")) if p)
        before = os.environ.get(_LOOPBACK_SWITCH)
        os.environ[_LOOPBACK_SWITCH] = "0"
        constants = ray._private.ray_constants
        was = constants.ENABLE_RAY_CLUSTER
        # Ray reads the switch when it is imported; if it was imported before, set the value
        # it read too. Either way the raylet and the workers inherit the environment variable.
        constants.ENABLE_RAY_CLUSTER = False
        try:
            ray.init(
                address="local",  # a new Ray, never one someone else started on this machine
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
                runtime_env={"env_vars": {"PYTHONPATH": path}},
            )
        finally:
            constants.ENABLE_RAY_CLUSTER = was
            if before is None:
                os.environ.pop(_LOOPBACK_SWITCH, None)
            else:
                os.environ[_LOOPBACK_SWITCH] = before

    def describe(self) -> str:
        """``a local Ray`` or ``Ray at ADDRESS``, for the command's report."""
        return "a local Ray" if self.local else f"Ray at {self.address}"

    def parts(
        self,
        jobs: Sequence[Job],
        *,
        workers: int,
        progress: Callable[[int], None] | None = None,
    ) -> Generator[Part, None, None]:
        """Run ``jobs`` as Ray tasks, at most ``workers`` at a time (fewer if the cluster has
        fewer CPUs) and at most ``WINDOW_PER_WORKER * workers`` running or waiting to be
        merged, and yield their parts in job order."""
        ray = self._ray
        pending: dict[Any, int] = {}
        order = InOrder(jobs, progress)
        submitted = 0
        window = max(1, workers) * WINDOW_PER_WORKER
        try:
            while order.merged < len(jobs):
                while (submitted < len(jobs) and len(pending) < workers
                       and submitted - order.merged < window):
                    pending[self._task.remote(jobs[submitted])] = submitted
                    submitted += 1
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    yield from order.add(pending.pop(ref), self._get(ref))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise

    def _get(self, ref: Any) -> Part:
        ray = self._ray
        try:
            part: Part = ray.get(ref)
        except GinRummyError:
            raise  # a game's own error, re-raised by Ray as the engine's exception
        except ray.exceptions.RayError as exc:
            raise BackendError(f"a Ray task failed: {exc}") from None
        return part

    def close(self) -> None:
        """Shut the local Ray down, or disconnect from the cluster (only if this session
        started the connection)."""
        if self.owned:
            self._ray.shutdown()

    def __enter__(self) -> RaySession:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
