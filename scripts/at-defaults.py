#!/usr/bin/env python3
"""What a client of a server at its defaults gets for the hardest work it offers.

    python3 scripts/at-defaults.py BINARY [N]

Starts BINARY (a release `sudokud`) on a free port with its defaults, then, one request at a time:

  ratings    POST /v1/rate of the first N puzzles of tests/data/forum_hardest_1106.txt (Sudoku
             Explainer 10 to 12, whose ratings take seconds): how many are answered exactly, how
             many with a lower bound (`"exact": false`, cut by the solve timeout), how many not
  25x25      POST /v1/generate of 25x25 expert puzzles, seeds 0 to N-1, each then fetched again by
             its id (GET /v1/puzzles/{id}); then one /v1/generate/batch of N from seed 0

and prints the answers by status and kind with the median and slowest time (N: 100 by default).
Issue 51's items 2 and 6 ask that every one of these be answered.
"""

import importlib.util
import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("heavy_mix", ROOT / "scripts" / "heavy-mix.py")
heavy_mix = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(heavy_mix)


def get(base, path):
    try:
        with urllib.request.urlopen(base + path, timeout=60) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def timed(call):
    start = time.monotonic()
    status, body = call()
    return status, body, time.monotonic() - start


def summary(name, kinds, seconds):
    seconds = sorted(seconds) or [float("nan")]
    counts = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items())) or "none"
    print(f"| {name} | {counts} | {seconds[len(seconds) // 2] * 1e3:.0f} | {seconds[-1] * 1e3:.0f} |")


def kind(status, body):
    if status == 200:
        return "200"
    return f"{status} {json.loads(body).get('type', '').rsplit('/', 1)[-1]}"


def main():
    binary = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    puzzles = (ROOT / "tests/data/forum_hardest_1106.txt").read_text().split()[:count]
    print("| requests | answers | median ms | slowest ms |")
    print("|---|---|--:|--:|")
    with heavy_mix.Server(binary) as server:
        kinds, seconds = {}, []
        for puzzle in puzzles:
            status, body, took = timed(lambda: heavy_mix.post(server.base, "/v1/rate", {"board": puzzle}))
            answer = kind(status, body)
            if status == 200:
                # A server from before `exact` was answered rates exactly or not at all.
                answer += " exact" if json.loads(body).get("exact", True) else " lower bound"
            kinds[answer] = kinds.get(answer, 0) + 1
            seconds.append(took)
        summary(f"rate the first {count} of forum_hardest_1106", kinds, seconds)

        made, fetched, ids = ({}, []), ({}, []), []
        for seed in range(count):
            body = {"size": 25, "difficulty": "expert", "seed": seed}
            status, answer, took = timed(lambda: heavy_mix.post(server.base, "/v1/generate", body))
            made[0][kind(status, answer)] = made[0].get(kind(status, answer), 0) + 1
            made[1].append(took)
            if status == 200:
                ids.append(json.loads(answer)["id"])
        for puzzle_id in ids:
            status, answer, took = timed(lambda: get(server.base, f"/v1/puzzles/{puzzle_id}"))
            fetched[0][kind(status, answer)] = fetched[0].get(kind(status, answer), 0) + 1
            fetched[1].append(took)
        summary(f"generate 25x25 expert, seeds 0-{count - 1}", *made)
        summary("fetch each again by its id", *fetched)

    # A fresh server for the batch, so that none of its puzzles is answered from memory.
    with heavy_mix.Server(binary) as server:
        body = {"size": 25, "difficulty": "expert", "seed": 0, "count": count}
        status, answer, took = timed(lambda: heavy_mix.post(server.base, "/v1/generate/batch", body, timeout=600))
        lines = [json.loads(line) for line in answer.decode().splitlines() if line.strip()]
        kinds = {}
        for line in lines:
            answer = "200" if "puzzle" in line else f"{line['status']} {line['type'].rsplit('/', 1)[-1]}"
            kinds[answer] = kinds.get(answer, 0) + 1
        summary(f"one batch of {count} 25x25 expert lines (status {status})", kinds, [took])


if __name__ == "__main__":
    main()
