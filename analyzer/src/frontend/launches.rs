//! Finding kernels (plain and template instantiations) and host-side launches `k<<<g, b>>>`.
//!
//! Kernels are definitions with `__global__`, and the template instantiations that code refers
//! to, also inside the host function template specializations code calls (libclang shows their
//! bodies instantiated). Launches are `k<<<g, b, shmem>>>(args)`, also through a function
//! pointer the function assigns kernels to or a parameter its calls pass kernels for (a launch
//! helper: one launch per call), and `cudaLaunchKernel`/`cudaLaunchCooperativeKernel`, each with
//! what folds (`fold.rs`). The kernel templates nothing instantiates are listed.

use super::context::ModuleCtx;
use super::cursor::{has_attr, template_params, visit};
use super::fold::{self, Scope};
use super::guards;
use crate::collections::HashSet;
use crate::ir::{LaunchSite, Span};
use clang::{Entity, EntityKind, TemplateArgument, TypeKind};

#[derive(Default)]
pub(crate) struct Found<'tu> {
    /// Kernel definitions with their names, in source order of discovery.
    pub kernels: Vec<(Entity<'tu>, String)>,
    pub launches: Vec<LaunchSite>,
    /// Kernel templates: each must be instantiated by something in the file to be analysed.
    pub kernel_templates: Vec<Entity<'tu>>,
    /// Function bodies already scanned for launches.
    scanned: HashSet<Entity<'tu>>,
    /// What the functions change of their variables, as folding their launches asks.
    pub changes: fold::Changes<'tu>,
}

impl<'tu> Found<'tu> {
    pub fn new(callers: &super::Callers) -> Self {
        Found {
            changes: fold::Memo::new(callers),
            ..Found::default()
        }
    }
}

pub(crate) fn collect<'tu>(e: Entity<'tu>, ctx: &mut ModuleCtx<'tu>, found: &mut Found<'tu>) {
    match e.get_kind() {
        EntityKind::FunctionDecl
            if has_attr(e, EntityKind::CudaGlobalAttr) && e.is_definition() =>
        {
            found.kernels.push((e, kernel_name(e)));
        }
        EntityKind::FunctionTemplate
            if has_attr(e, EntityKind::CudaGlobalAttr) && e.is_definition() =>
        {
            found.kernel_templates.push(e);
        }
        EntityKind::FunctionDecl
            if has_attr(e, EntityKind::CudaDeviceAttr) && e.is_definition() =>
        {
            ctx.device_functions.push(e);
        }
        EntityKind::VarDecl
            if has_attr(e, EntityKind::CudaDeviceAttr)
                || has_attr(e, EntityKind::CudaConstantAttr) =>
        {
            ctx.register_global(e);
        }
        _ => {}
    }
    // Template kernels exist for us only through the instantiations that code refers to: a
    // launch, an explicit instantiation, or a call from another template.
    if is_function(e) && e.is_definition() {
        scan_body(e, ctx, found);
    } else if is_class(e) {
        // Methods defined in the class body launch kernels too.
        for member in e.get_children() {
            collect(member, ctx, found);
        }
    }
}

fn is_function(e: Entity) -> bool {
    matches!(
        e.get_kind(),
        EntityKind::FunctionDecl
            | EntityKind::FunctionTemplate
            | EntityKind::Method
            | EntityKind::Constructor
            | EntityKind::Destructor
            | EntityKind::ConversionFunction
    )
}

fn is_class(e: Entity) -> bool {
    matches!(
        e.get_kind(),
        EntityKind::StructDecl
            | EntityKind::ClassDecl
            | EntityKind::UnionDecl
            | EntityKind::ClassTemplate
            | EntityKind::ClassTemplatePartialSpecialization
    )
}

/// Kernel instantiations and launches in a function's body and in the bodies of the host
/// functions it calls that are instantiated from templates: function template specializations
/// (`run<float>` for `run(d)`) and the methods of class template specializations
/// (`Map<int>::insert`). libclang shows those bodies instantiated, so `fill<T><<<1, 64>>>`
/// there names `fill<float>`. Each body is scanned once, whether reached from the file's
/// top level or through a call.
fn scan_body<'tu>(e: Entity<'tu>, ctx: &mut ModuleCtx<'tu>, found: &mut Found<'tu>) {
    if !found.scanned.insert(e) {
        return;
    }
    let mut callees = Vec::new();
    visit(e, &mut |x| {
        let refers = matches!(
            x.get_kind(),
            EntityKind::DeclRefExpr | EntityKind::MemberRefExpr | EntityKind::CallExpr
        );
        if let Some(d) = x.get_reference().filter(|_| refers) {
            let instantiated =
                d.get_kind() == EntityKind::FunctionDecl && d.get_template_arguments().is_some();
            if instantiated && has_attr(d, EntityKind::CudaGlobalAttr) {
                found.kernels.push((d, kernel_name(d)));
            } else if let Some(body) = instantiated_host_body(d) {
                callees.push(body);
            }
        }
        if x.get_kind() == EntityKind::CallExpr {
            found.changes.borrow_mut().take_used();
            let mut sites = launch_sites(x, e, &found.changes, ctx);
            let callers = found.changes.borrow_mut().take_used();
            for s in &mut sites {
                s.callers.extend(callers.iter().cloned());
            }
            found.launches.extend(sites);
        }
    });
    for d in callees {
        scan_body(d, ctx, found);
    }
}

/// The definition of a host function instantiated from a template that `d` names: a function
/// template specialization, or a member of a class template specialization. Other functions
/// are scanned where they are defined.
fn instantiated_host_body(d: Entity) -> Option<Entity> {
    if !is_function(d) || is_device_code(d) {
        return None;
    }
    let from_template = d.get_template_arguments().is_some()
        || d.get_semantic_parent()
            .is_some_and(|p| is_class(p) && p.get_template().is_some());
    let body = d.get_definition().filter(|_| from_template)?;
    let in_system = body.get_location().is_none_or(|l| l.is_in_system_header());
    (!in_system).then_some(body)
}

fn is_device_code(f: Entity) -> bool {
    has_attr(f, EntityKind::CudaDeviceAttr) || has_attr(f, EntityKind::CudaGlobalAttr)
}

/// The kernel's name as clang prints it, with template arguments: `stage<512>`; an overloaded
/// kernel's with its parameter types too (`k(float *)`), or one overload would hide the other.
pub(crate) fn kernel_name(f: Entity) -> String {
    let name = templated_name(f);
    match overloaded(f) {
        true => {
            let ty = f
                .get_type()
                .map(|t| t.get_display_name())
                .unwrap_or_default();
            let params = ty.find('(').map_or("()", |i| &ty[i..]);
            format!("{name}{params}")
        }
        false => name,
    }
}

/// Another `__global__` function of the same name and another type in the same scope.
fn overloaded(f: Entity) -> bool {
    let (Some(name), Some(parent)) = (f.get_name(), f.get_semantic_parent()) else {
        return false;
    };
    let ty = |e: Entity| {
        e.get_type()
            .map(|t| t.get_canonical_type().get_display_name())
    };
    let template = f.get_template();
    parent.get_children().into_iter().any(|c| {
        matches!(
            c.get_kind(),
            EntityKind::FunctionDecl | EntityKind::FunctionTemplate
        ) && c.get_name().as_deref() == Some(name.as_str())
            && has_attr(c, EntityKind::CudaGlobalAttr)
            && Some(c) != template
            && ty(c) != ty(f)
    })
}

fn templated_name(f: Entity) -> String {
    let base = f.get_name().unwrap_or_default();
    match f.get_template_arguments() {
        Some(args) if !args.is_empty() => {
            // libclang gives an integral argument as its value in the parameter's type, sign
            // extended: a `bool` true is -1. The parameter's type says how to print it.
            let params: Vec<Option<TypeKind>> = template_params(f)
                .into_iter()
                .map(|c| c.get_type().map(|t| t.get_canonical_type().get_kind()))
                .collect();
            let parts: Vec<String> = args
                .iter()
                .enumerate()
                .map(|(i, a)| match a {
                    TemplateArgument::Integral(v, u) => match params.get(i).copied().flatten() {
                        Some(TypeKind::Bool) => (*v != 0).to_string(),
                        Some(
                            TypeKind::UInt
                            | TypeKind::ULong
                            | TypeKind::ULongLong
                            | TypeKind::UShort
                            | TypeKind::UChar,
                        ) => u.to_string(),
                        _ => v.to_string(),
                    },
                    TemplateArgument::Type(t) => t.get_display_name(),
                    other => format!("{other:?}"),
                })
                .collect();
            format!("{base}<{}>", parts.join(", "))
        }
        _ => base,
    }
}

/// `k<<<grid, block, shmem>>>(...)` in `scope`: clang represents the configuration as a nested
/// call to `cudaConfigureCall` (or `__cudaPushCallConfiguration`). Through a function pointer
/// (`kernel<<<g, b>>>(...)` after `kernel = &copy;`), a launch of each kernel `scope` assigns
/// to it.
fn launch_sites<'tu>(
    call: Entity<'tu>,
    scope: Entity<'tu>,
    memo: &fold::Changes<'tu>,
    ctx: &mut ModuleCtx,
) -> Vec<LaunchSite> {
    let kids = call.get_children();
    let Some(config) = kids.iter().find(|k| {
        k.get_kind() == EntityKind::CallExpr
            && matches!(
                k.get_name().as_deref(),
                Some("cudaConfigureCall" | "__cudaPushCallConfiguration")
            )
    }) else {
        return api_launch_sites(call, scope, memo, ctx);
    };
    let base = Scope::of(scope, memo);
    let kernels = match call.get_reference() {
        Some(k) if has_attr(k, EntityKind::CudaGlobalAttr) => vec![k],
        Some(v) if matches!(v.get_kind(), EntityKind::VarDecl | EntityKind::ParmDecl) => {
            let assigned = fold::kernels_assigned(scope, v);
            if assigned.is_empty() {
                return passed_launch_sites(call, config, fold::kernels_passed(v, &base), ctx);
            }
            assigned
        }
        _ => Vec::new(),
    };
    let cargs = config.get_arguments().unwrap_or_default();
    let call_args = call.get_arguments().unwrap_or_default();
    let extents = [cargs.first(), cargs.get(1), cargs.get(2)];
    let (at, ruled_out) = guards::scope_at(&base, call);
    let folded = Config::fold(extents, at, ruled_out);
    if let Some(calls) = differing_calls(&base, call, extents, &folded, &call_args) {
        let passed = calls
            .into_iter()
            .flat_map(|(scope, by)| {
                kernels.iter().map(move |k| fold::Passed {
                    kernel: *k,
                    scope: scope.clone(),
                    call: Some(by),
                })
            })
            .collect();
        return passed_launch_sites(call, config, passed, ctx);
    }
    folded
        .checked(call, ctx)
        .sites(kernels, &call_args, call, ctx.span(call))
}

/// The launching function's scope under each of its calls (`fold::per_call`), where some
/// call makes a launch other than what the calls agree on (`folded`): `run(d, 256)` and
/// `run(d, 1024)` of `void run(float *d, int n) { k<<<n / 64, 64>>>(d, n); }`.
fn differing_calls<'tu>(
    base: &Scope<'tu>,
    launch: Entity<'tu>,
    extents: [Option<&Entity<'tu>>; 3],
    folded: &Config<'tu>,
    args: &[Entity<'tu>],
) -> Option<Vec<(Scope<'tu>, Entity<'tu>)>> {
    let shown = folded.shown(args);
    let calls = fold::per_call(base)?;
    calls
        .iter()
        .any(|(scope, _)| {
            let (at, ruled_out) = guards::scope_at(scope, launch);
            let mine = Config::fold(extents, at, ruled_out);
            mine.ruled_out != folded.ruled_out || mine.shown(args) != shown
        })
        .then_some(calls)
}

/// A launch helper's launch (`launch(kernel, blocks, threads, args...)` running
/// `kernel<<<blocks, threads>>>(args...)`): one site per call of the helper, of the kernel the
/// call passes, folded with the values that call passes the helper (`fold::kernels_passed`),
/// and naming that call.
fn passed_launch_sites<'tu>(
    call: Entity<'tu>,
    config: &Entity<'tu>,
    passed: Vec<fold::Passed<'tu>>,
    ctx: &mut ModuleCtx,
) -> Vec<LaunchSite> {
    let cargs = config.get_arguments().unwrap_or_default();
    let call_args = call.get_arguments().unwrap_or_default();
    let mut out = Vec::new();
    for p in passed {
        let (at, ruled_out) = guards::scope_at(&p.scope, call);
        let config = Config::fold([cargs.first(), cargs.get(1), cargs.get(2)], at, ruled_out);
        let mut sites =
            config
                .checked(call, ctx)
                .sites(vec![p.kernel], &call_args, call, ctx.span(call));
        if let Some(call) = p.call {
            let place = ctx.span(call).place(&ctx.files);
            for s in &mut sites {
                s.callers.push(place.clone());
            }
        }
        out.extend(sites);
    }
    out
}

/// Drops the launches in ruled-out branches of the kernels launched for real: a ruled-out
/// launch stands only for a kernel the file launches nowhere else (`if (OPTIMIZED)
/// a<<<g, b>>>(d); else c<<<g, b>>>(d);` with the macro 0 says how `a` is launched once it is
/// 1; analysed under an open launch instead, `a` races under blocks no program makes).
pub(crate) fn keep_ruled_out_alone(sites: &mut Vec<LaunchSite>) {
    let live: crate::collections::HashSet<String> = sites
        .iter()
        .filter(|s| !s.ruled_out)
        .map(|s| s.kernel.clone())
        .collect();
    sites.retain(|s| !s.ruled_out || !live.contains(&s.kernel));
}

/// A configuration's folded grid, block, dynamic shared bytes and arguments.
type Shown = (
    [Option<u32>; 3],
    [Option<u32>; 3],
    Option<u64>,
    Vec<Option<i64>>,
);

/// A launch's extents and dynamic shared bytes, as far as they fold.
struct Config<'tu> {
    grid: [Option<u32>; 3],
    block: [Option<u32>; 3],
    dynamic_shared_bytes: Option<u64>,
    /// The extents' expressions and the launching function, for what does not fold.
    extents: [Option<Entity<'tu>>; 2],
    scope: Scope<'tu>,
    /// The extents folded to a configuration CUDA refuses (`checked`): the site fixes nothing.
    refused: bool,
    /// In a branch the function's constants rule out (`LaunchSite::ruled_out`).
    ruled_out: bool,
}

impl<'tu> Config<'tu> {
    fn fold(
        [grid, block, shmem]: [Option<&Entity<'tu>>; 3],
        scope: Scope<'tu>,
        ruled_out: bool,
    ) -> Self {
        Config {
            grid: grid.map_or([None; 3], |a| fold::dim3(*a, &scope)),
            block: block.map_or([None; 3], |a| fold::dim3(*a, &scope)),
            dynamic_shared_bytes: shmem
                .and_then(|a| fold::int(*a, &scope))
                .and_then(|v| u64::try_from(v).ok()),
            extents: [grid.copied(), block.copied()],
            scope,
            refused: false,
            ruled_out,
        }
    }

    /// What the analysis takes of the configuration's values: the extents and the arguments
    /// that fold.
    fn shown(&self, args: &[Entity<'tu>]) -> Shown {
        let args = args.iter().map(|a| fold::integer_arg(*a, &self.scope));
        (
            self.grid,
            self.block,
            self.dynamic_shared_bytes,
            args.collect(),
        )
    }

    /// A launch whose extents fold to what CUDA refuses (a grid of 0 blocks, more than 1024
    /// threads in a block) runs nothing; more likely still, the fold missed a change to a
    /// variable. Either way it is no assumption: a warning names it, and the site says nothing
    /// of its extents, arguments or checks, so the kernel is analysed as under any launch. (A
    /// ruled-out launch is no launch to warn of.)
    fn checked(mut self, call: Entity, ctx: &mut ModuleCtx) -> Self {
        if let Some(why) = refused_extents(self.grid, self.block) {
            if !self.ruled_out {
                let span = ctx.span(call);
                ctx.warn(
                    span,
                    format!(
                        "launch not used as an assumption: its {why}, so it would run \
                         nothing; the kernel is analysed as under any launch"
                    ),
                );
            }
            self.grid = [None; 3];
            self.block = [None; 3];
            self.dynamic_shared_bytes = None;
            self.extents = [None, None];
            self.refused = true;
        }
        self
    }

    /// One launch site per kernel the call may launch, with the arguments `args` (none where
    /// they go through an array of addresses).
    fn sites(
        &self,
        kernels: Vec<Entity<'tu>>,
        args: &[Entity<'tu>],
        call: Entity<'tu>,
        span: Span,
    ) -> Vec<LaunchSite> {
        let folded: Vec<Option<i64>> = match self.refused {
            true => vec![None; args.len()],
            false => args
                .iter()
                .map(|a| fold::integer_arg(*a, &self.scope))
                .collect(),
        };
        kernels
            .into_iter()
            .map(|k| {
                let params = k.get_arguments().unwrap_or_default();
                let plain = fold::plain_args(args, &params, &self.scope, call);
                let [grid_exprs, block_exprs] = std::array::from_fn(|i| {
                    let fixed = [self.grid, self.block][i];
                    let exprs = match (&self.extents[i], plain.is_empty()) {
                        (Some(e), false) => fold::dim3_exprs(*e, &self.scope, &plain),
                        _ => [None, None, None],
                    };
                    // Only what does not fold to a constant.
                    let mut exprs = exprs.into_iter();
                    std::array::from_fn(|d| exprs.next().flatten().filter(|_| fixed[d].is_none()))
                });
                LaunchSite {
                    kernel: kernel_name(k),
                    grid: self.grid,
                    block: self.block,
                    dynamic_shared_bytes: self.dynamic_shared_bytes,
                    args: folded.clone(),
                    grid_exprs,
                    block_exprs,
                    // A launch that never happens checks nothing that holds.
                    guards: match self.refused || self.ruled_out {
                        true => Vec::new(),
                        false => {
                            let mut facts = guards::before(&self.scope, call, &plain);
                            facts.extend(guards::rounded(&self.scope, args, &params));
                            facts
                        }
                    },
                    span,
                    ruled_out: self.ruled_out,
                    callers: Vec::new(),
                }
            })
            .collect()
    }
}

/// What of folded extents CUDA refuses to launch: `grid dimension x folds to 0`.
fn refused_extents(grid: [Option<u32>; 3], block: [Option<u32>; 3]) -> Option<String> {
    use crate::ir::limits::{MAX_BLOCK, MAX_GRID, MAX_THREADS_PER_BLOCK};
    for (what, dims, max) in [("grid", grid, MAX_GRID), ("block", block, MAX_BLOCK)] {
        for (i, (v, max)) in dims.iter().zip(max).enumerate() {
            if let Some(v) = v.filter(|v| *v == 0 || *v > max) {
                let axis = ["x", "y", "z"][i];
                return Some(format!(
                    "{what} dimension {axis} folds to {v} (CUDA allows 1 to {max})"
                ));
            }
        }
    }
    let threads = block
        .iter()
        .try_fold(1u64, |n, v| v.map(|v| n * u64::from(v)))?;
    (threads > MAX_THREADS_PER_BLOCK).then(|| {
        format!("block folds to {threads} threads (CUDA allows at most {MAX_THREADS_PER_BLOCK})")
    })
}

/// `cudaLaunchKernel(k, grid, block, args, shmem, stream)` and `cudaLaunchCooperativeKernel`:
/// the extents and the dynamic shared bytes; the arguments go through an array of their
/// addresses, so none folds.
fn api_launch_sites<'tu>(
    call: Entity<'tu>,
    scope: Entity<'tu>,
    memo: &fold::Changes<'tu>,
    ctx: &mut ModuleCtx,
) -> Vec<LaunchSite> {
    let is_api = matches!(
        call.get_name().as_deref(),
        Some("cudaLaunchKernel" | "cudaLaunchCooperativeKernel")
    );
    let args = call.get_arguments().unwrap_or_default();
    let (true, Some(func)) = (is_api, args.first()) else {
        return Vec::new();
    };
    let mut kernels = Vec::new();
    visit(*func, &mut |x| {
        let Some(r) = x.get_reference() else { return };
        if x.get_kind() != EntityKind::DeclRefExpr {
            return;
        }
        if has_attr(r, EntityKind::CudaGlobalAttr) {
            kernels.push(r);
        } else if matches!(r.get_kind(), EntityKind::VarDecl | EntityKind::ParmDecl) {
            kernels.extend(fold::kernels_assigned(scope, r));
        }
    });
    let (at, ruled_out) = guards::scope_at(&Scope::of(scope, memo), call);
    let config = Config::fold([args.get(1), args.get(2), args.get(4)], at, ruled_out);
    config
        .checked(call, ctx)
        .sites(kernels, &[], call, ctx.span(call))
}

/// `s` without its comments, each line where it was.
pub fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            for c in chars.by_ref() {
                if c == '\n' {
                    out.push('\n');
                    break;
                }
            }
        } else if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut prev = ' ';
            for c in chars.by_ref() {
                if prev == '*' && c == '/' {
                    break;
                }
                if c == '\n' {
                    out.push('\n');
                }
                prev = c;
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}
