"""Knob cost: the CPU instructions a dynamic server setting adds to each transaction.

Throughput pairs (bench/tune_search.py) cannot resolve a cost of about 1 %: on these 2-vCPU
machines restarted pairs spread 2-17 %. A setting's CPU cost can be counted instead of timed:
mariadbd runs under valgrind's callgrind, which counts instructions, not seconds, so the count
does not move with what else the machine is doing. One throw-away server, one small in-memory
sysbench table; the setting is switched with SET GLOBAL between blocks of a fixed number of
oltp_read_write transactions (one thread, the same --rand-seed for both arms of a pair, the arm
order alternating from pair to pair). Each block's counters are zeroed before and dumped after
it; the figure is the connection thread's instructions (handle_one_connection, inclusive) per
transaction, so background threads (purge, page cleaner) stay out of it; the whole process is
reported beside it. Each block also records how many statements the server counted as slow
(Slow_queries): under callgrind every statement runs many times slower than natively, and a
block in which statements passed long_query_time paid for writing them to the log too, which is
not the cost of a log that writes nothing.

Only dynamic global variables can be measured (the switch happens inside one server). Both
client protocols are measured when --ps-mode both: sysbench's default (server-side prepared
statements) and the text protocol. What it cannot tell: I/O and lock waits, which cost no
instructions, and the kernel's own work (system calls), which callgrind does not see: it counts
the instructions the server itself executes, and those are paid on any CPU.

    bench/knob-cost.sh --change slow_query_log=ON --change long_query_time=1
"""

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tune_search import host_id, prog  # noqa: E402  (the knob search's machine label and lookup)


def die(msg):
    print(f"knob-cost: {msg}", file=sys.stderr)
    sys.exit(2)


def run(cmd):
    """Run a helper program; its output, or one line naming it and its error output."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"{Path(cmd[0]).name} failed ({r.returncode}): {(r.stderr or r.stdout).strip()[-800:]}")
    return r.stdout


def tail(path, size=4096):
    """The last SIZE bytes of PATH (a dump is complete once its totals line is written)."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - size))
        return f.read()


def parse_change(text):
    name, sep, value = text.partition("=")
    if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name.strip()) or not value.strip():
        die(f"--change wants VARIABLE=VALUE, got {text!r}")
    return name.strip(), value.strip()


def sql_literal(value):
    if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?|ON|OFF|TRUE|FALSE", value, re.IGNORECASE):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


class Server:
    """One throw-away mariadbd under callgrind, on its own socket and datadir."""

    def __init__(self, work, base_lines, keep_dumps=None):
        self.work = work
        self.keep_dumps = keep_dumps
        self.sock = work / "mysqld.sock"
        self.data = work / "data"
        self.client = prog("mariadb", "mysql")
        self.admin = prog("mariadb-admin", "mysqladmin")
        self.mariadbd = prog("mariadbd", "/usr/sbin/mariadbd")
        self.valgrind = prog("valgrind")
        self.control = prog("callgrind_control")
        self.annotate = prog("callgrind_annotate")
        self.out = work / "cg.out"
        self.proc = None
        self.dumps = 0
        user = ["--user=root"] if os.getuid() == 0 else []
        # A private tmpdir for the bootstrap and the server: a server starting removes `#sql*`
        # files from its tmpdir, which in a shared /tmp are the temporary tables of another
        # server bootstrapping at that moment (the self-checks run side by side).
        run([prog("mariadb-install-db", "mysql_install_db"), "--no-defaults", *user,
             f"--datadir={self.data}", "--auth-root-authentication-method=normal",
             f"--tmpdir={work}"])
        # valgrind cannot map the 8 TiB a default innodb_buffer_pool_size_max reserves
        # (10.11.12 and later), nor follow io_uring/libaio: both are set here, not measured.
        cnf = work / "my.cnf"
        cnf.write_text("[mariadbd]\ninnodb_buffer_pool_size = 256M\n"
                       "innodb_buffer_pool_size_max = 256M\ninnodb_use_native_aio = 0\n"
                       "innodb_log_file_size = 256M\ninnodb_flush_log_at_trx_commit = 1\n"
                       "skip_name_resolve = ON\n" + "".join(f"{line}\n" for line in base_lines))
        self.proc = subprocess.Popen(
            [self.valgrind, "--tool=callgrind", f"--callgrind-out-file={self.out}",
             "--dump-instr=no", self.mariadbd, f"--defaults-file={cnf}", f"--datadir={self.data}",
             f"--socket={self.sock}", "--skip-networking", f"--log-error={work / 'err.log'}",
             f"--pid-file={work / 'run.pid'}", f"--tmpdir={work}", *user],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 600
        while time.time() < deadline:
            if subprocess.run([self.admin, "--no-defaults", "-uroot", f"--socket={self.sock}", "ping"],
                              capture_output=True).returncode == 0:
                return
            if self.proc.poll() is not None:
                log = (work / "err.log").read_text(errors="replace").splitlines()[-8:]
                die("mariadbd under callgrind exited during start-up:\n" + "\n".join(log))
            time.sleep(1)
        self.stop()
        die("mariadbd under callgrind did not start within 600 s")

    def sql(self, statement):
        r = subprocess.run([self.client, "--no-defaults", "-uroot", f"--socket={self.sock}",
                            "-N", "-B", "-e", statement], capture_output=True, text=True)
        if r.returncode != 0:
            die(f"{statement}: {r.stderr.strip()}")
        return r.stdout.strip()

    def slow_queries(self):
        """The server's Slow_queries counter: statements that took long_query_time or more,
        counted whether or not the log is on. Read outside a block (after its dump, before the
        next zero), so the query's own instructions are not counted."""
        return int(self.sql("SHOW GLOBAL STATUS LIKE 'Slow_queries'").split()[1])

    def zero(self):
        run([self.control, "-z", str(self.proc.pid)])

    def dump(self, label):
        """Dump the counters since the last zero; return (connection thread, whole process)."""
        run([self.control, "-d", label, str(self.proc.pid)])
        self.dumps += 1
        path = Path(f"{self.out}.{self.dumps}")
        deadline = time.time() + 120
        while not (path.exists() and b"totals:" in tail(path)):
            if time.time() > deadline:
                die(f"callgrind did not write {path}")
            time.sleep(0.5)
        text = run([self.annotate, "--inclusive=yes", "--threshold=100", "--auto=no", str(path)])
        total = fg = None
        for line in text.splitlines():
            m = re.match(r"\s*([\d,]+)\s", line)
            if not m:
                continue
            n = int(m.group(1).replace(",", ""))
            if "PROGRAM TOTALS" in line:
                total = n
            elif fg is None and "handle_one_connection" in line:
                fg = n
        if self.keep_dumps:
            shutil.move(path, self.keep_dumps / f"callgrind.{label}")
        else:
            path.unlink()
        if total is None or fg is None:
            die(f"could not read the totals of dump {label}")
        return fg, total

    def stop(self):
        if self.proc and self.proc.poll() is None:
            subprocess.run([self.admin, "--no-defaults", "-uroot", f"--socket={self.sock}",
                            "shutdown"], capture_output=True)
            try:
                self.proc.wait(timeout=300)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGKILL)
                self.proc.wait()


def sysbench(server, args, *extra):
    cmd = [prog("sysbench"), "oltp_read_write", "--db-driver=mysql",
           f"--mysql-socket={server.sock}", "--mysql-user=root", "--mysql-db=sbtest", "--tables=1",
           f"--table-size={args.table_size}", *extra]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"sysbench {' '.join(extra)}: {r.stderr.strip() or r.stdout.strip()[-800:]}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--change", action="append", default=[], metavar="VAR=VALUE",
                    help="a dynamic global variable and the value measured against the base")
    ap.add_argument("--base", action="append", default=[], metavar="VAR=VALUE",
                    help="a setting both arms share (written to the server's option file)")
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--events", type=int, default=500, help="transactions per block")
    ap.add_argument("--table-size", type=int, default=10000)
    ap.add_argument("--ps-mode", choices=["auto", "disable", "both"], default="both",
                    help="sysbench --db-ps-mode: auto = server-side prepared statements")
    ap.add_argument("--out", help="append one JSON row per block to this file")
    ap.add_argument("--keep-dumps", metavar="DIR",
                    help="keep each block's callgrind dump in DIR (callgrind.MODE-ARM-PAIR), for "
                         "callgrind_annotate's per-function counts")
    ap.add_argument("--report", metavar="FILE",
                    help="print the figures again from the rows of FILE (written by --out); no server")
    args = ap.parse_args()
    if args.report:
        try:
            rows = [json.loads(line) for line in Path(args.report).read_text().splitlines() if line.strip()]
        except (OSError, ValueError) as e:
            die(f"{args.report}: {e}")
        need = ("pair", "ps_mode", "arm", "changes", "base", "events", "table_size",
                "conn_ir_per_trx", "total_ir_per_trx")
        rows = [r for r in rows if isinstance(r, dict) and r.get("kind") == "knob-cost"
                and all(k in r for k in need)]
        if not rows:
            die(f"{args.report}: no knob-cost rows (written by --out) in it")
        groups = {}
        for r in rows:
            key = (json.dumps(r["changes"], sort_keys=True), json.dumps(r["base"], sort_keys=True),
                   r["events"], r["table_size"])
            groups.setdefault(key, []).append(r)
        for (_, _, events, size), rs in groups.items():
            modes = [m for m in ("auto", "disable") if any(r["ps_mode"] == m for r in rs)]
            print(report(rs, modes, list(rs[0]["changes"].items()), f"blocks of {events}, {size} rows"))
        return
    if not args.change:
        die("--change VAR=VALUE is required (or --report FILE)")
    if args.pairs < 1 or args.events < 10:
        die("--pairs must be at least 1 and --events at least 10")
    changes = [parse_change(c) for c in args.change]
    base = [parse_change(b) for b in args.base]

    work = Path(tempfile.mkdtemp(prefix="mytune-knob-cost-", dir="/var/tmp"))
    server = None
    try:
        keep = None
        if args.keep_dumps:
            keep = Path(args.keep_dumps)
            keep.mkdir(parents=True, exist_ok=True)
        server = Server(work, [f"{k} = {v}" for k, v in base], keep)
        server.sql("CREATE DATABASE sbtest")
        sysbench(server, args, "prepare")
        originals = {k: server.sql(f"SELECT @@GLOBAL.{k}") for k, _ in changes}
        version = server.sql("SELECT VERSION()")
        arms = {
            "base": ";".join(f"SET GLOBAL {k} = {sql_literal(originals[k])}" for k, _ in changes),
            "changed": ";".join(f"SET GLOBAL {k} = {sql_literal(v)}" for k, v in changes),
        }
        modes = ["auto", "disable"] if args.ps_mode == "both" else [args.ps_mode]
        sysbench(server, args, "run", "--threads=1", "--time=0", "--events=200", "--rand-seed=99")
        rows = []
        for pair in range(1, args.pairs + 1):
            for mode in modes:
                order = ["base", "changed"] if pair % 2 else ["changed", "base"]
                for arm in order:
                    server.sql(arms[arm])
                    slow_before = server.slow_queries()
                    server.zero()
                    out = sysbench(server, args, "run", "--threads=1", "--time=0",
                                   f"--events={args.events}", f"--rand-seed={pair}",
                                   f"--db-ps-mode={mode}")
                    fg, total = server.dump(f"{mode}-{arm}-{pair}")
                    slow = server.slow_queries() - slow_before
                    m = re.search(r"transactions:\s+(\d+)", out)
                    if not m or int(m.group(1)) == 0:
                        die(f"sysbench ran no transactions in block {mode}-{arm}-{pair}:\n{out[-800:]}")
                    trx = int(m.group(1))
                    row = {"kind": "knob-cost", "pair": pair, "ps_mode": mode, "arm": arm,
                           "changes": dict(changes), "base": dict(base), "events": args.events,
                           "transactions": trx, "slow_queries": slow,
                           "conn_ir_per_trx": fg / trx, "total_ir_per_trx": total / trx,
                           "table_size": args.table_size, "server": version, "host": host_id(),
                           "at": time.time()}
                    rows.append(row)
                    print(f"pair {pair} {mode:7} {arm:7} connection {fg / trx:12.0f} "
                          f"process {total / trx:12.0f} instructions per transaction"
                          + (f", {slow} statements slow" if slow else ""), flush=True)
                    if args.out:
                        with open(args.out, "a") as f:
                            f.write(json.dumps(row) + "\n")
        print(report(rows, modes, changes, f"blocks of {args.events}, {args.table_size} rows"))
    finally:
        if server:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


def report(rows, modes, changes, blocks=""):
    what = ", ".join(f"{k} = {v}" for k, v in changes)
    lines = [f"\n{what}, against the server's value, instructions per oltp_read_write transaction"
             + (f" ({blocks})" if blocks else "") + ":"]
    names = {"auto": "server-side prepared statements", "disable": "text protocol"}
    for mode in modes:
        for key, label in (("conn_ir_per_trx", "connection thread"), ("total_ir_per_trx", "whole process")):
            pairs = {}
            for r in rows:
                if r["ps_mode"] == mode:
                    pairs.setdefault(r["pair"], {})[r["arm"]] = r[key]
            diffs = [p["changed"] - p["base"] for p in pairs.values() if len(p) == 2]
            base = [p["base"] for p in pairs.values() if len(p) == 2]
            if not diffs:
                continue
            mean_base = statistics.mean(base)
            med = statistics.median(diffs)
            slow = sum(r.get("slow_queries", 0) for r in rows if r["ps_mode"] == mode)
            lines.append(
                f"  {names[mode]:33} {label:17} base {mean_base:10.0f}  change median {med:+8.0f} "
                f"({100 * med / mean_base:+.2f} %), pairs {min(diffs):+.0f} to {max(diffs):+.0f}, "
                f"{sum(d > 0 for d in diffs)} of {len(diffs)} above 0"
                + (f"; {slow} statements passed long_query_time in these blocks (where the slow "
                   "log was on, it wrote them)" if slow else ""))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
