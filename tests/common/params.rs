//! The parameters of a brute-force run: every scalar parameter one value (pointers stay free).

use gmrace_analyzer::ir::{Kernel, Ty};

/// `value` for each scalar parameter of `k`, `None` for the others.
pub fn every_scalar(k: &Kernel, value: u64) -> Vec<Option<u64>> {
    k.params
        .iter()
        .map(|p| matches!(p.ty, Ty::Scalar(_)).then_some(value))
        .collect()
}
