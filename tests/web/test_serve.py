"""``ginrummy serve``'s socket: the asked port, or the next free one; TCP_NODELAY-able."""

from __future__ import annotations

import socket

import click
import pytest
from click.testing import CliRunner

from ginrummy.cli import main
from ginrummy.cli.serve import bind_socket, url_of


def test_a_taken_port_moves_on_to_the_next_free_one() -> None:
    taken = bind_socket("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        sock = bind_socket("127.0.0.1", port, tries=20)
        try:
            assert port < sock.getsockname()[1] < port + 20
            assert url_of(sock) == f"http://127.0.0.1:{sock.getsockname()[1]}/"
            # asyncio enables TCP_NODELAY only on sockets that say they are TCP.
            assert sock.proto == socket.IPPROTO_TCP
        finally:
            sock.close()
    finally:
        taken.close()


def test_no_free_port_is_a_clear_error() -> None:
    taken = bind_socket("127.0.0.1", 0)
    try:
        with pytest.raises(click.ClickException, match="no free port"):
            bind_socket("127.0.0.1", taken.getsockname()[1], tries=1)
    finally:
        taken.close()


def test_an_empty_host_is_refused_and_a_bad_one_named() -> None:
    """An empty --host would listen on every interface; a host that cannot be bound is named
    (with --port 0 there is no range of ports to speak of)."""
    empty = CliRunner().invoke(main, ["serve", "--host", " ", "--port", "0"])
    assert empty.exit_code == 2 and "give an address" in empty.output
    with pytest.raises(click.ClickException, match=r"^cannot listen on 999\.1\.1\.1: "):
        bind_socket("999.1.1.1", 0)


def test_an_unusable_database_url_is_reported() -> None:
    result = CliRunner().invoke(main, ["serve", "--db", "nosuchdialect://x"])
    assert result.exit_code != 0 and "cannot open the database" in result.output
