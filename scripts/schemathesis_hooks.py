"""NDJSON for Schemathesis, loaded by scripts/contract-test.sh through SCHEMATHESIS_HOOKS.

openapi.yaml describes an `application/x-ndjson` body by the schema of one line, so a generated
value is sent as one line. A solve batch answers each request line with one line; a generation
batch answers `count` lines, one per puzzle. Every line must be JSON, and the first is checked
against the response schema like any JSON body (tests/integration checks every line's).
"""
import json
from urllib.parse import urlparse

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson_line(ctx, value):
    return (json.dumps(value) + "\n").encode()


@schemathesis.deserializer("application/x-ndjson")
def ndjson_lines(ctx, response):
    lines = response.content.decode("utf-8").splitlines()
    if urlparse(response.request.url).path == "/v1/generate/batch":
        expected = json.loads(response.request.body)["count"]
        what = "a generation batch of count puzzles must get count lines"
    else:
        expected = 1
        what = "one request line must get one answer line"
    if len(lines) != expected:
        raise ValueError(f"{what}: expected {expected}, got {len(lines)}")
    values = [json.loads(line) for line in lines]
    return values[0]


@schemathesis.check
def generate_fails_only_by_timing_out(ctx, response, case):
    """POST /v1/generate: the one 5xx it may answer is 503 `solve-timeout`, for an order of a
    puzzle made to order not met within the solve timeout (see scripts/schemathesis.toml, which
    turns `not_a_server_error` off for this operation only because of it)."""
    if case.operation.method.upper() != "POST" or case.operation.path != "/v1/generate":
        return
    if response.status_code < 500:
        return
    problem = response.json()
    if response.status_code != 503 or problem.get("type") != "https://sudokud.dev/problems/solve-timeout":
        raise AssertionError(f"POST /v1/generate answered {response.status_code}: {problem}")
