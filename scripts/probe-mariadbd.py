#!/usr/bin/env python3
"""Ask the installed mariadbd what it does with option names it does not list.

MariaDB keeps many removed options, and some MySQL-only ones, as accepted
no-ops that only warn; `mariadbd --verbose --help` does not list them, so the
variable catalog cannot know them from the help output. This script asks the
server itself, one option file per name, and writes what it learned to
data/catalog/mariadb-<series>-server.tsv, which the catalog embeds:

  ignored   the server starts and warns that the option does nothing
  maximum   `maximum-NAME=...` is accepted (a session limit), on an option of
            any kind; others refuse it ("Maximum value of 'X' cannot be set")
  autoset   `autoset-NAME` (bare) is accepted: the server sizes the option
            itself; others refuse it ("automatic setup request is unsupported")
  plugin-form  `plugin-NAME=...` is accepted: an option of a plugin's own
            list (InnoDB's, Aria's, an INFORMATION_SCHEMA plugin's enable
            option), which also takes the `plugin-` prefix; the server's own
            options do not
  early     parsed in the server's first pass, where a prefix unique among
            the first-pass options is taken silently
  signed    a numeric option whose negative values are clamped, not refused
  not-option  a system variable the server has no option for (an option
            file cannot set it: "unknown variable")
  silent-deprecated  deprecated in the catalog, but the server starts with
            it without a word
  warns-deprecated  current in the catalog, but the server warns that it
            is deprecated
  arg-required  a bare name is refused ("requires an argument")
  no-arg    any value is refused ("cannot take an argument")
  engine    a storage engine the server can start with by default
  charset, collation  the names the server knows (from the running server's
            information_schema.COLLATIONS, read-only)
  min, max  the bounds the server clamps to with a warning ("value X
            adjusted to Y"), for numeric options the catalog has no range for
  zero-silent  0 is taken without a warning although the catalog's minimum
            is higher (max_relay_log_size = 0 means max_binlog_size)
  int-read  a numeric option the server reads with a C int conversion after
            checking its range: a value above 2147483647 wraps (modulo 2^32,
            then sign-extended), so log_warnings = 4294967296 runs as 0
            although the server warns it "adjusted" it to its maximum
  locale    a name lc_messages and lc_time_names take (case-insensitive;
            any other value stops the start), from information_schema.LOCALES
            of a throw-away server started with the locales plugin

Candidates: every name of every catalog in data/catalog/ and every option of
the shared help outputs. Run by hand (read-only: --verbose --help only):

  python3 scripts/probe-mariadbd.py            # writes data/catalog/mariadb-10.11-server.tsv
                                               # and data/catalog/mariadb-10.11-plugins.tsv
  python3 scripts/probe-mariadbd.py --plugins-only   # only the plugins' options (a few seconds)
The differential test (tests/it/differential_mariadb.rs) checks the result
against the live server on every CI run.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARIADBD = next((p for p in ["/usr/sbin/mariadbd", "/usr/libexec/mariadbd"] if os.path.exists(p)), "mariadbd")


def catalog_rows(path):
    rows = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            rows[cols[0]] = cols
    return rows


def help_with(text):
    """`mariadbd --verbose --help` with `text` in its option file, or None on a hang."""
    with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as f:
        f.write("[mysqld]\n" + text + "\n")
        name = f.name
    try:
        args = [MARIADBD, "--defaults-file=" + name]
        if os.geteuid() == 0:
            args.append("--user=root")
        try:
            return subprocess.run(args + ["--verbose", "--help"], capture_output=True, text=True,
                                  timeout=60, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return None  # e.g. --bootstrap waits for input: no fact
    finally:
        os.unlink(name)


def help_run(text):
    p = help_with(text)
    return (None, "") if p is None else (p.returncode, p.stderr)


def help_value(text, name):
    """The value `--verbose --help` prints for `name` with `text` in the option file."""
    p = help_with(text)
    flag = name.replace("_", "-")
    for line in (p.stdout if p else "").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == flag:
            return parts[1]
    return None


def locales():
    """The locale names, from a throw-away server (its own datadir and socket,
    no network) with the LOCALES information-schema plugin loaded: the shared
    server is not changed."""
    import shutil
    import time
    work = tempfile.mkdtemp(prefix="mytune-locales-")
    user = ["--user=root"] if os.geteuid() == 0 else []
    try:
        subprocess.run(["mariadb-install-db", "--no-defaults", "--auth-root-authentication-method=normal",
                        "--datadir=" + work + "/data"] + user, capture_output=True, check=True)
        server = subprocess.Popen([MARIADBD, "--no-defaults", "--datadir=" + work + "/data",
                                   "--socket=" + work + "/sock", "--skip-networking", "--plugin-load-add=locales",
                                   "--pid-file=" + work + "/pid", "--log-error=" + work + "/err.log"] + user,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                q = subprocess.run(["mariadb", "--no-defaults", "-uroot", "--socket=" + work + "/sock", "--batch",
                                    "--skip-column-names", "-e", "SELECT NAME FROM information_schema.LOCALES"],
                                   capture_output=True, text=True)
                if q.returncode == 0:
                    return sorted({l.strip().lower() for l in q.stdout.splitlines() if l.strip()})
                time.sleep(0.2)
            sys.exit("cannot read the locales of a throw-away server: " + q.stderr.strip())
        finally:
            server.terminate()
            server.wait()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def help_output(extra_args):
    """The options (name -> argument form) and the variable table (name ->
    value) of `mariadbd --no-defaults EXTRA --verbose --help`."""
    args = [MARIADBD, "--no-defaults"] + extra_args
    if os.geteuid() == 0:
        args.append("--user=root")
    p = subprocess.run(args + ["--verbose", "--help"], capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    options, values, table = {}, {}, False
    for line in p.stdout.splitlines():
        if line.startswith("Variables (--variable-name=value)"):
            table = True
            continue
        if table:
            parts = line.split(None, 1)
            if parts and not line.startswith("---"):
                values[parts[0].replace("-", "_")] = parts[1].strip() if len(parts) > 1 else ""
            continue
        m = re.match(r"^  --([a-z0-9-]+)(\[?=[#a-z]+\]?)?", line)
        if m:
            options[m.group(1).replace("-", "_")] = m.group(2) or ""
    return options, values


def plugin_rows():
    """Catalog rows for the options each plugin library of the server's
    plugin directory adds, as the server lists them once the library is
    loaded (`--plugin-load-add=LIB`): name, kind, default, plugin."""
    base, _ = help_output([])
    _, values = help_output([])
    plugin_dir = values.get("plugin_dir", "/usr/lib/mysql/plugin/")
    rows = {}
    for lib in sorted(os.listdir(plugin_dir)):
        if not lib.endswith(".so"):
            continue
        stem = lib[:-3]
        plugin = stem[3:] if stem.startswith("ha_") else stem
        opts, vals = help_output(["--plugin-load-add=" + lib])
        for name, form in sorted(opts.items()):
            if name in base or name in rows:
                continue
            default = vals.get(name, "")
            if default in ("(No default value)", ""):
                default = "\\N"
            if form in ("=#", "[=#]"):
                kind = "int"
            elif form == "" and default in ("TRUE", "FALSE", "ON", "OFF"):
                kind = "bool"
                default = {"TRUE": "ON", "FALSE": "OFF"}.get(default, default)
            else:
                kind = "string"
            # A plugin's enable option (`--server-audit[=name]`, ON) is no
            # system variable; its other options are.
            enable = name == plugin.replace("-", "_") or default in ("ON", "OFF") and form == "[=name]"
            sysvar = "N" if enable else "Y"
            rows[name] = [name, kind, "", "", "", "", default, "N", sysvar, "current", "", "", "", plugin]
    return [rows[n] for n in sorted(rows)]


def write_plugins(series, version):
    plugins_out = os.path.join(ROOT, "data/catalog/mariadb-%s-plugins.tsv" % series)
    prow = plugin_rows()
    with open(plugins_out, "w") as f:
        f.write("# mytune variable catalog: the options of mariadbd %s's plugin libraries\n" % version)
        f.write("# made by scripts/probe-mariadbd.py: for each library of the server's plugin directory, the options\n")
        f.write("#   `mariadbd --no-defaults --plugin-load-add=LIB --verbose --help` lists beyond the server's own, with\n")
        f.write("#   the default of its variable table; kinds from the argument form (=# a number, no argument and a\n")
        f.write("#   TRUE/FALSE default a boolean, else text); no ranges or value lists (the help output has none)\n")
        f.write("# columns: name kind min max block values default dynamic sysvar status since replacement note plugin\n")
        for r in prow:
            f.write("\t".join(r) + "\n")
    print("wrote %s: %d rows" % (plugins_out, len(prow)), file=sys.stderr)


def main():
    version = subprocess.run([MARIADBD, "--version"], capture_output=True, text=True).stdout.split()[2]
    series = ".".join(version.split(".")[:2])
    own = catalog_rows(os.path.join(ROOT, "data/catalog/mariadb-%s.tsv" % series))
    # Entries the series has: not removed, not a later series' (introduced), not a debug build's.
    own = {n: c for n, c in own.items()
           if c[9] == "removed" or (c[9] != "introduced" and c[12] != "only on debug builds")}
    current = {n for n, c in own.items() if c[9] != "removed"}
    candidates = set()
    for path in glob.glob(os.path.join(ROOT, "data/catalog/*.tsv")):
        if path.endswith(("-server.tsv", "-plugins.tsv")):
            continue
        candidates.update(catalog_rows(path))
    shared = os.path.join(ROOT, "..", "shared", "catalog", "help")
    for path in glob.glob(os.path.join(shared, "*")):
        with open(path, errors="replace") as f:
            for m in re.finditer(r"^\s*--([a-z][a-z0-9_-]+)", f.read(), re.M):
                candidates.add(m.group(1).replace("-", "_"))
    # `skip_` names stay: some are options of their own that the server keeps
    # as no-ops (skip_bdb); the skip- form of an option does not warn "It
    # does nothing now", so it records nothing.
    candidates = sorted(n for n in candidates - current if not n.startswith("loose_"))
    # A plugin's engines (ENGINES lists what is loaded) are asked of the
    # shared server, which runs the same binary with its packaged plugins.

    def probe_ignored(name):
        code, err = help_run(name + "=1")
        for line in err.splitlines():
            if "It does nothing now" in line or "compatible option" in line:
                return name, re.sub(r"^.*?\[Warning\] ", "", line).strip()
        return name, None

    numeric = [n for n, c in own.items() if c[1] in ("int", "size") and c[9] != "removed"]

    def probe_maximum(name):
        code, err = help_run("maximum-%s=%s" % (name, sample(own[name])))
        return name, code == 0 and "cannot be set" not in err and "unknown variable" not in err

    def probe_autoset(name):
        code, err = help_run("autoset-%s" % name)
        return name, code == 0 and "unsupported" not in err and "unknown variable" not in err

    def probe_plugin_form(name):
        code, err = help_run("plugin-%s=%s" % (name, sample(own[name])))
        return name, "unknown variable" not in err and "unknown option" not in err

    def probe_negative(name):
        code, err = help_run("%s=-1" % name)
        return name, "Buffered" in err, "Incorrect unsigned value" not in err and code == 0

    adjusted = re.compile(r"value -?\d+ adjusted to (-?\d+)")

    def probe_range(name, signed):
        found = []
        lowest = "-9223372036854775808" if signed else "0"
        highest = "9223372036854775807" if signed else "18446744073709551615"
        for fact, value in (("min", lowest), ("max", highest)):
            code, err = help_run("%s=%s" % (name, value))
            m = adjusted.search(err)
            if code == 0 and m:
                found.append((name, fact, m.group(1)))
        return found

    def probe_zero(name):
        code, err = help_run("%s=0" % name)
        return name, code == 0 and not adjusted.search(err)

    def probe_int_read(name):
        # Above the catalog's maximum a checked option runs as at its
        # maximum; one read with atoi afterwards runs with the value modulo
        # 2^32 (0 for 4294967296) instead.
        above = help_value("%s=4294967296" % name, name)
        at_max = help_value("%s=%s" % (name, own[name][3]), name)
        return name, above == "0" and at_max != "0"

    def probe_option(name):
        code, err = help_run("%s=%s" % (name, sample(own[name])))
        # A name the server takes as a prefix of another option is not an
        # option itself (`profiling` -> profiling_history_size).
        unknown = ("unknown variable" in err or "unknown option" in err
                   or ("Using unique option prefix '%s'" % name) in err)
        noop = next((re.sub(r"^.*?\[Warning\] ", "", l).strip() for l in err.splitlines()
                     if "It does nothing now" in l), None)
        return name, unknown, "deprecated" in err.lower(), noop

    def probe_bare(name):
        code, err = help_run(name)
        required = "requires an argument" in err
        code, err = help_run(name + "=ON")
        return name, required, "cannot take an argument" in err

    def sample(cols):
        kind, default = cols[1], cols[6]
        if kind == "bool":
            return "ON"
        if kind in ("enum", "set"):
            return cols[5].split(",")[0]
        if kind in ("int", "size", "float"):
            return default if default not in ("", "\\N") else "1"
        return default if default not in ("", "\\N") else "x"

    rows = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for name, msg in pool.map(probe_ignored, candidates):
            if msg:
                rows.append((name, "ignored", msg))
        everything = sorted(current)
        for name, ok in pool.map(probe_maximum, everything):
            if ok:
                rows.append((name, "maximum", ""))
        for name, ok in pool.map(probe_autoset, numeric):
            if ok:
                rows.append((name, "autoset", ""))
        for name, ok in pool.map(probe_plugin_form, everything):
            if ok:
                rows.append((name, "plugin-form", ""))
        signed_names = set()
        for name, early, signed in pool.map(probe_negative, numeric):
            if early:
                rows.append((name, "early", ""))
            if signed:
                rows.append((name, "signed", ""))
                signed_names.add(name)
        no_range = [n for n in numeric if own[n][2] == "" or own[n][3] == ""]
        for found in pool.map(lambda n: probe_range(n, n in signed_names), no_range):
            rows.extend(found)
        wide = [n for n in numeric if own[n][3] not in ("", "\\N") and int(own[n][3]) < 4294967296]
        for name, wraps in pool.map(probe_int_read, wide):
            if wraps:
                rows.append((name, "int-read", ""))
        above_zero = [n for n in numeric if own[n][2] not in ("", "0") and not own[n][2].startswith("-")]
        for name, silent in pool.map(probe_zero, above_zero):
            if silent:
                rows.append((name, "zero-silent", ""))
        names = sorted(n for n, c in own.items() if c[9] != "removed")
        for name, unknown, warned, noop in pool.map(probe_option, names):
            if noop:
                rows.append((name, "ignored", noop))
            if unknown:
                rows.append((name, "not-option", ""))
            elif own[name][9] == "deprecated" and not warned:
                rows.append((name, "silent-deprecated", ""))
            elif own[name][9] == "current" and warned:
                rows.append((name, "warns-deprecated", ""))
        for name, required, no_arg in pool.map(probe_bare, names):
            if required:
                rows.append((name, "arg-required", ""))
            if no_arg:
                rows.append((name, "no-arg", ""))
    q = subprocess.run(["mariadb", "-uroot", "-h127.0.0.1", "-P3306", "--batch", "--skip-column-names", "-e",
                        "SELECT COLLATION_NAME, CHARACTER_SET_NAME FROM information_schema.COLLATIONS"],
                       capture_output=True, text=True)
    if q.returncode != 0:
        sys.exit("cannot read the collations of the local server: " + q.stderr.strip())
    charsets = set()
    for line in q.stdout.splitlines():
        coll, cs = line.split("\t")
        rows.append((coll.lower(), "collation", cs.lower()))
        charsets.add(cs.lower())
    for cs in sorted(charsets):
        rows.append((cs, "charset", ""))
    q = subprocess.run(["mariadb", "-uroot", "-h127.0.0.1", "-P3306", "--batch", "--skip-column-names", "-e",
                        "SELECT ENGINE FROM information_schema.ENGINES WHERE SUPPORT IN ('YES', 'DEFAULT')"],
                       capture_output=True, text=True)
    for line in q.stdout.splitlines():
        rows.append((line.strip().lower(), "engine", ""))
    for name in locales():
        rows.append((name, "locale", ""))
    write_plugins(series, version)
    out = os.path.join(ROOT, "data/catalog/mariadb-%s-server.tsv" % series)
    with open(out, "w") as f:
        f.write("# what mariadbd %s does with option lines beyond its help output\n" % version)
        f.write("# made by scripts/probe-mariadbd.py (mariadbd --verbose --help, one option file per name)\n")
        f.write("# %d candidate names probed for 'ignored', %d numeric options for 'maximum' and 'early'\n"
                % (len(candidates), len(numeric)))
        f.write("# columns: name fact message\n")
        for r in sorted(rows):
            f.write("\t".join(r) + "\n")
    print("wrote %s: %d rows" % (out, len(rows)), file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] == ["--plugins-only"]:
        v = subprocess.run([MARIADBD, "--version"], capture_output=True, text=True).stdout.split()[2]
        write_plugins(".".join(v.split(".")[:2]), v)
    else:
        main()
