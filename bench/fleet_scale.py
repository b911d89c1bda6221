#!/usr/bin/env python3
"""Scale of `mytune check --inventory`: how the wall time and memory of a
fleet run grow with the number of servers N and with --jobs, when every
server is a network round trip away.

A few throw-away mariadbd servers (private datadirs, sockets and ports; the
shared server on 3306 is not touched) stand for the fleet. Each inventory
entry is its own port of a delay proxy (asyncio, in a child process) that
forwards to one of the servers and holds every chunk RTT/2 in each
direction, so entry i models a remote server at RTT. mytune sees N distinct
servers; its work per server (connection, 8 statements, rules, report) is
the real one.

The proxy, the servers and mytune share this machine's cores: the numbers
are pessimistic for remote servers, whose work runs elsewhere.

Prints one JSON object per run and a Markdown table; the extrapolation to
1,000 servers fits wall = a + b * N at each --jobs.

  bench/fleet-scale.sh                         # defaults below
  python3 bench/fleet_scale.py --bin target/release/mytune --rtt-ms 50 \\
      --servers 4 --sizes 50,100,200,400 --jobs 32,128
"""

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def mariadbd():
    for p in [shutil.which("mariadbd"), "/usr/sbin/mariadbd"]:
        if p and os.path.exists(p):
            return p
    sys.exit("mariadbd not found (install mariadb-server)")


class Servers:
    """S throw-away servers copied from one installed datadir."""

    def __init__(self, count, base):
        self.dir = tempfile.mkdtemp(prefix="mytune-fleet-bench-", dir=base)
        self.procs = []
        self.ports = []
        template = os.path.join(self.dir, "template")
        user = ["--user=root"] if os.geteuid() == 0 else []
        subprocess.run(
            ["mariadb-install-db", "--no-defaults", "--auth-root-authentication-method=normal",
             f"--datadir={template}", "--innodb-log-file-size=8M",
             "--innodb-buffer-pool-size=32M", f"--tmpdir={self.dir}"] + user,
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for i in range(count):
            d = os.path.join(self.dir, f"s{i}")
            shutil.copytree(template, os.path.join(d, "data"))
            port = free_port()
            cnf = os.path.join(d, "my.cnf")
            with open(cnf, "w") as f:
                f.write("[mariadbd]\ninnodb_buffer_pool_size = 32M\ninnodb_log_file_size = 8M\n"
                        "skip_name_resolve = ON\nperformance_schema = OFF\nmax_connections = 1000\n")
            p = subprocess.Popen(
                [mariadbd(), f"--defaults-file={cnf}", f"--datadir={d}/data",
                 f"--socket={d}/sock", f"--port={port}", "--bind-address=127.0.0.1",
                 f"--pid-file={d}/pid", f"--log-error={d}/error.log", f"--tmpdir={d}"] + user,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.procs.append(p)
            self.ports.append(port)
        for port in self.ports:
            deadline = time.time() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.time() > deadline:
                        sys.exit(f"a throw-away server did not start (logs in {self.dir})")
                    time.sleep(0.1)

    def stop(self):
        for p in self.procs:
            p.kill()
            p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


# ---- the delay proxy (run in a child process: `fleet_scale.py proxy ...`) ----

async def pipe(reader, writer, delay):
    """Forward reader to writer, each chunk delay seconds after it arrived."""
    queue = asyncio.Queue()

    async def feed():
        while True:
            data = await reader.read(65536)
            await queue.put((time.monotonic() + delay, data))
            if not data:
                return

    async def drain():
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                try:
                    writer.write_eof()
                except OSError:
                    pass
                return
            writer.write(data)
            await writer.drain()

    try:
        await asyncio.gather(feed(), drain())
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def proxy_main(count, targets, delay):
    async def handler_for(target):
        async def handle(r, w):
            try:
                ur, uw = await asyncio.open_connection("127.0.0.1", target)
            except OSError:
                w.close()
                return
            await asyncio.gather(pipe(r, uw, delay), pipe(ur, w, delay))
        return handle

    servers = []
    for i in range(count):
        h = await handler_for(targets[i % len(targets)])
        servers.append(await asyncio.start_server(h, "127.0.0.1", 0, backlog=1024))
    ports = [s.sockets[0].getsockname()[1] for s in servers]
    print("ready " + ",".join(map(str, ports)), flush=True)
    await asyncio.Event().wait()


def run_proxy(args):
    targets = [int(p) for p in args.to.split(",")]
    asyncio.run(proxy_main(args.count, targets, args.rtt_ms / 2000.0))


# ---- the measurement ----

def cpu_seconds(pids):
    """User + system CPU time of these processes so far (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / tick


def measure(binary, inventory, jobs):
    """Wall time, output, error output and exit status of one run."""
    began = time.monotonic()
    p = subprocess.Popen(
        [binary, "check", "--inventory", inventory, "--no-defaults", "--user=root",
         "--format", "jsonl", "--jobs", str(jobs), "--connect-timeout", "20"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "MYSQL_PWD": ""})
    out, err = p.communicate()
    wall = time.monotonic() - began
    return wall, out.decode(), err.decode(), p.returncode


def rss_and_cpu(binary, inventory, jobs):
    """The run again under GNU time: mytune's maximum resident set size
    (KiB) and its own CPU time (user + system, seconds)."""
    r = subprocess.run(
        ["/usr/bin/time", "-f", "%M %U %S", binary, "check", "--inventory", inventory,
         "--no-defaults", "--user=root", "--format", "jsonl", "--jobs", str(jobs),
         "--connect-timeout", "20"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    rss, user, system = r.stderr.decode().strip().splitlines()[-1].split()
    return int(rss), float(user) + float(system)


def fit(points):
    """Least squares wall = a + b * n."""
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    b = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return (sy - b * sx) / n, b


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd")
    px = sub.add_parser("proxy")
    px.add_argument("--count", type=int, required=True)
    px.add_argument("--to", required=True)
    px.add_argument("--rtt-ms", type=float, required=True)
    ap.add_argument("--bin", default="target/release/mytune")
    ap.add_argument("--rtt-ms", type=float, default=50)
    ap.add_argument("--servers", type=int, default=4)
    ap.add_argument("--sizes", default="50,100,200,400")
    ap.add_argument("--jobs", default="32,128")
    ap.add_argument("--out", default=None, help="also write the JSON lines here")
    args = ap.parse_args()
    if args.cmd == "proxy":
        return run_proxy(args)

    sizes = [int(s) for s in args.sizes.split(",")]
    jobs_list = [int(j) for j in args.jobs.split(",")]
    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    servers = Servers(args.servers, base)
    proxy = None
    rows = []
    try:
        proxy = subprocess.Popen(
            [sys.executable, __file__, "proxy", "--count", str(max(sizes)),
             "--to", ",".join(map(str, servers.ports)), "--rtt-ms", str(args.rtt_ms)],
            stdout=subprocess.PIPE)
        ready = proxy.stdout.readline().decode().split()
        assert ready[0] == "ready", ready
        listen = [int(p) for p in ready[1].split(",")]
        work = tempfile.mkdtemp(prefix="mytune-fleet-inv-")
        for n in sizes:
            inv = os.path.join(work, f"fleet-{n}.txt")
            with open(inv, "w") as f:
                for i in range(n):
                    f.write(f"127.0.0.1:{listen[i]} db{i:04d} memory=16G cpus=4\n")
            for jobs in jobs_list:
                before = (cpu_seconds([proxy.pid]), cpu_seconds([p.pid for p in servers.procs]))
                wall, out, err, code = measure(args.bin, inv, jobs)
                proxy_cpu = cpu_seconds([proxy.pid]) - before[0]
                servers_cpu = cpu_seconds([p.pid for p in servers.procs]) - before[1]
                lines = [json.loads(l) for l in out.splitlines()]
                ok = sum(1 for l in lines if l["status"] == "ok")
                rss, cpu = rss_and_cpu(args.bin, inv, jobs)
                row = {"servers": n, "jobs": jobs, "rtt_ms": args.rtt_ms, "wall_s": round(wall, 3),
                       "servers_per_s": round(n / wall, 1), "peak_rss_mib": round(rss / 1024, 1),
                       "mytune_cpu_ms_per_server": round(cpu * 1000 / n, 2),
                       "proxy_cpu_ms_per_server": round(proxy_cpu * 1000 / n, 2),
                       "servers_cpu_ms_per_server": round(servers_cpu * 1000 / n, 2),
                       "ok": ok, "exit": code,
                       "median_server_s": sorted(l["duration_secs"] for l in lines)[len(lines) // 2]}
                if ok != n:
                    row["errors"] = sorted({l.get("error", "") for l in lines if l["status"] != "ok"})[:3]
                rows.append(row)
                print(json.dumps(row), flush=True)
        shutil.rmtree(work, ignore_errors=True)
    finally:
        if proxy:
            proxy.send_signal(signal.SIGTERM)
            proxy.wait()
        servers.stop()

    if args.out:
        with open(args.out, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print()
    print("| servers | --jobs | wall (s) | servers/s | peak RSS (MiB) | CPU per server (ms): "
          "mytune / proxy / mariadbd | checked | median per server (s) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['servers']} | {r['jobs']} | {r['wall_s']} | {r['servers_per_s']} | "
              f"{r['peak_rss_mib']} | {r['mytune_cpu_ms_per_server']} / "
              f"{r['proxy_cpu_ms_per_server']} / {r['servers_cpu_ms_per_server']} | "
              f"{r['ok']}/{r['servers']} | {r['median_server_s']} |")
    print()
    for jobs in jobs_list:
        pts = [(r["servers"], r["wall_s"]) for r in rows if r["jobs"] == jobs]
        if len(pts) >= 2:
            a, b = fit(pts)
            print(f"--jobs {jobs}: wall = {a:.2f} s + {b * 1000:.1f} ms x N; "
                  f"1,000 servers at {args.rtt_ms:g} ms: {a + 1000 * b:.1f} s (extrapolated)")
    # Remote servers: only mytune's own CPU stays on this machine.
    cpus = os.cpu_count() or 1
    mine = [r["mytune_cpu_ms_per_server"] for r in rows if r["servers"] == max(sizes)]
    per_server = sorted(r["median_server_s"] for r in rows if r["jobs"] == min(jobs_list))
    if mine and per_server:
        cpu_ms = sum(mine) / len(mine)
        latency_s = per_server[len(per_server) // 2]
        for jobs in jobs_list:
            bound = max(1000 * latency_s / jobs, 1000 * cpu_ms / 1000 / cpus)
            print(f"remote model, --jobs {jobs}: 1,000 servers in about {bound:.1f} s "
                  f"(latency bound {1000 * latency_s / jobs:.1f} s: {latency_s} s per server; "
                  f"CPU bound {cpu_ms:.1f} ms x 1,000 / {cpus} CPUs = {cpu_ms / cpus:.1f} s)")
    # What a run keeps per server: the growth of peak RSS with N at one
    # --jobs (least squares), apart from what each concurrent check holds.
    for jobs in jobs_list:
        pts = [(r["servers"], r["peak_rss_mib"] * 1024) for r in rows if r["jobs"] == jobs]
        if len(pts) >= 2:
            a, b = fit(pts)
            print(f"--jobs {jobs}: peak RSS = {a / 1024:.1f} MiB + {b:.1f} KiB x N")
    by_jobs = {}
    for r in rows:
        if r["servers"] == max(sizes):
            by_jobs[r["jobs"]] = r["peak_rss_mib"]
    if len(by_jobs) >= 2:
        lo, hi = min(by_jobs), max(by_jobs)
        per = (by_jobs[hi] - by_jobs[lo]) * 1024 / (hi - lo)
        print(f"memory per concurrent check: {per:.0f} KiB "
              f"(peak RSS at --jobs {hi} less --jobs {lo}, {max(sizes)} servers)")


if __name__ == "__main__":
    main()
