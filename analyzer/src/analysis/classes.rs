//! Accesses the pair queries cannot tell apart. Two accesses of the same kind, space and type
//! whose symbolic summaries are the same z3 terms for both threads (path condition, object,
//! offset, barrier and warp-sync counts, loop iterations) and that follow the same barriers
//! give the same query with any third access. So each pair is asked once per *class pair*:
//! a kernel of 2000 copies of `a[threadIdx.x] += i` has two classes (the reads and the
//! writes), not eight million queries.
//!
//! A `safe` answer is a proof for every pair of the class pair (the formula is the same). A
//! race is only a race where it was replayed: the other pairs of a racy class pair replay the
//! representative's model, once per access that has no race yet; the pairs left are
//! `unknown`. Memory per kernel is one verdict flag pair per access, not a list per pair.

use super::intervals::LastBarriers;
use super::symbolic::{SymAccess, ThreadSummary};
use crate::collections::HashMap;
use crate::ir::{AccessId, Kernel};
use std::hash::{Hash, Hasher};

/// The representative (smallest id) of each access's class.
pub struct Classes {
    rep: Vec<usize>,
}

/// A pair of accesses as the queries see it: both classes, and whether it is one access run
/// by two threads (lockstep's same-statement race tells those apart).
pub type ClassPair = (usize, usize, bool);

impl Classes {
    pub fn of(
        k: &Kernel,
        sa: &ThreadSummary,
        sb: &ThreadSummary,
        last: Option<&LastBarriers>,
    ) -> Self {
        let mut buckets: HashMap<u64, Vec<usize>> = HashMap::default();
        let mut rep = Vec::with_capacity(k.accesses.len());
        for i in 0..k.accesses.len() {
            let same = |j: &&usize| alike(k, sa, sb, last, i, **j);
            let bucket = buckets.entry(fingerprint(k, sa, sb, i)).or_default();
            match bucket.iter().find(same) {
                Some(&r) => rep.push(r),
                None => {
                    bucket.push(i);
                    rep.push(i);
                }
            }
        }
        Classes { rep }
    }

    pub fn rep(&self, i: usize) -> usize {
        self.rep[i]
    }

    pub fn pair(&self, (i, j): (usize, usize)) -> ClassPair {
        (self.rep[i], self.rep[j], i == j)
    }
}

fn summaries(s: &ThreadSummary, i: usize) -> Option<&Vec<SymAccess>> {
    s.accesses.get(&AccessId(i as u32))
}

fn fingerprint(k: &Kernel, sa: &ThreadSummary, sb: &ThreadSummary, i: usize) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let acc = &k.accesses[i];
    (acc.kind, acc.space, acc.ty).hash(&mut h);
    for s in [sa, sb] {
        for x in summaries(s, i).into_iter().flatten() {
            (&x.pc, &x.base, &x.offset, x.size, &x.b, &x.w, &x.iters).hash(&mut h);
        }
    }
    h.finish()
}

fn alike(
    k: &Kernel,
    sa: &ThreadSummary,
    sb: &ThreadSummary,
    last: Option<&LastBarriers>,
    i: usize,
    j: usize,
) -> bool {
    let (x, y) = (&k.accesses[i], &k.accesses[j]);
    let (ai, aj) = (AccessId(i as u32), AccessId(j as u32));
    (x.kind, x.space, x.ty) == (y.kind, y.space, y.ty)
        && last.is_none_or(|l| l.same_barriers(ai, aj))
        && [sa, sb].iter().all(|s| {
            s.unreachable.contains(&ai) == s.unreachable.contains(&aj)
                && match (summaries(s, i), summaries(s, j)) {
                    (None, None) => true,
                    (Some(p), Some(q)) => {
                        p.len() == q.len() && p.iter().zip(q).all(|(p, q)| same_summary(p, q))
                    }
                    _ => false,
                }
        })
}

/// The same terms: z3 shares equal terms, so this compares identities, not formulas.
fn same_summary(x: &SymAccess, y: &SymAccess) -> bool {
    x.pc == y.pc
        && x.base == y.base
        && x.offset == y.offset
        && x.size == y.size
        && x.b == y.b
        && x.w == y.w
        && x.iters.len() == y.iters.len()
        && x.iters.iter().zip(&y.iters).all(|(a, b)| a == b)
}
