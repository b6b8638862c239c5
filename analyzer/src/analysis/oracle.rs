//! A brute-force race detector for small launches: every thread runs concretely and every pair
//! of executed accesses is checked. It is the reference the static verdicts are tested against
//! (a `safe` access must never appear in one of its races). It answers only when no thread's
//! control flow depends on data, since it cannot guess data.

use super::concrete::{self, Config, Event};
use super::report::Scope;
use super::WarpModel;
use crate::ir::{AccessId, Kernel};
use std::collections::{BTreeSet, HashMap};

/// Launches up to this many threads are run whole.
const MAX_THREADS: u64 = 1 << 14;

pub fn exhaustive_races(
    k: &Kernel,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[Option<u64>],
    model: WarpModel,
) -> Option<BTreeSet<(AccessId, AccessId)>> {
    let per_block = block.iter().map(|d| *d as u64).product::<u64>();
    let blocks = grid.iter().map(|d| *d as u64).product::<u64>();
    if per_block * blocks > MAX_THREADS {
        return None;
    }
    // (block linear, thread linear, events)
    let mut threads: Vec<(u64, u32, Vec<Event>)> = Vec::new();
    for b in 0..blocks {
        let bid = [
            (b % grid[0] as u64) as u32,
            (b / grid[0] as u64 % grid[1] as u64) as u32,
            (b / (grid[0] as u64 * grid[1] as u64)) as u32,
        ];
        for t in 0..per_block as u32 {
            let tid = [
                t % block[0],
                t / block[0] % block[1],
                t / (block[0] * block[1]),
            ];
            let run = concrete::run_thread(
                k,
                &Config {
                    block_dim: block,
                    grid_dim: grid,
                    tid,
                    bid,
                    params,
                },
            );
            if !run.complete {
                return None;
            }
            threads.push((b, t, run.events));
        }
    }
    // Every byte an event touches, to find the events that can overlap.
    let mut by_byte: HashMap<(super::symbolic::Base, i64), Vec<(usize, usize)>> = HashMap::new();
    for (ti, (_, _, events)) in threads.iter().enumerate() {
        for (ei, e) in events.iter().enumerate() {
            for byte in e.offset..e.offset + e.size as i64 {
                by_byte.entry((e.base, byte)).or_default().push((ti, ei));
            }
        }
    }
    let lockstep = model == WarpModel::Lockstep;
    let mut out = BTreeSet::new();
    for list in by_byte.values() {
        for (i, &(ta, ea)) in list.iter().enumerate() {
            for &(tb, eb) in &list[i + 1..] {
                let (ba, la, eva) = &threads[ta];
                let (bb, lb, evb) = &threads[tb];
                if ba == bb && la == lb {
                    continue;
                }
                let scope = if ba != bb {
                    Scope::InterBlock
                } else if la / 32 == lb / 32 {
                    Scope::IntraWarp
                } else {
                    Scope::InterWarp
                };
                let (x, y) = (&eva[ea], &evb[eb]);
                if ba != bb && k.accesses[x.access.index()].space == crate::ir::Space::Shared {
                    continue;
                }
                if concrete::races(k, scope, x, y, lockstep) {
                    out.insert((x.access.min(y.access), x.access.max(y.access)));
                }
            }
        }
    }
    Some(out)
}
