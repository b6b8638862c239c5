//! A brute-force race detector for small launches: every thread runs concretely and every pair
//! of executed accesses is checked. It is the test suite's reference the static verdicts are
//! tested against (`exhaustive_races`, exact, `DataBranches::Stop`: a `safe` access must never
//! appear in one of its races), and the analysis's decision procedure for fixed launches
//! (`exhaustive_or_shared`, run before the solver, which gets the pairs it leaves undecided).
//! It answers only when no thread's control flow or addresses depend on data, since it cannot
//! guess data: then the runs are every execution of the launch, and what they show is a proof.
//!
//! Precisely, it answers only when no address it keeps is lost, no run ended on data, and the
//! threads of each block pass the same barriers (a thread that leaves early passes a prefix).
//! A pair racing only through `may` accesses goes to the solver, a pair racing through definite
//! ones is `racy` with that witness, a pair not racing at all is `safe`. Runs that diverge
//! (`concrete::parting`) are declined: the solver's checks report the divergence.
//!
//! Bytes are compared between threads only (a byte one thread alone touches costs nothing;
//! local memory, private to each thread, is left out), and between two threads of one block
//! only within one barrier interval (a reduction's shared bytes are met by every step of many
//! threads: comparing across steps cost most of a small kernel's analysis); `anywhere` events
//! meet every event of their block, object and barrier interval. A launch too large to run whole, or whose whole run
//! fails on global accesses, still gets its shared-memory pairs settled when one block run with
//! `blockIdx` unknown (poison) completes without losing a shared access: then every block does
//! to shared memory what that one does (`Exhaustive::shared_only`).

use super::concrete::{self, Config, DataBranches, Event, Run};
use super::report::Scope;
use super::symbolic::Base;
use super::WarpModel;
use crate::collections::HashMap;
use crate::ir::{AccessId, AccessKind, Conflict, Kernel, Space};
use std::collections::{BTreeMap, BTreeSet};

/// Launches up to this many threads are run whole.
const MAX_THREADS: u64 = 1 << 14;
/// Executed accesses over all threads beyond which the run gives up (memory and time).
const MAX_EVENTS: usize = 1 << 21;
/// Pairs of executed accesses to compare beyond which the run gives up (time).
const MAX_CHECKS: usize = 1 << 27;

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
    /// Pairs that race only through accesses that may not happen (`Event::may`): they may or
    /// may not race.
    pub undecided: BTreeSet<Pair>,
    /// Only shared memory was checked (a launch too large to run whole, whose threads do the
    /// same to shared memory in every block): pairs with another space are not decided.
    pub shared_only: bool,
}

/// The racing pairs of accesses, exactly: no branch on data is tolerated.
pub fn exhaustive_races(
    k: &Kernel,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[Option<u64>],
    model: WarpModel,
) -> Option<BTreeSet<Pair>> {
    exhaustive(k, block, grid, params, model, DataBranches::Stop)
        .map(|r| r.races.into_keys().collect())
}

/// `exhaustive` when the launch is small enough; otherwise, for shared memory only, one block
/// run with `blockIdx` unknown, which answers only if no thread's shared accesses or control
/// flow depend on its block (then every block does what that one does).
pub fn exhaustive_or_shared(
    k: &Kernel,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[Option<u64>],
    model: WarpModel,
    data: DataBranches,
) -> Option<Exhaustive> {
    // A launch too large to run whole (`run_blocks` declines it), or whose global accesses
    // depend on data, may still settle its shared pairs.
    exhaustive(k, block, grid, params, model, data)
        .or_else(|| run_blocks(k, block, grid, params, model, data, true))
}

/// `None` when the launch is too large, or when some thread's control flow (beyond what `data`
/// tolerates) or addresses depend on data (then the runs do not stand for every
/// execution), or when a block's threads pass different barriers (then barrier counts do not
/// delimit intervals), or when a thread overflows a signed integer.
pub fn exhaustive(
    k: &Kernel,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[Option<u64>],
    model: WarpModel,
    data: DataBranches,
) -> Option<Exhaustive> {
    run_blocks(k, block, grid, params, model, data, false)
}

/// Runs every block, or with `any_block` one block standing for all, and compares the accesses.
fn run_blocks(
    k: &Kernel,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[Option<u64>],
    model: WarpModel,
    data: DataBranches,
    any_block: bool,
) -> Option<Exhaustive> {
    let threads = thread_events(k, block, grid, params, data, any_block)?;
    let meet = Meet {
        k,
        threads: &threads,
        block,
        grid,
        lockstep: model == WarpModel::Lockstep,
    };
    let (by_byte, by_interval) = meet.index();
    let mut out = Exhaustive {
        shared_only: any_block,
        ..Exhaustive::default()
    };
    let mut checks = 0usize;
    meet.on_bytes(&by_byte, &mut checks, &mut out)?;
    meet.anywhere(&by_interval, &mut checks, &mut out)?;
    let races = &out.races;
    out.undecided.retain(|p| !races.contains_key(p));
    Some(out)
}

/// Each thread's events: (block linear, thread linear, events). `None` when a run is not an
/// execution of the launch (incomplete, lost an address, overflowed), the blocks' threads pass
/// different barriers, or there are too many events.
fn thread_events(
    k: &Kernel,
    block: [u32; 3],
    grid: [u32; 3],
    params: &[Option<u64>],
    data: DataBranches,
    any_block: bool,
) -> Option<Vec<ThreadEvents>> {
    let per_block = block.iter().map(|d| *d as u64).product::<u64>();
    let blocks = if any_block {
        1
    } else {
        grid.iter().map(|d| *d as u64).product::<u64>()
    };
    if per_block * blocks > MAX_THREADS {
        return None;
    }
    let mut threads: Vec<ThreadEvents> = Vec::new();
    let mut events = 0;
    for b in 0..blocks {
        let bid = unlinear(b, grid);
        let mut block_runs = Vec::with_capacity(per_block as usize);
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
                    data,
                    any_block,
                },
            );
            let lost = if any_block {
                run.lost_shared
            } else {
                run.lost_access
            };
            // What follows signed overflow is no execution; what the run missed is unknown.
            if !run.complete || lost || run.undefined_at.is_some() {
                return None;
            }
            let mut run = run;
            let mut run_events = std::mem::take(&mut run.events);
            block_runs.push(run);
            if any_block {
                run_events.retain(|e| k.accesses[e.access.index()].space == Space::Shared);
            }
            events += run_events.len();
            if events > MAX_EVENTS {
                return None;
            }
            threads.push((b, t, run_events));
        }
        if !same_barriers(&block_runs) {
            return None;
        }
    }
    Some(threads)
}

/// The `[x, y, z]` index of linear index `i` in extents `d` (x fastest).
fn unlinear(i: u64, d: [u32; 3]) -> [u32; 3] {
    [
        (i % d[0] as u64) as u32,
        (i / d[0] as u64 % d[1] as u64) as u32,
        (i / (d[0] as u64 * d[1] as u64)) as u32,
    ]
}

/// A thread's events: its block and thread (linear) and what it accessed.
type ThreadEvents = (u64, u32, Vec<Event>);

/// Events indexed for meeting: by byte touched, and (for `anywhere` events) by block, object
/// and barrier interval. Entries are (thread, event) indices.
type ByByte = HashMap<(Base, i64), Vec<(usize, usize)>>;
type ByInterval = HashMap<(u64, Base, u32), Vec<(usize, usize)>>;

/// Compares the events of every thread of a launch with each other's.
struct Meet<'a> {
    k: &'a Kernel,
    threads: &'a [ThreadEvents],
    block: [u32; 3],
    grid: [u32; 3],
    lockstep: bool,
}

impl Meet<'_> {
    fn index(&self) -> (ByByte, ByInterval) {
        let threads = self.threads;
        // Every byte an event touches, to find the events that can overlap.
        let mut by_byte = ByByte::default();
        // Events touching anywhere in their object, with every event they can meet: same block,
        // object and barrier interval (accesses of one block in different intervals never race).
        let mut by_interval = ByInterval::default();
        let any_anywhere = threads.iter().any(|t| t.2.iter().any(|e| e.anywhere));
        for (ti, (block_id, _, events)) in threads.iter().enumerate() {
            for (ei, e) in events.iter().enumerate() {
                if any_anywhere && matches!(e.base, Base::Shared(_)) {
                    by_interval
                        .entry((*block_id, e.base, e.b))
                        .or_default()
                        .push((ti, ei));
                }
                // Local memory is per thread: it never races, whatever its bytes.
                if e.anywhere || matches!(e.base, Base::Local(_)) {
                    continue;
                }
                for byte in e.offset..e.offset + e.size as i64 {
                    by_byte.entry((e.base, byte)).or_default().push((ti, ei));
                }
            }
        }
        (by_byte, by_interval)
    }

    fn kind(&self, (t, e): (usize, usize)) -> AccessKind {
        self.k.accesses[self.threads[t].2[e].access.index()].kind
    }

    /// Two events of two threads (indices into `threads`): a race, a pair that may race, or
    /// nothing.
    fn compare(&self, (ta, x): (usize, &Event), (tb, y): (usize, &Event), out: &mut Exhaustive) {
        let (k, threads, grid, block) = (self.k, self.threads, self.grid, self.block);
        let (ba, la, _) = &threads[ta];
        let (bb, lb, _) = &threads[tb];
        if ba == bb && la == lb {
            return;
        }
        let scope = if ba != bb {
            Scope::InterBlock
        } else if la / 32 == lb / 32 {
            Scope::IntraWarp
        } else {
            Scope::InterWarp
        };
        if ba != bb && k.accesses[x.access.index()].space == Space::Shared {
            return;
        }
        if !concrete::races(k, scope, x, y, self.lockstep) {
            return;
        }
        let key = (x.access.min(y.access), x.access.max(y.access));
        if x.may || y.may {
            out.undecided.insert(key);
            return;
        }
        if out.races.get(&key).is_some_and(|r| r.scope <= scope) {
            return;
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

    /// Pairs of events of two threads on one byte. `None` past `MAX_CHECKS`.
    fn on_bytes(&self, by_byte: &ByByte, checks: &mut usize, out: &mut Exhaustive) -> Option<()> {
        // In byte order, so that which witness each pair keeps is the same in every run.
        let mut bytes: Vec<&(Base, i64)> = by_byte.keys().collect();
        bytes.sort_unstable();
        for byte in bytes {
            let (base, list) = (&byte.0, &by_byte[byte]);
            // Only kinds that conflict between some two threads can make a race on this byte.
            let mut kinds: Vec<AccessKind> = list.iter().map(|&te| self.kind(te)).collect();
            kinds.sort();
            kinds.dedup();
            let racy = kinds
                .iter()
                .any(|x| kinds.iter().any(|y| x.conflict(*y) != Conflict::Never));
            if !racy {
                continue;
            }
            // Only pairs of two threads are compared: a byte one thread alone touches (its own
            // slice of a shared array, accessed many times) costs nothing.
            let mut per_thread: HashMap<usize, usize> = HashMap::default();
            for &(t, _) in list {
                *per_thread.entry(t).or_default() += 1;
            }
            if per_thread.len() < 2 {
                continue;
            }
            let same_thread: usize = per_thread.values().map(|n| n * n).sum();
            *checks += (list.len() * list.len() - same_thread) / 2;
            if *checks > MAX_CHECKS {
                return None;
            }
            self.compare_byte(base, list, out);
        }
        Some(())
    }

    /// The pairs of one byte's events that can race, in the list's order (so that the witness
    /// kept for a pair is the one the whole list's order meets first): two events of one block
    /// race only in one barrier interval, and shared memory is one block's, so a shared byte's
    /// pairs are those of one block and interval. The other pairs would be compared for
    /// nothing: a byte of a reduction's shared array is met by every step of many threads.
    fn compare_byte(&self, base: &Base, list: &[(usize, usize)], out: &mut Exhaustive) {
        let threads = self.threads;
        let event = |(t, e): (usize, usize)| (t, &threads[t].2[e]);
        let interval = |(t, e): (usize, usize)| (threads[t].0, threads[t].2[e].b);
        if !matches!(base, Base::Shared(_)) {
            for (i, &x) in list.iter().enumerate() {
                for &y in &list[i + 1..] {
                    let (bx, by) = (threads[x.0].0, threads[y.0].0);
                    if bx != by || interval(x) == interval(y) {
                        self.compare(event(x), event(y), out);
                    }
                }
            }
            return;
        }
        let mut groups: HashMap<(u64, u32), Vec<usize>> = HashMap::default();
        for (i, &x) in list.iter().enumerate() {
            groups.entry(interval(x)).or_default().push(i);
        }
        for (i, &x) in list.iter().enumerate() {
            let group = &groups[&interval(x)];
            let after = group.partition_point(|&j| j <= i);
            for &j in &group[after..] {
                self.compare(event(x), event(list[j]), out);
            }
        }
    }

    /// `anywhere` events (a shared access whose offset is data) against every event of their
    /// block, object and barrier interval. `None` past `MAX_CHECKS`.
    fn anywhere(
        &self,
        by_interval: &ByInterval,
        checks: &mut usize,
        out: &mut Exhaustive,
    ) -> Option<()> {
        let threads = self.threads;
        for list in by_interval.values() {
            for &(ta, ea) in list {
                let x = &threads[ta].2[ea];
                if !x.anywhere {
                    continue;
                }
                for &(tb, eb) in list {
                    let y = &threads[tb].2[eb];
                    // A pair of two such events is met once.
                    if ta == tb || y.anywhere && (tb, eb) < (ta, ea) {
                        continue;
                    }
                    *checks += 1;
                    if *checks > MAX_CHECKS {
                        return None;
                    }
                    // `x` may touch `y`'s bytes.
                    let x_at_y = Event {
                        offset: y.offset,
                        size: y.size,
                        ..x.clone()
                    };
                    self.compare((ta, &x_at_y), (tb, y), out);
                }
            }
        }
        Some(())
    }
}

/// The threads of a block pass the same barriers, except that a thread that returns stops
/// passing them: then barrier counts delimit the block's barrier intervals. Barrier
/// divergence (`concrete::parting`) is left to the solver's checks, which report it.
fn same_barriers(runs: &[Run]) -> bool {
    let Some(longest) = runs.iter().max_by_key(|r| r.barriers.len()) else {
        return true;
    };
    runs.iter()
        .all(|r| concrete::parting([longest, r]).is_none())
}
