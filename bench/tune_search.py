#!/usr/bin/env python3
"""Knob search: how close is `mytune gen-cnf` to the best durable config this machine allows?

Run through bench/tune-search.sh (which installs what it needs). Every measured run is one
throw-away mariadbd server started on a fresh copy of a prepared sysbench data set, one
`sysbench oltp_read_write` run (after `sysbench prewarm` for the workloads with sysbench's default
distribution, see WORKLOADS), and the server killed (the copy is deleted, so nothing it would
flush at shutdown matters). Nothing here touches the machine's shared server.

Phases (--phase):
  search  coordinate descent from the generated strict file, per workload: every candidate
          (one knob changed) runs alternately against the incumbent, C I C I ..., and is kept
          when the median of the per-pair ratios clears --accept after --confirm-pairs.
  table   every config (defaults, strict, relaxed, the anchors, the best found per workload)
          once per round, in a rotated order, --rounds rounds per workload: median TPS, p95,
          spread, and per-round ratios to the best found and to every anchor.
  dynamic every run-time knob of DYNAMIC switched inside one server (A B B A slices).
  all     search, dynamic, then table.

Every candidate keeps strict durability: innodb_flush_log_at_trx_commit = 1 and
innodb_doublewrite = ON are never varied, the binary log stays as the profile has it (off on
MariaDB's defaults), and flush methods that skip a data-file fsync are not candidates.

Results are appended to STATE (JSON lines) as they are measured; a rerun with the same --out
reuses them, so a search stopped by its time cap continues where it stopped.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

# ---- data -------------------------------------------------------------------------------

# The search space, in the order coordinate descent visits it (most expected effect first).
# A knob with several names is varied as one (io_capacity with its maximum, the I/O threads).
KNOBS = [
    ("innodb_log_file_size", ["1G"]),
    ("innodb_buffer_pool_size", ["8G"]),
    ("performance_schema", ["OFF"]),
    ("slow_query_log", ["OFF"]),
    ("innodb_flush_method", ["O_DSYNC", "fsync"]),
    ("innodb_read_io_threads innodb_write_io_threads", ["1 1"]),
    ("innodb_log_buffer_size", ["64M"]),
]

# Knobs the server changes at run time are compared inside one server run instead (see
# Lab.interleave): here a restart to restart spread of about 10 % would hide the few
# percent they move.
DYNAMIC = [
    ("slow_query_log", ["OFF"]),  # also by restart above: the observability trade
    ("innodb_io_capacity innodb_io_capacity_max", ["2000 4000"]),
    # The disk says rotational (a virtio disk does, whatever backs it), so the default keeps
    # flushing a page's neighbours; 0 is what an SSD wants.
    ("innodb_flush_neighbors", ["0"]),
    ("innodb_adaptive_hash_index", ["ON"]),
    # Four purge threads by default, on two CPUs here.
    ("innodb_purge_threads", ["1"]),
]

WORKLOADS = {
    # name: (tables, rows, rand-type, prewarm)
    # The two workloads the figures come from: uniform rows on a server just started
    # (no prewarm, every page read on first use), and sysbench's default distribution on a
    # server whose pool was first filled by `sysbench prewarm` (every table and index read
    # once, as a server in service holds them).
    "small-uniform": (8, 250_000, "uniform", False),
    "small-special": (8, 250_000, "special", True),
    "large-uniform": (8, 2_000_000, "uniform", False),
    "large-special": (8, 2_000_000, "special", True),
}

# What the observability profile decides (mytune gen-cnf --observability): measured as a
# trade, kept out of the best config of the default (full) profile.
OBSERVABILITY = ("performance_schema", "slow_query_log")
ALWAYS = ("innodb_log_file_size", "performance_schema", "slow_query_log")

SERVER_PATH_OPTIONS = ("datadir", "socket", "pid-file", "pid_file", "log-error", "log_error", "port")


def die(msg):
    print(f"tune-search: {msg}", file=sys.stderr)
    sys.exit(2)


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ---- option files -----------------------------------------------------------------------


def parse_cnf(text):
    """The [mysqld]/[mariadb]/[mariadbd]/[server] settings of an option file, in order."""
    out, on = {}, False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            on = line.strip("[]").strip() in ("mysqld", "mariadb", "mariadbd", "server")
            continue
        if not on:
            continue
        key, _, value = line.partition("=")
        key = key.strip().replace("-", "_")
        if key.split("_")[0] == "loose":
            key = key[len("loose_"):]
        if key in SERVER_PATH_OPTIONS:
            continue
        out[key] = value.strip() if _ else "ON"
    return out


def render(settings):
    return "[mariadbd]\n" + "".join(f"{k} = {v}\n" for k, v in settings.items())


def with_knob(settings, names, values):
    out = dict(settings)
    for n, v in zip(names.split(), values.split()):
        out[n] = v
    return out


def knob_value(settings, names):
    return " ".join(settings.get(n, "(default)") for n in names.split())


def size_bytes(s):
    m = re.fullmatch(r"\s*([0-9.]+)\s*([KMGT]?)B?\s*", s, re.I)
    if not m:
        return None
    return int(float(m.group(1)) * 1024 ** " KMGT".index(m.group(2).upper() or " "))


def mib(n):
    return f"{max(1, int(n // (1 << 20)))}M"


# ---- the machine's servers --------------------------------------------------------------


def prog(*names):
    for n in names:
        p = shutil.which(n) or (n if os.access(n, os.X_OK) else None)
        if p:
            return p
    die(f"none of {', '.join(names)} found")


class Lab:
    def __init__(self, args):
        self.args = args
        self.mariadbd = prog("mariadbd", "/usr/sbin/mariadbd")
        self.install_db = prog("mariadb-install-db", "mysql_install_db")
        self.admin = prog("mariadb-admin", "mysqladmin")
        self.client = prog("mariadb", "mysql")
        self.cache = Path(args.cache)
        self.work = Path(args.work)
        self.work.mkdir(parents=True, exist_ok=True)
        self.sock = self.work / "mysqld.sock"
        self.proc = None
        self.user = ["--user=root"] if os.getuid() == 0 else []

    # one server
    def start(self, datadir, cnf_text, port=None):
        cnf = self.work / "run.cnf"
        cnf.write_text(cnf_text)
        net = [f"--port={port}", "--bind-address=127.0.0.1"] if port else ["--skip-networking"]
        err = self.work / "run.err"
        err.unlink(missing_ok=True)
        cmd = [self.mariadbd, f"--defaults-file={cnf}", f"--datadir={datadir}", f"--socket={self.sock}",
               f"--pid-file={self.work / 'run.pid'}", f"--log-error={err}", *net, *self.user]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.time() + 300
        while time.time() < deadline:
            if subprocess.run([self.admin, "--no-defaults", "-uroot", f"--socket={self.sock}", "ping"],
                              capture_output=True).returncode == 0:
                return
            if self.proc.poll() is not None:
                tail = err.read_text(errors="replace").splitlines()[-5:] if err.exists() else []
                die("mariadbd exited during start-up:\n" + "\n".join(tail))
            time.sleep(0.2)
        die("mariadbd did not start within 300 s")

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def shutdown(self):
        subprocess.run([self.admin, "--no-defaults", "-uroot", f"--socket={self.sock}", "shutdown"],
                       capture_output=True)
        if self.proc:
            self.proc.wait()
        self.proc = None

    def sql(self, stmt):
        return subprocess.run([self.client, "--no-defaults", "-uroot", f"--socket={self.sock}", "-N", "-B",
                               "-e", stmt], capture_output=True, text=True, check=True).stdout

    def sysbench_cmd(self, workload, action, seconds=None, extra=()):
        tables, rows, rand, _ = WORKLOADS[workload]
        cmd = ["sysbench", "oltp_read_write", "--db-driver=mysql", f"--mysql-socket={self.sock}",
               "--mysql-user=root", "--mysql-db=sbtest", f"--tables={tables}", f"--table-size={rows}",
               f"--threads={self.args.threads}", f"--rand-type={rand}", *extra]
        if seconds:
            cmd += [f"--time={seconds}", "--percentile=95"]
        return cmd + [action]

    def sysbench(self, workload, action, seconds=None, extra=()):
        return subprocess.run(self.sysbench_cmd(workload, action, seconds, extra), capture_output=True, text=True)

    # data sets
    def base(self, workload):
        tables, rows, _, _ = WORKLOADS[workload]
        base = self.cache / f"oltp_read_write-{tables}-{rows}"
        if (base / ".sysbench-ab-prepared").exists():
            return base
        log(f"preparing {tables} x {rows} rows in {base}")
        shutil.rmtree(base, ignore_errors=True)
        base.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([self.install_db, "--no-defaults", "--auth-root-authentication-method=normal",
                        f"--datadir={base}", *self.user], capture_output=True, check=True)
        self.start(base, "[mariadbd]\ninnodb_buffer_pool_size = 4G\ninnodb_log_file_size = 1G\n"
                         "innodb_flush_log_at_trx_commit = 0\n")
        self.sql("CREATE DATABASE sbtest")
        r = self.sysbench(workload, "prepare")
        if r.returncode != 0:
            die("sysbench prepare failed:\n" + r.stdout[-2000:] + r.stderr[-2000:])
        self.shutdown()
        (base / "ib_buffer_pool").unlink(missing_ok=True)
        (base / ".sysbench-ab-prepared").touch()
        return base

    def variant(self, workload, log_size):
        """The data set with its redo log already at LOG_SIZE and every block of it written.

        InnoDB creates a resized redo log with fallocate(): the first pass over it writes into
        unwritten extents, and on ext4 an fdatasync after such a write also commits the
        journal (about 125 us against 78 us here). A fresh 4G log never wraps in a 60 s run, a
        128M one wraps at once, so without this a benchmark of fresh copies would measure that
        first pass, not a server in service. `--redo fresh` measures it that way on purpose."""
        base = self.base(workload)
        if self.args.redo == "fresh":
            return base
        key = size_bytes(log_size or "96M")
        var = self.cache / f"{base.name}-redo-{key >> 20}M"
        if (var / ".prepared").exists():
            return var
        log(f"making the redo log {key >> 20}M in a copy of {base.name}")
        shutil.rmtree(var, ignore_errors=True)
        subprocess.run(["cp", "-a", str(base), str(var)], check=True)
        self.start(var, f"[mariadbd]\ninnodb_log_file_size = {key >> 20}M\n")
        self.shutdown()
        (var / "ib_buffer_pool").unlink(missing_ok=True)
        (var / ".prepared").touch()
        return var

    def fresh_copy(self, src):
        run = self.work / "data"
        shutil.rmtree(run, ignore_errors=True)
        # --sparse=never: every block of the copy is written, holes and unwritten extents too
        # (see variant()); sync so that write-back does not run inside the measured run.
        sparse = ["--sparse=never"] if self.args.redo == "written" else []
        subprocess.run(["cp", "-a", *sparse, str(src), str(run)], check=True)
        subprocess.run(["sync"], check=True)
        if self.args.drop_caches:
            # The copy was just written, so it sits in the page cache: a flush method that
            # reads through the cache (fsync) would start warm and the others (O_DIRECT,
            # O_DSYNC) cold. Evicting it starts every run cold from the disk.
            Path("/proc/sys/vm/drop_caches").write_text("1\n")
        return run

    def prewarm(self, workload):
        """`sysbench prewarm` where the workload asks for it (see WORKLOADS)."""
        if WORKLOADS[workload][3]:
            r = self.sysbench(workload, "prewarm")
            if r.returncode != 0:
                die("sysbench prewarm failed:\n" + r.stdout[-1500:] + r.stderr[-1500:])

    def measure(self, workload, settings):
        """One run: (tps, p95 ms)."""
        src = self.variant(workload, settings.get("innodb_log_file_size"))
        run = self.fresh_copy(src)
        self.start(run, render(settings))
        try:
            self.prewarm(workload)
            if self.args.warmup:
                self.sysbench(workload, "run", self.args.warmup)
            r = self.sysbench(workload, "run", self.args.time)
        finally:
            self.kill()
            shutil.rmtree(run, ignore_errors=True)
        tps = re.search(r"transactions:\s+\d+\s+\(([0-9.]+) per sec", r.stdout)
        p95 = re.search(r"95th percentile:\s+([0-9.]+)", r.stdout)
        if r.returncode != 0 or not tps or not p95:
            die("sysbench run failed:\n" + r.stdout[-1500:] + r.stderr[-1500:])
        return float(tps.group(1)), float(p95.group(1))

    def interleave(self, workload, settings, names, a, b, seconds, slice_s, skip_s):
        """One server, one sysbench run; the knob NAMES switched between values A and B with
        SET GLOBAL every SLICE_S seconds in A B B A order, after SKIP_S seconds of A to warm
        up. Per-second TPS of every slice (the first second after a switch left out) goes to
        its value: [(value, mean tps)] in slice order. Drift of the machine, which dominates
        restart-to-restart spread here, hits the two values alike."""
        src = self.variant(workload, settings.get("innodb_log_file_size"))
        run = self.fresh_copy(src)
        self.start(run, render(settings))
        self.prewarm(workload)
        if a is None:
            a = " ".join(self.sql(f"SELECT @@GLOBAL.{n}").strip() for n in names.split())
        cmd = self.sysbench_cmd(workload, "run", seconds, ["--report-interval=1"])
        plan, t = [], skip_s
        order = [a, b, b, a]
        k = 0
        while t + slice_s <= seconds:
            plan.append((t, t + slice_s, order[k % 4]))
            t += slice_s
            k += 1
        try:
            sb = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            t0 = time.time()
            current = a
            for start, _, value in plan:
                while time.time() - t0 < start:
                    time.sleep(0.05)
                if value != current:
                    sets = ", ".join(f"GLOBAL {n} = {quote(v)}" for n, v in zip(names.split(), value.split()))
                    self.sql(f"SET {sets}")
                    current = value
            out, _ = sb.communicate()
        finally:
            self.kill()
            shutil.rmtree(run, ignore_errors=True)
        per_s = {int(m.group(1)): float(m.group(2))
                 for m in re.finditer(r"\[ (\d+)s \] thds: \d+ tps: ([0-9.]+)", out)}
        slices = []
        for start, end, value in plan:
            xs = [per_s[s] for s in range(start + 2, end + 1) if s in per_s]
            if xs:
                slices.append((value, statistics.mean(xs)))
        return a, slices

    # MySQLTuner's advice for a server with MariaDB's defaults after this workload
    def mysqltuner_advice(self, workload):
        run = self.fresh_copy(self.variant(workload, None))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        # MariaDB 10.11 reports innodb_buffer_pool_chunk_size = 0 (sized from the pool), and
        # MySQLTuner 1.9.9 divides by it and dies before its advice. 2M is what 10.11 picks
        # for the default 128M pool (1/64), so the server is the same and the advice complete.
        self.start(run, "[mariadbd]\ninnodb_buffer_pool_chunk_size = 2M\n", port=port)
        try:
            self.prewarm(workload)
            self.sysbench(workload, "run", self.args.time)
            # TCP: MySQLTuner 1.9.9 given --socket ran its queries against the default socket.
            r = subprocess.run(["mysqltuner", "--host", "127.0.0.1", "--port", str(port), "--user", "root",
                                "--nocolor", "--noask", "--forcemem", str(mem_mib())],
                               capture_output=True, text=True)
        finally:
            self.kill()
            shutil.rmtree(run, ignore_errors=True)
        return r.stdout + r.stderr


def quote(v):
    return v if re.fullmatch(r"[0-9]+|ON|OFF", v) else "'" + v + "'"


def mem_mib():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    die("no MemTotal in /proc/meminfo")


# ---- anchors ----------------------------------------------------------------------------


def mysqltuner_settings(report):
    """MySQLTuner's "Variables to adjust" applied as a user would: (>= X) and (=X) set X,
    (> X) sets 2X, name=value sets value. Lines that are not a setting are listed, not applied."""
    out, skipped, on = {}, [], False
    for line in report.splitlines():
        line = line.strip()
        if line.startswith("Variables to adjust"):
            on = True
            continue
        if not on or not line:
            continue
        if line.startswith("***") or line.startswith("-------"):
            if line.startswith("-------"):
                break
            continue
        m = re.match(r"([a-z_\-]+)\s*=\s*(\S+)$", line)
        n = re.match(r"([a-z_]+)\s*(?:should be\s*)?\((>=|=|>)\s*([0-9.]+[KMG]?)B?\)", line)
        if m:
            out[m.group(1).replace("-", "_")] = m.group(2)
        elif n:
            name, op, val = n.groups()
            b = size_bytes(val)
            if name == "innodb_buffer_pool_instances":
                skipped.append(line + "  (ignored by MariaDB 10.11)")
                continue
            if b is None:
                skipped.append(line)
                continue
            if op == ">":
                b *= 2
            if name == "innodb_buffer_pool_size":
                b = -(-b // (128 << 20)) * (128 << 20)
            out[name] = mib(b) if b >= 1 << 20 else str(b)
        else:
            skipped.append(line)
    # "innodb_log_file_size should be (=32M) if possible, so InnoDB total log files size equals
    # 25% of buffer pool size": 25% of the pool it advises, as a user applying both lines would
    # (512M and 128M for 8 x 250k; a second MySQLTuner run would say the same).
    ratio = [x for x in report.splitlines() if "equals 25% of buffer pool size" in x]
    if ratio and "innodb_buffer_pool_size" in out and "innodb_log_file_size" in out:
        out["innodb_log_file_size"] = mib(size_bytes(out["innodb_buffer_pool_size"]) // 4)
    for k in ("innodb_flush_log_at_trx_commit", "sync_binlog", "innodb_doublewrite"):
        if k in out:
            skipped.append(f"{k}={out.pop(k)}  (not durable)")
    return out, skipped


def dedicated_settings():
    """What innodb_dedicated_server picks on MySQL 8.4, transposed to MariaDB: the pool from
    memory (under 1G: 128M; 1-4G: half; above: 0.75), the redo capacity (logical CPUs / 2) GB
    as innodb_log_file_size (MariaDB has one redo file)."""
    mem = mem_mib()
    if mem < 1024:
        pool = 128
    elif mem <= 4096:
        pool = mem // 2
    else:
        pool = mem * 3 // 4
    pool = pool // 128 * 128
    redo_gib = max(1, min(16, (os.cpu_count() or 2) // 2))
    return {"innodb_buffer_pool_size": f"{pool}M", "innodb_log_file_size": f"{redo_gib}G"}


# ---- statistics and records -------------------------------------------------------------


def median(xs):
    return statistics.median(xs) if xs else float("nan")


class State:
    """Every measurement, appended as a JSON line; the search replays it on a rerun."""

    def __init__(self, path):
        self.path = Path(path)
        self.rows = []
        if self.path.exists():
            self.rows = [json.loads(x) for x in self.path.read_text().splitlines() if x.strip()]

    def add(self, row):
        self.rows.append(row)
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")

    def find(self, **kw):
        return [r for r in self.rows if all(r.get(k) == v for k, v in kw.items())]


def key_of(settings):
    return json.dumps(dict(sorted(settings.items())))


# ---- phases -----------------------------------------------------------------------------


class TimeCap(Exception):
    """The search's time cap is reached before a measurement it needs."""


def pair_ratios(lab, state, workload, inc, cand, pairs, tag, deadline=None):
    """Run cand and inc alternately until `pairs` pairs of this comparison exist; ratios cand/inc.
    Pairs already recorded are reused; a new one past `deadline` raises TimeCap."""
    done = state.find(kind="pair", workload=workload, inc=key_of(inc), cand=key_of(cand))
    while len(done) < pairs:
        if deadline is not None and time.time() > deadline:
            raise TimeCap(tag)
        c = lab.measure(workload, cand)
        i = lab.measure(workload, inc)
        row = {"kind": "pair", "workload": workload, "inc": key_of(inc), "cand": key_of(cand), "tag": tag,
               "cand_tps": c[0], "cand_p95": c[1], "inc_tps": i[0], "inc_p95": i[1], "at": time.time()}
        state.add(row)
        done.append(row)
        log(f"{workload} {tag}: {c[0]:.0f} vs {i[0]:.0f} (ratio {c[0] / i[0]:.3f})")
    return [r["cand_tps"] / r["inc_tps"] for r in done[:pairs]]


def search(lab, state, configs, args, deadline):
    """Coordinate descent per search workload. The first workload tries every knob; the later
    ones (budget) the redo size, the observability trade and the knobs an earlier workload
    kept, so that a lesson is checked on the other data set and distribution."""
    best, kept = {}, set()
    for n, w in enumerate(args.search_workloads):
        inc = dict(configs["start"])
        for names, values in KNOBS:
            if n > 0 and names not in ALWAYS and names not in kept:
                continue
            for v in values:
                cand = with_knob(inc, names, v)
                if key_of(cand) == key_of(inc):
                    continue
                tag = f"{names} {knob_value(inc, names)} -> {v}"
                try:
                    r = pair_ratios(lab, state, w, inc, cand, args.pairs, tag, deadline)
                    if median(r) >= args.accept:
                        r = pair_ratios(lab, state, w, inc, cand, args.confirm_pairs, tag, deadline)
                except TimeCap:
                    log(f"time cap reached during {w} at {tag}: the incumbent is its best")
                    best[w] = inc
                    if not state.find(kind="best", workload=w, settings=inc):
                        state.add({"kind": "best", "workload": w, "settings": inc, "capped_at": tag})
                    return best, False
                if len(r) >= args.confirm_pairs and median(r) >= args.accept and \
                        sum(x > 1 for x in r) > len(r) // 2:
                    log(f"{w}: kept {tag} (median ratio {median(r):.3f} over {len(r)} pairs)")
                    if not state.find(kind="step", workload=w, tag=tag):
                        state.add({"kind": "step", "workload": w, "tag": tag, "ratios": r})
                    inc = cand
                    kept.add(names)
        best[w] = inc
        if not state.find(kind="best", workload=w, settings=inc):
            state.add({"kind": "best", "workload": w, "settings": inc})
    return best, True


def full_profile(settings, configs):
    """SETTINGS with the observability knobs as the default profile (strict) has them."""
    out = {k: v for k, v in settings.items() if k not in OBSERVABILITY}
    out.update({k: v for k, v in configs["strict"].items() if k in OBSERVABILITY})
    return out


def dynamic(lab, state, configs, args, best):
    """Each run-time knob of DYNAMIC, A B B A inside one server of the workload's best config."""
    for w in (args.dynamic_workloads.split(",") if args.dynamic_workloads else args.search_workloads):
        base = best.get(w, configs["strict"])
        for names, values in DYNAMIC:
            if args.dynamic_knobs and names not in args.dynamic_knobs.split(","):
                continue
            for v in values:
                tag = f"{names} -> {v}"
                if state.find(kind="interleave", workload=w, tag=tag, base=key_of(base)):
                    continue
                a, slices = lab.interleave(w, base, names, None, v, args.interleave_s, args.slice_s, 30)
                blocks = [slices[i:i + 4] for i in range(0, len(slices) - 3, 4)]
                ratios = [sum(t for x, t in blk if x == v) / sum(t for x, t in blk if x != v)
                          for blk in blocks]
                row = {"kind": "interleave", "workload": w, "tag": tag, "base": key_of(base), "a": a, "b": v,
                       "ratios": ratios, "slices": slices}
                state.add(row)
                log(f"{w} {names} {a} -> {v} in one run: block ratios "
                    + ", ".join(f"{r:.3f}" for r in ratios) + f" (median {median(ratios):.3f})")


def for_workload(configs, w):
    """The configs of one workload: the shared ones, its MySQLTuner advice, its best found."""
    out = {n: s for n, s in configs.items() if not n.startswith(("mysqltuner:", "best:")) and n != "start"}
    for n in (f"mysqltuner:{w}", f"best:{w}"):
        if n in configs:
            out[n.split(":")[0] if n.startswith("best") else "anchor:mysqltuner"] = configs[n]
    return out


def table(lab, state, configs, args):
    for w in args.workloads:
        cfgs = for_workload(configs, w)
        names = [n for n in cfgs if not args.configs or n in args.configs.split(",")]
        todo = [(r, n) for r in range(args.rounds) for n in names
                if not state.find(kind="table", workload=w, round=r, key=key_of(cfgs[n]))]
        if todo:
            # One unrecorded run first: the first run after the data set's copies are made
            # (gigabytes written) ran 10-20 % slow in the first table, whichever config it was.
            for n in names:
                lab.variant(w, cfgs[n].get("innodb_log_file_size"))
            lab.measure(w, cfgs[todo[0][1]])
        for rnd in range(args.rounds):
            k = rnd % len(names)
            for name in names[k:] + names[:k]:
                if state.find(kind="table", workload=w, round=rnd, key=key_of(cfgs[name])):
                    continue
                tps, p95 = lab.measure(w, cfgs[name])
                state.add({"kind": "table", "workload": w, "round": rnd, "config": name,
                           "key": key_of(cfgs[name]), "tps": tps, "p95": p95})
                log(f"table {w} round {rnd + 1}: {name} {tps:.0f} tps, p95 {p95} ms")
    report(state, configs, args)


def report(state, configs, args):
    anchors = ["anchor:mysqltuner", "anchor:dedicated", "anchor:article"]
    lines = ["| workload | config | runs | median TPS | spread (min–max) | median p95 ms | ratio to best found | "
             + " | ".join(f"ratio to {a[7:]}" for a in anchors) + " |",
             "|" + "---|" * (7 + len(anchors))]
    for w in args.workloads:
        cfgs = for_workload(configs, w)
        rows = [r for r in state.rows if r.get("kind") == "table" and r["workload"] == w]
        # A run belongs to every config with the same settings (strict may equal best).
        by = {n: {r["round"]: r for r in rows if r["key"] == key_of(s)} for n, s in cfgs.items()}
        for name in cfgs:
            if not by[name]:
                continue
            t = [r["tps"] for r in by[name].values()]
            p = [r["p95"] for r in by[name].values()]

            def ratio_to(other):
                if other not in by or other == name:
                    return "—"
                rs = [by[name][k]["tps"] / by[other][k]["tps"] for k in by[name] if k in by[other]]
                return f"{median(rs):.2f} ({min(rs):.2f}–{max(rs):.2f})" if rs else "—"

            lines.append(f"| {w} | {name} | {len(t)} | {median(t):.0f} | {min(t):.0f}–{max(t):.0f} | "
                         f"{median(p):.2f} | {ratio_to('best')} | " + " | ".join(ratio_to(a) for a in anchors) + " |")
    text = "\n".join(lines)
    Path(args.out, "table.md").write_text(text + "\n")
    print(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mytune", required=True, help="the mytune binary whose gen-cnf output is measured")
    ap.add_argument("--phase", choices=["search", "dynamic", "table", "report", "all"], default="all")
    ap.add_argument("--interleave-s", type=int, default=190, help="seconds of one interleaved run [190]")
    ap.add_argument("--slice-s", type=int, default=10, help="seconds per value in an interleaved run [10]")
    ap.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated, of: " + ", ".join(WORKLOADS))
    ap.add_argument("--time", type=int, default=60, help="seconds per measured run [60]")
    ap.add_argument("--warmup", type=int, default=0, help="seconds of unmeasured run first [0: none, cold]")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--pairs", type=int, default=2, help="first pairs per candidate [2]")
    ap.add_argument("--confirm-pairs", type=int, default=4, help="pairs before a candidate is kept [4]")
    ap.add_argument("--accept", type=float, default=1.02, help="median ratio a candidate must reach [1.02]")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the table phase [3]")
    ap.add_argument("--budget-min", type=float, default=120, help="time cap of the search phase [120]")
    ap.add_argument("--redo", choices=["written", "fresh"], default="written",
                    help="redo log blocks all written before a run (a server in service), or fresh as resized")
    ap.add_argument("--search-workloads", default="small-uniform,large-special",
                    help="workloads the search runs on [one per data set, one per distribution]")
    ap.add_argument("--search-from", default=None,
                    help="option file the search starts from [the generated strict file]")
    ap.add_argument("--configs", default=None, help="table only these configs (comma-separated names)")
    ap.add_argument("--drop-caches", action=argparse.BooleanOptionalAction, default=os.getuid() == 0,
                    help="evict the page cache after each copy (needs root) [on as root]")
    ap.add_argument("--dynamic-workloads", default=None,
                    help="workloads of the run-time knob phase [the search workloads]")
    ap.add_argument("--dynamic-knobs", default=None,
                    help="run-time knobs to compare (comma-separated names as in DYNAMIC) [all]")
    ap.add_argument("--cache", default="/var/tmp/mytune-tune/cache")
    ap.add_argument("--work", default=None)
    ap.add_argument("--out", default="/var/tmp/mytune-tune/out")
    ap.add_argument("--article-config", default=None, help="the single-node tuning article's file, as written")
    args = ap.parse_args()
    args.workloads = [w for w in args.workloads.split(",") if w]
    args.search_workloads = [w for w in args.search_workloads.split(",") if w]
    for w in args.workloads + args.search_workloads:
        if w not in WORKLOADS:
            die(f"unknown workload {w}")
    Path(args.out).mkdir(parents=True, exist_ok=True)
    args.work = args.work or str(Path(args.out) / "work")
    state = State(Path(args.out) / "state.jsonl")
    lab = Lab(args)

    def stop(signum, _frame):
        lab.kill()
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def gen(*extra):
        r = subprocess.run([args.mytune, "gen-cnf", "--target", "mariadb-10.11", *extra],
                           capture_output=True, text=True)
        if r.returncode != 0:
            die("mytune gen-cnf failed: " + r.stderr)
        return parse_cnf(r.stdout)

    configs = {"defaults": {}, "strict": gen(), "relaxed": gen("--durability", "relaxed", "--workload", "oltp")}
    if args.article_config:
        configs["anchor:article"] = parse_cnf(Path(args.article_config).read_text())
    configs["anchor:dedicated"] = dedicated_settings()
    configs["lean"] = gen("--observability", "lean")
    start = parse_cnf(Path(args.search_from).read_text()) if args.search_from else configs["strict"]
    for w in args.workloads:
        rows = state.find(kind="mysqltuner", workload=w)
        if not rows:
            rep = lab.mysqltuner_advice(w)
            Path(args.out, f"mysqltuner-{w}.txt").write_text(rep)
            s, skipped = mysqltuner_settings(rep)
            state.add({"kind": "mysqltuner", "workload": w, "settings": s, "skipped": skipped})
            rows = state.find(kind="mysqltuner", workload=w)
        configs[f"mysqltuner:{w}"] = rows[-1]["settings"]
        log(f"MySQLTuner after {w}: {rows[-1]['settings']} (not applied: {rows[-1]['skipped']})")
    for name, s in configs.items():
        log(f"{name}: {s}")

    deadline = time.time() + args.budget_min * 60
    configs["start"] = start
    if args.phase in ("search", "all"):
        best, _ = search(lab, state, configs, args, deadline)
        for w, s in best.items():
            log(f"best for {w}: {s}")
    found = {}
    for w in args.search_workloads:
        b = state.find(kind="best", workload=w)
        if b:
            found[w] = b[-1]["settings"]
    if args.phase in ("dynamic", "all"):
        dynamic(lab, state, configs, args, {w: full_profile(s, configs) for w, s in found.items()})
    # The best of a workload the search did not run on is that of the search workload with
    # the same data set.
    for w in args.workloads:
        src = w if w in found else next((x for x in found if WORKLOADS[x][:2] == WORKLOADS[w][:2]), None)
        if src:
            configs[f"best:{w}"] = full_profile(found[src], configs)
    if args.phase in ("table", "all"):
        table(lab, state, configs, args)
    if args.phase == "report":
        report(state, configs, args)


if __name__ == "__main__":
    main()
