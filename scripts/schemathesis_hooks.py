"""NDJSON for Schemathesis, loaded by scripts/contract-test.sh through SCHEMATHESIS_HOOKS.

openapi.yaml describes an `application/x-ndjson` body by the schema of one line, so a generated
value is sent as one line, and an answer must be exactly one line, which is then checked against
the response schema like any JSON body.
"""
import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson_line(ctx, value):
    return (json.dumps(value) + "\n").encode()


@schemathesis.deserializer("application/x-ndjson")
def one_ndjson_line(ctx, response):
    lines = response.content.decode("utf-8").splitlines()
    if len(lines) != 1:
        raise ValueError(f"one request line must get one answer line, got {len(lines)}")
    return json.loads(lines[0])


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
