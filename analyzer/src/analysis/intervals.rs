//! Barrier intervals read off the control flow, without the solver.
//!
//! When no barrier can diverge (`pairs.rs` checks that every barrier instance one thread of a
//! block reaches is reached by every other thread that has not returned), the threads of a block
//! pass the same barrier statements in the same order. Two accesses share a barrier interval
//! only if the barrier a thread passed last before one can be the barrier passed last before the
//! other, so accesses whose possible last barriers are disjoint never share one. The eigenvalue
//! kernels of the CUDA samples have thousands of such pairs, separated by a dozen barriers in one
//! loop; each was a solver query over uninterpreted barrier counts.
//!
//! Which barrier statements can be the last one a thread passed before each access (or none
//! yet) is a dataflow over the structured IR: branches join, a loop's top takes what reaches it
//! and what comes round from its end and its `continue`s, `break` and scope exits flow to where
//! they jump, `return` ends the flow; `while (true)` is left only by jumps. Statements are named
//! by address: the walk borrows the kernel. The result is meaningful only for kernels whose
//! barriers do not diverge, which `pairs.rs` decides.

use crate::ir::*;
use std::collections::BTreeSet;

/// The last barrier before a point: a barrier statement (by address, the kernel being borrowed
/// for the whole walk), or none since the thread started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    Entry,
    Barrier(usize),
}

/// The marks a point can be reached with; empty where it cannot be reached.
type Marks = BTreeSet<Mark>;

pub struct LastBarriers {
    per_access: Vec<Marks>,
}

impl LastBarriers {
    pub fn of(k: &Kernel) -> Self {
        let mut w = Walk {
            last: vec![Marks::new(); k.accesses.len()],
            loops: Vec::new(),
            scopes: Vec::new(),
        };
        w.block(&k.body, Marks::from([Mark::Entry]));
        LastBarriers { per_access: w.last }
    }

    /// Whether both accesses follow exactly the same barriers.
    pub fn same_barriers(&self, a: AccessId, b: AccessId) -> bool {
        self.per_access[a.index()] == self.per_access[b.index()]
    }

    /// Whether some execution can reach both accesses after the same barrier. Meaningful only
    /// when barriers do not diverge.
    pub fn may_share(&self, a: AccessId, b: AccessId) -> bool {
        let (x, y) = (&self.per_access[a.index()], &self.per_access[b.index()]);
        !x.is_disjoint(y)
    }
}

#[derive(Default)]
struct LoopFrame {
    breaks: Marks,
    continues: Marks,
}

struct Walk {
    last: Vec<Marks>,
    loops: Vec<LoopFrame>,
    scopes: Vec<(ScopeId, Marks)>,
}

impl Walk {
    fn block(&mut self, b: &Block, mut at: Marks) -> Marks {
        for s in b {
            if at.is_empty() {
                break;
            }
            at = self.stmt(s, at);
        }
        at
    }

    fn exprs<'e>(&mut self, es: impl IntoIterator<Item = &'e Expr>, at: &Marks) {
        for e in es {
            e.walk(&mut |x| {
                if let ExprKind::Load { access, .. } = &x.kind {
                    self.last[access.index()].extend(at.iter().copied());
                }
            });
        }
    }

    fn stmt(&mut self, s: &Stmt, at: Marks) -> Marks {
        if !matches!(s.kind, StmtKind::Loop { .. }) {
            self.exprs(s.exprs(), &at);
        }
        match &s.kind {
            StmtKind::Store { access, .. } | StmtKind::Atomic { access, .. } => {
                self.last[access.index()].extend(at.iter().copied());
                at
            }
            StmtKind::Barrier { .. } => {
                Marks::from([Mark::Barrier(std::ptr::from_ref(s) as usize)])
            }
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                let mut out = self.block(then_body, at.clone());
                out.extend(self.block(else_body, at));
                out
            }
            StmtKind::Scope { id, body } => {
                self.scopes.push((*id, Marks::new()));
                let mut out = self.block(body, at);
                if let Some((_, exits)) = self.scopes.pop() {
                    out.extend(exits);
                }
                out
            }
            StmtKind::Exit(id) => {
                // An exit names an enclosing scope (the front end only makes such).
                if let Some((_, exits)) = self.scopes.iter_mut().rev().find(|(s, _)| s == id) {
                    exits.extend(at);
                }
                Marks::new()
            }
            StmtKind::Break | StmtKind::Continue => {
                if let Some(f) = self.loops.last_mut() {
                    let to = match s.kind {
                        StmtKind::Break => &mut f.breaks,
                        _ => &mut f.continues,
                    };
                    to.extend(at);
                }
                Marks::new()
            }
            StmtKind::Return | StmtKind::Trap { .. } => Marks::new(),
            StmtKind::Loop {
                cond,
                cond_prelude,
                body,
                step,
                ..
            } => {
                // Iterations start with what reaches the loop or comes round from the step, up
                // to a fixpoint. The test is taken as possible before every iteration, also a
                // do-while's first: more marks only mean fewer pairs separated.
                let mut head = at.clone();
                loop {
                    let tested = self.block(cond_prelude, head.clone());
                    self.exprs(cond, &tested);
                    // `while (true)` is left only by jumps.
                    let mut after = match cond.as_ref().map(|c| &c.kind) {
                        None => Marks::new(),
                        Some(ExprKind::Int(v)) if *v != 0 => Marks::new(),
                        Some(_) => tested.clone(),
                    };
                    self.loops.push(LoopFrame::default());
                    let mut end = self.block(body, tested);
                    let frame = self.loops.pop().unwrap_or_default();
                    end.extend(frame.continues);
                    after.extend(frame.breaks);
                    let mut next = self.block(step, end);
                    next.extend(at.iter().copied());
                    if next == head {
                        return after;
                    }
                    head = next;
                }
            }
            _ => at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LastBarriers;
    use crate::frontend::{parse_source, FrontendOptions};
    use crate::ir::AccessId;

    /// The walk of kernel `k`, and the access on the line ending in `// tag`.
    fn walk(src: &str) -> (LastBarriers, impl Fn(&str) -> AccessId + use<'_>) {
        let m = parse_source("intervals.cu", src, &FrontendOptions::default()).expect("parses");
        let k = m.kernel("k").expect("kernel k");
        let accesses: Vec<(u32, AccessId)> =
            k.accesses.iter().map(|a| (a.span.line, a.id)).collect();
        let tagged = move |tag: &str| {
            let line = (1..)
                .zip(src.lines())
                .find(|(_, l)| l.trim_end().ends_with(&format!("// {tag}")))
                .map(|(n, _)| n)
                .expect("tagged line");
            let on: Vec<AccessId> = accesses
                .iter()
                .filter(|a| a.0 == line)
                .map(|a| a.1)
                .collect();
            assert_eq!(on.len(), 1, "one access on line {line}");
            on[0]
        };
        (LastBarriers::of(k), tagged)
    }

    #[test]
    fn a_loop_brings_its_last_barriers_round_to_its_top() {
        let src = r#"
__global__ void k(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 0; // before
    __syncthreads();
    for (int i = 0; i < n; i++) {
        int x = s[(t + 1) & 63]; // top
        __syncthreads();
        if (x > 0)
            continue;
        s[t] = x; // middle
        __syncthreads();
    }
    int z = s[t]; // after
    out[t] = z;
}
"#;
        let (lb, at) = walk(src);
        // The top of the loop follows the barrier before it, the loop's last one, or the one in
        // the middle (through the `continue`); so does the end of the loop.
        assert!(!lb.may_share(at("before"), at("top")));
        assert!(lb.may_share(at("top"), at("middle")));
        assert!(lb.may_share(at("top"), at("after")));
        assert!(lb.may_share(at("middle"), at("after")));
        assert!(!lb.may_share(at("before"), at("after")));
    }

    #[test]
    fn breaks_returns_and_inlined_returns_carry_their_own_last_barrier() {
        let src = r#"
__device__ void publish(int *s, int t) {
    if (t == 0) {
        s[0] = 1; // published
        return;
    }
    __syncthreads();
}
__global__ void k(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    publish(s, t);
    int y = s[0]; // read
    while (true) {
        __syncthreads();
        if (y == n)
            break;
        y = s[1]; // in_loop
        __syncthreads();
    }
    int z = s[2]; // after_break
    out[t] = z;
    if (n)
        return;
    __syncthreads();
    s[3] = 1; // after_return
}
"#;
        let (lb, at) = walk(src);
        // The function's early return skips its barrier.
        assert!(lb.may_share(at("published"), at("read")));
        assert!(!lb.may_share(at("read"), at("in_loop")));
        // The loop is left only by the break, right after its first barrier.
        assert!(lb.may_share(at("in_loop"), at("after_break")));
        assert!(!lb.may_share(at("read"), at("after_break")));
        assert!(!lb.may_share(at("after_break"), at("after_return")));
        assert!(!lb.may_share(at("published"), at("after_return")));
    }
}
