//! Classification of clang types into what the IR can hold: clang types become `CType`s
//! (scalar, pointer, array, record with its field offsets, reference).

use crate::ir::{Scalar, Space, Ty};
use clang::{Type, TypeKind};

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CType {
    Void,
    Scalar(Scalar),
    Ptr(Box<CType>),
    Array {
        elem: Box<CType>,
        len: Option<u64>,
    },
    Record(Record),
    /// A pointer to a function of the given (canonical) type; its value is a function id.
    FnPtr(String),
    /// `T&` / `T&&`: binds to a place, never copied.
    Ref(Box<CType>),
    /// CUDA's `threadIdx`-style builtin structs, `dim3`-like objects of unknown layout, function
    /// types, ...: anything an access cannot be built from.
    Unsupported(String),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Record {
    pub name: String,
    pub size: u64,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Field {
    pub name: String,
    pub offset: u64,
    pub ty: CType,
}

impl CType {
    pub fn size(&self) -> Option<u64> {
        match self {
            CType::Scalar(s) => Some(s.size() as u64),
            CType::Ptr(_) | CType::FnPtr(_) => Some(8),
            CType::Array { elem, len } => Some(elem.size()? * (*len)?),
            CType::Record(r) => Some(r.size),
            _ => None,
        }
    }

    /// The IR type of a value of this C type, when it is a scalar or a pointer.
    pub fn value_ty(&self) -> Option<Ty> {
        match self {
            CType::Scalar(s) => Some(Ty::Scalar(*s)),
            CType::Ptr(_) => Some(Ty::Ptr(Space::Generic)),
            CType::FnPtr(_) => Some(Ty::U64),
            CType::Void => Some(Ty::Void),
            _ => None,
        }
    }

    /// A texture or surface reference: a read-only handle whose fetches are `Intrinsic::Texture`.
    pub fn is_texture(&self) -> bool {
        matches!(self, CType::Record(r) if r.name.starts_with("texture<") || r.name.starts_with("surface<"))
    }

    pub fn is_aggregate(&self) -> bool {
        matches!(self, CType::Record(_) | CType::Array { .. })
    }

    /// Scalar leaves with their byte offsets, for copying aggregates one access per leaf.
    pub fn leaves(&self) -> Option<Vec<(u64, Ty)>> {
        let mut out = Vec::new();
        self.collect_leaves(0, &mut out)?;
        Some(out)
    }

    fn collect_leaves(&self, base: u64, out: &mut Vec<(u64, Ty)>) -> Option<()> {
        match self {
            CType::Scalar(_) | CType::Ptr(_) | CType::FnPtr(_) => {
                out.push((base, self.value_ty()?))
            }
            CType::Record(r) => {
                for f in &r.fields {
                    f.ty.collect_leaves(base + f.offset, out)?;
                }
            }
            CType::Array { elem, len } => {
                let size = elem.size()?;
                for i in 0..(*len)? {
                    elem.collect_leaves(base + i * size, out)?;
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// Innermost element scalar and array extents, outermost first.
    pub fn array_shape(&self) -> (Option<Scalar>, Vec<u64>) {
        let mut dims = Vec::new();
        let mut t = self;
        while let CType::Array { elem, len } = t {
            dims.push(len.unwrap_or(0));
            t = elem;
        }
        let elem = match t {
            CType::Scalar(s) => Some(*s),
            _ => None,
        };
        (elem, dims)
    }
}

pub(crate) fn classify(t: Type) -> CType {
    classify_in(t, &mut Vec::new())
}

/// `open`: the records being classified around this type. A record that refers to itself
/// (`struct node { node *next; }`), directly or through others, is kept with its size but
/// without fields where it recurs; lowering classifies `n->next` on its own and sees them there.
fn classify_in(t: Type, open: &mut Vec<String>) -> CType {
    let c = t.get_canonical_type();
    let scalar = |s| CType::Scalar(s);
    match c.get_kind() {
        TypeKind::Void => CType::Void,
        TypeKind::Bool => scalar(Scalar::Bool),
        TypeKind::CharS | TypeKind::SChar => scalar(Scalar::I8),
        TypeKind::CharU | TypeKind::UChar | TypeKind::Char16 => {
            scalar(if c.get_kind() == TypeKind::Char16 {
                Scalar::U16
            } else {
                Scalar::U8
            })
        }
        TypeKind::Short => scalar(Scalar::I16),
        TypeKind::UShort => scalar(Scalar::U16),
        TypeKind::Int | TypeKind::WChar => scalar(Scalar::I32),
        TypeKind::UInt | TypeKind::Char32 => scalar(Scalar::U32),
        TypeKind::Long | TypeKind::LongLong => scalar(Scalar::I64),
        TypeKind::ULong | TypeKind::ULongLong => scalar(Scalar::U64),
        TypeKind::Half | TypeKind::Float16 => scalar(Scalar::F16),
        TypeKind::Float => scalar(Scalar::F32),
        TypeKind::Double => scalar(Scalar::F64),
        TypeKind::Enum => match c
            .get_declaration()
            .and_then(|d| d.get_enum_underlying_type())
        {
            Some(u) => classify_in(u, open),
            None => scalar(Scalar::I32),
        },
        TypeKind::Pointer => match c.get_pointee_type() {
            Some(p) if is_function(p) => CType::FnPtr(p.get_canonical_type().get_display_name()),
            Some(p) => CType::Ptr(Box::new(classify_in(p, open))),
            None => CType::Unsupported(c.get_display_name()),
        },
        TypeKind::LValueReference | TypeKind::RValueReference => match c.get_pointee_type() {
            Some(p) => CType::Ref(Box::new(classify_in(p, open))),
            None => CType::Unsupported(c.get_display_name()),
        },
        TypeKind::ConstantArray => match c.get_element_type() {
            Some(e) => CType::Array {
                elem: Box::new(classify_in(e, open)),
                len: c.get_size().map(|s| s as u64),
            },
            None => CType::Unsupported(c.get_display_name()),
        },
        TypeKind::IncompleteArray => match c.get_element_type() {
            Some(e) => CType::Array {
                elem: Box::new(classify_in(e, open)),
                len: None,
            },
            None => CType::Unsupported(c.get_display_name()),
        },
        TypeKind::Record => classify_record(c, open),
        _ => CType::Unsupported(c.get_display_name()),
    }
}

fn classify_record(c: Type, open: &mut Vec<String>) -> CType {
    let full = c.get_display_name();
    let name = full
        .trim_start_matches("const ")
        .trim_start_matches("volatile ")
        .to_string();
    if name.starts_with("__cuda_builtin_") {
        return CType::Unsupported(name);
    }
    let Ok(size) = c.get_sizeof() else {
        return CType::Unsupported(name);
    };
    if open.contains(&name) {
        return CType::Record(Record {
            name,
            size: size as u64,
            fields: Vec::new(),
        });
    }
    open.push(name.clone());
    let fields = record_fields(c, &name, open);
    open.pop();
    match fields {
        Ok(fields) => CType::Record(Record {
            name,
            size: size as u64,
            fields,
        }),
        Err(unsupported) => unsupported,
    }
}

fn record_fields(c: Type, name: &str, open: &mut Vec<String>) -> Result<Vec<Field>, CType> {
    let mut fields = Vec::new();
    for f in c.get_fields().unwrap_or_default() {
        if f.is_bit_field() {
            return Err(CType::Unsupported(format!("{name} (bit-fields)")));
        }
        // Anonymous struct and union members have no name; their offset is still known.
        let fname = f.get_name().unwrap_or_default();
        let (Some(fty), Ok(bits)) = (f.get_type(), f.get_offset_of_field()) else {
            return Err(CType::Unsupported(name.to_string()));
        };
        fields.push(Field {
            name: fname,
            offset: bits as u64 / 8,
            ty: classify_in(fty, open),
        });
    }
    Ok(fields)
}

/// Whether a pointer's pointee, or a variable's own type, is `const`.
pub(crate) fn pointee_is_const(t: Type) -> bool {
    t.get_canonical_type()
        .get_pointee_type()
        .map(|p| p.is_const_qualified())
        .unwrap_or(false)
}

pub(crate) fn is_function(t: Type) -> bool {
    matches!(
        t.get_canonical_type().get_kind(),
        TypeKind::FunctionPrototype | TypeKind::FunctionNoPrototype
    )
}
