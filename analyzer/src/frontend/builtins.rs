//! CUDA functions the front end models itself instead of inlining: barriers, atomics, warp
//! intrinsics, math, GPUVerify annotations. Only declarations from the stand-in headers or
//! system headers, or with reserved `__` names, are looked up here, so a user's own `min` is
//! still inlined.
//!
//! Atomics carry their scope (`AccessKind::Atomic(SyncScope)`, from the `_block`/`_system`
//! suffixes); the stand-in `<cuda/atomic>` maps `cuda::atomic_ref`/`cuda::atomic` of each
//! `thread_scope` onto those.

use crate::ir::{
    AssumeKind, AtomicOp, BarrierKind, BinOp, Dim, Intrinsic, Special, SyncScope, WarpOp,
};

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Builtin {
    /// clang's reads of PTX's special registers (`__nvvm_read_ptx_sreg_tid_x()`), which its
    /// CUDA headers define `threadIdx` & co. with and code can call itself.
    Special(Special),
    Barrier(BarrierKind),
    SyncWarp,
    Fence(SyncScope),
    Atomic(AtomicOp, SyncScope),
    /// `has_mask`: the `_sync` form, whose first argument is the member mask.
    Warp(WarpOp, bool),
    Intrinsic(Intrinsic),
    Binary(BinOp),
    /// Float-to-int conversion with a rounding intrinsic applied first (None: truncation).
    Convert(Option<Intrinsic>),
    Ldg,
    Printf,
    Trap,
    Assume(AssumeKind),
    /// GPUVerify-only annotations that carry no runtime meaning (`__invariant`, `__assert`, ...).
    Annotation,
    Implies,
    IsPow2,
    /// `sincos(x, &s, &c)`: stores both results through the pointers.
    SinCos,
    /// `frexp(x, &e)`: returns the mantissa, stores the exponent.
    Frexp,
    /// cuRAND: `curand_init(seed, seq, offset, &state)` writes the state; the draws
    /// (`curand_uniform(&state)`, ...) read and write it and return a random number.
    Curand {
        init: bool,
    },
    /// A texture fetch; the first argument names the texture and is not lowered.
    Texture,
    /// A call with no effect on the memory model (`__nanosleep`, `cudaGetLastError` in device code).
    NoOp,
}

pub(crate) fn lookup(name: &str) -> Option<Builtin> {
    use Builtin as B;
    let atomic = |base: &str| -> Option<AtomicOp> {
        Some(match base {
            "atomicAdd" => AtomicOp::Add,
            "atomicSub" => AtomicOp::Sub,
            "atomicExch" => AtomicOp::Exch,
            "atomicMin" => AtomicOp::Min,
            "atomicMax" => AtomicOp::Max,
            "atomicInc" => AtomicOp::Inc,
            "atomicDec" => AtomicOp::Dec,
            "atomicCAS" => AtomicOp::Cas,
            "atomicAnd" => AtomicOp::And,
            "atomicOr" => AtomicOp::Or,
            "atomicXor" => AtomicOp::Xor,
            _ => return None,
        })
    };
    let (base, scope) = if let Some(b) = name.strip_suffix("_block") {
        (b, SyncScope::Block)
    } else if let Some(s) = name.strip_suffix("_system") {
        (s, SyncScope::System)
    } else {
        (name, SyncScope::Device)
    };
    if let Some(op) = atomic(base) {
        return Some(B::Atomic(op, scope));
    }
    special_register(name)
        .map(B::Special)
        .or_else(|| sync_builtin(name))
        .or_else(|| math_builtin(name))
        .or_else(|| library_builtin(name))
}

/// The built-in variable clang's `__nvvm_read_ptx_sreg_<register>_<axis>()` reads.
pub(crate) fn special_register(name: &str) -> Option<Special> {
    let (register, axis) = name
        .strip_prefix("__nvvm_read_ptx_sreg_")?
        .rsplit_once('_')?;
    ptx_special(register, axis)
}

/// The built-in variable PTX's special register `%<register>.<axis>` holds: `%tid` is
/// `threadIdx`, `%ntid` `blockDim`, `%ctaid` `blockIdx`, `%nctaid` `gridDim`.
pub(crate) fn ptx_special(register: &str, axis: &str) -> Option<Special> {
    let ctor: fn(Dim) -> Special = match register {
        "tid" => Special::ThreadIdx,
        "ntid" => Special::BlockDim,
        "ctaid" => Special::BlockIdx,
        "nctaid" => Special::GridDim,
        _ => return None,
    };
    Some(ctor(match axis {
        "x" => Dim::X,
        "y" => Dim::Y,
        "z" => Dim::Z,
        _ => return None,
    }))
}

/// Barriers, fences and warp intrinsics.
fn sync_builtin(name: &str) -> Option<Builtin> {
    use Builtin as B;
    Some(match name {
        "__syncthreads" => B::Barrier(BarrierKind::Sync),
        "__syncthreads_count" => B::Barrier(BarrierKind::Count),
        "__syncthreads_and" => B::Barrier(BarrierKind::And),
        "__syncthreads_or" => B::Barrier(BarrierKind::Or),
        "__syncwarp" => B::SyncWarp,
        "__threadfence_block" => B::Fence(SyncScope::Block),
        "__threadfence" => B::Fence(SyncScope::Device),
        "__threadfence_system" => B::Fence(SyncScope::System),
        "__activemask" => B::Warp(WarpOp::ActiveMask, false),
        "__ballot_sync" => B::Warp(WarpOp::Ballot, true),
        "__any_sync" => B::Warp(WarpOp::Any, true),
        "__all_sync" => B::Warp(WarpOp::All, true),
        "__uni_sync" => B::Warp(WarpOp::Uni, true),
        "__shfl_sync" => B::Warp(WarpOp::Shfl, true),
        "__shfl_up_sync" => B::Warp(WarpOp::ShflUp, true),
        "__shfl_down_sync" => B::Warp(WarpOp::ShflDown, true),
        "__shfl_xor_sync" => B::Warp(WarpOp::ShflXor, true),
        "__match_any_sync" => B::Warp(WarpOp::MatchAny, true),
        "__match_all_sync" => B::Warp(WarpOp::MatchAll, true),
        "__ballot" => B::Warp(WarpOp::Ballot, false),
        // Pre-CUDA 9 vote functions, still found in old samples.
        "any" => B::Warp(WarpOp::Any, false),
        "all" => B::Warp(WarpOp::All, false),
        "__any" => B::Warp(WarpOp::Any, false),
        "__all" => B::Warp(WarpOp::All, false),
        "__shfl" => B::Warp(WarpOp::Shfl, false),
        "__shfl_up" => B::Warp(WarpOp::ShflUp, false),
        "__shfl_down" => B::Warp(WarpOp::ShflDown, false),
        "__shfl_xor" => B::Warp(WarpOp::ShflXor, false),
        _ => return None,
    })
}

/// Device math: functions, integer intrinsics, rounding arithmetic and conversions.
fn math_builtin(name: &str) -> Option<Builtin> {
    use Builtin as B;
    use Intrinsic as I;
    Some(match name {
        "sqrtf" | "sqrt" | "__fsqrt_rn" | "__dsqrt_rn" => B::Intrinsic(I::Sqrt),
        "rsqrtf" | "rsqrt" => B::Intrinsic(I::Rsqrt),
        "expf" | "exp" | "__expf" => B::Intrinsic(I::Exp),
        "exp2f" | "exp2" => B::Intrinsic(I::Exp2),
        "logf" | "log" | "__logf" => B::Intrinsic(I::Log),
        "log2f" | "log2" | "__log2f" => B::Intrinsic(I::Log2),
        "log10f" | "log10" | "__log10f" => B::Intrinsic(I::Log10),
        "powf" | "pow" | "__powf" => B::Intrinsic(I::Pow),
        "sinf" | "sin" | "__sinf" => B::Intrinsic(I::Sin),
        "cosf" | "cos" | "__cosf" => B::Intrinsic(I::Cos),
        "tanf" | "tan" | "__tanf" => B::Intrinsic(I::Tan),
        "tanhf" | "tanh" => B::Intrinsic(I::Tanh),
        "asinf" | "asin" => B::Intrinsic(I::Asin),
        "acosf" | "acos" => B::Intrinsic(I::Acos),
        "atanf" | "atan" => B::Intrinsic(I::Atan),
        "atan2f" | "atan2" => B::Intrinsic(I::Atan2),
        "sinhf" | "sinh" => B::Intrinsic(I::Sinh),
        "coshf" | "cosh" => B::Intrinsic(I::Cosh),
        "cbrtf" | "cbrt" => B::Intrinsic(I::Cbrt),
        "hypotf" | "hypot" => B::Intrinsic(I::Hypot),
        "expm1f" | "expm1" => B::Intrinsic(I::Expm1),
        "log1pf" | "log1p" => B::Intrinsic(I::Log1p),
        "erff" | "erf" => B::Intrinsic(I::Erf),
        "fabsf" | "fabs" | "abs" | "labs" | "llabs" => B::Intrinsic(I::Abs),
        "floorf" | "floor" => B::Intrinsic(I::Floor),
        "ceilf" | "ceil" => B::Intrinsic(I::Ceil),
        "roundf" | "round" => B::Intrinsic(I::Round),
        "truncf" | "trunc" => B::Intrinsic(I::Trunc),
        "rintf" | "rint" | "nearbyintf" => B::Intrinsic(I::Rint),
        "fmaf" | "fma" | "__fmaf_rn" | "__fma_rn" => B::Intrinsic(I::Fma),
        "fmodf" | "fmod" => B::Intrinsic(I::Fmod),
        "__saturatef" => B::Intrinsic(I::Saturate),
        "isnan" | "__isnanf" | "__isnan" => B::Intrinsic(I::IsNan),
        "isinf" | "__isinff" | "__isinf" => B::Intrinsic(I::IsInf),
        "__popc" | "__popcll" => B::Intrinsic(I::Popc),
        "__clz" | "__clzll" => B::Intrinsic(I::Clz),
        "__ffs" | "__ffsll" => B::Intrinsic(I::Ffs),
        "__brev" | "__brevll" => B::Intrinsic(I::Brev),
        "__mulhi" | "__umulhi" | "__mul64hi" | "__umul64hi" => B::Intrinsic(I::MulHi),
        "__mul24" | "__umul24" => B::Intrinsic(I::Mul24),
        "__sad" | "__usad" => B::Intrinsic(I::Sad),
        "__usad4" => B::Intrinsic(I::Usad4),
        "__float_as_int"
        | "__int_as_float"
        | "__float_as_uint"
        | "__uint_as_float"
        | "__double_as_longlong"
        | "__longlong_as_double" => B::Intrinsic(I::Bitcast),
        "ldexpf" | "ldexp" | "scalbnf" | "scalbn" => B::Intrinsic(I::Ldexp),
        "sincosf" | "sincos" | "__sincosf" => B::SinCos,
        "frexpf" | "frexp" => B::Frexp,
        "min" | "umin" | "llmin" | "ullmin" | "fminf" | "fmin" => B::Binary(BinOp::Min),
        "max" | "umax" | "llmax" | "ullmax" | "fmaxf" | "fmax" => B::Binary(BinOp::Max),
        "__fdividef" | "__fdiv_rn" | "fdividef" => B::Binary(BinOp::Div),
        "__fmul_rn" | "__dmul_rn" => B::Binary(BinOp::Mul),
        "__fadd_rn" | "__dadd_rn" => B::Binary(BinOp::Add),
        "__fsub_rn" | "__dsub_rn" => B::Binary(BinOp::Sub),
        "__float2int_rn" | "__float2uint_rn" | "__double2int_rn" | "__float2ll_rn" | "lrintf"
        | "llrintf" => B::Convert(Some(I::Rint)),
        "__float2int_rd" | "__float2uint_rd" | "__double2int_rd" => B::Convert(Some(I::Floor)),
        "__float2int_ru" | "__float2uint_ru" | "__double2int_ru" => B::Convert(Some(I::Ceil)),
        "__float2int_rz" | "__float2uint_rz" | "__double2int_rz" | "__int2float_rn"
        | "__uint2float_rn" | "__int2double_rn" | "__double2float_rn" | "__ll2float_rn" => {
            B::Convert(None)
        }
        _ => return None,
    })
}

/// cuRAND, textures, cached loads, printf and traps, clocks, GPUVerify's annotations.
fn library_builtin(name: &str) -> Option<Builtin> {
    use Builtin as B;
    use Intrinsic as I;
    Some(match name {
        "curand_init" => B::Curand { init: true },
        "curand"
        | "curand_uniform"
        | "curand_normal"
        | "curand_log_normal"
        | "curand_poisson"
        | "curand_uniform_double"
        | "curand_normal_double"
        | "curand_log_normal_double" => B::Curand { init: false },
        "clock" | "clock64" => B::Intrinsic(I::Clock),
        "tex1Dfetch" | "tex1D" | "tex2D" | "tex3D" | "tex1DLayered" | "tex2DLayered"
        | "texCubemap" | "texCubemapLayered" | "tex1DLod" | "tex2DLod" | "tex3DLod"
        | "tex1DGrad" | "tex2DGrad" | "tex3DGrad" | "tex2Dgather" => B::Texture,
        "__ldg" | "__ldcg" | "__ldca" | "__ldcs" => B::Ldg,
        "printf" => B::Printf,
        "__assertfail" | "__assert_fail" | "__trap" | "abort" => B::Trap,
        "__requires" | "__global_requires" => B::Assume(AssumeKind::Requires),
        "__assume" => B::Assume(AssumeKind::Assume),
        "__assert"
        | "__global_assert"
        | "__invariant"
        | "__global_invariant"
        | "__ensures"
        | "__global_ensures"
        | "__function_wide_invariant"
        | "__function_wide_candidate_invariant"
        | "__candidate_invariant"
        | "__candidate_global_invariant"
        | "__barrier_invariant"
        | "__barrier_invariant_binary"
        | "__array_snapshot"
        | "__assert_mod" => B::Annotation,
        "__implies" => B::Implies,
        "__is_pow2" => B::IsPow2,
        "__nanosleep" | "__prof_trigger" => B::NoOp,
        "__cvta_generic_to_shared" => B::Intrinsic(I::SharedOffset),
        _ => return None,
    })
}

/// GPUVerify predicates that only make sense to its verifier; inside `__requires`/`__assume`
/// they make the condition opaque without a warning.
pub(crate) fn is_gpuverify_predicate(name: &str) -> bool {
    name.starts_with("__other_")
        || name.starts_with("__uniform_")
        || name.starts_with("__distinct_")
        || name.starts_with("__read")
        || name.starts_with("__write")
        || name.starts_with("__atomic")
        || name.starts_with("__no_")
        || name.starts_with("__ptr_")
        || name.starts_with("__old_")
        || name.starts_with("__return_val")
        || name.ends_with("_noovfl")
        || matches!(
            name,
            "__enabled" | "__same_group" | "__same_block" | "__same_warp" | "__is_pow2"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clangs_special_register_builtins_are_the_builtin_variables() {
        assert_eq!(
            special_register("__nvvm_read_ptx_sreg_nctaid_y"),
            Some(Special::GridDim(Dim::Y))
        );
        assert_eq!(
            special_register("__nvvm_read_ptx_sreg_tid_x"),
            Some(Special::ThreadIdx(Dim::X))
        );
        assert_eq!(special_register("__nvvm_read_ptx_sreg_laneid"), None);
        assert_eq!(special_register("__nvvm_read_ptx_sreg_tid_w"), None);
    }
}
