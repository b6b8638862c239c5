//! Where a value of the source lives while a kernel is lowered, and what a call gives back.
//! Its own module so that the module context (`context.rs`, which places `__device__`
//! globals) and the lowering share the type without depending on each other.

use crate::frontend::types::CType;
use crate::ir::*;

#[derive(Clone, Debug)]
pub(crate) enum Place {
    Local(LocalId, CType),
    /// A read-only value, e.g. a kernel parameter the kernel never assigns.
    Value(Expr, CType),
    Mem {
        addr: Expr,
        ty: CType,
        array: Option<String>,
        site: Site,
    },
    Opaque(String),
}

impl Place {
    pub(crate) fn ctype(&self) -> CType {
        match self {
            Place::Local(_, t) | Place::Value(_, t) | Place::Mem { ty: t, .. } => t.clone(),
            Place::Opaque(r) => CType::Unsupported(r.clone()),
        }
    }
}

/// A call's result: a value, or a place when the function returns a reference.
pub(crate) enum CallValue {
    Value(Expr),
    Place(Place),
}
