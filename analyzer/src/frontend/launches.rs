//! Finding kernels (plain and template instantiations) and host-side launches `k<<<g, b>>>`.

use super::context::ModuleCtx;
use super::lower::{has_attr, skip_transparent, visit};
use crate::ir::LaunchSite;
use clang::{Entity, EntityKind, EvaluationResult, TemplateArgument};

#[derive(Default)]
pub(crate) struct Found<'tu> {
    /// Kernel definitions with their names, in source order of discovery.
    pub kernels: Vec<(Entity<'tu>, String)>,
    pub launches: Vec<LaunchSite>,
}

pub(crate) fn collect<'tu>(e: Entity<'tu>, ctx: &mut ModuleCtx<'tu>, found: &mut Found<'tu>) {
    match e.get_kind() {
        EntityKind::FunctionDecl
            if has_attr(e, EntityKind::CudaGlobalAttr) && e.is_definition() =>
        {
            found.kernels.push((e, kernel_name(e)));
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
    if matches!(
        e.get_kind(),
        EntityKind::FunctionDecl | EntityKind::FunctionTemplate
    ) {
        visit(e, &mut |x| {
            if x.get_kind() == EntityKind::DeclRefExpr {
                if let Some(d) = x.get_reference() {
                    if d.get_kind() == EntityKind::FunctionDecl
                        && d.get_template_arguments().is_some()
                        && has_attr(d, EntityKind::CudaGlobalAttr)
                    {
                        found.kernels.push((d, kernel_name(d)));
                    }
                }
            }
            if x.get_kind() == EntityKind::CallExpr {
                if let Some(l) = launch_site(x, ctx) {
                    found.launches.push(l);
                }
            }
        });
    }
}

/// The kernel's name as clang prints it, with template arguments: `stage<512>`.
pub(crate) fn kernel_name(f: Entity) -> String {
    let base = f.get_name().unwrap_or_default();
    match f.get_template_arguments() {
        Some(args) if !args.is_empty() => {
            let parts: Vec<String> = args
                .iter()
                .map(|a| match a {
                    TemplateArgument::Integral(v, _) => v.to_string(),
                    TemplateArgument::Type(t) => t.get_display_name(),
                    other => format!("{other:?}"),
                })
                .collect();
            format!("{base}<{}>", parts.join(", "))
        }
        _ => base,
    }
}

/// `k<<<grid, block, shmem>>>(...)`: clang represents the configuration as a nested call to
/// `cudaConfigureCall` (or `__cudaPushCallConfiguration`).
fn launch_site(call: Entity, ctx: &mut ModuleCtx) -> Option<LaunchSite> {
    let kids = call.get_children();
    let config = kids.iter().find(|k| {
        k.get_kind() == EntityKind::CallExpr
            && matches!(
                k.get_name().as_deref(),
                Some("cudaConfigureCall" | "__cudaPushCallConfiguration")
            )
    })?;
    let kernel = call.get_reference()?;
    if !has_attr(kernel, EntityKind::CudaGlobalAttr) {
        return None;
    }
    let cargs = config.get_arguments().unwrap_or_default();
    Some(LaunchSite {
        kernel: kernel_name(kernel),
        grid: cargs.first().and_then(|a| dim3_value(*a)),
        block: cargs.get(1).and_then(|a| dim3_value(*a)),
        dynamic_shared_bytes: cargs
            .get(2)
            .and_then(|a| int_value(*a))
            .and_then(|v| u64::try_from(v).ok()),
        span: ctx.span(call),
    })
}

fn int_value(e: Entity) -> Option<i64> {
    match skip_transparent(e).evaluate()? {
        EvaluationResult::SignedInteger(v) => Some(v),
        EvaluationResult::UnsignedInteger(v) => i64::try_from(v).ok(),
        _ => None,
    }
}

/// A launch extent: an integer, `dim3(a, b, c)`, or a local `dim3 g(a, b);` with constant
/// arguments.
fn dim3_value(e: Entity) -> Option<[u32; 3]> {
    if let Some(v) = int_value(e) {
        return Some([u32::try_from(v).ok()?, 1, 1]);
    }
    let e = skip_transparent(e);
    match e.get_kind() {
        EntityKind::CallExpr | EntityKind::FunctionalCastExpr | EntityKind::UnexposedExpr => {
            let args: Vec<Entity> = match e.get_arguments() {
                Some(a) if !a.is_empty() => a,
                _ => e
                    .get_children()
                    .into_iter()
                    .filter(|c| c.is_expression())
                    .collect(),
            };
            if args.len() == 1 && int_value(args[0]).is_none() {
                return dim3_value(args[0]);
            }
            let mut out = [1u32; 3];
            for (slot, a) in out.iter_mut().zip(&args) {
                *slot = u32::try_from(int_value(*a)?).ok()?;
            }
            Some(out)
        }
        EntityKind::DeclRefExpr => {
            let var = e.get_reference()?;
            let init = var
                .get_children()
                .into_iter()
                .rfind(|c| c.is_expression())?;
            dim3_value(init)
        }
        _ => None,
    }
}

/// `template __global__ void k<float>(float*);` → `k<float>`. Only instantiations with explicit
/// template arguments are found; deduced ones are rare in kernels.
pub(crate) fn explicit_instantiations(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let stripped = strip_comments(source);
    let mut rest = stripped.as_str();
    while let Some(pos) = rest.find("template") {
        let before_ok = pos == 0
            || !rest[..pos]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let after = &rest[pos + "template".len()..];
        rest = after;
        let after_trim = after.trim_start();
        if !before_ok
            || after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
            || after_trim.starts_with('<')
        {
            continue;
        }
        let Some(end) = after.find(';') else { break };
        let decl = &after[..end];
        let Some(lt) = decl.find('<') else { continue };
        let name: String = decl[..lt]
            .trim_end()
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let mut depth = 0;
        let mut close = None;
        for (i, c) in decl[lt..].char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(lt + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        if let (false, Some(close)) = (name.is_empty(), close) {
            out.push(format!("{name}{}", &decl[lt..=close]));
        }
    }
    out
}

fn strip_comments(s: &str) -> String {
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
                prev = c;
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::explicit_instantiations;

    #[test]
    fn finds_explicit_instantiations() {
        let src = "template <int N> __global__ void k(float*);\n\
                   template __global__ void k<128>(float*);\n\
                   // template __global__ void k<7>(float*);\n\
                   template void helper<float, 2>(float *);";
        assert_eq!(
            explicit_instantiations(src),
            vec!["k<128>", "helper<float, 2>"]
        );
    }
}
