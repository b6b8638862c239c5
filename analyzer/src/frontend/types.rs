//! Classification of clang types into what the IR can hold: clang types become `CType`s
//! (scalar, pointer, array, record with its field offsets, reference).

use crate::ir::{Scalar, Space, Ty};
use clang::{Entity, EntityKind, Type, TypeKind};

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
    let class = c.get_declaration().and_then(|d| d.get_definition());
    let mut fields = class.map(|k| base_fields(k, open)).unwrap_or_default();
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

/// A class's bases that hold data, each as a field at its offset, first, as a braced list
/// initialises them. libclang 19 gives no base's offset: a base is placed only where the
/// layout puts it at 0 (`base_at_zero`); one elsewhere is a field of no known type, so that no
/// copy of the whole object is made of the leaves it knows (it would miss the base's bytes).
fn base_fields(class: Entity, open: &mut Vec<String>) -> Vec<Field> {
    let zero = base_at_zero(class);
    let mut out = Vec::new();
    for (base, ty) in bases(class) {
        if is_empty(base, 0) {
            continue;
        }
        let name = format!("<base {}>", ty.get_display_name());
        let ty = match Some(base) == zero {
            true => classify_in(ty, open),
            false => CType::Unsupported(format!("{name} at an unknown offset")),
        };
        out.push(Field {
            name,
            offset: 0,
            ty,
        });
    }
    out
}

/// The direct bases of `class`, defined, with their types.
fn bases(class: Entity) -> Vec<(Entity, Type)> {
    let specs = class.get_children().into_iter();
    let specs = specs.filter(|k| k.get_kind() == EntityKind::BaseSpecifier);
    specs
        .filter_map(|b| {
            let ty = b.get_type()?;
            Some((ty.get_declaration()?.get_definition()?, ty))
        })
        .collect()
}

/// The base the Itanium layout puts at offset 0 of `class`: its first base, when that is not
/// virtual and `class` needs no pointer to a virtual table of its own before it.
pub(crate) fn base_at_zero(class: Entity) -> Option<Entity> {
    let first = class
        .get_children()
        .into_iter()
        .find(|k| k.get_kind() == EntityKind::BaseSpecifier)?;
    let base = first.get_type()?.get_declaration()?.get_definition()?;
    let own_vptr = is_polymorphic(class, 0) && !is_polymorphic(base, 0);
    (!first.is_virtual_base() && !own_vptr).then_some(base)
}

/// Whether `base` lies at offset 0 of an object of class `class`: it is `class`, or the base
/// at 0 of one that does.
pub(crate) fn at_offset_zero(class: Entity, base: Entity) -> bool {
    let mut cur = Some(class);
    for _ in 0..MAX_BASE_DEPTH {
        match cur {
            Some(c) if c == base => return true,
            Some(c) => cur = base_at_zero(c),
            None => return false,
        }
    }
    false
}

/// Whether a member that class `holder` declares is at its known offset in an object of class
/// `class`: `holder` is not a base of `class` (it is `class`, or an anonymous member's record),
/// or a base at offset 0.
pub(crate) fn member_offset_known(class: Entity, holder: Entity) -> bool {
    !derives_from(class, holder, 0) || at_offset_zero(class, holder)
}

fn derives_from(class: Entity, base: Entity, depth: usize) -> bool {
    depth < MAX_BASE_DEPTH
        && bases(class)
            .iter()
            .any(|(b, _)| *b == base || derives_from(*b, base, depth + 1))
}

/// Deeper chains of bases are not followed.
const MAX_BASE_DEPTH: usize = 16;

fn is_polymorphic(class: Entity, depth: usize) -> bool {
    depth < MAX_BASE_DEPTH
        && (class.get_children().iter().any(|m| m.is_virtual_method())
            || bases(class)
                .iter()
                .any(|(b, _)| is_polymorphic(*b, depth + 1)))
}

/// A class that takes no bytes as a base: no data members, no virtual table, no bases that do.
fn is_empty(class: Entity, depth: usize) -> bool {
    let fields = class
        .get_type()
        .and_then(|t| t.get_fields())
        .unwrap_or_default();
    depth < MAX_BASE_DEPTH
        && fields.is_empty()
        && !is_polymorphic(class, 0)
        && bases(class).iter().all(|(b, _)| is_empty(*b, depth + 1))
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
