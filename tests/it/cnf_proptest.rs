//! Properties over arbitrary input: the reader never panics, the writer is
//! lossless (parse → write → parse is the identity), and edits read back.

use std::path::Path;

use mytune::cnf::{Document, format_value, load_str, unquote_value};
use proptest::prelude::*;

/// Lines made mostly of the characters that matter to the syntax, sometimes
/// of anything at all.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[ \t#;!=\\[\\]a-z_'\"\\\\{}.-]{0,24}",
        1 => "(!include|!includedir|\\[mysqld|skip-|loose-) ?[a-z. ]{0,10}\\]?",
        1 => "\\PC{0,16}",
        1 => any::<String>().prop_map(|s| s.replace(['\n', '\r'], "")),
    ]
}

fn text() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop::collection::vec((line(), prop_oneof!["\n", "\r\n", "\r", ""]), 0..12),
    )
        .prop_map(|(bom, lines)| {
            let mut s = String::new();
            if bom {
                s.push('\u{feff}');
            }
            for (l, end) in lines {
                s.push_str(&l);
                s.push_str(&end);
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parse_write_parse_is_identity(s in text()) {
        let doc = Document::parse(&s);
        let written = doc.to_string();
        prop_assert_eq!(&written, &s);
        prop_assert_eq!(Document::parse(&written), doc);
    }

    #[test]
    fn loading_arbitrary_text_never_panics(s in text()) {
        let f = load_str(&s, Path::new("/nonexistent-mytune-dir/x.cnf"));
        for e in &f.errors {
            prop_assert!(e.location.line >= 1);
            prop_assert!(!e.to_string().is_empty());
        }
        for entry in &f.entries {
            prop_assert!(!entry.name.is_empty());
        }
    }

    #[test]
    fn formatted_values_read_back(v in any::<String>()) {
        prop_assert_eq!(unquote_value(&format_value(&v)), v.clone());
        let doc = Document::parse(&format!("[g]\nname = {}\n", format_value(&v)));
        prop_assert_eq!(doc.get("g", "name"), Some(Some(v.as_str())));
    }

    #[test]
    fn set_then_get_reads_back(
        s in text(),
        group in "[a-z][a-z0-9.-]{0,8}",
        name in "[a-z][a-z0-9_-]{0,12}",
        value in any::<String>(),
    ) {
        let mut doc = Document::parse(&s);
        doc.set(&group, &name, Some(&value), Some("set by a test")).unwrap();
        let written = doc.to_string();
        let again = Document::parse(&written);
        prop_assert_eq!(again.get(&group, &name), Some(Some(value.as_str())));
        prop_assert_eq!(again.to_string(), written);
        let mut removed = again.clone();
        prop_assert!(removed.remove(&group, &name) >= 1);
        prop_assert_eq!(removed.get(&group, &name), None);
    }
}
