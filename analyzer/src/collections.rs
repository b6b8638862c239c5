//! Hash maps and sets whose iteration order is the same on every run.
//!
//! std's `RandomState` seeds each map at random, so two runs visit a map's entries, and drop
//! them, in different orders. Where entries hold z3 terms, the order they are created and
//! freed in decides the ids of later terms, and those ids steer the solver: the work a query
//! takes, and with a work limit the verdict, then differed from run to run (HeCBench `tsp`:
//! a definite race in one run of three). A fixed hasher makes the order a function of the
//! input alone. `clippy.toml` forbids std's maps in this crate so that none slips back.

use std::hash::{BuildHasherDefault, DefaultHasher};

/// `std::collections::HashMap` with a fixed hasher; build one with `default()`.
#[allow(clippy::disallowed_types)]
pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<DefaultHasher>>;

/// `std::collections::HashSet` with a fixed hasher; build one with `default()`.
#[allow(clippy::disallowed_types)]
pub type HashSet<T> = std::collections::HashSet<T, BuildHasherDefault<DefaultHasher>>;
