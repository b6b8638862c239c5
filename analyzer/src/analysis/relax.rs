//! Open launches: the product `blockIdx · blockDim` of a global thread index, relaxed.
//!
//! With the grid and the block both symbolic, `blockIdx.x * blockDim.x + threadIdx.x` holds a
//! 32x32-bit product that z3 turns into a multiplier circuit per thread, and proving that two
//! threads' indices differ (saxpy's `y[i]`) takes more than a query's work: every kernel
//! written for any launch kept its plainest accesses `unknown`. Each model of a query is also
//! a model of its relaxation, where each such product is a fresh unknown bounded only by what
//! the launch limits imply of it: the grid's span fits a signed 32-bit int (DESIGN.md, Static
//! verdicts), so `(blockIdx + 1) · blockDim <= 2^31 - 1`, and a block further on starts at
//! least a block's width further on. A relaxation with no model therefore proves the query
//! has none; one with a model proves nothing, and the query itself is asked as before (only
//! it gives witnesses). The span `gridDim · blockDim` of the launch limits is relaxed the same
//! way: its one fact is the bound the relaxed products already carry.
//!
//! A relaxed query is asked before a query that gets the whole work limit (`--rlimit`; the
//! second round, after a first round with less), within a quarter of that limit, by a fresh
//! solver: z3's incremental solver (the kernel's session) takes more than the whole limit for
//! what a fresh one settles in a tenth of it (saxpy's inter-block pair: about 1M units, more
//! than the first round's limit). Not in the first round: a pair that the query decides there
//! (a race in a few hundred thousand units) may take the relaxation longer, and the budget with
//! it. Where the relaxation has a model, or runs out, the query itself is asked as before. The
//! relaxation is built and solved in a z3 context of its own, as `engine::ilp_aside` does:
//! terms made in the analysis's context would change the ids of its later terms and z3's
//! choices with them, so that a kernel the relaxation settles nothing of would find other
//! witnesses.
//! Invariant: a relaxation only ever turns a query into `Unsat`.

use super::engine::{self, Limit, Outcome};
use super::report::Stats;
use super::symbolic::{Launch, ThreadVars};
use z3::ast::{Ast, Bool, BV};
use z3::{with_z3_config, Config, PrepareSynchronized};

/// The share of a query's work limit its relaxation may take: the relaxations that settle
/// anything take about a tenth of the default limit (saxpy's inter-block pair 1M units, a
/// strided one 1.4M); one that runs out spends the kernel's budget for nothing.
const WORK_SHARE: u32 = 4;

/// The dimensions whose products are relaxed, each as the two threads' `blockIdx`, `blockDim`
/// and `gridDim` (terms of the analysis's context, moved to the relaxation's for each query).
pub struct Relaxation {
    dims: Vec<[BV; 4]>,
}

impl Relaxation {
    /// The relaxation of the dimensions in `open` (both extents symbolic, the span bounded),
    /// or `None` when there is no such dimension.
    pub fn of(l: &Launch, ta: &ThreadVars, tb: &ThreadVars, open: [bool; 3]) -> Option<Self> {
        let dims: Vec<[BV; 4]> = (0..3)
            .filter(|&d| open[d])
            .map(|d| {
                let (a, b) = (ta.bid[d].clone(), tb.bid[d].clone());
                [a, b, l.block_dim[d].clone(), l.grid_dim[d].clone()]
            })
            .collect();
        (!dims.is_empty()).then_some(Relaxation { dims })
    }

    /// Whether the relaxation of `base ∧ extra` has no model, so that neither has the query.
    pub fn refutes(&self, base: &[Bool], extra: &[&Bool], limit: Limit, stats: &mut Stats) -> bool {
        let terms: Vec<BV> = self.dims.iter().flatten().cloned().collect();
        let extra: Vec<Bool> = extra.iter().map(|c| (*c).clone()).collect();
        let (terms, extra, base) = (
            terms.as_slice().synchronized(),
            extra.as_slice().synchronized(),
            base.synchronized(),
        );
        let (answer, own) = with_z3_config(&Config::new(), || {
            let terms = terms.recover();
            let (substitutions, facts) = relax(&terms);
            let pairs: Vec<(&BV, &BV)> = substitutions.iter().map(|(t, u)| (t, u)).collect();
            let extra = extra.recover();
            let relaxed: Vec<Bool> = extra.iter().map(|c| c.substitute(&pairs)).collect();
            let mut own = Stats::default();
            // A query whose own terms hold no product is as hard relaxed as it is.
            if relaxed.iter().zip(&extra).all(|(r, c)| r == c) {
                return (None, own);
            }
            let base: Vec<Bool> = base
                .recover()
                .iter()
                .map(|c| c.substitute(&pairs))
                .collect();
            let all: Vec<&Bool> = facts.iter().chain(&base).chain(&relaxed).collect();
            let limit = Limit {
                work: limit.work / WORK_SHARE,
                ..limit
            };
            let outcome = engine::z3(&all, limit, &mut own);
            (Some(matches!(outcome, Outcome::Unsat)), own)
        });
        // Running out here is no timeout of the analysis: the query itself decides then.
        if answer.is_some() {
            stats.queries += 1;
            stats.z3_answers += own.z3_answers;
            let work = own.solver_work.unwrap_or(0);
            stats.solver_work = Some(stats.solver_work.unwrap_or(0) + work);
        }
        answer == Some(true)
    }
}

/// The substitutions (each product, spelled both ways round, and each span, by an unknown)
/// and what the launch limits imply of the unknowns, for the dimensions in `terms` (four terms
/// each, as `Relaxation::dims`).
fn relax(terms: &[BV]) -> (Vec<(BV, BV)>, Vec<Bool>) {
    let (mut substitutions, mut facts) = (Vec::new(), Vec::new());
    for (d, t) in terms.chunks(4).enumerate() {
        let [ba, bb, bd, gd] = [&t[0], &t[1], &t[2], &t[3]];
        let span = gd.zero_ext(32).bvmul(bd.zero_ext(32));
        substitutions.push((span, BV::new_const(format!("relaxed_span_{d}"), 64)));
        let room = BV::from_u64(i32::MAX as u64, 32).bvsub(bd);
        let zero = BV::from_u64(0, 32);
        let mut starts = Vec::new();
        for (bid, who) in [(ba, "a"), (bb, "b")] {
            let start = BV::new_const(format!("relaxed_{who}_start_{d}"), 32);
            substitutions.push((bid.bvmul(bd), start.clone()));
            substitutions.push((bd.bvmul(bid), start.clone()));
            facts.push(start.bvule(&room));
            facts.push(bid.bvule(&start));
            facts.push(Ast::eq(bid, &zero).eq(Ast::eq(&start, &zero)));
            starts.push(start);
        }
        let [sa, sb] = [&starts[0], &starts[1]];
        facts.push(Ast::eq(ba, bb).implies(Ast::eq(sa, sb)));
        facts.push(ba.bvult(bb).implies(sa.bvadd(bd).bvule(sb)));
        facts.push(bb.bvult(ba).implies(sb.bvadd(bd).bvule(sa)));
    }
    (substitutions, facts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The facts hold of the products they stand for, under launches at the limits' edges and
    /// in between: then a relaxation has every model its query has.
    #[test]
    fn the_facts_hold_of_the_products() {
        let v = |n: &str| BV::new_const(n, 32);
        let terms = [v("ba"), v("bb"), v("bd"), v("gd")];
        let (substitutions, facts) = relax(&terms);
        let mut launches = vec![
            (1, 1, 0, 0),
            (0x7fff_ffff, 1, 0, 0x7fff_fffe),
            (2_097_151, 1024, 2_097_150, 2_097_149),
        ];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        while launches.len() < 300 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bd = 1 + x % 1024;
            let gd = 1 + (x >> 10) % (i32::MAX as u64 / bd);
            let ba = (x >> 20) % gd;
            // Neighbouring blocks, where a block's start is closest to the next one's.
            launches.push((gd, bd, ba, (x >> 40) % gd));
            launches.push((gd, bd, ba, (ba + 1) % gd));
        }
        for (gd, bd, ba, bb) in launches {
            let value = |t: u64| BV::from_u64(t, 32);
            let mut fixed: Vec<(BV, BV)> = vec![
                (terms[0].clone(), value(ba)),
                (terms[1].clone(), value(bb)),
                (terms[2].clone(), value(bd)),
                (terms[3].clone(), value(gd)),
            ];
            // Each unknown as the product it stands for.
            for (product, unknown) in &substitutions {
                if unknown.get_size() == 32 && !fixed.iter().any(|(u, _)| u == unknown) {
                    fixed.push((unknown.clone(), product.clone()));
                }
            }
            let pairs: Vec<(&BV, &BV)> = fixed.iter().map(|(t, u)| (t, u)).collect();
            for f in &facts {
                // Twice: an unknown becomes a product of the thread's terms, then values.
                let concrete = f.substitute(&pairs).substitute(&pairs).simplify();
                assert_eq!(
                    concrete.as_bool(),
                    Some(true),
                    "{f} at {gd}x{bd}, {ba}, {bb}"
                );
            }
        }
    }
}
