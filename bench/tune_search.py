#!/usr/bin/env python3
"""Knob search: how close is `mytune gen-cnf` to the best durable config this machine allows?

Run through bench/tune-search.sh (which installs what it needs). Every measured run is one
throw-away mariadbd server started on a fresh copy of a prepared sysbench data set (the same copy
for every config of the data set: the redo log is restored in place, see Lab.fresh_copy), one
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
  ab      one question on every workload: --base against --change NAME=VALUE or --vs CONFIG,
          alternately; the median ratio with its 95% interval (median_ci).
  report  the table and every question asked in pairs, from STATE, without measuring.
  all     search, dynamic, then table.
  selftest  the restore of Lab.fresh_copy against the real mariadbd on a small data set, and
          median_ci against the binomial tables (no sysbench needed; run by cargo test).

Every candidate keeps strict durability: innodb_flush_log_at_trx_commit = 1 and
innodb_doublewrite = ON are never varied, the binary log stays as the profile has it (off on
MariaDB's defaults), and flush methods that skip a data-file fsync are not candidates.

Results are appended to STATE (JSON lines) as they are measured; a rerun with the same --out
reuses them, so a search stopped by its time cap continues where it stopped.
"""

import argparse
import contextlib
import io
import json
import math
import mmap
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
    # Four purge threads by default, on two CPUs here; MySQL 8.4 picks 1 on 16 CPUs or fewer.
    ("innodb_purge_threads", ["1"]),
    # The disk says rotational (a virtio disk does, whatever backs it), so the default keeps
    # flushing a page's neighbours; 0 is what an SSD wants.
    ("innodb_flush_neighbors", ["0"]),
    # 8 client threads on 2 CPUs: a thread pool runs about one statement per CPU at a time.
    ("thread_handling", ["pool-of-threads"]),
    ("innodb_flush_method", ["O_DSYNC", "fsync"]),
    ("innodb_log_buffer_size", ["64M"]),
    ("innodb_read_io_threads innodb_write_io_threads", ["1 1"]),
    ("innodb_adaptive_hash_index", ["ON"]),
    ("innodb_change_buffering", ["all"]),
    ("innodb_io_capacity innodb_io_capacity_max", ["2000 4000"]),
]

# Knobs the server changes at run time are compared inside one server run instead (see
# Lab.interleave): here a restart to restart spread of about 10 % would hide the few
# percent they move.
DYNAMIC = [
    ("slow_query_log", ["ON"]),  # the observability trade, which the profile decides
    # The rest are in KNOBS too, where restarted pairs measure them.
    ("innodb_io_capacity innodb_io_capacity_max", ["2000 4000"]),
    ("innodb_flush_neighbors", ["0"]),
    ("innodb_adaptive_hash_index", ["ON"]),
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
# trade, kept out of the best config of the default (standard) profile.
OBSERVABILITY = ("performance_schema", "slow_query_log")
# The knobs the later search workloads try besides those an earlier one kept: the ones whose
# effect grows with the data set and its writes (redo, flushing, purge, the flush method).
ALWAYS = ("innodb_log_file_size", "innodb_flush_neighbors", "innodb_io_capacity innodb_io_capacity_max",
          "innodb_purge_threads", "innodb_flush_method")

SERVER_PATH_OPTIONS = ("datadir", "socket", "pid-file", "pid_file", "log-error", "log_error", "port")

# What a run restores of a clean redo log (Lab.fresh_copy): MariaDB's log (format 10.8, the one
# 10.11 writes) has its header at 0, checkpoint blocks at 4096 and 8192 and records from 12288 on;
# start-up reads from the checkpoint to the end of the records and stops at the first block
# that does not continue them. The bench writes back the header and checkpoints, and the log
# from the checkpoint to REDO_TAIL past its end.
REDO_START = 12288
REDO_TAIL = 1 << 20


def die(msg):
    # The script's own name (tune-search, or knob-cost, which borrows prog() from here).
    print(f"{Path(sys.argv[0]).stem.replace('_', '-')}: {msg}", file=sys.stderr)
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


def redo_restore_ranges(head, size):
    """The byte ranges of a clean MariaDB 10.8+ format redo log of SIZE bytes whose first
    REDO_START bytes are HEAD that start-up reads: [(offset, length)], the header and
    checkpoint blocks, then the records from the latest checkpoint to REDO_TAIL past their end."""
    if head[:4] != b"Phys":
        die("not a MariaDB 10.8+ redo log (no 'Phys' header): the bench restores only that format")
    first = int.from_bytes(head[8:16], "big")
    latest = max((head[o:o + 16] for o in (4096, 8192)), key=lambda b: int.from_bytes(b[:8], "big"))
    checkpoint, end = int.from_bytes(latest[:8], "big"), int.from_bytes(latest[8:16], "big")

    def offset(lsn):
        return REDO_START + (lsn - first) % (size - REDO_START)

    lo, hi = offset(checkpoint) // 4096 * 4096, offset(end) + REDO_TAIL
    if hi > size or offset(end) < offset(checkpoint):
        die("the clean redo log wraps between its checkpoint and REDO_TAIL past its end; make the "
            "data set's log anew (delete its directory in the cache)")
    return [(0, REDO_START), (lo, hi - lo)]


def dir_bytes(path):
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


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
        # Gigabytes written into the cache (a data set, a redo size, a live log) since the last
        # measured run: see ready().
        self.wrote = False

    # one server
    def start(self, datadir, cnf_text, port=None):
        cnf = self.work / "run.cnf"
        cnf.write_text(cnf_text)
        net = [f"--port={port}", "--bind-address=127.0.0.1"] if port else ["--skip-networking"]
        err = self.work / "run.err"
        err.unlink(missing_ok=True)
        # A private tmpdir, as for every server here: a server starting removes `#sql*` files from
        # its tmpdir, which in a shared /tmp are the temporary tables of others bootstrapping.
        cmd = [self.mariadbd, f"--defaults-file={cnf}", f"--datadir={datadir}", f"--socket={self.sock}",
               f"--pid-file={self.work / 'run.pid'}", f"--log-error={err}", f"--tmpdir={self.work}",
               *net, *self.user]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.time() + 300
        while time.time() < deadline:
            if subprocess.run([self.admin, "--no-defaults", "-uroot", f"--socket={self.sock}", "ping"],
                              capture_output=True).returncode == 0:
                text = err.read_text(errors="replace") if err.exists() else ""
                if "crash recovery" in text or "to recover" in text:
                    # A run must start on the clean data set it names, not on what an earlier
                    # run left in the redo log (see fresh_copy()).
                    self.kill()
                    die(f"mariadbd recovered {datadir} from its redo log:\n"
                        + "\n".join(x for x in text.splitlines() if "recover" in x)[:1500])
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
        r = subprocess.run([self.client, "--no-defaults", "-uroot", f"--socket={self.sock}", "-N", "-B",
                            "-e", stmt], capture_output=True, text=True)
        if r.returncode != 0:
            die(f"{stmt[:200]}: {r.stderr.strip()}")
        return r.stdout

    def sysbench_cmd(self, workload, action, seconds=None, extra=()):
        tables, rows, rand, _ = WORKLOADS[workload]
        cmd = ["sysbench", "oltp_read_write", "--db-driver=mysql", f"--mysql-socket={self.sock}",
               "--mysql-user=root", "--mysql-db=sbtest", f"--tables={tables}", f"--table-size={rows}",
               f"--threads={self.args.threads}", f"--rand-type={rand}", *extra]
        if seconds:
            cmd += [f"--time={seconds}", "--percentile=95"]
        return cmd + [action]

    def protocol(self):
        """sysbench's option for how the measured runs send their statements (--ps-mode)."""
        return [f"--db-ps-mode={self.args.ps_mode}"]

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
                        f"--datadir={base}", f"--tmpdir={self.work}", *self.user],
                       capture_output=True, check=True)
        self.start(base, "[mariadbd]\ninnodb_buffer_pool_size = 4G\ninnodb_log_file_size = 1G\n"
                         "innodb_flush_log_at_trx_commit = 0\n")
        self.sql("CREATE DATABASE sbtest")
        r = self.sysbench(workload, "prepare")
        if r.returncode != 0:
            die("sysbench prepare failed:\n" + r.stdout[-2000:] + r.stderr[-2000:])
        self.shutdown()
        (base / "ib_buffer_pool").unlink(missing_ok=True)
        (base / ".sysbench-ab-prepared").touch()
        self.wrote = True
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
        if (var / ".prepared").exists() and self.live_ready(var):
            return var
        if not (var / ".prepared").exists():
            self.need_space(dir_bytes(base) + 2 * key)
            log(f"making the redo log {key >> 20}M in a copy of {base.name}")
            shutil.rmtree(var, ignore_errors=True)
            subprocess.run(["cp", "-a", str(base), str(var)], check=True)
            self.start(var, f"[mariadbd]\ninnodb_log_file_size = {key >> 20}M\n")
            self.shutdown()
            (var / "ib_buffer_pool").unlink(missing_ok=True)
            (var / ".prepared").touch()
            self.wrote = True
        self.live_log(var)
        # Gigabytes were just written: the first run after them ran 10-20 % slow.
        subprocess.run(["sync"], check=True)
        time.sleep(self.args.rest)
        return var

    def need_space(self, nbytes):
        """Die before the cache fills the disk: every data set and redo size stays in the cache
        (60 GB for the four workloads' configs), and the rest of the machine needs room too (a
        test that starts mariadbd with a 15G redo log preallocates it)."""
        free = shutil.disk_usage(self.cache).free
        floor = int(self.args.min_free_gib * (1 << 30))
        if free - nbytes < floor:
            die(f"{mib(nbytes)} more in {self.cache} would leave {mib(max(0, free - nbytes))} free, under "
                f"--min-free-gib {self.args.min_free_gib:g}; delete the cache (it is remade) or lower the floor")

    def live_log(self, var):
        """The redo log a run of VAR's data writes into: one file per data set and size, made
        once from VAR's log with every block written, and kept from run to run (a server in
        service writes into a log whose blocks are all written; see variant())."""
        live = self.cache / f"{var.name}.ib_logfile0"
        if not self.live_ready(var):
            subprocess.run(["cp", "--sparse=never", str(var / "ib_logfile0"), str(live)], check=True)
            (self.cache / f"{var.name}.ib_logfile0.ready").touch()
            self.wrote = True
        return live

    def live_ready(self, var):
        return (self.cache / f"{var.name}.ib_logfile0.ready").exists()

    def fresh_copy(self, src):
        """A run's data directory: SRC's files copied, and in `written` mode the redo log not
        copied but the data set's live log (live_log()) linked in, with what start-up reads
        of SRC's log (redo_restore_ranges(): header, checkpoints, the records from the
        checkpoint on and what follows them) written over it.

        So every config of a data set makes the same copy before its run, whatever its redo
        size: copying each config's log (4.7 GB before a run with a 4160M log, 0.6 GB with
        128M) loaded the virtual disk in proportion to the redo size, right before the run,
        and biased the comparison against a large log. The records an earlier run left
        elsewhere in the live log are never read: start-up stops where SRC's log ends (start()
        checks that the server did not recover)."""
        run = self.work / "data"
        shutil.rmtree(run, ignore_errors=True)
        if self.args.redo == "fresh":
            subprocess.run(["cp", "-a", str(src), str(run)], check=True)
        else:
            run.mkdir(parents=True)
            subprocess.run(["cp", "-a", "--sparse=never",
                            *[str(x) for x in src.iterdir() if x.name != "ib_logfile0"], str(run)], check=True)
            live = self.live_log(src)
            with open(src / "ib_logfile0", "rb") as f:
                ranges = redo_restore_ranges(f.read(REDO_START), (src / "ib_logfile0").stat().st_size)
                chunks = []
                for off, n in ranges:
                    f.seek(off)
                    chunks.append((off, f.read(n)))
            fd = os.open(live, os.O_WRONLY)
            try:
                for off, data in chunks:
                    os.pwrite(fd, data, off)
                os.fsync(fd)
            finally:
                os.close(fd)
            (run / "ib_logfile0").symlink_to(live)
        # sync so that write-back does not run inside the measured run.
        subprocess.run(["sync"], check=True)
        if self.args.drop_caches:
            # The copy was just written, so it sits in the page cache: a flush method that
            # reads through the cache (fsync) would start warm and the others (O_DIRECT,
            # O_DSYNC) cold. Evicting it starts every run cold from the disk.
            Path("/proc/sys/vm/drop_caches").write_text("1\n")
        if self.args.settle:
            time.sleep(self.args.settle)
        return run

    def sync_latency_us(self, writes=200):
        """Median microseconds of a 4 KiB O_DIRECT write + fdatasync() into a file of written
        blocks: the disk's commit latency right before a run, recorded beside its figures."""
        path = self.work / "probe.dat"
        size = 16 << 20
        if not path.exists() or path.stat().st_size != size:
            with open(path, "wb") as f:
                f.write(b"\1" * size)
                f.flush()
                os.fsync(f.fileno())
        buf = mmap.mmap(-1, 4096)
        buf.write(b"x" * 4096)
        fd = os.open(path, os.O_WRONLY | os.O_DIRECT)
        lat = []
        try:
            for i in range(writes):
                t = time.perf_counter()
                os.pwrite(fd, buf, (i * 7 * 4096) % size)
                os.fdatasync(fd)
                lat.append(time.perf_counter() - t)
        finally:
            os.close(fd)
        return round(statistics.median(lat) * 1e6, 1)

    def wait_quiet(self):
        """With --quiet-steal, hold the run until the host gives this machine its CPUs: keep every
        CPU busy for 2 s and read the steal over it, and while that is above --quiet-steal, wait
        15 s and probe again, for at most --quiet-wait seconds. The seconds the gate took (its
        first 2 s probe included: 2 where it did not wait), or None without the option. Which
        config runs next plays no part, so the wait biases neither."""
        if self.args.quiet_steal is None:
            return None
        spin = "import time\nt = time.time() + 2\nwhile time.time() < t: pass"
        start = time.time()
        while True:
            before = cpu_ticks()
            spinners = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(os.cpu_count() or 1)]
            for p in spinners:
                p.wait()
            steal = steal_pct(before, cpu_ticks())
            waited = round(time.time() - start)
            if steal is None or steal <= self.args.quiet_steal or waited >= self.args.quiet_wait:
                if steal is not None and steal > self.args.quiet_steal:
                    log(f"the host still takes {steal} % of the CPUs after {waited} s; running anyway")
                return waited
            time.sleep(15)

    def prewarm(self, workload):
        """`sysbench prewarm` where the workload asks for it (see WORKLOADS)."""
        if WORKLOADS[workload][3]:
            r = self.sysbench(workload, "prewarm")
            if r.returncode != 0:
                die("sysbench prewarm failed:\n" + r.stdout[-1500:] + r.stderr[-1500:])

    def ready(self, workload, configs):
        """Every data copy CONFIGS need on WORKLOAD made before any of them is measured, and,
        when that (or anything since the last measured run) wrote gigabytes into the cache, one
        run whose figures are thrown away. The first run after the copies were made ran 10-20 %
        slow in the first table whichever config it was, and the first pair of a question asked
        right after its data set was prepared ran 0.843 for strict against itself (the
        twenty-second run), so without this the first pair of every new question or redo size
        measured the disk's write-back."""
        for s in configs:
            self.variant(workload, s.get("innodb_log_file_size"))
        if self.wrote:
            log(f"{workload}: one unrecorded run first, after gigabytes were written into the cache")
            self.measure(workload, configs[0])

    def measure(self, workload, settings):
        """One run: (tps, p95 ms, the disk's sync latency in us right before it). What else the
        run showed goes to self.last_run: the slowest transaction (ms) and the server's
        Slow_queries, the statements over long_query_time whether or not a slow log is on, which
        tells whether a slow log at 1 s wrote anything during the run or only looked."""
        src = self.variant(workload, settings.get("innodb_log_file_size"))
        run = self.fresh_copy(src)
        waited = self.wait_quiet()
        self.last_sync_us = self.sync_latency_us()
        self.last_run = {}
        self.start(run, render(settings))
        try:
            self.prewarm(workload)
            if self.args.warmup:
                self.sysbench(workload, "run", self.args.warmup, self.protocol())
            before = cpu_ticks()
            r = self.sysbench(workload, "run", self.args.time, self.protocol())
            steal = steal_pct(before, cpu_ticks())
            slow = self.sql("SHOW GLOBAL STATUS LIKE 'Slow_queries'").split()
        finally:
            self.kill()
            shutil.rmtree(run, ignore_errors=True)
            self.wrote = False
        figures = sysbench_figures(r.stdout)
        if r.returncode != 0 or not figures:
            die("sysbench run failed:\n" + r.stdout[-1500:] + r.stderr[-1500:])
        tps, p95, max_ms = figures
        self.last_run = {"max_ms": max_ms, "slow_queries": int(slow[1]) if len(slow) == 2 else None,
                         "steal_pct": steal, **({"quiet_wait_s": waited} if waited is not None else {})}
        return tps, p95, self.last_sync_us

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


def sysbench_figures(out):
    """(TPS, p95 ms, slowest transaction ms) from the report of `sysbench ... run`, or None."""
    tps = re.search(r"transactions:\s+\d+\s+\(([0-9.]+) per sec", out)
    p95 = re.search(r"95th percentile:\s+([0-9.]+)", out)
    top = re.search(r"^\s+max:\s+([0-9.]+)", out, re.M)
    if not tps or not p95 or not top:
        return None
    return float(tps.group(1)), float(p95.group(1)), float(top.group(1))


def cpu_ticks():
    """The machine's CPU time so far, by kind (the "cpu" line of /proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            return [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def steal_pct(before, after):
    """The share of the CPU time between two cpu_ticks() readings that the hypervisor gave to
    other guests (steal, the eighth field), in percent; None where unknown. A run of a
    virtual machine whose host is busy loses that share of its CPUs."""
    if not before or not after or len(before) < 8 or len(after) < 8:
        return None
    d = [b - a for a, b in zip(before, after)]
    return round(100 * d[7] / sum(d), 1) if sum(d) > 0 else None


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


def median_ci(xs, level=0.95):
    """A distribution-free confidence interval of the median: the order statistics the sign
    test puts around it (no assumption about the shape of the pairs' spread). None below six
    values, where even the widest such interval misses the level."""
    n = len(xs)
    xs = sorted(xs)
    # Largest k with P(Binomial(n, 1/2) < k) <= (1 - level) / 2; the interval is x_(k)..x_(n-k+1).
    k, tail = 0, 0.0
    while True:
        nxt = tail + math.comb(n, k) / 2 ** n
        if nxt > (1 - level) / 2:
            break
        tail, k = nxt, k + 1
    if k == 0:
        return None
    return xs[k - 1], xs[n - k]


# The rows a rerun reuses as measurements of a run length: a 30 s pair says nothing about a
# 90 s run of the same configs (a cold 3.7 GB data set is mostly start-up in 30 s). A "best"
# row is one too, on purpose: the bar compares strict with the best config found at the run
# length of the table, and a config that won 30 s pairs is not found best at 90 s, so a 90 s
# table after a 30 s search has no "best" row (its "ratio to best found" reads —) rather than
# a borrowed one.
TIMED = ("pair", "table", "step", "best")
# Rows written before the bench recorded the run length (2026-12-01 to 2026-12-03) all came
# from 30 s runs, as the commands in bench/tuning-search.md say; the one 90 s file,
# bench/results/tune-search-2026-12-03-large-uniform-90s.jsonl, carries its "time" since.
LEGACY_TIME = 30


class State:
    """Every measurement, appended as a JSON line; the search replays it on a rerun. A
    measurement row carries the run length ("time", seconds) and is reused only by a rerun
    with the same --time."""

    def __init__(self, path):
        self.path = Path(path)
        self.rows = []
        if self.path.exists():
            self.rows = [json.loads(x) for x in self.path.read_text().splitlines() if x.strip()]
        for r in self.rows:
            if r.get("kind") in TIMED:
                r.setdefault("time", LEGACY_TIME)

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
    # Rows written before the bench had --ps-mode ran sysbench's default, prepared statements.
    protocol = getattr(lab.args, "ps_mode", "auto")
    done = [r for r in state.find(kind="pair", workload=workload, inc=key_of(inc), cand=key_of(cand),
                                  time=lab.args.time) if r.get("ps_mode", "auto") == protocol]
    if len(done) < pairs:
        # Not past the cap: ready() may write copies and throw a whole run away.
        if deadline is not None and time.time() > deadline:
            raise TimeCap(tag)
        lab.ready(workload, [cand, inc])
    while len(done) < pairs:
        if deadline is not None and time.time() > deadline:
            raise TimeCap(tag)
        # The order turns from pair to pair, so a drift within a pair favours neither.
        if len(done) % 2 == 0:
            c, c_run = lab.measure(workload, cand), lab.last_run
            i, i_run = lab.measure(workload, inc), lab.last_run
        else:
            i, i_run = lab.measure(workload, inc), lab.last_run
            c, c_run = lab.measure(workload, cand), lab.last_run
        row = {"kind": "pair", "workload": workload, "inc": key_of(inc), "cand": key_of(cand), "tag": tag,
               "cand_tps": c[0], "cand_p95": c[1], "inc_tps": i[0], "inc_p95": i[1], "cand_sync_us": c[2],
               "inc_sync_us": i[2], "time": lab.args.time, "ps_mode": protocol, "at": time.time(),
               "host": host_id()}
        row.update({f"cand_{k}": v for k, v in c_run.items()})
        row.update({f"inc_{k}": v for k, v in i_run.items()})
        state.add(row)
        done.append(row)
        log(f"{workload} {tag}: {c[0]:.0f} vs {i[0]:.0f} (ratio {c[0] / i[0]:.3f}; steal "
            f"{c_run.get('steal_pct')} / {i_run.get('steal_pct')} %)")
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
                    if median(r) >= args.screen:
                        r = pair_ratios(lab, state, w, inc, cand, args.confirm_pairs, tag, deadline)
                except TimeCap:
                    log(f"time cap reached during {w} at {tag}: the incumbent is its best")
                    best[w] = inc
                    if not state.find(kind="best", workload=w, settings=inc, time=args.time):
                        state.add({"kind": "best", "workload": w, "settings": inc, "capped_at": tag,
                                   "time": args.time})
                    return best, False
                if len(r) >= args.confirm_pairs and median(r) >= args.accept and \
                        sum(x > 1 for x in r) > len(r) // 2:
                    log(f"{w}: kept {tag} (median ratio {median(r):.3f} over {len(r)} pairs)")
                    if not state.find(kind="step", workload=w, tag=tag, time=args.time):
                        state.add({"kind": "step", "workload": w, "tag": tag, "ratios": r, "time": args.time})
                    inc = cand
                    kept.add(names)
        best[w] = inc
        if not state.find(kind="best", workload=w, settings=inc, time=args.time):
            state.add({"kind": "best", "workload": w, "settings": inc, "time": args.time})
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
                if not state.find(kind="table", workload=w, round=r, key=key_of(cfgs[n]), time=args.time)]
        if todo:
            lab.ready(w, [cfgs[todo[0][1]]] + [cfgs[n] for n in names])
        for rnd in range(args.rounds):
            k = rnd % len(names)
            for name in names[k:] + names[:k]:
                if state.find(kind="table", workload=w, round=rnd, key=key_of(cfgs[name]), time=args.time):
                    continue
                tps, p95, sync_us = lab.measure(w, cfgs[name])
                state.add({"kind": "table", "workload": w, "round": rnd, "config": name,
                           "key": key_of(cfgs[name]), "tps": tps, "p95": p95, "sync_us": sync_us,
                           "time": args.time, **lab.last_run})
                log(f"table {w} round {rnd + 1}: {name} {tps:.0f} tps, p95 {p95} ms")
    report(state, configs, args)


def with_changes(settings, changes, flag):
    """The settings with each NAME=VALUE of `changes` set, and each NAME= removed."""
    out = dict(settings)
    for c in changes:
        name, eq, value = c.partition("=")
        if not eq:
            die(f"ab: {flag} {c}: NAME=VALUE, or NAME= to remove it")
        if value:
            out[name.strip()] = value.strip()
        else:
            out.pop(name.strip(), None)
    return out


def ab(lab, state, configs, args):
    """One question, asked on every workload of --workloads: the candidate (the base with
    --change applied, or the --vs config) against the base (with --base-change applied),
    alternately, --pairs pairs."""
    for w in args.workloads:
        cfgs = for_workload(configs, w)
        if args.base not in cfgs or (args.vs and args.vs not in cfgs):
            die(f"ab: no config {args.base if args.base not in cfgs else args.vs} for {w}; "
                f"there are {', '.join(cfgs)}")
        base, base_tag = with_changes(cfgs[args.base], args.base_change, "--base-change"), args.base
        if args.base_change:
            base_tag += f" with {', '.join(args.base_change)}"
        if args.vs:
            cand, tag = cfgs[args.vs], f"{args.vs} vs {base_tag}"
        else:
            cand = with_changes(base, args.change, "--change")
            tag = f"{base_tag} with {', '.join(args.change) or 'no change'}"
        if args.ps_mode == "disable":
            tag += " (text protocol)"
        r = pair_ratios(lab, state, w, base, cand, args.pairs, tag)
        ci = median_ci(r)
        ci_text = f"{ci[0]:.3f}-{ci[1]:.3f}" if ci else "n/a"
        log(f"ab {w}: {tag}: ratios " + ", ".join(f"{x:.3f}" for x in r)
            + f" (median {median(r):.3f}, 95% interval of the median {ci_text}, "
            + f"{sum(x > 1 for x in r)} of {len(r)} above 1)")
        print(f"{w}\t{tag}\t{median(r):.3f}\t{ci_text}\t{min(r):.3f}-{max(r):.3f}\t{len(r)}", flush=True)


def report(state, configs, args):
    anchors = ["anchor:mysqltuner", "anchor:dedicated", "anchor:article"]
    lines = ["| workload | config | runs | median TPS | spread (min–max) | median p95 ms | ratio to best found | "
             + " | ".join(f"ratio to {a[7:]}" for a in anchors) + " |",
             "|" + "---|" * (7 + len(anchors))]
    for w in args.workloads:
        cfgs = for_workload(configs, w)
        rows = [r for r in state.rows if r.get("kind") == "table" and r["workload"] == w
                and r["time"] == args.time and not stolen(r.get("steal_pct"), args.max_steal)]
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
    lines += ["", *pairs_table(state, args.workloads, args.max_steal)]
    text = "\n".join(lines)
    Path(args.out, "table.md").write_text(text + "\n")
    print(text)


def host_id():
    """Which machine (and boot) measured a pair: the CPU model and the first 8 characters of
    the kernel's boot id. The same question gave 0.955 on one machine and 1.029 on the next (the
    sixth and eighth runs), so a question's rows from several machines are reported per machine
    as well as together; rows written before the bench recorded it are "unrecorded"."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()[:8]
    except OSError:
        boot = "unknown boot"
    return f"{model}, boot {boot}"


def host_kind(host):
    """The machine kind of a host_id() label: its CPU model; None for "unrecorded" rows."""
    return None if host == "unrecorded" else host.split(", boot ")[0]


def pair_line(cols, rows):
    """One line of pairs_table: the label columns COLS, then the statistics of ROWS."""
    rs = [r["cand_tps"] / r["inc_tps"] for r in rows]
    ci = median_ci(rs)
    # pair_ratios runs the candidate first in the pairs at even places of a question's order;
    # a machine's subset keeps each row's place through its "first" flag.
    first = [x for x, r in zip(rs, rows) if r["_first"]]
    second = [x for x, r in zip(rs, rows) if not r["_first"]]
    sd = f"{statistics.stdev(math.log(x) for x in rs) * 100:.1f} %" if len(rs) > 1 else "—"
    ti = geo_t_interval(rs)
    return (f"| {cols} | {len(rs)} | {median(rs):.3f} | "
            + (f"{ci[0]:.3f}–{ci[1]:.3f}" if ci else "—")
            + f" | {min(rs):.3f}–{max(rs):.3f} | {sum(x > 1 for x in rs)} | {sign_test_p(rs):.3f} | "
            + f"{geo_mean(rs):.3f} | " + (f"{ti[0]:.3f}–{ti[1]:.3f}" if ti else "—") + f" | {sd} | "
            + (f"{geo_mean(first):.3f}" if first else "—") + " / " + (f"{geo_mean(second):.3f}" if second else "—") + " | "
            + f"{median([r['cand_tps'] for r in rows]):.0f} / {median([r['inc_tps'] for r in rows]):.0f} | "
            + f"{median([r['cand_p95'] for r in rows]):.2f} / {median([r['inc_p95'] for r in rows]):.2f} |")


def stolen(steal, max_steal):
    """Did a run lose more than MAX_STEAL percent of the CPU to other guests of the host? A run
    that did not record its steal (before the nineteenth run) counts as not; so does every run
    without --max-steal."""
    return max_steal is not None and steal is not None and steal > max_steal


def pairs_table(state, workloads, max_steal=None):
    """Every question asked in pairs (--phase ab and the search's candidates), one line each:
    the ratios' median with its 95% interval, range, and the two sides' median TPS and p95.
    Pairs are grouped by the settings compared, the run length and the protocol (--ps-mode), as
    pair_ratios reuses them,
    not by the tag: a state file kept across mytune versions holds "strict vs ..." pairs of
    different files. With max_steal, a pair either of whose runs lost more than that share of
    the CPU to other guests (steal, recorded since the nineteenth run) is left out; rows that
    did not record it stay in."""
    groups = {}
    for r in state.rows:
        if any(stolen(r.get(f"{side}_steal_pct"), max_steal) for side in ("cand", "inc")):
            continue
        if r.get("kind") == "pair" and r["workload"] in workloads:
            groups.setdefault((r["workload"], r["inc"], r["cand"], r["time"], r.get("ps_mode", "auto")),
                              []).append(r)
    lines = ["| workload | run s | candidate vs base | pairs | median ratio | 95% interval of the median | range | "
             "pairs above 1 | sign test p | geo. mean | 95% t-interval of the geo. mean | sd of log ratio | "
             "geo. mean candidate first / second | median TPS (candidate / base) | "
             "median p95 ms (candidate / base) |",
             "|" + "---|" * 15]
    for (w, inc, cand, secs, protocol), rows in groups.items():
        tag = rows[0]["tag"]
        # pair_ratios runs the candidate first in the pairs at even places of this same order.
        rows = [{**r, "_first": n % 2 == 0} for n, r in enumerate(rows)]
        lines.append(pair_line(f"{w} | {secs} | {tag}", rows))
        # The same two files asked the other way round ("lean vs strict" after "strict vs
        # lean"): their pairs, turned over, answer this question too.
        back = groups.get((w, cand, inc, secs, protocol), [])
        if back:
            turned = [{**r, "cand_tps": r["inc_tps"], "inc_tps": r["cand_tps"], "cand_p95": r["inc_p95"],
                       "inc_p95": r["cand_p95"], "_first": n % 2 == 1} for n, r in enumerate(back)]
            both = rows + turned
            lines.append(pair_line(f"{w} | {secs} | … with the {len(back)} pairs of {back[0]['tag']}, turned over",
                                   both))
            lines.append(weighted_line(f"{w} | {secs}", "", by_host(both), "both ways round, "))
        hosts = by_host(rows)
        if len(hosts) > 1:
            for host, on in hosts.items():
                lines.append(pair_line(f"{w} | {secs} | … on {host}", on))
            # The same question split by machine kind, not by machine alone: 8 x 2M uniform
            # gave 1.03 on three Intel Xeon machines and 0.96 on three AMD EPYC ones.
            kinds = {}
            for host in hosts:
                if host_kind(host):
                    kinds.setdefault(host_kind(host), []).append(host)
            for kind, members in kinds.items():
                if len(members) > 1:
                    on = [r for h in members for r in hosts[h]]
                    lines.append(pair_line(f"{w} | {secs} | … on the {len(members)} {kind} machines", on))
            # The lines above weigh every pair alike, so a machine whose pairs spread 14 % counts
            # as much per pair as one whose pairs spread 3 %; these weigh each machine by its spread.
            lines.append(weighted_line(f"{w} | {secs}", "", hosts))
            for kind, members in kinds.items():
                lines.append(weighted_line(f"{w} | {secs}", f"{kind} ", {h: hosts[h] for h in members}))
    return [line for line in lines if line]


def by_host(rows):
    """ROWS grouped by the machine that measured them (host_id(); "unrecorded" before it was kept)."""
    hosts = {}
    for r in rows:
        hosts.setdefault(r.get("host", "unrecorded"), []).append(r)
    return hosts


def pooled_over_machines(per_machine):
    """The geometric mean of a question's ratios pooled over machines, each machine weighted by
    how tightly its own pairs agree: a random-effects meta-analysis of the machines' mean log
    ratios (DerSimonian and Laird's estimate of the spread between machines, tau), with the
    Hartung-Knapp interval (Student's t on machines - 1 degrees of freedom, its standard error no
    smaller than DerSimonian and Laird's), which keeps its level with few machines. PER_MACHINE
    holds each machine's ratios; a machine with fewer than three, or all alike, is left out.
    Returns (pooled ratio, (low, high), tau as a ratio's log, machines used), or None below two
    machines."""
    est = []
    for rs in per_machine:
        logs = [math.log(x) for x in rs]
        if len(logs) >= 3 and statistics.variance(logs) > 0:
            est.append((statistics.mean(logs), statistics.variance(logs) / len(logs)))
    k = len(est)
    if k < 2:
        return None
    w = [1 / v for _, v in est]
    fixed = sum(wi * m for wi, (m, _) in zip(w, est)) / sum(w)
    q = sum(wi * (m - fixed) ** 2 for wi, (m, _) in zip(w, est))
    tau2 = max(0.0, (q - (k - 1)) / (sum(w) - sum(wi * wi for wi in w) / sum(w)))
    ws = [1 / (v + tau2) for _, v in est]
    mu = sum(wi * m for wi, (m, _) in zip(ws, est)) / sum(ws)
    se_dl = math.sqrt(1 / sum(ws))
    se_hk = math.sqrt(sum(wi * (m - mu) ** 2 for wi, (m, _) in zip(ws, est)) / ((k - 1) * sum(ws)))
    half = t95(k - 1) * max(se_dl, se_hk)
    return math.exp(mu), (math.exp(mu - half), math.exp(mu + half)), math.sqrt(tau2), k


def weighted_line(cols, kind, hosts, what=""):
    """A pairs_table line for a question asked on several machines (HOSTS: machine -> rows, of
    KIND, "" for any), pooled by pooled_over_machines; "" where fewer than two machines have three
    pairs. WHAT goes before the label ("both ways round, ")."""
    pooled = pooled_over_machines([[r["cand_tps"] / r["inc_tps"] for r in rows] for rows in hosts.values()])
    if pooled is None:
        return ""
    ratio, (low, high), tau, k = pooled
    rows = [r for on in hosts.values() for r in on]
    rs = [r["cand_tps"] / r["inc_tps"] for r in rows]
    return (f"| {cols} | … {what}the {k} {kind}machines, each weighted by its spread | {len(rs)} | — | — | "
            f"{min(rs):.3f}–{max(rs):.3f} | {sum(x > 1 for x in rs)} | — | {ratio:.3f} | {low:.3f}–{high:.3f} | "
            f"{tau * 100:.1f} % between machines | — | "
            f"{median([r['cand_tps'] for r in rows]):.0f} / {median([r['inc_tps'] for r in rows]):.0f} | "
            f"{median([r['cand_p95'] for r in rows]):.2f} / {median([r['inc_p95'] for r in rows]):.2f} |")


# Two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom (any statistics table).
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
       2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
       2.052, 2.048, 2.045, 2.042)


def t95(df):
    """Student's t two-sided 95 % quantile; past the table, the Cornish-Fisher expansion from
    the normal quantile (within 0.001 of the tables from 30 degrees of freedom on)."""
    if df <= len(T95):
        return T95[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def geo_t_interval(xs):
    """The 95 % t-interval of the geometric mean of ratios: the mean of their logarithms plus
    and minus t × sd / √n, taken back by exp. It assumes the logs spread normally, which the
    median's interval does not; the two agreeing is a check on both. None below two ratios."""
    if len(xs) < 2:
        return None
    logs = [math.log(x) for x in xs]
    m, half = statistics.mean(logs), t95(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(m - half), math.exp(m + half)


def sign_test_p(xs):
    """The two-sided sign test's p-value for "a ratio is as likely above 1 as below": the
    binomial tail of the pairs above 1 (ratios of exactly 1 left out), doubled, at most 1."""
    above, n = sum(x > 1 for x in xs), sum(x != 1 for x in xs)
    if n == 0:
        return 1.0
    k = min(above, n - above)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def geo_mean(xs):
    """The geometric mean of ratios (NaN for none). Within a pair the order turns, so the
    mean of the candidate-first and candidate-second halves' logs cancels an effect of running
    second."""
    return statistics.geometric_mean(xs) if xs else float("nan")


class Remeasure(Exception):
    """selftest_run_length: a rerun asked for a measurement instead of reusing a pair."""


def selftest_run_length(tmp):
    """A rerun reuses only the pairs of its own run length: a row without "time" (written
    before the bench recorded it) counts as a 30 s pair, a 90 s row only for --time 90, and
    any other --time measures anew. --phase report keeps them on separate lines."""
    inc, cand = {"a": "1"}, {"a": "2"}
    pair = {"kind": "pair", "workload": "w", "inc": key_of(inc), "cand": key_of(cand), "tag": "t",
            "cand_p95": 1.0, "inc_p95": 1.0, "cand_sync_us": 0, "inc_sync_us": 0, "at": 0}
    path = tmp / "run-length.jsonl"
    path.write_text(json.dumps({**pair, "cand_tps": 110.0, "inc_tps": 100.0}) + "\n"
                    + json.dumps({**pair, "cand_tps": 90.0, "inc_tps": 100.0, "time": 90}) + "\n")
    state = State(path)

    class NoLab:
        def __init__(self, secs, ps_mode="auto"):
            self.args = argparse.Namespace(time=secs, ps_mode=ps_mode)

        def ready(self, workload, configs):
            pass

        def measure(self, workload, settings):
            raise Remeasure

    for secs, want in ((30, 1.1), (90, 0.9), (60, None)):
        try:
            got = pair_ratios(NoLab(secs), state, "w", inc, cand, 1, "t")
        except Remeasure:
            got = None
        if got != ([want] if want else None):
            die(f"selftest: with --time {secs} the reused pairs are {got}, not {[want] if want else 'none'}")
    lines = pairs_table(state, ["w"])
    if len(lines) != 4 or "| w | 30 |" not in lines[2] or "| w | 90 |" not in lines[3]:
        die("selftest: --phase report does not keep 30 s and 90 s pairs apart:\n" + "\n".join(lines))
    print("selftest: pairs are reused only at their own run length", flush=True)
    # A pair with the text protocol answers only --ps-mode disable, and the older rows (no
    # "ps_mode", sysbench's default) only auto; the report keeps them on lines of their own.
    with path.open("a") as f:
        f.write(json.dumps({**pair, "cand_tps": 105.0, "inc_tps": 100.0, "time": 90, "ps_mode": "disable",
                            "tag": "t (text protocol)"}) + "\n")
    state = State(path)
    for mode, want in (("auto", 0.9), ("disable", 1.05)):
        got = pair_ratios(NoLab(90, mode), state, "w", inc, cand, 1, "t")
        if got != [want]:
            die(f"selftest: with --ps-mode {mode} the reused pairs are {got}, not {[want]}")
    lines = pairs_table(state, ["w"])
    if len(lines) != 5 or "| w | 90 | t (text protocol) | 1 | 1.050 |" not in lines[4]:
        die("selftest: --phase report does not keep the text protocol's pairs apart:\n" + "\n".join(lines))
    print("selftest: pairs are reused only with their own protocol", flush=True)
    # The run's CPU steal from two /proc/stat readings: 30 of 1000 ticks is 3.0 %; a pair whose
    # run lost more than --max-steal is left out of the report, one that did not record it kept.
    if steal_pct([100, 0, 50, 800, 10, 0, 5, 20], [600, 0, 150, 1150, 20, 0, 15, 50]) != 3.0 \
            or steal_pct(None, [1] * 8) is not None:
        die("selftest: the CPU steal between two /proc/stat readings is not 3.0 %")
    with path.open("a") as f:
        f.write(json.dumps({**pair, "cand_tps": 50.0, "inc_tps": 100.0, "time": 90, "cand_steal_pct": 40.0,
                            "inc_steal_pct": 2.0}) + "\n")
    kept = [line for line in pairs_table(State(path), ["w"], 5.0) if line.startswith("| w | 90 | t |")]
    if len(kept) != 1 or not kept[0].startswith("| w | 90 | t | 1 | 0.900 |"):
        die("selftest: --max-steal does not leave out a pair whose run lost 40 % to steal:\n" + "\n".join(kept))
    # The table's runs too: of two rounds of strict, the one that lost 40 % is left out.
    runs = [{"kind": "table", "workload": "w", "round": n, "config": "strict", "key": key_of({"a": "1"}),
             "tps": tps, "p95": 5.0, "time": 90, "steal_pct": st} for n, (tps, st) in enumerate(((100.0, 0.5),
                                                                                                 (50.0, 40.0)))]
    path.write_text("".join(json.dumps(r) + "\n" for r in runs))
    for max_steal, want in ((None, "| w | strict | 2 | 75 | 50–100 |"), (5.0, "| w | strict | 1 | 100 | 100–100 |")):
        with contextlib.redirect_stdout(io.StringIO()):
            report(State(path), {"strict": {"a": "1"}},
                   argparse.Namespace(workloads=["w"], time=90, out=str(path.parent), max_steal=max_steal))
        got = [line for line in Path(path.parent, "table.md").read_text().splitlines() if line.startswith("| w |")]
        if len(got) != 1 or not got[0].startswith(want):
            die(f"selftest: with --max-steal {max_steal} the table's strict line is {got}, not {want}…")
    print("selftest: a run records the CPU its host took, and the report can leave such runs and pairs out",
          flush=True)
    # Rows of one question from two machines: a line for all, then one per machine, and a
    # machine's "first" half keeps the question's order (rows 0 and 2 ran the candidate first).
    two = [{**pair, "cand_tps": tps, "inc_tps": 100.0, "time": 90, **({"host": h} if h else {})}
           for tps, h in ((90.0, None), (100.0, None), (120.0, "B"), (130.0, "B"))]
    path.write_text("".join(json.dumps(r) + "\n" for r in two))
    lines = pairs_table(State(path), ["w"])
    want = ["| w | 90 | t | 4 |", "| w | 90 | … on unrecorded | 2 | 0.950 |", "| w | 90 | … on B | 2 | 1.250 |"]
    if len(lines) != 5 or any(not line.startswith(w) for line, w in zip(lines[2:], want)) \
            or "| 1.200 / 1.300 |" not in lines[4]:
        die("selftest: --phase report does not split a question's pairs by machine:\n" + "\n".join(lines))
    print("selftest: a question's pairs from several machines get a line for each", flush=True)
    # Two machines of one kind (the CPU model before ", boot") and one of another: a line for
    # the kind with two, none for the kind with one, and unrecorded rows in no kind.
    kinds = two + [{**pair, "cand_tps": tps, "inc_tps": 100.0, "time": 90, "host": h}
                   for tps, h in ((110.0, "A, boot 1"), (90.0, "A, boot 2"), (80.0, "C, boot 3"))]
    path.write_text("".join(json.dumps(r) + "\n" for r in kinds))
    lines = pairs_table(State(path), ["w"])
    kind_lines = [line for line in lines if "machines" in line]
    if len(kind_lines) != 1 or not kind_lines[0].startswith("| w | 90 | … on the 2 A machines | 2 | 1.000 |"):
        die("selftest: --phase report does not group machines by kind:\n" + "\n".join(lines))
    print("selftest: a question's pairs from machines of one kind get a line together", flush=True)
    # Pooled over machines by their spread, against figures worked by hand: machine A's logs
    # 0.1 +- 0.03, B's 0 +- 0.06, three pairs each. Inverse-variance weights 3333.3 and 833.3 put
    # the fixed mean at 0.08; Q = 6.667 on 1 degree of freedom gives tau^2 = 5.667 / 1333.3 =
    # 0.00425; weights 1 / 0.00455 and 1 / 0.00545 put the pooled log at 0.0545 (ratio 1.056),
    # its standard error at 0.0498 both ways, the interval at exp(0.0545 +- 12.706 x 0.0498),
    # 0.561-1.988.
    hand = [[math.exp(0.1 + d) for d in (-0.03, 0, 0.03)], [math.exp(d) for d in (-0.06, 0, 0.06)]]
    ratio, (low, high), tau, k = pooled_over_machines(hand)
    if (k, round(ratio, 4), round(tau, 4), round(low, 3), round(high, 3)) != (2, 1.056, 0.0652, 0.561, 1.988) \
            or pooled_over_machines(hand[:1] + [[1.0, 1.0, 1.0]]) is not None:
        die(f"selftest: the pooled ratio over machines is {ratio}, {low}-{high}, tau {tau} (k {k}), "
            "not 1.056, 0.561-1.988, tau 0.0652 (k 2)")
    lines = pairs_table(State(path), ["w"])
    if any("weighted" in line for line in lines):
        die("selftest: --phase report pools machines with under three pairs:\n" + "\n".join(lines))
    # A question asked both ways round: each gets a line with the other's pairs turned over.
    back = [{**pair, "inc": pair["cand"], "cand": pair["inc"], "tag": "u", "cand_tps": 100.0, "inc_tps": tps,
             "time": 90} for tps in (125.0, 80.0)]
    path.write_text("".join(json.dumps(r) + "\n" for r in two[:2] + back))
    lines = pairs_table(State(path), ["w"])
    turned = [line for line in lines if "turned over" in line]
    # t's ratios 0.9 (its candidate first) and 1.0; u's 0.8 (u's candidate, t's base, first) and
    # 1.25, turned over 1.25 and 0.8 with t's candidate second and first: median 0.95, t's
    # candidate first 0.9 and 0.8 (0.849), second 1.0 and 1.25 (1.118); u's way round, median 1.056.
    if len(turned) != 2 or not turned[0].startswith("| w | 90 | … with the 2 pairs of u, turned over | 4 | 0.950 |") \
            or not turned[1].startswith("| w | 90 | … with the 2 pairs of t, turned over | 4 | 1.056 |") \
            or "| 0.849 / 1.118 |" not in turned[0]:
        die("selftest: --phase report does not turn over a question asked the other way round:\n"
            + "\n".join(lines))
    print("selftest: pooled over machines by their spread as worked by hand", flush=True)


def selftest_base_change(tmp):
    """--base-change makes the base itself: --vs's config runs against the base with the
    change, and the pairs' tag names it, so that a question asked with the observability held
    equal stays apart from the one without."""
    seen = []

    class RecordingLab:
        args = argparse.Namespace(time=30, ps_mode="auto")
        last_run = {}

        def ready(self, workload, configs):
            pass

        def measure(self, workload, settings):
            seen.append(dict(settings))
            return 100.0, 1.0, 0

    configs = {"anchor:x": {"innodb_buffer_pool_size": "1G"},
               "strict": {"innodb_buffer_pool_size": "2G", "slow_query_log": "ON"}}
    args = argparse.Namespace(workloads=["w"], base="anchor:x", vs="strict", change=[], pairs=1, ps_mode="auto",
                              base_change=["slow_query_log=ON", "long_query_time=1"])
    state = State(tmp / "base-change.jsonl")
    with contextlib.redirect_stdout(io.StringIO()):
        ab(RecordingLab(), state, configs, args)
    want = {"innodb_buffer_pool_size": "1G", "slow_query_log": "ON", "long_query_time": "1"}
    tag = state.rows[-1]["tag"] if state.rows else None
    if seen != [configs["strict"], want] or tag != "strict vs anchor:x with slow_query_log=ON, long_query_time=1":
        die(f"selftest: --base-change measured {seen} as {tag!r}")
    print("selftest: --base-change changes the base a candidate runs against, and its pairs say so", flush=True)


def selftest_ready(tmp, args):
    """A question's pairs start after one thrown-away run when its data copies were just
    written (Lab.ready), and straight away when they were already there."""
    runs = []

    class WritingLab(Lab):
        made = set()

        def variant(self, workload, log_size):
            if log_size not in self.made:
                self.made.add(log_size)
                self.wrote = True

        def measure(self, workload, settings):
            runs.append(settings["innodb_log_file_size"])
            self.wrote = False
            return 100.0, 1.0, 0

    lab = WritingLab(argparse.Namespace(**{**vars(args), "cache": str(tmp / "cache"), "work": str(tmp / "work")}))
    lab.last_run = {}
    inc, cand = {"innodb_log_file_size": "1G"}, {"innodb_log_file_size": "4G"}
    with contextlib.redirect_stderr(io.StringIO()):
        first = pair_ratios(lab, State(tmp / "ready.jsonl"), "w", inc, cand, 1, "t")
        runs_first = list(runs)
        pair_ratios(lab, State(tmp / "ready-again.jsonl"), "w", inc, cand, 1, "t")
    if first != [1.0] or runs_first != ["4G", "4G", "1G"] or runs[3:] != ["4G", "1G"]:
        die(f"selftest: the runs after the copies were written were {runs}")
    print("selftest: a question's first pair runs after one unrecorded run when its copies were just written",
          flush=True)


def selftest(args):
    """What every figure stands on, checked on a small data set against the real mariadbd: a
    run starts on the clean data set whatever the run before it wrote into the shared live
    redo log (Lab.fresh_copy), with the same log sequence number and the same rows, and the
    server does not recover; and the interval --phase ab reports around a median is the sign
    test's (checked against the binomial tables). Prints "selftest: ok"; any failure exits
    non-zero."""
    import tempfile
    for n, want in ((5, None), (6, (1, 6)), (10, (2, 9)), (20, (6, 15)), (30, (10, 21))):
        got = median_ci(list(range(1, n + 1)))
        if got != want:
            die(f"selftest: the 95% interval of the median of 1..{n} is {got}, not {want}")
    if abs(geo_mean([0.5, 2.0, 1.0]) - 1) > 1e-12 or abs(geo_mean([0.9, 0.9]) - 0.9) > 1e-12:
        die("selftest: the geometric mean of ratios is wrong")
    # Student's t past the table against the tables' 40, 60 and 120 degrees of freedom.
    for df, want in ((40, 2.021), (60, 2.000), (120, 1.980)):
        if abs(t95(df) - want) > 0.001:
            die(f"selftest: t95({df}) is {t95(df):.4f}, not {want}")
    # Two ratios e^±0.1: mean of logs 0, sd 0.1414, t(1) = 12.706, so exp(±1.2706).
    lo, hi = geo_t_interval([math.exp(0.1), math.exp(-0.1)])
    if abs(math.log(hi) - 1.2706) > 1e-3 or abs(math.log(lo) + 1.2706) > 1e-3:
        die(f"selftest: the t-interval of e^±0.1 is {lo}–{hi}")
    # Binomial tails: 15 of 20 above 1 is p = 0.041, 8 of 12 p = 0.388, 4 of 14 p = 0.180.
    for above, n, want in ((15, 20, 0.041), (8, 12, 0.388), (4, 14, 0.180)):
        got = sign_test_p([1.1] * above + [0.9] * (n - above))
        if abs(got - want) > 0.0005:
            die(f"selftest: the sign test's p for {above} of {n} is {got:.4f}, not {want}")
    print("selftest: the t-interval and the sign test agree with the tables", flush=True)
    # The latency block of sysbench 1.0.20's report; "max" is the slowest transaction.
    report_tail = ("    transactions:                        111467 (1238.35 per sec.)\n"
                   "Latency (ms):\n         min:                                    2.02\n"
                   "         avg:                                    6.46\n"
                   "         max:                                  267.72\n"
                   "         95th percentile:                       11.45\n")
    if sysbench_figures(report_tail) != (1238.35, 11.45, 267.72) or sysbench_figures("max: 1") is not None:
        die(f"selftest: sysbench's report reads as {sysbench_figures(report_tail)}")
    print("selftest: sysbench's report gives TPS, p95 and the slowest transaction", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="tune-search-selftest-"))
    try:
        selftest_run_length(tmp)
        selftest_base_change(tmp)
        selftest_ready(tmp, args)
        args.cache, args.work = str(tmp / "cache"), str(tmp / "work")
        args.settle, args.rest, args.drop_caches, args.redo = 0, 0, False, "written"
        args.min_free_gib = 0  # a few megabytes in a temporary directory
        WORKLOADS["selftest"] = (1, 4000, "uniform", False)
        lab = Lab(args)
        base = lab.cache / "oltp_read_write-1-4000"
        base.parent.mkdir(parents=True)
        subprocess.run([lab.install_db, "--no-defaults", "--auth-root-authentication-method=normal",
                        f"--datadir={base}", "--innodb-log-file-size=8M", f"--tmpdir={lab.work}",
                        *lab.user],
                       capture_output=True, check=True)
        small = "[mariadbd]\ninnodb_buffer_pool_size = 32M\n"
        lab.start(base, small + "innodb_log_file_size = 8M\n")
        lab.sql("CREATE DATABASE sbtest; USE sbtest; CREATE TABLE sbtest.t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB; "
                "INSERT INTO sbtest.t SELECT seq, seq FROM seq_1_to_4000")
        # What measure() records of a run: Slow_queries counts a statement over long_query_time
        # with no slow log on (this server has none), so a run of a config without the log
        # says as much as one with it.
        slow = lab.sql("SET SESSION long_query_time = 0.1; DO SLEEP(0.3); "
                       "SHOW SESSION STATUS LIKE 'Slow_queries'").split()
        if slow != ["Slow_queries", "1"]:
            die(f"selftest: a 0.3 s statement at long_query_time = 0.1 with the slow log off left {slow}")
        print("selftest: Slow_queries counts a slow statement with the slow log off", flush=True)
        lab.shutdown()
        (base / "ib_buffer_pool").unlink(missing_ok=True)
        (base / ".sysbench-ab-prepared").touch()
        expected = str(sum(range(1, 4001)))
        for size in ("8M", "16M"):
            var = lab.variant("selftest", size)
            lsns = []
            for run_no in range(3):
                run = lab.fresh_copy(var)
                if not (run / "ib_logfile0").is_symlink():
                    die("selftest: the run's redo log is a copy, not the data set's live log")
                lab.start(run, small + f"innodb_log_file_size = {size}\n")
                status = lab.sql("SHOW ENGINE INNODB STATUS")
                lsn = re.search(r"Log sequence number\s+(\d+)", status)
                total = lab.sql("SELECT SUM(v) FROM sbtest.t").strip()
                if not lsn or total != expected:
                    die(f"selftest: run {run_no} with a {size} log started on SUM(v) = {total}, not {expected}")
                lsns.append(lsn.group(1))
                # More redo than the restored ranges hold, then a crash: what the next run must
                # not see.
                for _ in range(12):
                    lab.sql("UPDATE sbtest.t SET v = v + 1")
                lab.kill()
            if len(set(lsns)) != 1:
                die(f"selftest: runs with a {size} log started at log sequence numbers {lsns}")
            print(f"selftest: {size} log: 3 runs started clean at LSN {lsns[0]}")
        print("selftest: ok")
    finally:
        lab_kill = locals().get("lab")
        if lab_kill:
            lab_kill.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mytune", help="the mytune binary whose gen-cnf output is measured (every phase but selftest)")
    ap.add_argument("--phase", choices=["search", "dynamic", "table", "ab", "report", "all", "selftest"],
                    default="all")
    ap.add_argument("--base", default="strict", help="ab: the config compared against [strict]")
    ap.add_argument("--change", action="append", default=[],
                    help="ab: NAME=VALUE set (or NAME= removed) in the base to make the candidate (repeatable)")
    ap.add_argument("--vs", default=None, help="ab: a named config as the candidate instead of --change")
    ap.add_argument("--base-change", action="append", default=[],
                    help="ab: NAME=VALUE set (or NAME= removed) in the base itself, before the candidate is "
                         "made from it (repeatable): an anchor with the default profile's slow log, say, "
                         "asks the tuning with the observability held equal")
    ap.add_argument("--interleave-s", type=int, default=190, help="seconds of one interleaved run [190]")
    ap.add_argument("--slice-s", type=int, default=10, help="seconds per value in an interleaved run [10]")
    ap.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated, of: " + ", ".join(WORKLOADS))
    ap.add_argument("--time", type=int, default=60, help="seconds per measured run [60]")
    ap.add_argument("--warmup", type=int, default=0, help="seconds of unmeasured run first [0: none, cold]")
    ap.add_argument("--rest", type=float, default=30,
                    help="seconds of rest after a data set or redo log is made, before the next run [30]")
    ap.add_argument("--settle", type=float, default=5,
                    help="seconds of rest after a run's copy, before its server starts [5]")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--max-steal", type=float, default=None,
                    help="report: leave out the table's runs and the pairs either of whose runs lost more than "
                         "this share of the CPU (percent) to other guests of the host (steal) [keep every run]")
    ap.add_argument("--quiet-steal", type=float, default=None,
                    help="before each run, wait until the host takes at most this share of the CPUs "
                         "(percent of a 2 s probe that keeps every CPU busy) [no wait]")
    ap.add_argument("--quiet-wait", type=float, default=600,
                    help="with --quiet-steal, the longest wait before a run, in seconds [600]")
    ap.add_argument("--ps-mode", choices=["auto", "disable"], default="auto",
                    help="how sysbench sends the measured runs' statements: auto, server-side prepared "
                         "statements (sysbench's default), or disable, as text, as most client libraries do "
                         "by default; only --phase ab [auto]")
    ap.add_argument("--pairs", type=int, default=3, help="first pairs per candidate [3]")
    ap.add_argument("--confirm-pairs", type=int, default=8, help="pairs before a candidate is kept [8]")
    ap.add_argument("--screen", type=float, default=1.01,
                    help="median ratio of the first pairs that earns a candidate its confirmation pairs [1.01]")
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
    ap.add_argument("--min-free-gib", type=float, default=20,
                    help="free disk the cache must leave when it grows [20]")
    ap.add_argument("--work", default=None)
    ap.add_argument("--out", default="/var/tmp/mytune-tune/out")
    ap.add_argument("--article-config", default=None, help="the single-node tuning article's file, as written")
    args = ap.parse_args()
    args.workloads = [w for w in args.workloads.split(",") if w]
    args.search_workloads = [w for w in args.search_workloads.split(",") if w]
    for w in args.workloads + args.search_workloads:
        if w not in WORKLOADS:
            die(f"unknown workload {w}")
    if args.phase == "selftest":
        selftest(args)
        return
    if args.ps_mode != "auto" and args.phase != "ab":
        die("--ps-mode disable is for --phase ab (the search and the table measure sysbench's default; "
            "the report shows every question, its protocol in its tag)")
    if (args.base_change or args.change or args.vs) and args.phase != "ab":
        die("--change, --base-change and --vs are for --phase ab (one question in pairs)")
    if not args.mytune:
        die("--mytune BINARY is required")
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
        if not rows and args.phase == "report":
            # The report measures nothing: without recorded advice the table has no row for it.
            log(f"no MySQLTuner advice recorded for {w} in {args.out}; the report leaves it out")
            continue
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
        b = state.find(kind="best", workload=w, time=args.time)
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
    if args.phase == "ab":
        ab(lab, state, configs, args)
    if args.phase == "report":
        report(state, configs, args)


if __name__ == "__main__":
    main()
