//! Recommendations of the merged set that would set one variable two
//! ways under a profile both could match.

use super::*;

/// No two recommendations for one variable may disagree under a profile
/// both could match, for a target both apply to. Inside one rule a more
/// specific profile scope may refine a broader one.
pub(super) fn check_conflicts(rules: &[Rule], errors: &mut Vec<RuleError>) {
    let mut by_var: BTreeMap<&str, Vec<(&Rule, &Recommend)>> = BTreeMap::new();
    for rule in rules {
        for rec in &rule.recommend {
            by_var.entry(&rec.variable).or_default().push((rule, rec));
        }
    }
    for (var, entries) in by_var {
        for (i, (ra, a)) in entries.iter().enumerate() {
            for (rb, b) in &entries[i + 1..] {
                if !a.profile.compatible(&b.profile) {
                    continue;
                }
                let same_rule = ra.code == rb.code;
                if !same_rule && !ra.applies.overlaps(&rb.applies) {
                    continue;
                }
                let same_value = canonical(ra, &a.value.expr) == canonical(rb, &b.value.expr)
                    && a.format == b.format;
                if same_rule {
                    if a.profile == b.profile {
                        errors.push(RuleError {
                            location: b.location.clone(),
                            message: format!(
                                "rule {} recommends {var} twice for {} (first at {})",
                                rb.code, b.profile, a.location
                            ),
                        });
                        continue;
                    }
                    if same_value
                        || a.profile.strictly_within(&b.profile)
                        || b.profile.strictly_within(&a.profile)
                    {
                        continue;
                    }
                } else if same_value {
                    continue;
                }
                errors.push(RuleError {
                    location: b.location.clone(),
                    message: format!(
                        "conflicting recommendations for {var}: {} recommends `{}` ({}) and {} recommends `{}` ({}) where both apply ({} / {})",
                        ra.code,
                        a.value.text,
                        a.location,
                        rb.code,
                        b.value.text,
                        b.location,
                        a.profile,
                        b.profile
                    ),
                });
            }
        }
    }
}

/// The canonical text of a recommended value with the rule's lets expanded,
/// so two rules compare by what they compute, not by their let names.
pub(super) fn canonical(rule: &Rule, e: &expr::Expr) -> String {
    e.substitute(&|f| {
        if f.ns != Namespace::Let {
            return None;
        }
        rule.lets
            .iter()
            .find(|(n, _)| *n == f.name)
            .map(|(_, c)| c.expr.clone())
    })
    .to_string()
}
