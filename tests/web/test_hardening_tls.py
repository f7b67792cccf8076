"""HTTPS (issue 12, item 10): ``ginrummy serve --ssl-certfile --ssl-keyfile`` with a
self-signed certificate made here, the page and the API fetched over it (verified against that
certificate), and the headers a public deployment needs: HSTS over HTTPS only, the CSP on the
page, no-store on the API."""

from __future__ import annotations

import datetime
import ipaddress
import os
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
from click.testing import CliRunner
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fastapi.testclient import TestClient

import ginrummy
from ginrummy.cli import main
from ginrummy.server import create_app
from ginrummy.server.app import HSTS
from ginrummy.server.store import Store

from .conftest import ROOT, STARTUP_SECONDS, free_port
from .test_hardening import _LiveApp

#: The source folder of the ginrummy under test, for the server subprocess.
SRC = os.pathsep.join([str(Path(ginrummy.__file__).resolve().parents[1]),
                       *filter(None, [os.environ.get("PYTHONPATH")])])


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, valid for a day, and its key (PEM files)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "ginrummy test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(
            [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]),
            critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def test_serve_over_https_with_a_self_signed_certificate(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    port = free_port()
    log = open(tmp_path / "server.log", "w", encoding="utf-8")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginrummy", "serve", "--port", str(port),
         "--db", f"sqlite:///{tmp_path / 'games.sqlite3'}",
         "--ssl-certfile", str(cert), "--ssl-keyfile", str(key)],
        stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env={**os.environ, "PYTHONPATH": SRC},
    )
    trust = ssl.create_default_context(cafile=str(cert))
    url = f"https://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        with httpx.Client(base_url=url, verify=trust, timeout=10) as client:
            while True:  # poll until the server answers over TLS (bounded)
                assert proc.poll() is None, (tmp_path / "server.log").read_text()
                try:
                    options = client.get("/api/options")
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, "the server did not answer in time"
                    time.sleep(0.05)
            assert options.status_code == 200 and options.json()["profiles"]
            assert options.headers["strict-transport-security"] == HSTS
            assert options.headers["cache-control"] == "no-store"
            page = client.get("/")
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
            assert "script-src 'self'" in page.headers["content-security-policy"]
            assert page.headers["strict-transport-security"] == HSTS
            assert "Gin rummy is ready: open https://127.0.0.1:" in (
                tmp_path / "server.log").read_text()
        # Without the certificate a client refuses the server: it is not trusted by default.
        with httpx.Client(base_url=url, timeout=10) as stranger:
            try:
                stranger.get("/api/options")
                raise AssertionError("an unknown certificate was accepted")
            except httpx.ConnectError as exc:
                assert "CERTIFICATE_VERIFY_FAILED" in str(exc)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def test_a_certificate_that_does_not_load_is_refused_before_ready(tmp_path: Path) -> None:
    """Not PEM, or a key that is not the certificate's: a usage error naming the files, before
    the server says it is ready (uvicorn would load them only after)."""
    cert, _ = self_signed(tmp_path)
    (tmp_path / "other").mkdir()
    _, other_key = self_signed(tmp_path / "other")
    junk = tmp_path / "junk.pem"
    junk.write_text("x\n")
    for args in (["--ssl-certfile", str(junk)],
                 ["--ssl-certfile", str(cert), "--ssl-keyfile", str(other_key)]):
        result = CliRunner().invoke(main, ["serve", "--port", "0", "--db",
                                           f"sqlite:///{tmp_path / 'g.sqlite3'}", *args])
        assert result.exit_code == 2, result.output
        assert "cannot use" in result.output and "--ssl-certfile" in result.output
        assert "ready" not in result.output and "Traceback" not in result.output


def test_hsts_only_over_https(store: Store) -> None:
    app = create_app(store=store)
    plain = TestClient(app).get("/api/options")
    assert "strict-transport-security" not in plain.headers
    secure = TestClient(app, base_url="https://testserver").get("/api/options")
    assert secure.headers["strict-transport-security"] == HSTS
    assert secure.headers["cache-control"] == "no-store"
    # Behind a reverse proxy the scheme comes from X-Forwarded-Proto, which uvicorn trusts
    # only from the addresses in --forwarded-allow-ips (docs/web.md); in process, it is https.
    assert secure.headers["x-frame-options"] == "DENY"


def test_behind_a_local_proxy_the_forwarded_scheme_is_believed(store: Store) -> None:
    # uvicorn as serve runs it (proxy headers on, trusted from 127.0.0.1 by default): a proxy
    # on this machine that terminated TLS says so in X-Forwarded-Proto, and HSTS follows.
    with _LiveApp(create_app(store=store)) as live, \
            httpx.Client(base_url=f"http://127.0.0.1:{live.port}", timeout=30) as client:
        forwarded = client.get("/api/options", headers={"X-Forwarded-Proto": "https"})
        assert forwarded.headers["strict-transport-security"] == HSTS
        assert "strict-transport-security" not in client.get("/api/options").headers
