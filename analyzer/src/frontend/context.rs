//! Module-wide lowering state: files, spans, sites, diagnostics and `__device__`/`__constant__`
//! globals.
//!
//! Spans of macro code are reported where the macro is used, as clang does. Code inlined from a
//! system header is reported at the user's call (`ModuleCtx::library_call`), with `Implicit`
//! sites.
//!
//! Source text that is not UTF-8 is read with U+FFFD for each invalid byte and a warning
//! (`read_source`, which the CLI's excerpts use too, so that columns fit); the main file is
//! given to clang in that form, and clang's columns in an included file that is not UTF-8 are
//! converted to that text's (`text_column`).

use super::cursor::{clang_file_bytes, skip_transparent};
use super::lower::place::Place;
use super::respell;
use super::types::{classify, CType};
use crate::collections::HashMap;
use crate::ir::*;
use clang::{Entity, EntityKind, EvaluationResult, TranslationUnit};

pub use gmrace_ir::source::{decode_source, read_source, SourceText};

/// The warning that `file` (`text` decoded) was not UTF-8, at the first invalid byte's line.
pub(crate) fn not_utf8_warning(file: &str, id: FileId, line: u32, text: &str) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        message: format!("`{file}` is not valid UTF-8; invalid bytes shown as U+FFFD"),
        span: Span {
            file: id,
            line,
            column: 1,
            end_line: line,
            end_column: 1,
        },
        source_line: text.lines().nth(line as usize - 1).map(str::to_string),
    }
}

pub(crate) struct ModuleCtx<'tu> {
    pub files: Vec<String>,
    file_ids: HashMap<String, FileId>,
    file_text: HashMap<FileId, String>,
    /// The bytes of included files that are not UTF-8: clang's columns count them, the text
    /// kept has U+FFFD (three bytes) for each invalid one.
    raw_bytes: HashMap<FileId, Vec<u8>>,
    pub diagnostics: Vec<Diagnostic>,
    pub globals: Vec<GlobalVar>,
    global_ids: HashMap<Entity<'tu>, GlobalId>,
    /// Device function definitions of the user's files, in source order: the possible targets
    /// of an indirect call.
    pub device_functions: Vec<Entity<'tu>>,
    /// Functions whose address is used, indexed by function id - 1.
    pub function_refs: Vec<Entity<'tu>>,
    /// While a function of a system header (the stand-ins' `cuda::atomic_ref`, a toolkit or
    /// C++ library template) is inlined: the user's call, where everything in it is reported,
    /// and whose text is not the accessed memory (its sites are `Implicit`).
    pub library_call: Option<Span>,
    /// The macros and constants a kernel's `__launch_bounds__` may name, read once one has a
    /// bound (`launch_bounds.rs`).
    pub names: Option<super::launch_bounds::Names>,
}

impl<'tu> ModuleCtx<'tu> {
    pub fn new(main_file: &str) -> Self {
        let mut ctx = ModuleCtx {
            files: Vec::new(),
            file_ids: HashMap::default(),
            file_text: HashMap::default(),
            raw_bytes: HashMap::default(),
            diagnostics: Vec::new(),
            globals: Vec::new(),
            global_ids: HashMap::default(),
            device_functions: Vec::new(),
            function_refs: Vec::new(),
            library_call: None,
            names: None,
        };
        ctx.file_id(main_file);
        ctx
    }

    pub fn file_id(&mut self, path: &str) -> FileId {
        if let Some(id) = self.file_ids.get(path) {
            return *id;
        }
        let id = self.files.len() as FileId;
        self.files.push(path.to_string());
        self.file_ids.insert(path.to_string(), id);
        id
    }

    /// The user-visible span of an entity: where the code is written, or for code produced by a
    /// macro, where the macro is used (as clang's own diagnostics do).
    /// Where `e` names memory in the source: its full extent, unless any of it comes from a
    /// macro expansion (the expansion and spelling locations of its ends then differ).
    pub fn site(&mut self, e: Entity) -> Site {
        if self.library_call.is_some() {
            return Site::Implicit;
        }
        let Some(range) = e.get_range() else {
            return Site::Implicit;
        };
        let in_macro = |l: clang::source::SourceLocation| {
            let (x, s) = (l.get_expansion_location(), l.get_spelling_location());
            (x.file, x.offset) != (s.file, s.offset)
        };
        if in_macro(range.get_start()) || in_macro(range.get_end()) {
            return Site::Macro;
        }
        Site::Expr(self.span(e))
    }

    pub fn span(&mut self, e: Entity) -> Span {
        if let Some(call) = self.library_call {
            return call;
        }
        let (start, end) = match e.get_range() {
            Some(r) => (r.get_start(), r.get_end()),
            None => match e.get_location() {
                Some(l) => (l, l),
                None => return Span::default(),
            },
        };
        let s = start.get_expansion_location();
        let t = end.get_expansion_location();
        let Some(file) = s.file else {
            return Span::default();
        };
        let path = file.get_path().display().to_string();
        let id = self.file_id(&path);
        self.load_text(e.get_translation_unit(), id, file);
        let (column, end_column) = (
            self.text_column(id, s.line, s.column),
            self.text_column(id, t.line, t.column),
        );
        Span {
            file: id,
            line: s.line,
            column,
            end_line: t.line.max(s.line),
            end_column: if t.line == s.line {
                end_column.max(column)
            } else {
                end_column
            },
        }
    }

    /// The file's text from the start of `span` on.
    pub fn text_from(&self, span: Span) -> Option<&str> {
        let text = self.file_text.get(&span.file)?;
        let at = respell::offset(text, span.line, span.column)?;
        text.get(at..)
    }

    pub fn source_line(&self, span: Span) -> Option<String> {
        let text = self.file_text.get(&span.file)?;
        text.lines()
            .nth(span.line.checked_sub(1)? as usize)
            .map(str::to_string)
    }

    /// The text of a file clang read, where kept (`load_text`, `set_text`).
    pub fn text(&self, id: FileId) -> Option<&str> {
        self.file_text.get(&id).map(String::as_str)
    }

    pub fn set_text(&mut self, id: FileId, text: String) {
        self.file_text.insert(id, text);
    }

    /// Keeps the text of a file clang read (an included one: the main file's is set first), for
    /// diagnostics' source lines, with a warning when it is not UTF-8.
    pub fn load_text(&mut self, tu: &TranslationUnit, id: FileId, file: clang::source::File) {
        if self.file_text.contains_key(&id) {
            return;
        }
        let bytes = clang_file_bytes(tu, file);
        let source = decode_source(bytes.clone());
        if let Some(line) = source.first_invalid_line {
            let warning = not_utf8_warning(&self.files[id as usize], id, line, &source.text);
            self.diagnostics.push(warning);
            self.raw_bytes.insert(id, bytes);
        }
        self.file_text.insert(id, source.text);
    }

    /// Clang's byte column `column` of `line` as a byte column of the text kept for the file.
    pub fn text_column(&self, id: FileId, line: u32, column: u32) -> u32 {
        let Some(bytes) = self.raw_bytes.get(&id) else {
            return column;
        };
        let Some(raw) = bytes
            .split(|b| *b == b'\n')
            .nth(line.saturating_sub(1) as usize)
        else {
            return column;
        };
        let before = (column.saturating_sub(1) as usize).min(raw.len());
        let past_end = column.saturating_sub(1) - before as u32;
        String::from_utf8_lossy(&raw[..before]).len() as u32 + past_end + 1
    }

    pub fn diag(&mut self, severity: Severity, span: Span, message: String) {
        let source_line = self.source_line(span);
        let dup = self
            .diagnostics
            .iter()
            .any(|d| d.span == span && d.message == message);
        if !dup {
            self.diagnostics.push(Diagnostic {
                severity,
                message,
                span,
                source_line,
            });
        }
    }

    pub fn warn(&mut self, span: Span, message: String) {
        self.diag(Severity::Warning, span, message)
    }

    /// Declared by gmrace's stand-in headers, clang's resource headers or a system header.
    pub fn is_library_decl(&self, decl: Entity) -> bool {
        // Builtins clang declares implicitly have no file at all.
        decl.get_location()
            .map(|l| l.is_in_system_header() || l.get_file_location().file.is_none())
            .unwrap_or(true)
    }

    /// Registers a file-scope `__device__`/`__constant__` variable (or a static local).
    pub fn register_global(&mut self, v: Entity<'tu>) -> GlobalId {
        let key = v.get_canonical_entity();
        if let Some(id) = self.global_ids.get(&key) {
            return *id;
        }
        let def = v.get_definition().unwrap_or(v);
        let ct = def.get_type().map(classify).unwrap_or(CType::Void);
        let (elem, dims) = ct.array_shape();
        let space = if def
            .get_children()
            .iter()
            .any(|c| c.get_kind() == EntityKind::CudaConstantAttr)
        {
            Space::Constant
        } else {
            Space::Global
        };
        let init = def
            .get_children()
            .into_iter()
            .rfind(|c| c.is_expression())
            .and_then(flatten_init);
        let span = self.span(def);
        let id = GlobalId(self.globals.len() as u32);
        self.globals.push(GlobalVar {
            name: def.get_name().unwrap_or_default(),
            space,
            size_bytes: ct.size().unwrap_or(0),
            elem,
            dims,
            init,
            span,
        });
        self.global_ids.insert(key, id);
        id
    }

    /// The id (≥ 1) a function pointer to `f` holds.
    pub fn function_id(&mut self, f: Entity<'tu>) -> u64 {
        let key = f.get_canonical_entity();
        let pos = match self.function_refs.iter().position(|g| *g == key) {
            Some(p) => p,
            None => {
                self.function_refs.push(key);
                self.function_refs.len() - 1
            }
        };
        pos as u64 + 1
    }

    pub fn global_place(&mut self, v: Entity<'tu>) -> Place {
        let id = self.register_global(v);
        let g = &self.globals[id.index()];
        let ty = v.get_type().map(classify).unwrap_or(CType::Void);
        Place::Mem {
            addr: Expr::new(ExprKind::GlobalAddr(id), Ty::Ptr(g.space)),
            ty,
            array: Some(g.name.clone()),
            site: Site::Implicit,
        }
    }
}

fn flatten_init(e: Entity) -> Option<Vec<ConstValue>> {
    let e = skip_transparent(e);
    if e.get_kind() == EntityKind::InitListExpr {
        let mut out = Vec::new();
        for c in e.get_children() {
            out.extend(flatten_init(c)?);
        }
        return Some(out);
    }
    match e.evaluate()? {
        EvaluationResult::SignedInteger(v) => Some(vec![ConstValue::Int(v)]),
        EvaluationResult::UnsignedInteger(v) => Some(vec![ConstValue::Int(v as i64)]),
        EvaluationResult::Float(f) => Some(vec![ConstValue::Float(f)]),
        _ => None,
    }
}
