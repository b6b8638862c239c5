//! Launch specs (`--launch`, TOML, DESIGN.md "Launch spec"): parsing, validation against a
//! kernel, and the buffers they describe.
//!
//! Two steps. [`LaunchSpec::parse`] checks the TOML and its shape (unknown keys are errors).
//! [`LaunchSpec::resolve`] checks it against the module: the kernel, CUDA's launch limits, one
//! argument per parameter with the parameter's type, `[globals]` against the module's
//! `__device__`/`__constant__` variables, and the total memory — all before any buffer is
//! allocated — and only then fills the buffers. Every error names the key it is about and
//! carries the byte span of the offending TOML, so the CLI can point at the line.
//!
//! Conventions not fixed by DESIGN.md:
//! - A buffer needs exactly one of `values`, `init` (with `len`) or `file`; `seed` defaults to 0,
//!   `offset` to 0, a file's `len` to the rest of the file (which must then be a whole number of
//!   elements).
//! - `iota` wraps modulo 2^bits for integer elements (`u8` counts 0..255, 0, ...), is `i & 1` for
//!   `bool`, and `i` rounded to the element type for floats.
//! - A `[globals]` entry must give exactly the variable's element count (a plain scalar is
//!   accepted for a scalar variable).
//! - Integers are TOML integers (64-bit signed), so a `u64` value above 2^63-1 cannot be given.
//!
//! Not yet: struct buffers in launch specs.

use crate::rng::SplitMix64;
use gmrace_ir::scalar::{float_bits, int_bits, width_mask};
use gmrace_ir::{Kernel, Module, Param, Scalar, Space, Ty};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::{Spanned, Value};

pub use gmrace_ir::limits::{
    MAX_BLOCK, MAX_GRID, MAX_STATIC_SHARED_BYTES, MAX_THREADS_PER_BLOCK, MAX_TOTAL_SHARED_BYTES,
};
/// Largest single buffer the CPU device addresses (its pointers keep 2^40 bytes per object).
pub const MAX_BUFFER_BYTES: u64 = 1 << 39;
/// Device memory the CPU device offers at most, whatever the host has.
pub const MAX_DEVICE_BYTES: u64 = 16 << 30;

/// An error in a launch spec: what is wrong, where (byte range in the spec text), and a hint.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecError {
    pub message: String,
    pub span: Option<Range<usize>>,
    pub hint: Option<String>,
}

impl SpecError {
    fn new(message: impl Into<String>, span: Option<Range<usize>>) -> Self {
        SpecError {
            message: message.into(),
            span,
            hint: None,
        }
    }
    fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// 1-based line and column of a byte offset, and that line's text.
pub fn line_col(text: &str, offset: usize) -> (u32, u32, String) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32 + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = (before.len() - start) as u32 + 1;
    let line_text = text[start..].lines().next().unwrap_or("").to_string();
    (line, col, line_text)
}

type Table = BTreeMap<Spanned<String>, Spanned<Value>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    kernel: Option<Spanned<String>>,
    grid: Spanned<Value>,
    block: Spanned<Value>,
    dynamic_shared_bytes: Option<Spanned<Value>>,
    args: Option<Spanned<Table>>,
    globals: Option<Spanned<Table>>,
}

/// A parsed, not yet resolved, launch spec.
pub struct LaunchSpec {
    /// The spec file (relative `file` entries are resolved against its directory).
    pub path: PathBuf,
    pub text: String,
    raw: RawSpec,
}

/// A kernel argument, by parameter.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Arg {
    Scalar { ty: Scalar, bits: u64 },
    Buffer(Buffer),
}

/// A device buffer's initial contents.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Buffer {
    /// The parameter or global variable it belongs to.
    pub name: String,
    pub elem: Scalar,
    pub len: u64,
    /// `len * elem.size()` bytes, little-endian.
    pub bytes: Vec<u8>,
}

/// A launch spec checked against a kernel, with its buffers filled.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Launch {
    /// Index into `Module::kernels`.
    pub kernel: usize,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared_bytes: u32,
    /// One per kernel parameter, in order.
    pub args: Vec<Arg>,
    /// By `GlobalId`: contents given in `[globals]` (others keep their initialiser, or zeros).
    pub globals: Vec<Option<Buffer>>,
}

impl Launch {
    pub fn threads_per_block(&self) -> u32 {
        self.block[0] * self.block[1] * self.block[2]
    }
    pub fn num_blocks(&self) -> u64 {
        self.grid.iter().map(|&g| g as u64).product()
    }

    /// Warps of the whole launch (a block's last warp may be partial).
    pub fn num_warps(&self) -> u64 {
        let threads: u64 = self.block.iter().map(|&b| b as u64).product();
        self.num_blocks() * threads.div_ceil(32)
    }
}

/// Where a buffer's contents come from (planned before anything is allocated).
enum Source {
    Values(Vec<Spanned<Value>>),
    Iota,
    Zeros,
    Fill(u64),
    RandomInt { min: i128, max: i128, seed: u64 },
    RandomFloat { min: f64, max: f64, seed: u64 },
    File { path: PathBuf, offset: u64 },
}

struct Plan {
    name: String,
    elem: Scalar,
    len: u64,
    source: Source,
    span: Range<usize>,
}

impl LaunchSpec {
    /// Reads and parses a spec file.
    pub fn read(path: &Path) -> Result<LaunchSpec, SpecError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            SpecError::new(
                format!("cannot read launch spec `{}`: {e}", path.display()),
                None,
            )
        })?;
        LaunchSpec::parse(path, text)
    }

    /// Parses spec text; `path` names it in messages and anchors relative `file` entries.
    pub fn parse(path: &Path, text: String) -> Result<LaunchSpec, SpecError> {
        let raw: RawSpec = toml::from_str(&text)
            .map_err(|e| SpecError::new(e.message().trim_end().to_string(), e.span()))?;
        Ok(LaunchSpec {
            path: path.to_path_buf(),
            text,
            raw,
        })
    }

    /// The kernel the spec selects (`kernel`, or the module's only kernel).
    pub fn select_kernel(&self, module: &Module) -> Result<usize, SpecError> {
        let names = || {
            module
                .kernels
                .iter()
                .map(|k| format!("`{}`", k.name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.raw.kernel {
            Some(k) => module
                .kernels
                .iter()
                .position(|x| &x.name == k.get_ref())
                .ok_or_else(|| {
                    SpecError::new(
                        format!("no kernel named `{}` in this file", k.get_ref()),
                        Some(k.span()),
                    )
                    .hint(format!("kernels in this file: {}", names()))
                }),
            None => match module.kernels.len() {
                1 => Ok(0),
                0 => Err(SpecError::new("the file defines no kernel", None)),
                _ => Err(SpecError::new(
                    "the file defines several kernels; the launch spec must name one",
                    Some(0..0),
                )
                .hint(format!("add `kernel = \"...\"`; kernels: {}", names()))),
            },
        }
    }

    /// Checks the spec against `module` and fills the buffers.
    pub fn resolve(&self, module: &Module) -> Result<Launch, SpecError> {
        let ki = self.select_kernel(module)?;
        let kernel = &module.kernels[ki];
        let (grid, block) = self.extents()?;
        self.within_bounds(kernel, block)?;
        let dynamic_shared_bytes = self.shared_bytes(kernel)?;
        // Plan every argument and global, and the memory they take, before allocating anything.
        let plans = self.plan_args(kernel)?;
        let global_plans = self.plan_globals(module)?;
        let buffers = plans.iter().filter_map(|p| match p {
            ArgPlan::Buffer(b) => Some(b),
            ArgPlan::Scalar(..) => None,
        });
        check_memory(buffers.chain(global_plans.iter().flatten()), module)?;
        let mut out_args = Vec::with_capacity(kernel.params.len());
        for plan in plans {
            out_args.push(match plan {
                ArgPlan::Buffer(plan) => Arg::Buffer(self.fill(plan)?),
                ArgPlan::Scalar(ty, bits) => Arg::Scalar { ty, bits },
            });
        }
        let mut globals = Vec::with_capacity(global_plans.len());
        for plan in global_plans {
            globals.push(match plan {
                Some(p) => Some(self.fill(p)?),
                None => None,
            });
        }
        Ok(Launch {
            kernel: ki,
            grid: grid.map(|g| g as u32),
            block: block.map(|b| b as u32),
            dynamic_shared_bytes: dynamic_shared_bytes as u32,
            args: out_args,
            globals,
        })
    }

    /// Grid and block, within CUDA's limits.
    fn extents(&self) -> Result<([u64; 3], [u64; 3]), SpecError> {
        let grid = dims(&self.raw.grid, "grid")?;
        let block = dims(&self.raw.block, "block")?;
        for (i, axis) in ["x", "y", "z"].iter().enumerate() {
            if block[i] > u64::from(MAX_BLOCK[i]) {
                return Err(SpecError::new(
                    format!(
                        "invalid launch configuration: block {axis} extent {} exceeds CUDA's \
                         limit of {}",
                        block[i], MAX_BLOCK[i]
                    ),
                    Some(self.raw.block.span()),
                ));
            }
            if grid[i] > u64::from(MAX_GRID[i]) {
                return Err(SpecError::new(
                    format!(
                        "invalid launch configuration: grid {axis} extent {} exceeds CUDA's \
                         limit of {}",
                        grid[i], MAX_GRID[i]
                    ),
                    Some(self.raw.grid.span()),
                ));
            }
        }
        let threads: u64 = block.iter().product();
        if threads > MAX_THREADS_PER_BLOCK {
            return Err(SpecError::new(
                format!(
                    "invalid launch configuration: a block of {}x{}x{} = {threads} threads \
                     exceeds CUDA's limit of {MAX_THREADS_PER_BLOCK} threads per block",
                    block[0], block[1], block[2]
                ),
                Some(self.raw.block.span()),
            ));
        }
        Ok((grid, block))
    }

    /// A block of more threads than the kernel's `__launch_bounds__`: CUDA refuses the launch.
    fn within_bounds(&self, kernel: &Kernel, block: [u64; 3]) -> Result<(), SpecError> {
        let Some(bound) = kernel.max_threads else {
            return Ok(());
        };
        let threads: u64 = block.iter().product();
        if threads <= u64::from(bound.threads) {
            return Ok(());
        }
        Err(SpecError::new(
            format!(
                "invalid launch configuration: a block of {threads} threads exceeds kernel `{}`'s \
                 __launch_bounds__({}) (line {}): CUDA refuses the launch",
                kernel.name, bound.threads, bound.line
            ),
            Some(self.raw.block.span()),
        ))
    }

    /// The dynamic shared bytes, with the kernel's static ones within CUDA's limits.
    fn shared_bytes(&self, kernel: &Kernel) -> Result<u64, SpecError> {
        let dynamic_shared_bytes = match &self.raw.dynamic_shared_bytes {
            None => 0,
            Some(v) => match v.get_ref() {
                Value::Integer(n) if *n >= 0 => *n as u64,
                _ => {
                    return Err(SpecError::new(
                        "`dynamic_shared_bytes` must be a non-negative integer",
                        Some(v.span()),
                    ))
                }
            },
        };
        let static_shared = static_shared_bytes(kernel);
        if static_shared > MAX_STATIC_SHARED_BYTES {
            return Err(SpecError::new(
                format!(
                    "invalid launch configuration: kernel `{}` declares {static_shared} bytes of \
                     static shared memory, more than CUDA's {MAX_STATIC_SHARED_BYTES}",
                    kernel.name
                ),
                None,
            ));
        }
        if static_shared + dynamic_shared_bytes > MAX_TOTAL_SHARED_BYTES {
            return Err(SpecError::new(
                format!(
                    "invalid launch configuration: {static_shared} bytes of static and \
                     {dynamic_shared_bytes} of dynamic shared memory exceed the {MAX_TOTAL_SHARED_BYTES} \
                     bytes a block can have"
                ),
                self.raw.dynamic_shared_bytes.as_ref().map(|d| d.span()),
            ));
        }
        Ok(dynamic_shared_bytes)
    }

    /// One plan per kernel parameter, in order; every `[args]` key must name one.
    fn plan_args(&self, kernel: &Kernel) -> Result<Vec<ArgPlan>, SpecError> {
        let empty = Table::new();
        let (args, args_span) = match &self.raw.args {
            Some(a) => (a.get_ref(), a.span()),
            None => (&empty, 0..0),
        };
        for key in args.keys() {
            if !kernel.params.iter().any(|p| &p.name == key.get_ref()) {
                let names: Vec<String> = kernel
                    .params
                    .iter()
                    .map(|p| format!("`{}`", p.name))
                    .collect();
                return Err(SpecError::new(
                    format!(
                        "extra argument `{}`: kernel `{}` has no parameter of that name",
                        key.get_ref(),
                        kernel.name
                    ),
                    Some(key.span()),
                )
                .hint(format!("parameters: {}", names.join(", "))));
            }
        }
        kernel
            .params
            .iter()
            .map(|p| self.plan_arg(p, args.get(p.name.as_str()), &args_span))
            .collect()
    }

    fn plan_arg(
        &self,
        p: &Param,
        v: Option<&Spanned<Value>>,
        args_span: &Range<usize>,
    ) -> Result<ArgPlan, SpecError> {
        let Some(v) = v else {
            let what = match (p.ty, p.pointee) {
                (Ty::Ptr(Space::Param), _) => {
                    "a struct passed by value, which launch specs cannot give yet".into()
                }
                (Ty::Ptr(_), Some(e)) => format!("a buffer of {}", e.name()),
                (Ty::Ptr(_), None) => {
                    "a buffer of structs or vectors, which launch specs cannot give yet".into()
                }
                (Ty::Scalar(s), _) => format!("a {} scalar", s.name()),
                (Ty::Void, _) => "a value".into(),
            };
            return Err(SpecError::new(
                format!("missing argument `{}` ({what})", p.name),
                Some(args_span.clone()),
            )
            .hint(format!(
                "add it under [args], e.g. {}",
                example(p.ty, p.pointee, &p.name)
            )));
        };
        match (p.ty, p.pointee) {
            (Ty::Scalar(s), _) => {
                let bits = scalar_value(v.get_ref(), s).map_err(|m| {
                    SpecError::new(format!("argument `{}`: {m}", p.name), Some(v.span()))
                })?;
                Ok(ArgPlan::Scalar(s, bits))
            }
            (Ty::Ptr(Space::Param), _) => Err(SpecError::new(
                format!(
                    "argument `{}`: struct parameters passed by value cannot be given in \
                         a launch spec yet",
                    p.name
                ),
                Some(v.span()),
            )),
            (Ty::Ptr(_), None) => Err(SpecError::new(
                format!(
                    "argument `{}`: buffers of structs or vector types are not supported \
                         yet (the parameter's pointee is not a scalar)",
                    p.name
                ),
                Some(v.span()),
            )),
            (Ty::Ptr(_), Some(elem)) => Ok(ArgPlan::Buffer(
                self.plan_buffer(&p.name, "argument", v, elem, None)?,
            )),
            (Ty::Void, _) => Err(SpecError::new(
                format!("argument `{}`: parameter of unsupported type", p.name),
                Some(v.span()),
            )),
        }
    }

    /// A plan per module global that `[globals]` gives.
    fn plan_globals(&self, module: &Module) -> Result<Vec<Option<Plan>>, SpecError> {
        let mut plans: Vec<Option<Plan>> = module.globals.iter().map(|_| None).collect();
        if let Some(gt) = &self.raw.globals {
            for (key, v) in gt.get_ref() {
                let (gi, plan) = self.plan_global(module, key, v)?;
                plans[gi] = Some(plan);
            }
        }
        Ok(plans)
    }

    fn plan_global(
        &self,
        module: &Module,
        key: &Spanned<String>,
        v: &Spanned<Value>,
    ) -> Result<(usize, Plan), SpecError> {
        let Some(gi) = module.globals.iter().position(|g| &g.name == key.get_ref()) else {
            let names: Vec<String> = module
                .globals
                .iter()
                .map(|g| format!("`{}`", g.name))
                .collect();
            return Err(SpecError::new(
                format!(
                    "unknown global `{}`: the file has no __device__ or __constant__ \
                         variable of that name",
                    key.get_ref()
                ),
                Some(key.span()),
            )
            .hint(if names.is_empty() {
                "the file declares no global variables".to_string()
            } else {
                format!("globals: {}", names.join(", "))
            }));
        };
        let g = &module.globals[gi];
        let Some(elem) = g.elem else {
            return Err(SpecError::new(
                format!(
                    "global `{}`: variables of struct or vector type cannot be given yet",
                    g.name
                ),
                Some(v.span()),
            ));
        };
        let count = g.size_bytes / elem.size() as u64;
        let plan = if g.dims.is_empty() && !matches!(v.get_ref(), Value::Table(_)) {
            let bits = scalar_value(v.get_ref(), elem)
                .map_err(|m| SpecError::new(format!("global `{}`: {m}", g.name), Some(v.span())))?;
            Plan {
                name: g.name.clone(),
                elem,
                len: 1,
                source: Source::Fill(bits),
                span: v.span(),
            }
        } else {
            self.plan_buffer(&g.name, "global", v, elem, Some(count))?
        };
        Ok((gi, plan))
    }

    /// Checks one buffer entry and decides its length and source.
    fn plan_buffer(
        &self,
        name: &str,
        what: &str,
        v: &Spanned<Value>,
        elem: Scalar,
        want_len: Option<u64>,
    ) -> Result<Plan, SpecError> {
        let span = v.span();
        let err = |m: String| SpecError::new(format!("{what} `{name}`: {m}"), Some(span.clone()));
        let Value::Table(t) = v.get_ref() else {
            return Err(err(format!(
                "expected a buffer of {} (a table such as {{ len = 256, init = \"zeros\" }}), \
                 found {}",
                elem.name(),
                type_name(v.get_ref())
            )));
        };
        let allowed: &[&str] = if t.contains_key("values") {
            &["values"]
        } else if t.contains_key("file") {
            &["file", "offset", "len"]
        } else if let Some(init) = t.get("init") {
            match init.as_str() {
                Some("iota" | "zeros") => &["init", "len"],
                Some("fill") => &["init", "len", "value"],
                Some("random") => &["init", "len", "min", "max", "seed"],
                Some(other) => {
                    return Err(err(format!(
                        "unknown `init = \"{other}\"` (expected \"iota\", \"zeros\", \"fill\" or \
                         \"random\")"
                    )))
                }
                None => return Err(err("`init` must be a string".into())),
            }
        } else {
            return Err(err(
                "a buffer needs `values`, `file`, or `len` with `init`".into()
            ));
        };
        if let Some(k) = t.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(err(format!(
                "unexpected key `{k}` here (allowed: {})",
                allowed.join(", ")
            )));
        }
        let entry = BufferEntry {
            table: t,
            what,
            name,
            span: span.clone(),
        };
        let (len, source) = if let Some(vals) = t.get("values") {
            entry.values(vals, elem)?
        } else if let Some(file) = t.get("file") {
            entry.file(file, self.path.parent().unwrap_or(Path::new(".")), elem)?
        } else {
            entry.init(elem)?
        };
        if let Some(want) = want_len {
            if len != want {
                return Err(err(format!(
                    "gives {len} elements but the variable has {want}"
                )));
            }
        }
        Ok(Plan {
            name: name.to_string(),
            elem,
            len,
            source,
            span,
        })
    }

    fn fill(&self, plan: Plan) -> Result<Buffer, SpecError> {
        let size = plan.elem.size() as usize;
        let n = plan.len as usize;
        let mut bytes = Vec::with_capacity(n * size);
        let mut push = |bits: u64| bytes.extend_from_slice(&bits.to_le_bytes()[..size]);
        let elem = plan.elem;
        match plan.source {
            Source::Values(vals) => {
                for v in &vals {
                    let bits = scalar_value(v.get_ref(), elem)
                        .map_err(|m| SpecError::new(m, Some(plan.span.clone())))?;
                    push(bits);
                }
            }
            Source::Iota => {
                for i in 0..plan.len {
                    push(if elem.is_float() {
                        float_bits(i as f64, elem)
                    } else if elem == Scalar::Bool {
                        i & 1
                    } else {
                        i & width_mask(elem.size())
                    });
                }
            }
            Source::Zeros => bytes.resize(n * size, 0),
            Source::Fill(bits) => {
                for _ in 0..n {
                    push(bits);
                }
            }
            Source::RandomInt { min, max, seed } => {
                let mut r = SplitMix64::new(seed);
                for _ in 0..n {
                    let v = r.int_in(min, max);
                    push(v as u64 & width_mask(elem.size()));
                }
            }
            Source::RandomFloat { min, max, seed } => {
                let mut r = SplitMix64::new(seed);
                for _ in 0..n {
                    let bits = float_bits(r.float_in(min, max), elem);
                    // Rounding to a narrower type may step past `max`.
                    let v = gmrace_ir::scalar::float_value(bits, elem);
                    push(if v > max { float_bits(max, elem) } else { bits });
                }
            }
            Source::File { path, offset } => {
                use std::io::{Read, Seek, SeekFrom};
                let e = |m: std::io::Error| {
                    SpecError::new(
                        format!(
                            "{} `{}`: cannot read `{}`: {m}",
                            "buffer",
                            plan.name,
                            path.display()
                        ),
                        Some(plan.span.clone()),
                    )
                };
                let mut f = std::fs::File::open(&path).map_err(e)?;
                f.seek(SeekFrom::Start(offset)).map_err(e)?;
                bytes.resize(n * size, 0);
                f.read_exact(&mut bytes).map_err(e)?;
            }
        }
        Ok(Buffer {
            name: plan.name,
            elem,
            len: plan.len,
            bytes,
        })
    }
}

/// Static shared memory of a kernel, each variable aligned as declared.
pub fn static_shared_bytes(k: &Kernel) -> u64 {
    let mut total: u64 = 0;
    for s in &k.shared {
        if let Some(size) = s.size_bytes {
            let a = s.align.max(1) as u64;
            total = total.div_ceil(a).saturating_mul(a).saturating_add(size);
        }
    }
    total
}

/// What the host can give: the smaller of [`MAX_DEVICE_BYTES`] and half the available memory.
fn device_memory_limit() -> u64 {
    let avail = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
        s.lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map(|kb| kb.saturating_mul(1024) / 2)
    });
    avail.map_or(MAX_DEVICE_BYTES, |a| a.min(MAX_DEVICE_BYTES))
}

/// Every buffer within the size one buffer may have, and all of them with the globals within
/// what the CPU device can allocate.
fn check_memory<'p>(
    plans: impl Iterator<Item = &'p Plan>,
    module: &Module,
) -> Result<(), SpecError> {
    let mut total: u64 = 0;
    for plan in plans {
        let bytes = plan
            .len
            .checked_mul(plan.elem.size() as u64)
            .filter(|b| *b <= MAX_BUFFER_BYTES)
            .ok_or_else(|| {
                SpecError::new(
                    format!(
                        "buffer `{}` of {} {} elements is larger than the {} bytes one \
                             buffer may have",
                        plan.name,
                        plan.len,
                        plan.elem.name(),
                        MAX_BUFFER_BYTES
                    ),
                    Some(plan.span.clone()),
                )
            })?;
        total = total.saturating_add(bytes);
    }
    for g in &module.globals {
        total = total.saturating_add(g.size_bytes);
    }
    let limit = device_memory_limit();
    if total > limit {
        return Err(SpecError::new(
            format!(
                "the launch needs {total} bytes of device memory, more than the {limit} the \
                     CPU device can allocate"
            ),
            None,
        ));
    }
    Ok(())
}

/// How one kernel parameter is given: a scalar's bits or a buffer to fill.
enum ArgPlan {
    Scalar(Scalar, u64),
    Buffer(Plan),
}

/// A buffer's table in a launch spec, with what names it in messages.
struct BufferEntry<'a> {
    table: &'a toml::map::Map<String, Value>,
    what: &'a str,
    name: &'a str,
    span: Range<usize>,
}

impl BufferEntry<'_> {
    fn err(&self, m: String) -> SpecError {
        SpecError::new(
            format!("{} `{}`: {m}", self.what, self.name),
            Some(self.span.clone()),
        )
    }

    fn uint(&self, key: &str) -> Result<Option<u64>, SpecError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Integer(n)) if *n >= 0 => Ok(Some(*n as u64)),
            Some(_) => Err(self.err(format!("`{key}` must be a non-negative integer"))),
        }
    }

    /// `values = [...]`: checked now, encoded when filled.
    fn values(&self, vals: &Value, elem: Scalar) -> Result<(u64, Source), SpecError> {
        let Value::Array(items) = vals else {
            return Err(self.err("`values` must be an array".into()));
        };
        for (i, item) in items.iter().enumerate() {
            scalar_value(item, elem).map_err(|m| self.err(format!("element {i}: {m}")))?;
        }
        let spanned = items
            .iter()
            .map(|x| Spanned::new(self.span.clone(), x.clone()));
        Ok((items.len() as u64, Source::Values(spanned.collect())))
    }

    /// `file = "..."` (relative to the spec's directory `dir`), with `offset` and `len`.
    fn file(&self, file: &Value, dir: &Path, elem: Scalar) -> Result<(u64, Source), SpecError> {
        let Some(file) = file.as_str() else {
            return Err(self.err("`file` must be a string (a path)".into()));
        };
        let path = dir.join(file);
        let meta = std::fs::metadata(&path)
            .map_err(|e| self.err(format!("cannot read `{}`: {e}", path.display())))?;
        let offset = self.uint("offset")?.unwrap_or(0);
        let size = elem.size() as u64;
        let avail = meta.len().checked_sub(offset).ok_or_else(|| {
            self.err(format!(
                "`offset = {offset}` is past the end of `{}` ({} bytes)",
                path.display(),
                meta.len()
            ))
        })?;
        let len = match self.uint("len")? {
            Some(l) if l.saturating_mul(size) > avail => {
                return Err(self.err(format!(
                    "`{}` has {avail} bytes after offset {offset}, fewer than {l} {} \
                     elements need",
                    path.display(),
                    elem.name()
                )))
            }
            Some(l) => l,
            None if avail % size != 0 => {
                return Err(self.err(format!(
                    "`{}` has {avail} bytes after offset {offset}, not a whole number \
                     of {} elements; give `len`",
                    path.display(),
                    elem.name()
                )))
            }
            None => avail / size,
        };
        Ok((len, Source::File { path, offset }))
    }

    /// `len` with `init = "iota" | "zeros" | "fill" | "random"`.
    fn init(&self, elem: Scalar) -> Result<(u64, Source), SpecError> {
        let Some(len) = self.uint("len")? else {
            return Err(self.err("`init` needs `len`".into()));
        };
        let source = match self.table.get("init").and_then(Value::as_str) {
            Some("iota") => Source::Iota,
            Some("zeros") => Source::Zeros,
            Some("fill") => {
                let Some(v) = self.table.get("value") else {
                    return Err(self.err("`init = \"fill\"` needs `value`".into()));
                };
                Source::Fill(scalar_value(v, elem).map_err(|m| self.err(format!("`value`: {m}")))?)
            }
            _ => self.random(elem)?,
        };
        Ok((len, source))
    }

    /// `init = "random"`: uniform in [`min`, `max`] from `seed`.
    fn random(&self, elem: Scalar) -> Result<Source, SpecError> {
        let seed = match self.table.get("seed") {
            None => 0,
            Some(Value::Integer(n)) => *n as u64,
            Some(_) => return Err(self.err("`seed` must be an integer".into())),
        };
        let (Some(min), Some(max)) = (self.table.get("min"), self.table.get("max")) else {
            return Err(self.err("`init = \"random\"` needs `min` and `max`".into()));
        };
        if elem.is_float() {
            let f = |key: &str, v: &Value| match v {
                Value::Integer(n) => Ok(*n as f64),
                Value::Float(x) if x.is_finite() => Ok(*x),
                _ => Err(self.err(format!("`{key}` must be a finite number"))),
            };
            let (lo, hi) = (f("min", min)?, f("max", max)?);
            if lo > hi {
                return Err(self.err(format!("`min` ({lo}) is greater than `max` ({hi})")));
            }
            Ok(Source::RandomFloat {
                min: lo,
                max: hi,
                seed,
            })
        } else {
            let f = |key: &str, v: &Value| match v {
                Value::Integer(n) if int_bits(*n as i128, elem).is_some() => Ok(*n as i128),
                Value::Integer(n) => {
                    Err(self.err(format!("`{key} = {n}` is out of range for {}", elem.name())))
                }
                _ => Err(self.err(format!(
                    "`{key}` must be an integer for a buffer of {}",
                    elem.name()
                ))),
            };
            let (lo, hi) = (f("min", min)?, f("max", max)?);
            if lo > hi {
                return Err(self.err(format!("`min` ({lo}) is greater than `max` ({hi})")));
            }
            Ok(Source::RandomInt {
                min: lo,
                max: hi,
                seed,
            })
        }
    }
}

fn dims(v: &Spanned<Value>, what: &str) -> Result<[u64; 3], SpecError> {
    let err = || {
        SpecError::new(
            format!(
                "`{what}` must be a positive integer or an array of one to three (e.g. 256, \
                 [16, 16] or [16, 16, 1])"
            ),
            Some(v.span()),
        )
    };
    let items: Vec<&Value> = match v.get_ref() {
        Value::Array(a) if (1..=3).contains(&a.len()) => a.iter().collect(),
        Value::Integer(_) => vec![v.get_ref()],
        _ => return Err(err()),
    };
    let mut out = [1u64; 3];
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Value::Integer(n) if *n >= 1 => out[i] = *n as u64,
            Value::Integer(n) => {
                return Err(SpecError::new(
                    format!("invalid launch configuration: `{what}` extent {n} is not positive"),
                    Some(v.span()),
                ))
            }
            _ => return Err(err()),
        }
    }
    Ok(out)
}

/// Canonical bits of a scalar given in TOML for type `s`.
fn scalar_value(v: &Value, s: Scalar) -> Result<u64, String> {
    match (v, s) {
        (Value::Boolean(b), Scalar::Bool) => Ok(*b as u64),
        (Value::Integer(n), _) if s.is_float() => Ok(float_bits(*n as f64, s)),
        (Value::Float(x), _) if s.is_float() => Ok(float_bits(*x, s)),
        (Value::Integer(n), _) => {
            int_bits(*n as i128, s).ok_or_else(|| format!("{n} is out of range for {}", s.name()))
        }
        (other, _) => Err(format!(
            "expected {} for type {}, found {}",
            if s.is_float() {
                "a number"
            } else if s == Scalar::Bool {
                "true, false, 0 or 1"
            } else {
                "an integer"
            },
            s.name(),
            type_name(other)
        )),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "a string",
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a float",
        Value::Boolean(_) => "a boolean",
        Value::Datetime(_) => "a date",
        Value::Array(_) => "an array",
        Value::Table(_) => "a table",
    }
}

fn example(ty: Ty, pointee: Option<Scalar>, name: &str) -> String {
    match (ty, pointee) {
        (Ty::Ptr(_), _) => format!("`{name} = {{ len = 256, init = \"zeros\" }}`"),
        (Ty::Scalar(s), _) if s.is_float() => format!("`{name} = 1.0`"),
        _ => format!("`{name} = 1`"),
    }
}
