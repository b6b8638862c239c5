//! A kernel launched from several sites that fix different configurations
//! (`k<<<g, 128>>>(d, n)` in one function, `k<<<g, 256>>>(d, m)` in another) is analysed under
//! each site's configuration, and the reports are merged into one: the program makes every
//! one of those launches, and none other that these sites show. Agreeing on what the sites
//! share instead would leave the differing extents open, and a kernel written for blocks of 128
//! and 256 threads would race under a block of 1024 that no launch makes.
//!
//! Merged: an access is `racy` when it races under some configuration (each race keeps the
//! witness of its own launch), `safe` only when proved under every one, `unknown` otherwise;
//! GMRace's reductions hold only where proved under every configuration. The assumptions shown
//! are what the sites agree on, with each configuration's line listed.
//!
//! Only without a configuration on the command line (which overrides the sites), and for at
//! most `MAX_CONFIGS` configurations; more are agreed on as before, so a file with a kernel
//! launched from many places costs at most that many analyses of it.

use super::launch::{self, LaunchError};
use super::report::{Certainty, KernelReport, Verdict};
use super::AnalysisOptions;
use crate::ir::{Kernel, Module};

/// The most configurations a kernel is analysed under, one analysis each.
pub const MAX_CONFIGS: usize = 4;

/// One launch site of each configuration the sites of `k` fix, when there are two to
/// `MAX_CONFIGS` of them and the command line fixes none: indices into `m.launches`.
pub(crate) fn configurations(m: &Module, k: &Kernel, opts: &AnalysisOptions) -> Vec<usize> {
    if opts.block.is_some() || opts.grid.is_some() || !opts.params.is_empty() {
        return Vec::new();
    }
    let mut seen: Vec<String> = Vec::new();
    let mut firsts = Vec::new();
    for (i, site) in m.launches.iter().enumerate() {
        if site.kernel != k.name {
            continue;
        }
        // What the analysis reads of a site; guards without their lines.
        let guards: Vec<_> = site.guards.iter().map(|(g, _)| g).collect();
        let key = format!(
            "{:?}",
            (
                site.grid,
                site.block,
                site.dynamic_shared_bytes,
                &site.args,
                &site.grid_exprs,
                &site.block_exprs,
                guards
            )
        );
        if !seen.contains(&key) {
            seen.push(key);
            firsts.push(i);
        }
    }
    if (2..=MAX_CONFIGS).contains(&firsts.len()) {
        firsts
    } else {
        Vec::new()
    }
}

/// The reports of one kernel under each configuration merged into one (see the module docs),
/// with `agreed`, the assumptions the sites share, as its assumptions.
fn merge(
    m: &Module,
    configs: &[usize],
    mut merged: KernelReport,
    rest: Vec<KernelReport>,
    agreed: Result<super::report::Assumptions, LaunchError>,
) -> KernelReport {
    for r in rest {
        for (a, b) in merged.accesses.iter_mut().zip(&r.accesses) {
            a.verdict = match (a.verdict, b.verdict) {
                (Verdict::Racy, _) | (_, Verdict::Racy) => Verdict::Racy,
                (Verdict::Safe, Verdict::Safe) => Verdict::Safe,
                _ => Verdict::Unknown,
            };
            a.instrumented |= b.instrumented;
            a.thread_invariant &= b.thread_invariant;
            a.loop_invariant &= b.loop_invariant;
        }
        for race in r.races {
            let same = |x: &&mut super::report::RaceReport| {
                x.scope == race.scope
                    && x.first.access == race.first.access
                    && x.second.access == race.second.access
            };
            match merged.races.iter_mut().find(|x| same(x)) {
                // A definite race wins over the same pair's conditional one.
                Some(x) if race.certainty == Certainty::Definite => *x = race,
                Some(_) => {}
                None => merged.races.push(race),
            }
        }
        let line = |d: &super::report::DivergenceReport| d.line;
        for d in r.barrier_divergence {
            if !merged.barrier_divergence.iter().any(|x| line(x) == d.line) {
                merged.barrier_divergence.push(d);
            }
        }
        for l in r.left_to_run {
            let known = merged
                .left_to_run
                .iter()
                .any(|x| x.first.access == l.first.access && x.second.access == l.second.access);
            if !known {
                merged.left_to_run.push(l);
            }
        }
        for e in r.memory_errors {
            if !merged.memory_errors.contains(&e) {
                merged.memory_errors.push(e);
            }
        }
        merged.stats.absorb_work(&r.stats);
        merged.stats.exhaustive += r.stats.exhaustive;
        merged.stats.over_budget += r.stats.over_budget;
    }
    if let Ok(mut agreed) = agreed {
        let extents = |e: [Option<u32>; 3]| {
            e.map(|d| d.map_or("?".to_string(), |d| d.to_string()))
                .join("x")
        };
        let each: Vec<String> = configs
            .iter()
            .map(|i| {
                let site = &m.launches[*i];
                format!(
                    "{}{} (grid {}, block {})",
                    launch::site_place(m, site),
                    launch::callers_note(&[site]),
                    extents(site.grid),
                    extents(site.block)
                )
            })
            .collect();
        agreed.sources.insert(
            "configurations".into(),
            format!("analysed under each launch's own: {}", each.join("; ")),
        );
        merged.assumptions = agreed;
    }
    merged
}

/// `analyze` under each configuration of `configs`; a configuration that is not a valid
/// launch is left out (its site's warning says why), and with none valid the kernel is
/// analysed under what the sites agree on, as with one configuration.
pub(crate) fn analyze_each(
    m: &Module,
    k: &Kernel,
    opts: &AnalysisOptions,
    configs: &[usize],
    analyze: impl Fn(&super::report::Assumptions) -> KernelReport,
) -> Result<KernelReport, LaunchError> {
    let mut reports = Vec::new();
    let mut used = Vec::new();
    for &site in configs {
        if let Ok(a) = launch::resolve_at(m, k, opts, Some(site)) {
            reports.push(analyze(&a));
            used.push(site);
        }
    }
    let agreed = launch::resolve(m, k, opts);
    let mut reports = reports.into_iter();
    let Some(first) = reports.next() else {
        return agreed.map(|a| analyze(&a));
    };
    Ok(merge(m, &used, first, reports.collect(), agreed))
}
