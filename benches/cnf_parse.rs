//! How long reading a typical option file takes: a generated ~100-line file
//! with comments, several groups, quoted values, trailing comments and
//! prefixed names. Criterion reports the time per file (one iteration = one
//! file).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use mytune::cnf::{Document, load_str, server_groups};
use mytune::target::Target;

fn generated_file() -> String {
    let mut s = String::from(
        "# generated benchmark input\n#\n[client]\nport = 3306\nsocket = /run/mysqld/mysqld.sock\n\n[mysqld]\n",
    );
    for i in 0..30 {
        s.push_str(&format!("# setting {i}: what it does and why\n"));
        match i % 5 {
            0 => s.push_str(&format!("innodb-option-{i} = {i}M\n")),
            1 => s.push_str(&format!(
                "loose_plugin_option_{i} = \"quoted value {i}\"  # trailing\n"
            )),
            2 => s.push_str(&format!("skip-feature-{i}\n")),
            3 => s.push_str(&format!(
                "path_option_{i}\t=\t/var/lib/mysql/dir{i}/file.log\n"
            )),
            _ => s.push_str(&format!(
                "init_connect_{i} = 'SET NAMES utf8mb4 # not a comment'\n"
            )),
        }
    }
    s.push_str("\n[mariadb-10.11]\n");
    for i in 0..30 {
        s.push_str(&format!("max_connections = {}\n", 100 + i));
    }
    s.push_str("\n[mysqldump]\nquick\nmax_allowed_packet = 64M\n");
    s
}

fn bench(c: &mut Criterion) {
    let text = generated_file();
    let lines = text.lines().count();
    assert!((95..=110).contains(&lines), "{lines} lines");
    let groups = server_groups(&"mariadb-10.11".parse::<Target>().unwrap());
    let path = Path::new("/nonexistent/bench.cnf");

    c.bench_function("cnf_document_parse_100_lines", |b| {
        b.iter(|| Document::parse(black_box(&text)))
    });
    c.bench_function("cnf_document_write_100_lines", |b| {
        let doc = Document::parse(&text);
        b.iter(|| black_box(&doc).to_string())
    });
    c.bench_function("cnf_load_str_100_lines", |b| {
        b.iter(|| load_str(black_box(&text), path))
    });
    c.bench_function("cnf_effective_100_lines", |b| {
        let loaded = load_str(&text, path);
        b.iter(|| black_box(&loaded).effective(&groups))
    });
    c.bench_function("cnf_load_str_and_effective_100_lines", |b| {
        b.iter(|| load_str(black_box(&text), path).effective(&groups))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
