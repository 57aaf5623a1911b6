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
