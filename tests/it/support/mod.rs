//! What the tests share: throw-away servers, the shared catalog beside the
//! checkout, the server oracle, report schemas and snapshot files.

pub mod mariadb;
pub mod oracle;
pub mod report_schema;
pub mod run;
pub mod shared;
pub mod snapshots;
