//! A brute-force race detector for small launches: every thread runs concretely and every pair
//! of executed accesses is checked. It is the reference the static verdicts are tested against
//! (a `safe` access must never appear in one of its races), and the analysis's last resort for
//! pairs the solver left undecided under a fixed launch. It answers only when no thread's
//! control flow or addresses depend on data, since it cannot guess data: then the runs are every
//! execution of the launch, and what they show is a proof.

use super::concrete::{self, Config, Event};
use super::report::Scope;
use super::symbolic::Base;
use super::WarpModel;
use crate::ir::{AccessId, Kernel};
use std::collections::{BTreeMap, BTreeSet};

/// Launches up to this many threads are run whole.
const MAX_THREADS: u64 = 1 << 14;
/// Executed accesses over all threads beyond which the run gives up (memory and time).
const MAX_EVENTS: usize = 1 << 21;

/// Two executed accesses of two threads that race: the witness of a pair.
#[derive(Clone, Debug)]
pub struct ConcreteRace {
    pub scope: Scope,
    pub blocks: [[u32; 3]; 2],
    pub threads: [[u32; 3]; 2],
    pub events: [Event; 2],
}

/// A pair of accesses, unordered, as `(min, max)`.
pub type Pair = (AccessId, AccessId);

/// What running every thread of a launch shows.
#[derive(Default)]
pub struct Exhaustive {
    /// Every racing pair with one witness, in its most local scope.
    pub races: BTreeMap<Pair, ConcreteRace>,
    /// Pairs that race only through accesses in arms of branches on data (`both_ways`): they
    /// may or may not race.
    pub undecided: BTreeSet<Pair>,
}

/// The racing pairs of accesses, exactly: no branch on data is tolerated.
pub fn exhaustive_races(
    k: &Kernel,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[Option<u64>],
    model: WarpModel,
) -> Option<BTreeSet<Pair>> {
    exhaustive(k, block, grid, params, model, false).map(|r| r.races.into_keys().collect())
}

/// `None` when the launch is too large, or when some thread's control flow (other than
/// branches run `both_ways`) or addresses depend on data (then the runs do not stand for every
/// execution), or when a block's threads pass different barriers (then barrier counts do not
/// delimit intervals).
pub fn exhaustive(
    k: &Kernel,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[Option<u64>],
    model: WarpModel,
    both_ways: bool,
) -> Option<Exhaustive> {
    let per_block = block.iter().map(|d| *d as u64).product::<u64>();
    let blocks = grid.iter().map(|d| *d as u64).product::<u64>();
    if per_block * blocks > MAX_THREADS {
        return None;
    }
    let unlinear = |i: u64, d: [u32; 3]| {
        [
            (i % d[0] as u64) as u32,
            (i / d[0] as u64 % d[1] as u64) as u32,
            (i / (d[0] as u64 * d[1] as u64)) as u32,
        ]
    };
    // (block linear, thread linear, events)
    let mut threads: Vec<(u64, u32, Vec<Event>)> = Vec::new();
    let mut events = 0;
    for b in 0..blocks {
        let bid = unlinear(b, grid);
        let mut longest: Vec<crate::ir::Span> = Vec::new();
        for t in 0..per_block as u32 {
            let tid = unlinear(t.into(), block);
            let run = concrete::run_thread(
                k,
                &Config {
                    block_dim: block,
                    grid_dim: grid,
                    tid,
                    bid,
                    params,
                    both_ways,
                },
            );
            if !run.complete || run.lost_access {
                return None;
            }
            // Threads that leave early stop passing barriers; all others pass the same ones.
            let (short, long) = if run.barriers.len() <= longest.len() {
                (&run.barriers, &longest)
            } else {
                (&longest, &run.barriers)
            };
            if long[..short.len()] != short[..] {
                return None;
            }
            if run.barriers.len() > longest.len() {
                longest = run.barriers.clone();
            }
            events += run.events.len();
            if events > MAX_EVENTS {
                return None;
            }
            threads.push((b, t, run.events));
        }
    }
    // Every byte an event touches, to find the events that can overlap.
    let mut by_byte: BTreeMap<(Base, i64), Vec<(usize, usize)>> = BTreeMap::new();
    for (ti, (_, _, events)) in threads.iter().enumerate() {
        for (ei, e) in events.iter().enumerate() {
            for byte in e.offset..e.offset + e.size as i64 {
                by_byte.entry((e.base, byte)).or_default().push((ti, ei));
            }
        }
    }
    let lockstep = model == WarpModel::Lockstep;
    let mut out = Exhaustive::default();
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
                if !concrete::races(k, scope, x, y, lockstep) {
                    continue;
                }
                let key = (x.access.min(y.access), x.access.max(y.access));
                if x.may || y.may {
                    out.undecided.insert(key);
                    continue;
                }
                if out.races.get(&key).is_some_and(|r| r.scope <= scope) {
                    continue;
                }
                // The witness lists the pair's lower access first.
                let (first, second) = if x.access <= y.access {
                    ((ba, la, x), (bb, lb, y))
                } else {
                    ((bb, lb, y), (ba, la, x))
                };
                out.races.insert(
                    key,
                    ConcreteRace {
                        scope,
                        blocks: [unlinear(*first.0, grid), unlinear(*second.0, grid)],
                        threads: [
                            unlinear((*first.1).into(), block),
                            unlinear((*second.1).into(), block),
                        ],
                        events: [first.2.clone(), second.2.clone()],
                    },
                );
            }
        }
    }
    let races = &out.races;
    out.undecided.retain(|p| !races.contains_key(p));
    Some(out)
}
