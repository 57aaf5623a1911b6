#!/usr/bin/env python3
"""Heavy requests beside cheap ones: does a server at its defaults keep answering the cheap ones?

    python3 scripts/heavy-mix.py BINARY [--check]

Starts BINARY (a release `sudokud`) on a free port with its defaults and runs the scenarios of
issue 51's item 3, each on a fresh server:

  booklets  3 clients each POST /v1/booklet {"count":100,"size":25,"difficulty":"easy","seed":1}
            at once; a second later 24 POST /v1/solve at once (a hard 9x9 puzzle that needs a
            solver slot)
  batches   2 clients each POST /v1/generate/batch {"count":20,"size":25,"difficulty":"hard"}
            at once; a second later 42 POST /v1/rate at once (a medium 9x9 puzzle)
  renders   8 clients each POST /v1/render of a 25x25 puzzle as a 2048-pixel PNG, at once
  flood     the booklets and batches again with 4 clients looping on the solves (rates) for as
            long as the heavy requests run: cheap requests taking a whole core, the load generator
            on the same machine

For each: how many heavy requests completed (200) and how, and how many of the cheap requests
were answered (200) or refused (503). With --check, exits 1 unless, in the first three scenarios,
at least one booklet completes, at least 90 % of the solves beside them and of the rates beside
the batches are answered, and every render is answered.
"""

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

# The first of forum_hardest_1106: its search outlasts the inline try, so it needs a solver slot.
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
MEDIUM = "53......28....13.9....9..6...36....7.8.....4.6....98...1..6....7.68....32......74"
PUZZLE_25 = None  # made by the server itself, so the render needs no data file


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def post(base, path, body, timeout=60):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class Server:
    def __init__(self, binary):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([binary, "--addr", f"127.0.0.1:{self.port}"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env={"RUST_LOG": "warn", "PATH": "/usr/bin:/bin"})
        for _ in range(200):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the server did not start")

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait()


def scenario(server, heavy, cheap, heavy_clients, cheap_clients, burst=False):
    """Runs `heavy_clients` heavy requests at once and, a moment later, `cheap_clients` cheap
    requests at once (`burst`) or loops of them until the heavy ones are done; returns the heavy
    answers' statuses and times, and the cheap answers' statuses."""
    heavy_results, cheap_results = [], []
    done = threading.Event()

    def run_heavy():
        start = time.monotonic()
        status, _ = heavy()
        heavy_results.append((status, time.monotonic() - start))

    def run_cheap():
        while True:
            status, _ = cheap()
            cheap_results.append(status)
            if burst or done.is_set():
                return

    heavy_threads = [threading.Thread(target=run_heavy) for _ in range(heavy_clients)]
    cheap_threads = [threading.Thread(target=run_cheap) for _ in range(cheap_clients)]
    for thread in heavy_threads:
        thread.start()
    time.sleep(1.0 if burst else 0.2)  # the heavy requests are running when the cheap ones come
    for thread in cheap_threads:
        thread.start()
    for thread in heavy_threads:
        thread.join()
    done.set()
    for thread in cheap_threads:
        thread.join()
    return heavy_results, cheap_results


def describe(name, heavy, cheap):
    statuses = sorted(status for status, _ in heavy)
    times = ", ".join(f"{status} in {seconds:.2f} s" for status, seconds in sorted(heavy, key=lambda h: h[1]))
    answered = sum(status == 200 for status in cheap)
    share = answered / len(cheap) if cheap else 1.0
    print(f"| {name} | {times} | {answered} of {len(cheap)} ({share:.0%}); "
          f"{sum(status == 503 for status in cheap)} refused |")
    return statuses, share


def booklets(binary, cheap_clients, burst):
    with Server(binary) as server:
        return scenario(
            server,
            lambda: post(server.base, "/v1/booklet", {"count": 100, "size": 25, "difficulty": "easy", "seed": 1}),
            lambda: post(server.base, "/v1/solve", {"board": HARD}),
            3, cheap_clients, burst)


def batches(binary, cheap_clients, burst):
    with Server(binary) as server:
        return scenario(
            server,
            lambda: post(server.base, "/v1/generate/batch", {"count": 20, "size": 25, "difficulty": "hard"}),
            lambda: post(server.base, "/v1/rate", {"board": MEDIUM}),
            2, cheap_clients, burst)


def main():
    binary, check = sys.argv[1], "--check" in sys.argv[2:]
    print("| scenario | heavy requests | cheap requests answered |")
    print("|---|---|---|")
    failures = []
    statuses, share = describe("3 booklets of 100 25x25 puzzles; 24 solves at once", *booklets(binary, 24, True))
    if statuses.count(200) < 1 or share < 0.9:
        failures.append("booklets")
    _, share = describe("2 batches of 20 hard 25x25 puzzles; 42 rates at once", *batches(binary, 42, True))
    if share < 0.9:
        failures.append("batches")
    with Server(binary) as server:
        status, body = post(server.base, "/v1/generate", {"difficulty": "easy", "size": 25, "seed": 3})
        assert status == 200, body
        puzzle = json.loads(body)["puzzle"]
        heavy, _ = scenario(
            server,
            lambda: post(server.base, "/v1/render", {"board": puzzle, "format": "png", "width": 2048}),
            lambda: (200, b""), 8, 0)
        statuses, _ = describe("8 renders of a 25x25 puzzle, 2048 px PNG", heavy, [])
        if statuses.count(200) < 8:
            failures.append("renders")
    describe("flood: the 3 booklets; 4 clients looping on solves", *booklets(binary, 4, False))
    describe("flood: the 2 batches; 4 clients looping on rates", *batches(binary, 4, False))
    if check and failures:
        raise SystemExit(f"not met: {', '.join(failures)}")


if __name__ == "__main__":
    main()
