"""Running ``src/ginrummy/server/static/js/verify.js`` under Node from the tests.

Each call names an exported function and its arguments; a nonce travels as ``{"bigint": "…"}``
so that nonces beyond 2**53 reach JavaScript exactly. Errors come back as ``{"error": message}``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

VERIFY_JS = Path(__file__).resolve().parents[1] / "src/ginrummy/server/static/js/verify.js"

_RUNNER = """
import * as verify from %s;
const revive = (v) => Array.isArray(v) ? v.map(revive)
  : v && typeof v === "object" ? ("bigint" in v ? BigInt(v.bigint)
      : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)])))
  : v;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const call of JSON.parse(input)) {
  try {
    out.push({ value: await verify[call.fn](...revive(call.args)) });
  } catch (error) {
    out.push({ error: String(error.message) });
  }
}
process.stdout.write(JSON.stringify(out));
"""


def big(n: int) -> dict[str, str]:
    """A nonce as the runner passes it to JavaScript (a BigInt)."""
    return {"bigint": str(n)}


def run_js(calls: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """Call verify.js's exports in one Node process; one ``{"value"|"error": ...}`` per call."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the browser verifier cannot be run")
    script = _RUNNER % json.dumps(VERIFY_JS.as_uri())
    payload = json.dumps([{"fn": fn, "args": args} for fn, args in calls])
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=payload,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result
