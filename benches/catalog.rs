//! Catalog costs that a lint run pays: parsing one embedded data file (once per
//! process), and per option: lookup, validation, and "did you mean" for an
//! unknown name. Target: linting 1,000 files in under 1 s.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mytune::catalog::Catalog;
use mytune::target::Target;

fn bench(c: &mut Criterion) {
    for t in ["mysql-8.0", "mariadb-10.11"] {
        let target: Target = t.parse().unwrap();
        c.bench_function(&format!("parse {t}"), |b| {
            b.iter(|| Catalog::load_uncached(black_box(&target)).unwrap())
        });
    }
    let cat = Catalog::for_target(&"mysql-8.0".parse().unwrap()).unwrap();
    c.bench_function("get+validate 10 options", |b| {
        let opts = [
            ("innodb_buffer_pool_size", "8G"),
            ("innodb-log-file-size", "512M"),
            ("max_connections", "500"),
            ("binlog_format", "ROW"),
            ("slow_query_log", "ON"),
            ("long_query_time", "0.5"),
            ("sql_mode", "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION"),
            ("innodb_flush_method", "O_DIRECT"),
            ("Table_Open_Cache", "4000"),
            ("query_cache_size", "0"),
        ];
        b.iter(|| {
            for (n, v) in opts {
                let info = cat.get(black_box(n)).unwrap();
                let _ = black_box(info.validate(black_box(v)));
            }
        })
    });
    c.bench_function("suggest (unknown name)", |b| {
        b.iter(|| cat.suggest(black_box("innodb_bufer_pool_size")))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
