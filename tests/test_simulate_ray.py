"""Self-play on Ray gives the same records as here and on local processes; without Ray,
``--ray`` says how to install it.

One local Ray serves the whole module (starting one takes seconds); the commands run with
``--ray`` use it, as any process already connected to Ray does.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from ginrummy.cli import main
from ginrummy.engine.rules import get_rules
from ginrummy.selfplay.simulate import Setup, iter_parts, run_hands, run_jobs, run_matches, split
from ginrummy.selfplay.tournament import Tournament

ray = pytest.importorskip("ray")
from ginrummy.selfplay.distributed import RaySession  # noqa: E402

QUICK = get_rules("traditional", target=30)


@pytest.fixture(scope="module")
def session() -> Iterator[RaySession]:
    with RaySession(workers=2) as s:
        assert s.owned and s.local
        yield s


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def test_ray_plays_the_same_hands_and_matches(session: RaySession) -> None:
    setup = Setup.of("traditional", ["simple", "random"], seed="ray")
    here = run_hands(setup, 24)
    assert run_hands(setup, 24, workers=2, ray=session) == here
    assert run_hands(setup, 24, workers=2) == here  # local processes, for the record
    quick = Setup.of(QUICK, ["simple", "random"], seed="ray")
    assert run_matches(quick, 5, workers=2, ray=session) == run_matches(quick, 5)


def test_ray_gives_the_same_dataset_rows_in_order(session: RaySession) -> None:
    setup = Setup.of(QUICK, ["random", "simple"], seed="rows")
    jobs = split(setup, "matches", 5, 2, rows=True)
    on_ray = list(iter_parts(jobs, workers=2, ray=session))
    here = list(iter_parts(jobs))
    assert on_ray == here
    assert [r.game for p in on_ray for r in p.rows] == sorted(
        r.game for p in on_ray for r in p.rows)


def test_tournament_on_ray_matches_local(session: RaySession) -> None:
    t = Tournament.of(QUICK, ["random", "simple", "random"], matches=2, seed="t")
    assert run_jobs(t.jobs(2), workers=2, ray=session) == run_jobs(t.jobs(2))


def test_commands_print_the_same_numbers_with_ray(session: RaySession) -> None:
    args = ["simple", "random", "--hands", "30", "--seed", "c", "--json", "--no-progress"]
    here = invoke("simulate", *args, "--workers", "1")
    on_ray = invoke("simulate", *args, "--workers", "2", "--ray")
    assert here.exit_code == 0 and on_ray.exit_code == 0, on_ray.output
    assert on_ray.output == here.output
    assert json.loads(here.output)["count"] == 30
    table = invoke("simulate", "simple", "random", "--hands", "8", "--seed", "c",
                   "--no-progress", "--ray")
    assert table.exit_code == 0, table.output
    assert "on a local Ray" in table.output
    targs = ["tournament", "random", "simple", "--matches", "2", "--rule", "target=30",
             "--seed", "t", "--json", "--no-progress"]
    assert invoke(*targs, "--ray").output == invoke(*targs, "--workers", "1").output
    assert session.owned  # the commands used the module's Ray and left it running
    assert ray.is_initialized()


def test_a_player_name_after_ray_is_not_an_address() -> None:
    result = invoke("simulate", "--no-progress", "--ray", "simple", "random")
    assert result.exit_code == 2
    assert "'simple' is not a Ray address" in result.output


@pytest.mark.parametrize("command", [
    ["simulate", "random", "--hands", "4"],
    ["tournament", "random", "random", "--matches", "1"],
])
def test_without_ray_the_option_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    result = invoke(*command, "--no-progress", "--ray")
    assert result.exit_code == 1
    assert 'pip install "ginrummy[ray]"' in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_an_address_where_nothing_listens_is_refused_at_once(scheme: str) -> None:
    """Ray itself would keep retrying such an address for minutes; the command says at once
    that nothing answers there (exit status 1, no traceback). In a fresh process: this one
    is connected to the module's Ray, which a session would use whatever the address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free once closed: nothing listens there
    address = f"{scheme}127.0.0.1:{port}"
    done = subprocess.run(
        [sys.executable, "-m", "ginrummy", "simulate", "random", "--hands", "4",
         "--no-progress", "--ray", address],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1
    assert f"cannot reach Ray at '{address}' (Connection refused)" in done.stderr
    assert "Traceback" not in done.stderr
