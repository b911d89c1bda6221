//! Fleets: many servers in one run, read from the inventories fleets already
//! keep, checked concurrently with a deadline each.
//!
//! mytune grows no scheduler, daemon or database of its own: cron, systemd
//! timers or Kubernetes run it, Prometheus (node_exporter's textfile
//! collector) and log pipelines take what it writes. This module holds the
//! two pieces that are not single-server code:
//!
//! - [`inventory`]: the servers of a fleet, from plain lists and Ansible
//!   inventories ([`plain`], [`ansible`] with its INI and YAML readers), with
//!   diagnostics for what cannot be read and duplicates said once;
//! - [`pool`]: bounded concurrency, so one silent server never holds the
//!   others.
//!
//! Judging each server is the single-server check pipeline, unchanged.

pub mod ansible;
pub mod ansible_ini;
pub mod ansible_yaml;
pub mod inventory;
pub mod outcome;
pub mod plain;
pub mod pool;

pub use inventory::{Diagnostic, Endpoint, Entry, Inventory};
