//! Text renderings of the catalog itself (not of findings): the rule
//! reference in Markdown (`mytune rules --format markdown`, committed as
//! `docs/rules.md` and checked by a test), the summary listing, and the full
//! text of one rule for `mytune explain`.

use std::fmt::Write;

use super::articles::ARTICLES;
use super::builtin_check::Check;
use super::loader::RuleSet;
use super::schema::Rule;

/// The schema and expression language, as documented in the reference.
const LANGUAGE: &str = r#"## Rule files

Built-in rules live in `rules/<family>.toml` (embedded in the binary); `--rules DIR` adds every
`*.toml` of DIR, and a user rule with the code of a built-in one replaces it. Each file is an array of
`[[rule]]` tables:

| key | required | meaning |
|---|---|---|
| `code` | yes | `MTxyy`, stable and never reused; x is the family: 1 innodb, 2 connections, 3 memory, 4 caches, 5 logging, 6 replication, 7 security, 8 os, 9 compat |
| `name` | yes | kebab-case, names the problem (`innodb-buffer-pool-too-small`) |
| `family`, `severity` | yes | severity is `info` < `warn` < `crit` |
| `confidence` | no | `high` (default), `medium`, `low` for weak heuristics |
| `tags` | no | kebab-case words: performance, memory, durability, security, os, compat… |
| `applies` | no | `{ mysql = "< 8.0", mariadb = "*", percona = ">= 5.7, < 8.0" }`; a flavor left out is excluded; no table = all |
| `let` | no | table of named sub-expressions, used as `let.NAME` (a let may use the `[model]`, not another let) |
| `when` | yes | the condition; the rule fires when it is true |
| `variable` | no | the variable (or namespaced host setting) a finding is about when the rule recommends nothing |
| `format` | no | how that variable's current value is shown (`number`, `size`, `bool`, `string`); without it, as read |
| `[[rule.recommend]]` | no | `variable`, `value` (an expression), `format` (`number`, `size`, `bool`, `string`), `profile = { durability = "relaxed" }`, `{ workload = "olap" }` or `{ observability = "full" }`; `offer_if` (a condition) with `withheld` (a template) for a value that is safe only when the facts prove it: while the condition is false or a fact it needs is missing, the finding recommends nothing, `check` suggests no change and `gen-cnf` writes the line commented out under the `withheld` text (the message reads `rec.` of a withheld value as missing: use it only in a branch where the value is offered) |
| `message` | yes | template: `{expression}` or `{expression:size}`, `:pct` (a fraction as a percentage), `:int`; `rec.VARIABLE` is the recommended value |
| `rationale` | yes | why; says so where a cited article's advice is unsafe or outdated |
| `[[rule.sources]]` | yes | `article` (a key of the [source articles](#source-articles)) and `section`, or `title`, `section`, `url` of a manual page |

A file may also hold a `[model]` table: `NAME = "expression"` entries that every rule can use as
`model.NAME`, so a model several rules judge by is written once. The built-in memory model is one
(`rules/memory.toml`: the global buffers, what every connection and every running statement holds,
the expected case at the peak of connections, the worst case, the max_connections that fits, the
buffer pool target). An entry may use the entries written before it (and the facts, never a rule's
`let`); a name is defined once in the whole catalog; user rules may use the built-in entries. The
loader expands the entries into the rules' own expressions, and `mytune explain CODE` lists the
entries a rule uses.

A recommended `variable` is a server variable (my.cnf) unless it carries a namespace: host settings
are written `sysctl:KEY` (a kernel setting by its dotted key, `sysctl:net.core.somaxconn`; dots and
dashes are kept), `limit:ITEM` (a resource limit of the server process for limits.conf and the
systemd unit: `nofile`, `nproc`, `memlock`, `core`) or `host:NAME` (`host:thp`, the transparent huge
pages mode; `host:io_scheduler`, the scheduler of the datadir's disk). The namespace stays in the
recommendation (`Recommendation::setting()` splits it), so `gen-cnf` takes server variables and
`gen-sysctl` / `gen-limits` the rest; the target's variable catalog never drops a host setting. A
finding's current value for a host setting comes from the host facts (sysctl values, the server
process's soft limit, else the unit's `LimitNOFILE`, the THP mode, the scheduler). For a server
variable the server does not report (an option-only name such as `skip_grant_tables` on MySQL), the
option-file value and line stand in. `rec.` cannot name a namespaced setting; repeat the
expression or use a `let`.

Two rules that recommend different values for one variable, for a profile and a target both could
match, are a load error; inside one rule a more specific profile scope may refine a broader one.
Recommendations are produced only by rules that fire.

## Expressions

- Literals: numbers (`4`, `0.5`), sizes 1024-based as MySQL reads them (`128M`, `1.5G`; K M G T P E),
  percentages (`70%` = 0.7), strings (`"ON"`), `true`/`false`, versions (`8.0.30`; `X.Y` is read as a
  version when compared with one).
- Operators, loosest first: `||`, `&&`, comparisons `== != < <= > >=` and `x in [a, b]` (not
  chainable), `+ -`, `* /`, unary `!` and `-`. `&&`, `||`, `if()` and `coalesce()` are lazy.
- Depth: at most 128 levels, each parenthesis, call, unary operator and each further term of an
  operator chain counting one (so a chain of more than 128 terms is refused too); deeper input is an
  error at its `file:line:col`. Split long conditions with `let`.
- Facts:
  - `var.NAME`: the server's variable when there are server facts, else the option-file value, else
    the target's default (when the caller provides defaults);
  - `cnf.NAME`: the option-file value only;
  - `status.NAME`: the first status sample; `rate.NAME`: per second, from two samples or else
    value / uptime;
  - `host.NAME`, `server.NAME` and `profile.NAME`: the facts listed under "Facts of the host, the
    server and the profile" below; `sysctl("net.core.somaxconn")` reads a kernel setting and
    `kernel("NAME")` a kernel counter;
  Names are lowercase, `-` and `_` are the same in recommended variable names.
- Server values are strings: `ON/OFF/YES/NO/TRUE/FALSE/1/0` become booleans and numeric strings
  (also `128M`) numbers when an operator needs them; strings compare case-insensitively.
- Functions: `min(a, …)`, `max(a, …)`, `clamp(x, lo, hi)`, `round_to(x, m)` (nearest multiple),
  `round_down(x, m)`, `round_up(x, m)`, `floor`, `ceil`, `round`, `defined(x)` (false when a fact
  in x is missing), `coalesce(a, b, …)` (the first whose facts exist), `if(c, a, b)`,
  `num(x)`, `bool(x)`, `sysctl("name")`, `sysctl("name", default)` (the default when the kernel's
  settings were read and lack the key, e.g. `net.ipv4.tcp_tw_recycle` since Linux 4.12; still not
  applicable without host facts or sysctl values), `field(x, n)` (the n-th whitespace-separated
  field, from 1: `field(sysctl("net.ipv4.ip_local_port_range"), 2)`), `size(x)` (a byte count as text,
  `1.5G`) and `concat(a, …)` (its arguments as one text, for messages that depend on a fact), `engine_tables("MyISAM")` and
  `engine_bytes("InnoDB")` (tables and data + index bytes of one storage engine outside the system
  schemas, any case, `"*"` for all engines; 0 for an engine the server has no tables of; missing
  when the data size was not collected or is partial), `default("name")` (the target's compiled-in
  default of a variable, to tell a value someone raised from the stock one) and `kernel("name")`
  (a counter of the host's kernel, the evidence an OS rule needs; missing for a described host,
  whose kernel nobody can see, so `coalesce(kernel("…") > 0, true)` advises on evidence where it
  can be seen and by the rule of thumb where a host is being built; the counters are listed under
  "Kernel counters" below).
- A missing fact, a value that cannot be coerced or a division by zero makes the rule *not applicable*
  with a reason, never a finding. Unknown names, functions and type errors are load errors with
  file:line:col.
- Findings of rules that read `status.`/`rate.` get lower confidence when the server has been up less
  than a day.
"#;

/// The full rule reference in Markdown: the built-in checks (`builtin`, in
/// code order, from the registry) and the rules of `set`.
pub fn markdown(set: &RuleSet, builtin: &[&Check]) -> String {
    let mut s = String::new();
    s.push_str("# mytune rule reference\n\n");
    s.push_str(
        "<!-- Generated by `mytune rules --format markdown > docs/rules.md`; do not edit by hand. -->\n\n",
    );
    s.push_str("| code | name | severity | family | applies |\n|---|---|---|---|---|\n");
    for b in builtin {
        let _ = writeln!(
            s,
            "| [{}](#{}) | {} | {} | {} | {} (built in) |",
            b.code,
            b.code.to_ascii_lowercase(),
            b.name,
            b.severity,
            b.family(),
            b.runs
        );
    }
    for r in set.rules() {
        let _ = writeln!(
            s,
            "| [{}](#{}) | {} | {} | {} | {} |",
            r.code,
            r.code.to_ascii_lowercase(),
            r.name,
            r.severity,
            r.family,
            r.applies
        );
    }
    s.push('\n');
    s.push_str(LANGUAGE);
    s.push_str(&facts_markdown());
    s.push_str("\n### Kernel counters\n\nWhat `kernel(\"NAME\")` reads, on the host itself:\n\n");
    for (name, what) in crate::facts::host::KERNEL_COUNTERS {
        let _ = writeln!(s, "- `{name}`: {what}");
    }
    s.push_str(&articles_markdown());
    s.push_str(&builtin_markdown(builtin, set.model()));
    s.push_str("\n## Rules\n");
    for r in set.rules() {
        let _ = write!(s, "\n### {}\n\n", r.code);
        let _ = writeln!(
            s,
            "**{}** · {} · {} · confidence {} · applies to {}  ",
            r.name, r.family, r.severity, r.confidence, r.applies
        );
        if !r.tags.is_empty() {
            let _ = writeln!(s, "tags: {}", r.tags.join(", "));
        }
        s.push('\n');
        let _ = writeln!(s, "{}\n", r.rationale);
        for (name, text) in &r.models {
            let _ = writeln!(s, "- model `{name}` = `{text}`");
        }
        for (name, c) in &r.lets {
            let _ = writeln!(s, "- let `{name}` = `{}`", c.text);
        }
        let _ = writeln!(s, "- when: `{}`", r.when.text);
        for rec in &r.recommend {
            let scope = if rec.profile.is_empty() {
                String::new()
            } else {
                format!(" ({})", rec.profile)
            };
            let _ = writeln!(
                s,
                "- recommends `{}` = `{}`{scope}",
                rec.variable, rec.value.text
            );
            if let (Some(c), Some(w)) = (&rec.offer_if, &rec.withheld) {
                let _ = writeln!(
                    s,
                    "  - offered only if `{}`; else withheld: {}",
                    c.text, w.text
                );
            }
        }
        let _ = writeln!(s, "- message: {}", r.message.text);
        s.push_str("- sources:\n");
        for src in &r.sources {
            let _ = writeln!(s, "  - {src}");
        }
    }
    s
}

/// The facts of the fixed namespaces, from their one table.
fn facts_markdown() -> String {
    use super::expr::ast::Namespace;
    let mut s = String::from(
        "\n### Facts of the host, the server and the profile\n\nA fact the collector could not read \
         (an account without the privilege, a described host) is missing: the rule is not applicable, \
         with the reason.\n",
    );
    for ns in [Namespace::Host, Namespace::Server, Namespace::Profile] {
        s.push('\n');
        for f in super::fact_table::table(ns).unwrap_or_default() {
            let values = if f.values.is_empty() {
                String::new()
            } else {
                format!(" (`{}`)", f.values.join("` / `"))
            };
            let _ = writeln!(
                s,
                "- `{}.{}`, {}{values}: {}",
                ns.as_str(),
                f.name,
                f.ty.describe(),
                f.doc
            );
        }
    }
    s
}

/// The built-in checks, as a section of the reference.
fn builtin_markdown(builtin: &[&Check], model: &[super::ModelEntry]) -> String {
    let mut s = String::from(
        "\n## Built-in checks\n\nChecks written in Rust rather than as rules: lint's checks of how the \
         server reads an option file, and check's comparison of the files with the running server, \
         the parts it could not collect and the server's error log. They are selected, skipped and \
         explained like rules.\n",
    );
    for c in builtin {
        let _ = write!(s, "\n### {}\n\n", c.code);
        let _ = writeln!(
            s,
            "**{}** · {} · {} · confidence {} · runs in `{}`\n",
            c.name,
            c.family(),
            c.severity,
            c.confidence(),
            c.runs
        );
        let _ = writeln!(s, "{}.\n", c.summary());
        let _ = writeln!(s, "{}\n", c.rationale());
        for m in c.models(model) {
            let _ = writeln!(s, "- model `{}` = `{}`", m.name, m.text);
        }
        if !c.sources.is_empty() {
            s.push_str("- sources:\n");
            for src in c.sources {
                let _ = writeln!(s, "  - {src}");
            }
        }
    }
    s
}

/// The registry of cited articles, as a section of the reference.
fn articles_markdown() -> String {
    let mut s = String::from(
        "\n## Source articles\n\nThe articles the built-in rules cite; a source names one by its key \
         (`article = \"KEY\"`).\n\n| key | article | url |\n|---|---|---|\n",
    );
    for a in ARTICLES {
        let mut cite = a.citation();
        if let Some(n) = a.note {
            cite.push_str(&format!("; {n}"));
        }
        let url = a
            .url
            .map(|u| format!("<{u}>"))
            .unwrap_or_else(|| "—".to_string());
        let _ = writeln!(s, "| `{}` | {cite} | {url} |", a.key);
    }
    s
}

/// Everything about one rule, for `mytune explain`.
pub fn explain(r: &Rule, width: u16) -> String {
    let width = usize::from(width);
    let mut s = String::new();
    let _ = writeln!(s, "{} {}", r.code, r.name);
    field(&mut s, "family", &r.family.to_string(), width);
    field(&mut s, "severity", &r.severity.to_string(), width);
    field(&mut s, "confidence", &r.confidence.to_string(), width);
    if !r.tags.is_empty() {
        field(&mut s, "tags", &r.tags.join(", "), width);
    }
    field(&mut s, "applies", &r.applies.to_string(), width);
    field(&mut s, "defined at", &r.origin.to_string(), width);
    for (name, text) in &r.models {
        let _ = writeln!(
            s,
            "{}",
            crate::wrap::fill(&format!("  model {name} = {text}"), width, "              ")
        );
    }
    for (name, c) in &r.lets {
        let _ = writeln!(
            s,
            "{}",
            crate::wrap::fill(
                &format!("  let {name} = {}", c.text),
                width,
                "              "
            )
        );
    }
    field(&mut s, "when", &r.when.text, width);
    if let Some(v) = &r.variable {
        field(&mut s, "variable", v, width);
    }
    for rec in &r.recommend {
        let scope = if rec.profile.is_empty() {
            String::new()
        } else {
            format!("   [{}]", rec.profile)
        };
        field(
            &mut s,
            "recommend",
            &format!("{} = {}{scope}", rec.variable, rec.value.text),
            width,
        );
        if let (Some(c), Some(w)) = (&rec.offer_if, &rec.withheld) {
            field(&mut s, "offer if", &c.text, width);
            field(&mut s, "withheld", &w.text, width);
        }
    }
    field(&mut s, "message", &r.message.text, width);
    s.push_str("\nRationale:\n");
    for line in crate::wrap::lines(&r.rationale, width.saturating_sub(2), "") {
        let _ = writeln!(s, "  {line}");
    }
    s.push_str("\nSources:\n");
    for src in &r.sources {
        let _ = writeln!(
            s,
            "{}",
            crate::wrap::fill(&format!("  - {src}"), width, "    ")
        );
    }
    s
}

/// `  label:      value`, the value wrapped to `width` under itself.
fn field(s: &mut String, label: &str, value: &str, width: usize) {
    const INDENT: &str = "              ";
    let first = format!("  {:<12}{value}", format!("{label}:"));
    let _ = writeln!(s, "{}", crate::wrap::fill(&first, width, INDENT));
}
