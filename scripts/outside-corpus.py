#!/usr/bin/env python3
"""Extract the outside corpus's option files from public repositories.

Reads bench/outside-corpus-sources.tsv (repository, commit, path, how to
extract) and writes one option file per entry (or per rendering) into OUT,
named SOURCE__PATH.cnf. The files are read at the recorded commit from a git
directory: $MYTUNE_GIT_DIRS/OWNER+NAME/repo when there is one (a bare clone
or a mirror), else a blob-less clone made under OUT/.git-cache. A cache of
single files, $MYTUNE_FILE_CACHE/OWNER+NAME/COMMIT/PATH, is read first (for
repositories too large to clone).

Nothing extracted is kept in this repository: the facts it proves are.

    scripts/outside-corpus.py OUT
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import jinja2
import yaml

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "bench" / "outside-corpus-sources.tsv"


def git_dir(repo, out):
    base = os.environ.get("MYTUNE_GIT_DIRS")
    if base:
        d = Path(base) / repo.replace("/", "+") / "repo"
        if d.is_dir():
            return d
    d = out / ".git-cache" / repo.replace("/", "+")
    if not d.is_dir():
        subprocess.run(
            ["git", "clone", "--quiet", "--bare", "--filter=blob:none",
             f"https://github.com/{repo}", str(d)],
            check=True,
        )
    return d


def read(repo, commit, path, out):
    cache = os.environ.get("MYTUNE_FILE_CACHE")
    if cache:
        p = Path(cache) / repo.replace("/", "+") / commit / path
        if p.is_file():
            return p.read_text()
    d = git_dir(repo, out)
    return subprocess.run(
        ["git", f"--git-dir={d}", "show", f"{commit}:{path}"],
        check=True, capture_output=True, text=True,
    ).stdout


def untemplated(text):
    """Drop the lines a template engine would fill in ({{ }}, {% %})."""
    return "\n".join(
        l for l in text.splitlines() if "{{" not in l and "{%" not in l
    ) + "\n"


def block_scalars(doc, key):
    """Every string value of KEY anywhere in a YAML document."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k == key and isinstance(v, str):
                yield v
            else:
                yield from block_scalars(v, key)
    elif isinstance(doc, list):
        for v in doc:
            yield from block_scalars(v, key)


def version_test(value, other, op=">="):
    def parts(v):
        return [int(x) for x in re.findall(r"\d+", str(v))]
    a, b = parts(value), parts(other)
    return {">=": a >= b, "<": a < b, ">": a > b, "<=": a <= b, "==": a == b}[op]


def render_ansible(repo, commit, path, settings, out):
    """An Ansible role's template with its defaults and Debian 12's vars."""
    variables = {}
    for f in ("defaults/main.yml", "vars/Debian.yml", "vars/Debian-12.yml"):
        try:
            variables.update(yaml.safe_load(read(repo, commit, f, out)) or {})
        except subprocess.CalledProcessError:
            pass
    variables.update({"ansible_managed": "Ansible managed"})
    for kv in filter(None, settings.split(",")):
        k, v = kv.split("=", 1)
        variables[k] = yaml.safe_load(v)
    env = jinja2.Environment(undefined=jinja2.ChainableUndefined)
    env.filters["comment"] = lambda s: "# " + str(s)
    env.tests["version"] = version_test
    # Defaults that name other variables ("{{ x }}") resolve once.
    for k, v in list(variables.items()):
        if isinstance(v, str) and "{{" in v:
            variables[k] = env.from_string(v).render(**variables)
    return env.from_string(read(repo, commit, path, out)).render(**variables)


def extract(repo, commit, path, how, out):
    """[(suffix, option file text)] for one source line."""
    if how == "cnf":
        return [("", read(repo, commit, path, out))]
    if how.startswith("yaml:"):
        key = how.split(":", 1)[1]
        found = []
        for doc in yaml.safe_load_all(read(repo, commit, path, out)):
            found.extend(block_scalars(doc, key))
        return [(f"#{i + 1}" if len(found) > 1 else "", untemplated(t))
                for i, t in enumerate(found)]
    if how.startswith("j2"):
        settings = how.split(":", 1)[1] if ":" in how else ""
        tag = "#" + re.sub(r"[^A-Za-z0-9=_-]", "_", settings) if settings else ""
        return [(tag, render_ansible(repo, commit, path, settings, out))]
    raise SystemExit(f"{SOURCES}: unknown extraction {how!r}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for line in SOURCES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        source, repo, commit, path, how = line.split("\t")
        for tag, text in extract(repo, commit, path, how, out):
            name = f"{source}__{repo.replace('/', '+')}__{path.replace('/', '+')}{tag}.cnf"
            (out / name).write_text(text)
            n += 1
    print(f"{n} option files in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
