//! A reference race detector in plain Rust: it judges a run from the CPU device's raw access
//! trace alone, in the lock-step warp model the device runtime checks, and says which bytes of
//! shared memory races touched. Deliberately naive (every pair of accesses to each byte).
//!
//! Two accesses of one block race when they overlap, are in the same barrier interval, are
//! not both reads nor both atomic, and come from different warps, or from two lanes of one
//! warp in one warp-instruction that both write.

use gmrace_runtime_cuda::cpu::trace::{TraceEvent, TraceKind};
use std::collections::{BTreeMap, BTreeSet};

/// Racy bytes as (linear block, window offset).
pub fn racy_bytes(
    trace: &[TraceEvent],
    window_of: &dyn Fn(u32) -> Option<u64>,
) -> BTreeSet<(u64, u64)> {
    let mut by_byte: BTreeMap<(u64, u32, u64), Vec<&TraceEvent>> = BTreeMap::new();
    for e in trace {
        let Some(base) = window_of(e.obj) else {
            continue;
        };
        for b in 0..e.size as u64 {
            by_byte
                .entry((e.block, e.interval, base + e.offset + b))
                .or_default()
                .push(e);
        }
    }
    let mut racy = BTreeSet::new();
    for ((block, _, byte), events) in by_byte {
        let races = events
            .iter()
            .enumerate()
            .any(|(i, a)| events[i + 1..].iter().any(|b| race(a, b)));
        if races {
            racy.insert((block, byte));
        }
    }
    racy
}

fn race(a: &TraceEvent, b: &TraceEvent) -> bool {
    if a.tid == b.tid {
        return false;
    }
    let both_read_or_atomic = matches!(
        (a.kind, b.kind),
        (TraceKind::Read, TraceKind::Read) | (TraceKind::Atomic, TraceKind::Atomic)
    );
    if both_read_or_atomic {
        return false;
    }
    if a.tid / 32 != b.tid / 32 {
        return true;
    }
    a.stamp == b.stamp && a.kind == TraceKind::Write && b.kind == TraceKind::Write
}

/// Bytes to granules of `g` bytes.
pub fn granules(bytes: &BTreeSet<(u64, u64)>, g: u64) -> BTreeSet<(u64, u64)> {
    bytes.iter().map(|&(b, x)| (b, x / g)).collect()
}
