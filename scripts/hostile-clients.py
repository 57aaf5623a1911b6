#!/usr/bin/env python3
"""What hostile and careless clients do to a sudokud binary: the figures of issue 11, items 1-5.

    python3 scripts/hostile-clients.py target/release/sudokud

Each scenario starts its own server on a free port (so peak RSS is that scenario's), plays the
clients, and prints one line of what a well-behaved caller saw meanwhile. Python's standard
library only, the same clients the issue names (`http.client` writes the whole body before it
reads the answer). A measurement, not a test: the Rust tests assert the behaviour.
"""

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/sudokud"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, *flags):
        self.port = free_port()
        env = dict(os.environ, RUST_LOG="warn")
        self.process = subprocess.Popen(
            [BINARY, "serve", "--addr", f"127.0.0.1:{self.port}", *flags],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self):
        self.process.kill()
        self.process.wait()


def request(port, method, path, body=None, timeout=5.0, content_type="application/json"):
    """(status or the exception's name, seconds)."""
    started = time.monotonic()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"content-type": content_type} if body is not None else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        connection.close()
        return response.status, time.monotonic() - started
    except Exception as error:  # noqa: BLE001 - what the client saw is the figure
        return type(error).__name__, time.monotonic() - started


def solve_body():
    return json.dumps({"board": PUZZLE})


def describe(results):
    counts = {}
    for status, _ in results:
        counts[status] = counts.get(status, 0) + 1
    return ", ".join(f"{count}x {status}" for status, count in sorted(counts.items(), key=str))


def silent_connections():
    """Item 1: three silent connections (or h2c prefaces) against --max-connections 3."""
    for label, greeting in [("silent", b""), ("h2c preface + SETTINGS", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))]:
        server = Server("--max-connections", "3", "--header-read-timeout-ms", "1000")
        sockets = []
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", server.port))
            if greeting:
                s.sendall(greeting)
            sockets.append(s)
        time.sleep(0.2)
        status, seconds = request(server.port, "GET", "/healthz", timeout=5)
        closed = 0
        for s in sockets:
            s.settimeout(0.1)
            try:
                while s.recv(4096):
                    pass
                closed += 1
            except OSError:
                pass
        print(f"1. {label}: 3 of --max-connections 3 held; GET /healthz -> {status} after {seconds:.2f} s; "
              f"silent connections closed by the server: {closed} of 3")
        for s in sockets:
            s.close()
        server.stop()


def idle_ndjson_streams():
    """Item 2: 66 chunked NDJSON uploads that each send a blank line every 2 s."""
    server = Server()
    stop = threading.Event()

    def uploader():
        try:
            s = socket.create_connection(("127.0.0.1", server.port))
            s.sendall(b"POST /v1/solve/batch HTTP/1.1\r\nhost: x\r\ncontent-type: application/x-ndjson\r\n"
                      b"transfer-encoding: chunked\r\n\r\n")
            while not stop.is_set():
                s.sendall(b"1\r\n\n\r\n")
                stop.wait(2)
            s.close()
        except OSError:
            pass

    threads = [threading.Thread(target=uploader) for _ in range(66)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    early = [request(server.port, "POST", "/v1/solve", solve_body()) for _ in range(10)]
    time.sleep(6)
    late = [request(server.port, "POST", "/v1/solve", solve_body()) for _ in range(10)]
    stop.set()
    for thread in threads:
        thread.join()
    print(f"2. 66 idle NDJSON uploads: /v1/solve after 1 s: {describe(early)}; after 7 s: {describe(late)}")
    server.stop()

    # A client that sends one board as NDJSON and never reads the answer.
    server = Server()
    readers = []
    for _ in range(66):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        line = (solve_body() + "\n").encode() * 2000
        s.sendall(b"POST /v1/solve/batch HTTP/1.1\r\nhost: x\r\ncontent-type: application/x-ndjson\r\n"
                  b"transfer-encoding: chunked\r\n\r\n" + f"{len(line):x}\r\n".encode() + line + b"\r\n")
        readers.append(s)
    time.sleep(1)
    results = [request(server.port, "POST", "/v1/solve", solve_body()) for _ in range(10)]
    print(f"2. 66 NDJSON uploads that never read their answer: /v1/solve: {describe(results)}")
    for s in readers:
        s.close()
    server.stop()


def big_json_batch():
    """Item 3: a 4 MB `{"boards":[0,0,...]}` body: peak RSS and /healthz latency."""
    body = ('{"boards":[' + ",".join(["0"] * 2_047_990) + "]}").encode()
    server = Server()
    base = server.peak_rss_mb()
    status, _ = request(server.port, "POST", "/v1/solve/batch", body, timeout=30)
    one = server.peak_rss_mb()
    threads = [threading.Thread(target=request, args=(server.port, "POST", "/v1/solve/batch", body, 30))
               for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    sixteen = server.peak_rss_mb()
    server.stop()

    server = Server()
    idle = [request(server.port, "GET", "/healthz")[1] for _ in range(50)]
    stop = threading.Event()

    def sender():
        while not stop.is_set():
            request(server.port, "POST", "/v1/solve/batch", body, timeout=30)

    threads = [threading.Thread(target=sender) for _ in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    busy = [request(server.port, "GET", "/healthz")[1] for _ in range(50)]
    stop.set()
    for thread in threads:
        thread.join()
    server.stop()
    print(f"3. 4 MB batch of zeros: answer {status}; peak RSS {base:.0f} MB at start, {one:.0f} MB after one, "
          f"{sixteen:.0f} MB after 16 at once; /healthz p50 {statistics.median(idle) * 1000:.1f} ms idle, "
          f"{statistics.median(busy) * 1000:.1f} ms with 4 in flight")


def stalled_batch_bodies():
    """Item 4: 66 batch requests that send `{"boards":[` of a promised 1000 bytes and stall."""
    server = Server()
    sockets = []
    for _ in range(66):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"POST /v1/solve/batch HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                  b"content-length: 1000\r\n\r\n{\"boards\":[")
        sockets.append(s)
    time.sleep(0.5)
    results = [request(server.port, "POST", "/v1/solve", solve_body()) for _ in range(10)]
    print(f"4. 66 stalled batch bodies: /v1/solve: {describe(results)}")
    for s in sockets:
        s.close()
    server.stop()


def early_answers():
    """Item 5: clients that write the whole body before reading get their 413 / 408."""
    server = Server()
    rows = [
        ("/v1/solve", 2 * 1024 * 1024, 10),
        ("/v1/solve", 5_000_000, 6),
        ("/v1/solve/batch", 5_000_000, 6),
        ("/v1/solve/batch", 20_000_000, 6),
        ("/v1/generate", 1_000_000, 6),
    ]
    for path, size, times in rows:
        body = b'{"board":"' + b"." * size + b'"}'
        results = [request(server.port, "POST", path, body, timeout=20) for _ in range(times)]
        print(f"5. http.client, {size / 1e6:.1f} MB to {path}: {describe(results)}")
    server.stop()

    server = Server("--request-timeout-ms", "1000")

    def slow_body():
        yield b'{"board":"'
        for _ in range(30):
            time.sleep(0.1)
            yield b"." * 100
        yield b'"}'

    results = []
    for _ in range(3):
        started = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            connection.request("POST", "/v1/solve", body=slow_body(),
                               headers={"content-type": "application/json", "content-length": "3012"})
            response = connection.getresponse()
            response.read()
            results.append((response.status, time.monotonic() - started))
        except Exception as error:  # noqa: BLE001
            results.append((type(error).__name__, time.monotonic() - started))
    print(f"5. http.client, a 3 s upload of 3 KB against --request-timeout-ms 1000: {describe(results)}")
    server.stop()


if __name__ == "__main__":
    scenarios = {"1": silent_connections, "2": idle_ndjson_streams, "3": big_json_batch,
                 "4": stalled_batch_bodies, "5": early_answers}
    for key in (sys.argv[2:] or scenarios):
        scenarios[key]()
        sys.stdout.flush()
