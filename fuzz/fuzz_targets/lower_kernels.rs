//! Structure-aware fuzzing of the CUDA front end's lowering: the fuzz input drives a small
//! generator that writes a (mostly well-typed) CUDA kernel out of statement and expression
//! templates, so nearly every input gets past clang and into `KernelLowerer`. The module is
//! then printed and serialised. Errors are fine; panics and aborts are bugs.
//!
//! Set `GMRACE_FUZZ_PRINT=1` to print each generated program (useful with `cargo fuzz run`
//! on a single artifact).
#![no_main]

use arbitrary::Unstructured;
use gmrace_analyzer::frontend::{parse_source, FrontendOptions};
use gmrace_analyzer::ir::print_module;
use libfuzzer_sys::fuzz_target;

/// Declarations every generated program starts with. The generator only names what is
/// declared here (plus what it declares itself), so the output type-checks most of the time.
const PRELUDE: &str = r#"
#include <assert.h>
struct P {
  int a; int *ptr; float v;
  __device__ int get(int i) const { return ptr[i] + a; }
  __device__ void put(int i, int x) { ptr[i] = x; }
};
struct Q {
  P p; int arr[4];
  __device__ Q() : arr{0, 0, 0, 0} { p.a = 0; p.ptr = nullptr; p.v = 0.0f; }
};
struct R {
  int *base; int off;
  __device__ R(int *b, int o) : base(b), off(o) {}
  __device__ int &at(int i) { return base[off + i]; }
};
enum E { E0, E1 = 5, E2 };
constexpr int C = 32;
__constant__ int cst[16];
__device__ int gdev[64];
__shared__ int s2[16][16];
__shared__ int2 sv[64];
extern __shared__ int ext[];

__device__ int dev_val(int a) { return a * 2 + 1; }
__device__ void dev_ptr(int *p, int i) { p[i] = i; }
__device__ void dev_ref(int &r, int v) { r += v; }
__device__ int dev_shared(int *sp, int i) { return sp[i & 255]; }
__device__ float dev_f(const float *p, int i) { return p[i] * 0.5f; }
__device__ void dev_struct(P &p, int i) { p.ptr[i] = p.a; }
__device__ int &dev_pick(int *p, int i) { return p[i]; }
__device__ int dev_early(int *p, int i) {
  if (i < 0) return 0;
  for (int k = 0; k < 4; ++k) { if (p[k] == i) return k; }
  return -1;
}
template <typename T> __device__ T tload(const T *p, int i) { return p[i]; }
template <int N> __device__ int tmod(int x) { return x % N; }
"#;

/// Locals declared at the top of both the kernel and the generated device function.
const LOCALS: &str =
    "  int i = threadIdx.x; int j = blockIdx.x; unsigned u = 0u; float x = 0.0f;\n  \
     int *q = g; P p = {0, g, 0.0f}; Q qq; R rr(s, 1);\n";

const INT_OPS: &[&str] = &["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"];
const CMP_OPS: &[&str] = &["<", "<=", ">", ">=", "==", "!="];
const FLOAT_OPS: &[&str] = &["+", "-", "*", "/"];
const ATOMICS: &[&str] = &[
    "atomicAdd",
    "atomicSub",
    "atomicExch",
    "atomicMin",
    "atomicMax",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
];
const SHFL: &[&str] = &[
    "__shfl_down_sync",
    "__shfl_up_sync",
    "__shfl_xor_sync",
    "__shfl_sync",
];
const CONSTS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "7",
    "8",
    "16",
    "31",
    "32",
    "255",
    "256",
    "1024",
    "-1",
    "2147483647",
    "(-2147483647 - 1)",
    "0x7fffffff",
    "4294967295u",
    "(1ll << 40)",
    "C",
    "E1",
    "E2",
    "sizeof(int)",
    "'a'",
    "true",
    "warpSize",
];
const FLOAT_CONSTS: &[&str] = &[
    "0.0f", "1.5f", "-2.0f", "0.1f", "1e30f", "3.4e38f", "1e-45f",
];

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    out: String,
    fuel: u32,
    fresh: u32,
    /// Assignable `int` variables in scope.
    ints: Vec<String>,
    /// Assignable `float` variables in scope.
    floats: Vec<String>,
    loops: u32,
    switches: u32,
    /// Generating the body of `dgen` (which may then call itself).
    in_dgen: bool,
    /// Generating the body of the template kernel `k<int B>` (so `B` may be named).
    template_kernel: bool,
}

impl<'a, 'b> Gen<'a, 'b> {
    fn pick(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.u.int_in_range(0..=n - 1).unwrap_or(0)
    }
    fn flip(&mut self) -> bool {
        self.pick(2) == 1
    }
    fn choose<'s>(&mut self, xs: &[&'s str]) -> &'s str {
        xs[self.pick(xs.len())]
    }
    fn burn(&mut self) -> bool {
        if self.fuel == 0 || self.u.is_empty() {
            return false;
        }
        self.fuel -= 1;
        true
    }
    fn fresh(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn constant(&mut self) -> String {
        match self.pick(4) {
            0 => self.u.arbitrary::<u8>().unwrap_or(0).to_string(),
            1 if self.template_kernel => "B".into(),
            _ => self.choose(CONSTS).to_string(),
        }
    }

    fn int_leaf(&mut self) -> String {
        match self.pick(10) {
            0 => self.constant(),
            1 => format!("threadIdx.{}", self.choose(&["x", "y", "z"])),
            2 => format!("blockIdx.{}", self.choose(&["x", "y"])),
            3 => format!("blockDim.{}", self.choose(&["x", "y"])),
            4 => "gridDim.x".into(),
            5 => "n".into(),
            6 => "u".into(),
            7 => "p.a".into(),
            _ => {
                let k = self.pick(self.ints.len());
                self.ints[k].clone()
            }
        }
    }

    /// An index expression: usually small, sometimes masked into range.
    fn index(&mut self, depth: u32) -> String {
        let e = self.int_expr(depth.min(3));
        match self.pick(4) {
            0 => format!("({e}) & 255"),
            _ => e,
        }
    }

    fn int_lvalue(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        if !self.burn() {
            let k = self.pick(self.ints.len());
            return self.ints[k].clone();
        }
        match self.pick(20) {
            0 => {
                let k = self.pick(self.ints.len());
                self.ints[k].clone()
            }
            1 | 2 => format!("g[{}]", self.index(d)),
            3 | 4 => format!("s[{}]", self.index(d)),
            5 => format!("q[{}]", self.index(d)),
            6 => format!("*(g + {})", self.int_expr(d)),
            7 => format!("p.ptr[{}]", self.index(d)),
            8 => format!("qq.arr[({}) & 3]", self.int_expr(d)),
            9 => "p.a".into(),
            10 => format!("gdev[({}) & 63]", self.int_expr(d)),
            11 => format!("rr.at({})", self.int_expr(d)),
            12 => "*q".into(),
            13 => format!("reinterpret_cast<int *>(f)[{}]", self.index(d)),
            14 => format!("({} ? g : s)[{}]", self.cond(d), self.index(d)),
            15 => format!(
                "s2[({}) & 15][({}) & 15]",
                self.int_expr(d),
                self.int_expr(d)
            ),
            16 => format!("ext[{}]", self.index(d)),
            17 => format!(
                "sv[({}) & 63].{}",
                self.int_expr(d),
                self.choose(&["x", "y"])
            ),
            18 => format!(
                "dev_pick({}, {})",
                self.choose(&["g", "s", "q"]),
                self.index(d)
            ),
            _ => "qq.p.a".to_string(),
        }
    }

    fn int_expr(&mut self, depth: u32) -> String {
        if depth == 0 || !self.burn() {
            return self.int_leaf();
        }
        let d = depth - 1;
        match self.pick(34) {
            0 | 1 => self.int_leaf(),
            2..=6 => {
                let op = self.choose(INT_OPS);
                format!("({} {op} {})", self.int_expr(d), self.int_expr(d))
            }
            7 => format!(
                "({}({}))",
                self.choose(&["-", "~", "!", "+"]),
                self.int_expr(d)
            ),
            8 => format!(
                "({} ? {} : {})",
                self.cond(d),
                self.int_expr(d),
                self.int_expr(d)
            ),
            9 => format!("({})", self.cond(d)),
            10 => format!(
                "{}({})",
                self.choose(&[
                    "(int)",
                    "(unsigned)",
                    "(long long)",
                    "(short)",
                    "(char)",
                    "static_cast<int>",
                    "int",
                    "(unsigned char)",
                    "(bool)"
                ]),
                self.int_expr(d)
            ),
            11..=14 => self.int_lvalue(d),
            15 => format!("dev_val({})", self.int_expr(d)),
            16 => format!(
                "dev_shared({}, {})",
                self.choose(&["s", "g", "ext"]),
                self.int_expr(d)
            ),
            17 => format!(
                "{}(0xffffffffu, {}, {})",
                self.choose(SHFL),
                self.int_expr(d),
                self.int_expr(d)
            ),
            18 => format!(
                "{}(&{}, {})",
                self.choose(ATOMICS),
                self.int_lvalue(d),
                self.int_expr(d)
            ),
            19 => format!(
                "{}((int)({}))",
                self.choose(&["__popc", "__clz", "__ffs", "__brev", "abs"]),
                self.int_expr(d)
            ),
            20 => format!(
                "{}({}, {})",
                self.choose(&["min", "max", "__mul24", "__mulhi"]),
                self.int_expr(d),
                self.int_expr(d)
            ),
            21 => format!("(int){}", self.float_expr(d)),
            22 => format!("__float_as_int({})", self.float_expr(d)),
            23 => {
                let v = paren_deref(self.int_lvalue(d));
                let op = self.choose(&["++", "--"]);
                if self.flip() {
                    format!("({op}{v})")
                } else {
                    format!("({v}{op})")
                }
            }
            24 => format!("({} = {})", self.int_lvalue(d), self.int_expr(d)),
            25 => format!(
                "{}({})",
                self.choose(&[
                    "__syncthreads_count",
                    "__syncthreads_or",
                    "__syncthreads_and"
                ]),
                self.cond(d)
            ),
            26 => format!(
                "{}(0xffffffffu, {})",
                self.choose(&["__ballot_sync", "__any_sync", "__all_sync"]),
                self.cond(d)
            ),
            27 => format!(
                "tload({}, {})",
                self.choose(&["g", "s", "q", "cst"]),
                self.index(d)
            ),
            28 => format!(
                "tmod<{}>({})",
                self.choose(&["1", "3", "32", "C"]),
                self.int_expr(d)
            ),
            29 => format!("p.get({})", self.index(d)),
            30 => format!(
                "dev_early({}, {})",
                self.choose(&["g", "s", "ext"]),
                self.int_expr(d)
            ),
            31 => format!("cst[({}) & 15]", self.int_expr(d)),
            32 => format!("({}, {})", self.int_expr(d), self.int_expr(d)),
            _ => format!(
                "atomicCAS(&{}, {}, {})",
                self.int_lvalue(d),
                self.int_expr(d),
                self.int_expr(d)
            ),
        }
    }

    fn cond(&mut self, depth: u32) -> String {
        if depth == 0 || !self.burn() {
            let op = self.choose(CMP_OPS);
            return format!("({} {op} {})", self.int_leaf(), self.int_leaf());
        }
        let d = depth - 1;
        match self.pick(7) {
            0 | 1 => {
                let op = self.choose(CMP_OPS);
                format!("({} {op} {})", self.int_expr(d), self.int_expr(d))
            }
            2 => format!("({} && {})", self.cond(d), self.cond(d)),
            3 => format!("({} || {})", self.cond(d), self.cond(d)),
            4 => format!("(!{})", self.cond(d)),
            5 => format!("({} < {})", self.float_expr(d), self.float_expr(d)),
            _ => self.int_expr(d),
        }
    }

    fn float_leaf(&mut self) -> String {
        match self.pick(5) {
            0 => self.choose(FLOAT_CONSTS).to_string(),
            1 => {
                let k = self.pick(self.floats.len());
                self.floats[k].clone()
            }
            2 => "p.v".into(),
            3 => format!("(float){}", self.int_leaf()),
            _ => format!("f[{}]", self.int_leaf()),
        }
    }

    fn float_lvalue(&mut self, depth: u32) -> String {
        match self.pick(4) {
            0 => {
                let k = self.pick(self.floats.len());
                self.floats[k].clone()
            }
            1 => "p.v".into(),
            _ => format!("f[{}]", self.index(depth)),
        }
    }

    fn float_expr(&mut self, depth: u32) -> String {
        if depth == 0 || !self.burn() {
            return self.float_leaf();
        }
        let d = depth - 1;
        match self.pick(12) {
            0 | 1 => self.float_leaf(),
            2 | 3 => {
                let op = self.choose(FLOAT_OPS);
                format!("({} {op} {})", self.float_expr(d), self.float_expr(d))
            }
            4 => format!("f[{}]", self.index(d)),
            5 => format!(
                "{}({})",
                self.choose(&[
                    "sqrtf",
                    "expf",
                    "__expf",
                    "logf",
                    "sinf",
                    "fabsf",
                    "__saturatef"
                ]),
                self.float_expr(d)
            ),
            6 => format!(
                "fmaf({}, {}, {})",
                self.float_expr(d),
                self.float_expr(d),
                self.float_expr(d)
            ),
            7 => format!(
                "{}(0xffffffffu, {}, {})",
                self.choose(SHFL),
                self.float_expr(d),
                self.int_expr(d)
            ),
            8 => format!("atomicAdd(&f[{}], {})", self.index(d), self.float_expr(d)),
            9 => format!(
                "({} ? {} : {})",
                self.cond(d),
                self.float_expr(d),
                self.float_expr(d)
            ),
            10 => format!("dev_f(f, {})", self.index(d)),
            _ => format!("__int_as_float({})", self.int_expr(d)),
        }
    }

    fn line(&mut self, indent: usize, s: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// `{ stmts }` with its own scope.
    fn block(&mut self, indent: usize, depth: u32, max: usize) {
        let ni = self.ints.len();
        let nf = self.floats.len();
        self.line(indent, "{");
        let count = self.pick(max + 1);
        for _ in 0..count {
            if self.u.is_empty() || self.fuel == 0 {
                break;
            }
            self.stmt(indent + 1, depth);
        }
        self.line(indent, "}");
        self.ints.truncate(ni);
        self.floats.truncate(nf);
    }

    fn stmt(&mut self, ind: usize, depth: u32) {
        let ed = 3;
        if !self.burn() {
            let l = self.int_lvalue(1);
            let e = self.int_leaf();
            self.line(ind, &format!("{l} = {e};"));
            return;
        }
        let nested = depth > 0;
        let d = depth.saturating_sub(1);
        match self.pick(40) {
            0..=3 => {
                let l = self.int_lvalue(ed);
                let e = self.int_expr(ed);
                self.line(ind, &format!("{l} = {e};"));
            }
            4..=6 => {
                let l = self.int_lvalue(ed);
                let op = self.choose(INT_OPS);
                let e = self.int_expr(ed);
                self.line(ind, &format!("{l} {op}= {e};"));
            }
            7 => {
                let l = paren_deref(self.int_lvalue(ed));
                let op = self.choose(&["++", "--"]);
                if self.flip() {
                    self.line(ind, &format!("{op}{l};"));
                } else {
                    self.line(ind, &format!("{l}{op};"));
                }
            }
            8 => {
                let l = self.float_lvalue(ed);
                let op = self.choose(&["=", "+=", "-=", "*=", "/="]);
                let e = self.float_expr(ed);
                self.line(ind, &format!("{l} {op} {e};"));
            }
            9 => {
                let v = self.fresh("v");
                let e = self.int_expr(ed);
                let ty = self.choose(&["int", "const int", "auto", "int"]);
                if ty == "auto" {
                    self.line(ind, &format!("auto {v} = static_cast<int>({e});"));
                } else {
                    self.line(ind, &format!("{ty} {v} = {e};"));
                }
                if !ty.starts_with("const") {
                    self.ints.push(v);
                }
            }
            10 => {
                let v = self.fresh("fv");
                let e = self.float_expr(ed);
                self.line(ind, &format!("float {v} = {e};"));
                self.floats.push(v);
            }
            11 => {
                let v = self.fresh("rf");
                let l = self.int_lvalue(ed);
                self.line(ind, &format!("int &{v} = {l};"));
                self.ints.push(v);
            }
            12 => {
                if self.flip() {
                    let e = self.int_expr(ed);
                    self.line(ind, &format!("q += {e};"));
                    return;
                }
                let e = match self.pick(6) {
                    0 => format!("g + {}", self.int_expr(ed)),
                    1 => format!("s + ({} & 127)", self.int_expr(ed)),
                    2 => format!("{} ? g : s", self.cond(ed)),
                    3 => format!("&{}", self.int_lvalue(ed)),
                    4 => "ext".into(),
                    _ => format!("q + {}", self.int_expr(ed)),
                };
                self.line(ind, &format!("q = {e};"));
            }
            13 if nested => {
                let c = self.cond(ed);
                self.line(ind, &format!("if ({c})"));
                self.block(ind, d, 3);
                if self.flip() {
                    self.line(ind, "else");
                    self.block(ind, d, 3);
                }
            }
            14 if nested => {
                let v = self.fresh("l");
                let init = self.int_expr(2);
                let bound = self.int_expr(2);
                let step = match self.pick(4) {
                    0 => format!("++{v}"),
                    1 => format!("{v}++"),
                    2 => format!("{v} += {}", self.int_expr(1)),
                    _ => format!("{v} *= 2"),
                };
                let cmp = self.choose(&["<", "<=", "!=", ">"]);
                self.line(
                    ind,
                    &format!("for (int {v} = {init}; {v} {cmp} {bound}; {step})"),
                );
                self.ints.push(v);
                self.loops += 1;
                self.block(ind, d, 3);
                self.loops -= 1;
                self.ints.pop();
            }
            15 if nested => {
                let c = self.cond(ed);
                self.line(ind, &format!("while ({c})"));
                self.loops += 1;
                self.block(ind, d, 3);
                self.loops -= 1;
            }
            16 if nested => {
                self.line(ind, "do");
                self.loops += 1;
                self.block(ind, d, 3);
                self.loops -= 1;
                let c = self.cond(ed);
                self.line(ind, &format!("while ({c});"));
            }
            17 if nested => {
                let e = self.int_expr(ed);
                self.line(ind, &format!("switch ({e}) {{"));
                self.switches += 1;
                let cases = 1 + self.pick(4);
                let mut used = Vec::new();
                for _ in 0..cases {
                    let label = if self.pick(5) == 0 && !used.contains(&-1) {
                        used.push(-1);
                        "default:".to_string()
                    } else {
                        let v = self.pick(8) as i32;
                        if used.contains(&v) {
                            continue;
                        }
                        used.push(v);
                        let spelled = match v {
                            5 => "E1".to_string(),
                            6 => "C".to_string(),
                            _ => v.to_string(),
                        };
                        format!("case {spelled}:")
                    };
                    self.line(ind, &label);
                    self.block(ind + 1, d, 2);
                    if self.pick(3) != 0 {
                        self.line(ind + 1, "break;");
                    }
                }
                self.switches -= 1;
                self.line(ind, "}");
            }
            18 if self.loops > 0 || self.switches > 0 => {
                let c = self.cond(1);
                let kw = if self.loops > 0 && self.flip() {
                    "continue"
                } else {
                    "break"
                };
                self.line(ind, &format!("if ({c}) {kw};"));
            }
            19 => {
                let c = self.cond(1);
                if self.in_dgen || self.flip() {
                    self.line(ind, &format!("if ({c}) return;"));
                } else {
                    self.line(ind, &format!("if ({c}) goto done;"));
                }
            }
            20..=21 => {
                let b = self.choose(&[
                    "__syncthreads();",
                    "__syncthreads();",
                    "__syncwarp();",
                    "__syncwarp(0xffffffffu);",
                    "__threadfence();",
                    "__threadfence_block();",
                ]);
                self.line(ind, b);
            }
            22 => {
                let c = self.cond(2);
                self.line(ind, &format!("if ({c}) __syncthreads();"));
            }
            23..=24 => {
                let a = self.choose(ATOMICS);
                let target = match self.pick(5) {
                    0 => format!("&g[{}]", self.index(ed)),
                    1 => format!("&s[{}]", self.index(ed)),
                    2 => format!("q + {}", self.int_expr(ed)),
                    3 => format!("&{}", self.int_lvalue(ed)),
                    _ => format!("&p.ptr[{}]", self.index(ed)),
                };
                let e = self.int_expr(ed);
                self.line(ind, &format!("{a}({target}, {e});"));
            }
            25 => {
                let t = self.int_lvalue(ed);
                let e1 = self.int_expr(ed);
                let e2 = self.int_expr(ed);
                match self.pick(3) {
                    0 => self.line(ind, &format!("atomicCAS(&{t}, {e1}, {e2});")),
                    1 => self.line(
                        ind,
                        &format!("atomicInc((unsigned *)&{t}, (unsigned)({e1}));"),
                    ),
                    _ => self.line(ind, &format!("atomicAdd(&f[{e1}], (float)({e2}));")),
                }
            }
            26..=28 => {
                let s = match self.pick(9) {
                    0 => format!("dev_ptr({}, {});", self.ptr_arg(ed), self.int_expr(ed)),
                    1 => format!("dev_ref({}, {});", self.int_lvalue(ed), self.int_expr(ed)),
                    2 => format!("dev_struct(p, {});", self.index(ed)),
                    3 => format!("p.put({}, {});", self.index(ed), self.int_expr(ed)),
                    4 => format!("rr.at({}) += {};", self.int_expr(ed), self.int_expr(ed)),
                    5 => format!(
                        "dev_pick({}, {}) = {};",
                        self.ptr_arg(ed),
                        self.index(ed),
                        self.int_expr(ed)
                    ),
                    6 => "qq.p = p;".to_string(),
                    7 => format!(
                        "p = P{{(int)({}), {}, (float)({})}};",
                        self.int_expr(ed),
                        self.ptr_arg(ed),
                        self.float_expr(ed)
                    ),
                    _ => {
                        let r = self.fresh("rr");
                        format!(
                            "R {r}({}, {}); {r}.at({}) = {};",
                            self.ptr_arg(ed),
                            self.int_expr(ed),
                            self.int_expr(ed),
                            self.int_expr(ed)
                        )
                    }
                };
                self.line(ind, &s);
            }
            29 => {
                // Calls the generated device function (recursively when inside it).
                let a = self.ptr_arg(ed);
                let b = self.int_expr(ed);
                let c = self.ptr_arg(ed);
                let r = self.int_lvalue(ed);
                self.line(ind, &format!("dgen({a}, f, {b}, {c}, {r});"));
            }
            30 => {
                let v = self.fresh("lam");
                let l = self.int_lvalue(1);
                let e = self.int_expr(ed);
                self.line(
                    ind,
                    &format!("auto {v} = [&](int a) {{ {l} += a; return a + 1; }}; {v}({e});"),
                );
            }
            31 => {
                let e = self.int_expr(ed);
                match self.pick(4) {
                    0 => self.line(ind, &format!("(void)({e});")),
                    1 => self.line(ind, &format!("printf(\"%d\\n\", {e});")),
                    2 => self.line(ind, &format!("assert({e});")),
                    _ => self.line(ind, "asm volatile(\"membar.gl;\");"),
                }
            }
            32 if nested => self.block(ind, d, 3),
            33 => {
                let t = self.fresh("t");
                let e = self.int_expr(ed);
                self.line(
                    ind,
                    &format!("int {t} = __shfl_down_sync(0xffffffffu, {e}, 16);"),
                );
                self.ints.push(t);
            }
            34 => {
                let l = self.int_lvalue(ed);
                let e = self.int_expr(ed);
                let c = self.cond(ed);
                self.line(ind, &format!("{l} = {c} ? {e} : {l};"));
            }
            35 => {
                let l = self.int_lvalue(ed);
                let c1 = self.cond(ed);
                let c2 = self.cond(ed);
                let op = self.choose(&["&&", "||"]);
                let e = self.int_expr(ed);
                self.line(ind, &format!("if ({c1} {op} ({l} = {e})) {{ {c2}; }}"));
            }
            36 => {
                let v = self.fresh("arr");
                let e = self.int_expr(ed);
                let k = self.int_expr(ed);
                self.line(
                    ind,
                    &format!(
                        "int {v}[4] = {{(int)({e}), 1, 2}}; {v}[({k}) & 3] += 1; g[0] = {v}[1];"
                    ),
                );
            }
            37 => {
                let v = self.fresh("p");
                let s = format!(
                    "P {v} = p; {v}.a += {}; {v}.ptr = {};",
                    self.int_expr(ed),
                    self.ptr_arg(ed)
                );
                self.line(ind, &s);
                let e = self.index(ed);
                self.line(ind, &format!("{v}.ptr[{e}] = {v}.a;"));
            }
            38 => {
                let e = self.float_expr(ed);
                let c = self.int_expr(ed);
                self.line(
                    ind,
                    &format!("x += __shfl_down_sync(0xffffffffu, {e}, {c});"),
                );
            }
            _ => {
                let l = self.int_lvalue(ed);
                let e = self.int_expr(ed);
                self.line(ind, &format!("{l} = {e};"));
            }
        }
    }

    fn ptr_arg(&mut self, depth: u32) -> String {
        match self.pick(8) {
            0 => "g".into(),
            1 => "s".into(),
            2 => "q".into(),
            3 => "ext".into(),
            4 => format!("g + {}", self.int_expr(depth)),
            5 => format!("&{}", self.int_lvalue(depth)),
            6 => format!("({} ? g : s)", self.cond(depth)),
            _ => "p.ptr".into(),
        }
    }

    fn body(&mut self, indent: usize) {
        let count = 1 + self.pick(12);
        for _ in 0..count {
            if self.u.is_empty() || self.fuel == 0 {
                break;
            }
            self.stmt(indent, 3);
        }
    }

    fn base_scope(&mut self) {
        self.ints = vec!["i".into(), "j".into(), "r".into()];
        self.floats = vec!["x".into()];
        self.loops = 0;
        self.switches = 0;
    }
}

/// `*q` followed by `++` would parse as `*(q++)`.
fn paren_deref(l: String) -> String {
    if l.starts_with('*') {
        format!("({l})")
    } else {
        l
    }
}

fn dims(g: &mut Gen) -> String {
    match g.pick(5) {
        0 => "1".into(),
        1 => format!("[{},{}]", g.pick(300), g.pick(3)),
        2 => format!("[{}, {}, {}]", g.pick(2000), g.pick(70), g.pick(70)),
        3 => "0".into(),
        _ => g
            .choose(&["256", "4294967296", "[-1]", "[]", "[1,2,3,4]", "x"])
            .into(),
    }
}

fn launch_extent(g: &mut Gen) -> String {
    match g.pick(7) {
        0 => "1".into(),
        1 => "n".into(),
        2 => format!("dim3({}, {})", g.constant(), g.constant()),
        3 => format!("dim3({}, {}, {})", g.constant(), g.constant(), g.constant()),
        4 => "gd".into(),
        5 => g.constant(),
        _ => "256".into(),
    }
}

fn generate(data: &[u8]) -> String {
    let mut u = Unstructured::new(data);
    let mut g = Gen {
        u: &mut u,
        out: String::new(),
        fuel: 0,
        fresh: 0,
        ints: Vec::new(),
        floats: Vec::new(),
        loops: 0,
        switches: 0,
        in_dgen: false,
        template_kernel: false,
    };
    let form = g.pick(4);
    if g.flip() {
        let (b, gr) = (dims(&mut g), dims(&mut g));
        g.out
            .push_str(&format!("//pass\n//--blockDim={b} --gridDim={gr}\n"));
    }
    g.out.push_str(PRELUDE);

    // The device function `dgen`, declared first so that it can recurse.
    g.out
        .push_str("__device__ void dgen(int *g, float *f, int n, int *s, int &r);\n");
    if g.flip() {
        g.base_scope();
        g.fuel = 120;
        g.in_dgen = true;
        g.out
            .push_str("__device__ void dgen(int *g, float *f, int n, int *s, int &r) {\n");
        g.out.push_str(LOCALS);
        g.body(1);
        g.out.push_str("}\n");
        g.in_dgen = false;
    } else {
        g.out.push_str(
            "__device__ void dgen(int *g, float *f, int n, int *s, int &r) { s[n & 255] = r; }\n",
        );
    }

    g.template_kernel = form == 1;
    if g.template_kernel {
        g.out.push_str("template <int B>\n");
    }
    g.out
        .push_str("__global__ void k(int *g, float *f, int n) {\n  __shared__ int s[256];\n");
    g.out.push_str(LOCALS);
    g.out.push_str("  int &r = s[threadIdx.x % 256];\n  {\n");
    g.base_scope();
    g.fuel = 250;
    g.body(2);
    g.out.push_str("  }\ndone:\n  g[0] = r;\n}\n");
    g.template_kernel = false;
    match form {
        1 => {
            let b = g.choose(&["128", "256", "0", "-3", "2147483647"]);
            g.out.push_str(&format!(
                "template __global__ void k<{b}>(int *, float *, int);\n"
            ));
        }
        2 => {
            let grid = launch_extent(&mut g);
            let block = launch_extent(&mut g);
            let gd = format!("dim3 gd({}, {});", g.constant(), g.constant());
            let shared = if g.flip() {
                format!(", {}", g.constant())
            } else {
                String::new()
            };
            g.out.push_str(&format!(
                "void launch(int *g, float *f, int n) {{\n  {gd}\n  k<<<{grid}, {block}{shared}>>>(g, f, n);\n}}\n"
            ));
        }
        3 => {
            // A second kernel that calls the generated device function with swapped spaces.
            g.out.push_str(
                "__global__ void k2(int *g, float *f, int n) {\n  __shared__ int sh[256];\n  \
                 dgen(sh, f, n, g, g[threadIdx.x]);\n  __syncthreads();\n  g[threadIdx.x] = sh[(threadIdx.x + 1) % 256];\n}\n",
            );
        }
        _ => {}
    }
    g.out
}

fuzz_target!(|data: &[u8]| {
    let src = generate(data);
    if std::env::var_os("GMRACE_FUZZ_PRINT").is_some() {
        eprintln!("{src}");
    }
    match parse_source("fuzz.cu", &src, &FrontendOptions::default()) {
        Ok(module) => {
            let _ = print_module(&module);
            let _ = serde_json::to_string(&module).expect("Module serialises to JSON");
        }
        Err(e) => {
            if std::env::var_os("GMRACE_FUZZ_PRINT").is_some() {
                for d in &e.diagnostics {
                    eprintln!("error: {}: {:?}", d.message, d.span);
                }
            }
        }
    }
});
