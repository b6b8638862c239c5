//! Statements and structured control flow.
//!
//! Loops: the parts of a `for` are located by the header's semicolons, because libclang omits
//! absent ones. A `switch` becomes a scope in which case group *i* runs when the selected group
//! is ≤ *i* (fall-through), and `break` exits the scope.

use super::lifetime::{class_of, needs_destruction};
use super::{BreakTarget, KernelLowerer, Place};
use crate::ir::*;
use clang::{Entity, EntityKind};

impl<'m, 'tu> KernelLowerer<'m, 'tu> {
    pub(super) fn stmt(&mut self, s: Entity<'tu>) {
        let span = self.m.span(s);
        let kids = s.get_children();
        match s.get_kind() {
            EntityKind::CompoundStmt => {
                let mark = self.frame().objects.len();
                self.stmts(&kids);
                self.destroy_objects(mark, span);
            }
            // A structured binding (`auto [x, y] = f();`) is an unexposed declaration holding
            // its initializer: not modelled, and its effects not lost.
            EntityKind::DeclStmt
                if kids.iter().any(|d| {
                    d.get_kind() == EntityKind::UnexposedDecl
                        && d.get_children().iter().any(|c| c.is_expression())
                }) =>
            {
                self.unsupported(s, "structured binding")
            }
            EntityKind::DeclStmt => {
                for d in kids {
                    if d.get_kind() == EntityKind::VarDecl {
                        self.declare_var(d);
                    }
                }
                self.destroy_temporaries(s, span);
            }
            EntityKind::NullStmt => {}
            // Objects declared in a statement's header live until the statement ends.
            EntityKind::IfStmt
            | EntityKind::ForStmt
            | EntityKind::WhileStmt
            | EntityKind::SwitchStmt => {
                let mark = self.frame().objects.len();
                match s.get_kind() {
                    EntityKind::IfStmt => self.if_stmt(s, &kids, span),
                    EntityKind::ForStmt => self.for_stmt(s, &kids, span),
                    EntityKind::WhileStmt => self.while_stmt(s, &kids, span),
                    _ => self.switch_stmt(s, &kids, span),
                }
                self.destroy_objects(mark, span);
            }
            EntityKind::DoStmt => {
                let [b, c] = kids.as_slice() else {
                    return self.unsupported(s, "do statement");
                };
                self.emit_loop(None, Some(*c), Vec::new(), *b, false, span);
            }
            EntityKind::BreakStmt
            | EntityKind::ContinueStmt
            | EntityKind::ReturnStmt
            | EntityKind::GotoStmt => {
                self.destroy_temporaries(s, span);
                self.jump_past_objects(span);
                self.jump(s, &kids, span);
            }
            // Case labels reached outside a switch body we understood, and goto labels: the
            // statement they label runs in order.
            EntityKind::CaseStmt | EntityKind::DefaultStmt | EntityKind::LabelStmt => {
                if let Some(sub) = kids.last() {
                    self.stmt(*sub);
                }
            }
            // `#pragma unroll` and `[[likely]]` wrap their statement in an AttributedStmt, which
            // libclang does not expose: the wrapped statement is its last child.
            EntityKind::UnexposedStmt
                if kids
                    .last()
                    .is_some_and(|k| k.is_statement() || k.is_expression()) =>
            {
                self.stmt(*kids.last().expect("checked non-empty"))
            }
            EntityKind::IndirectGotoStmt => self.unsupported(s, "computed goto"),
            EntityKind::AsmStmt => self.asm_stmt(s, &kids, span),
            _ if s.is_expression() => {
                self.effect(s);
                self.destroy_temporaries(s, span);
            }
            kind => self.unsupported(s, &format!("{kind:?}")),
        }
    }

    /// `break`, `continue`, `return` and `goto`.
    fn jump(&mut self, s: Entity<'tu>, kids: &[Entity<'tu>], span: Span) {
        match s.get_kind() {
            EntityKind::BreakStmt => match self.frame().breaks.last() {
                Some(BreakTarget::Switch(id)) => {
                    let id = *id;
                    self.emit(StmtKind::Exit(id), span)
                }
                _ => self.emit(StmtKind::Break, span),
            },
            EntityKind::ContinueStmt => self.emit(StmtKind::Continue, span),
            EntityKind::ReturnStmt => self.return_stmt(kids.first().copied(), span),
            _ => {
                let target = kids.first().and_then(|l| l.get_name());
                match target.and_then(|n| self.frame().labels.get(&n).copied()) {
                    Some(id) => self.emit(StmtKind::Exit(id), span),
                    None => self.unsupported(s, "goto backwards or into a block"),
                }
            }
        }
    }

    /// A statement list. A forward `goto L` to a label later in this list becomes an exit from
    /// a scope that ends just before `L`; labels are handled from the last, so nested ranges
    /// become nested scopes.
    pub(super) fn stmts(&mut self, items: &[Entity<'tu>]) {
        for (i, item) in items.iter().enumerate().rev() {
            if item.get_kind() != EntityKind::LabelStmt {
                continue;
            }
            let Some(name) = item.get_name() else {
                continue;
            };
            let Some(j) = items[..i].iter().position(|x| jumps_to(*x, &name)) else {
                continue;
            };
            self.stmts(&items[..j]);
            let id = self.new_scope();
            self.frame_mut().labels.insert(name.clone(), id);
            let body = self.block(|l| l.stmts(&items[j..i]));
            self.frame_mut().labels.remove(&name);
            let span = self.m.span(items[j]);
            self.emit(StmtKind::Scope { id, body }, span);
            self.stmts(&items[i..]);
            return;
        }
        for item in items {
            self.stmt(*item);
        }
    }

    pub(super) fn unsupported(&mut self, s: Entity<'tu>, what: &str) {
        let span = self.m.span(s);
        self.m.warn(span, format!("unsupported statement: {what}"));
        self.dropped.push(s);
        self.emit(
            StmtKind::Opaque {
                reason: what.to_string(),
            },
            span,
        );
    }

    fn if_stmt(&mut self, s: Entity<'tu>, kids: &[Entity<'tu>], span: Span) {
        // Children: [init-statement] [condition variable] condition then [else]; only the
        // header's `;` tells an init expression from a condition.
        let first_kind = kids.first().map(|k| k.get_kind());
        let init = header_semicolon_offsets(s).is_some_and(|semis| !semis.is_empty())
            || first_kind == Some(EntityKind::DeclStmt);
        let init = usize::from(init);
        let var = kids.get(init).map(|k| k.get_kind()) == Some(EntityKind::VarDecl);
        let (header, rest) = kids.split_at((init + usize::from(var)).min(kids.len()));
        for k in header {
            self.header_part(*k);
        }
        let (c, t, e) = match rest {
            [c, t] => (*c, *t, None),
            [c, t, e] => (*c, *t, Some(*e)),
            _ => return self.unsupported(s, "if statement"),
        };
        let cond = self.cond(c);
        let then_body = self.block(|l| l.stmt(t));
        let else_body = match e {
            Some(e) => self.block(|l| l.stmt(e)),
            None => Vec::new(),
        };
        self.emit(
            StmtKind::If {
                cond,
                then_body,
                else_body,
            },
            span,
        );
    }

    /// `for (init; cond; inc) body`: libclang omits absent parts, so the `;` positions of the
    /// header tell which child is which.
    fn for_stmt(&mut self, s: Entity<'tu>, kids: &[Entity<'tu>], span: Span) {
        // A condition variable (`for (;T x = f();)`) is a `VarDecl` child, an init a `DeclStmt`.
        let cond_var = kids
            .iter()
            .find(|k| k.get_kind() == EntityKind::VarDecl)
            .copied();
        let kids: Vec<Entity<'tu>> = kids
            .iter()
            .filter(|k| Some(**k) != cond_var)
            .copied()
            .collect();
        let (init, cond, inc, body) = match kids.as_slice() {
            [i, c, n, b] => (Some(*i), Some(*c), Some(*n), *b),
            [b] => (None, None, None, *b),
            _ => {
                let Some((semi1, semi2)) = header_semicolons(s) else {
                    return self.unsupported(s, "for statement");
                };
                let body = *kids.last().expect("matched non-empty");
                let mut parts = (None, None, None);
                for k in &kids[..kids.len() - 1] {
                    let off = k
                        .get_range()
                        .map(|r| r.get_start().get_file_location().offset)
                        .unwrap_or(0);
                    if off < semi1 {
                        parts.0 = Some(*k);
                    } else if off < semi2 {
                        parts.1 = Some(*k);
                    } else {
                        parts.2 = Some(*k);
                    }
                }
                (parts.0, parts.1, parts.2, body)
            }
        };
        if let Some(i) = init {
            self.stmt(i);
        }
        let step = match inc {
            Some(n) => self.block(|l| l.effect(n)),
            None => Vec::new(),
        };
        if destroyed_each_test(cond_var) {
            return self.unsupported(s, "condition variable with a destructor");
        }
        self.emit_loop(cond_var, cond, step, body, true, span);
    }

    fn while_stmt(&mut self, s: Entity<'tu>, kids: &[Entity<'tu>], span: Span) {
        let (cond_var, cond, body) = match kids {
            [c, b] => (None, *c, *b),
            [decl, c, b] if decl.get_kind() == EntityKind::VarDecl => (Some(*decl), *c, *b),
            _ => return self.unsupported(s, "while statement"),
        };
        if destroyed_each_test(cond_var) {
            return self.unsupported(s, "condition variable with a destructor");
        }
        self.emit_loop(cond_var, Some(cond), Vec::new(), body, true, span);
    }

    /// A part of a statement's header before its condition: an init statement, or a condition
    /// variable.
    fn header_part(&mut self, k: Entity<'tu>) {
        match k.get_kind() {
            EntityKind::VarDecl => self.declare_var(k),
            _ => self.stmt(k),
        }
    }

    /// A loop; `cond_var`, a variable its condition declares, is made anew on each test.
    fn emit_loop(
        &mut self,
        cond_var: Option<Entity<'tu>>,
        cond: Option<Entity<'tu>>,
        step: Block,
        body: Entity<'tu>,
        test_first: bool,
        span: Span,
    ) {
        let (cond_prelude, cond) = match cond {
            Some(c) => {
                let (pre, v) = self.capture(|l| {
                    if let Some(v) = cond_var {
                        l.declare_var(v);
                    }
                    l.cond(c)
                });
                (pre, Some(v))
            }
            None => (Vec::new(), None),
        };
        self.frame_mut().breaks.push(BreakTarget::Loop);
        let body = self.block(|l| l.stmt(body));
        self.frame_mut().breaks.pop();
        self.emit(
            StmtKind::Loop {
                cond,
                cond_prelude,
                test_first,
                body,
                step,
            },
            span,
        );
    }

    fn return_stmt(&mut self, value: Option<Entity<'tu>>, span: Span) {
        let ret = self.frame().ret.clone();
        match ret {
            None => {
                if let Some(v) = value {
                    self.effect(v);
                }
                self.emit(StmtKind::Return, span);
            }
            Some((scope, slot)) => {
                match (value, slot) {
                    (Some(v), Some(Place::Opaque(_))) if self.frame().ret_ref => {
                        let place = self.lvalue(v);
                        if let Some((_, slot)) = &mut self.frame_mut().ret {
                            *slot = Some(place);
                        }
                    }
                    (Some(v), Some(slot)) if !self.elidable_copy(&slot, v, span) => {
                        self.init_place(&slot, v, span)
                    }
                    (Some(_), Some(_)) => {}
                    (Some(v), None) => self.effect(v),
                    (None, _) => {}
                }
                self.emit(StmtKind::Exit(scope), span);
            }
        }
    }

    /// `switch` becomes a scope: the selector picks the first case group to run, and group `i`
    /// runs when the selected group is at or before it, which is C's fall-through.
    fn switch_stmt(&mut self, s: Entity<'tu>, kids: &[Entity<'tu>], span: Span) {
        // libclang does not list a `switch`'s init statement: it would be lost.
        if header_semicolon_offsets(s).is_some_and(|semis| !semis.is_empty()) {
            return self.unsupported(s, "switch with an init statement");
        }
        // Children: [condition variable] condition body.
        let Some((header, &[cond, body])) = kids.len().checked_sub(2).map(|n| kids.split_at(n))
        else {
            return self.unsupported(s, "switch statement");
        };
        for k in header {
            self.header_part(*k);
        }
        let mut groups: Vec<(Vec<Option<Expr>>, Vec<Entity<'tu>>)> = Vec::new();
        let items = if body.get_kind() == EntityKind::CompoundStmt {
            body.get_children()
        } else {
            vec![body]
        };
        for item in items {
            let mut cur = item;
            let mut labels = Vec::new();
            while matches!(
                cur.get_kind(),
                EntityKind::CaseStmt | EntityKind::DefaultStmt
            ) {
                let ch = cur.get_children();
                if cur.get_kind() == EntityKind::CaseStmt {
                    let Some(v) = ch.first().and_then(|c| self.constant(*c)) else {
                        return self.unsupported(s, "non-constant case label");
                    };
                    labels.push(Some(v));
                } else {
                    labels.push(None);
                }
                match ch.last() {
                    Some(sub) if ch.len() > usize::from(cur.get_kind() == EntityKind::CaseStmt) => {
                        cur = *sub
                    }
                    _ => break,
                }
            }
            if !labels.is_empty() {
                groups.push((labels, Vec::new()));
            }
            let is_label = matches!(
                cur.get_kind(),
                EntityKind::CaseStmt | EntityKind::DefaultStmt
            );
            match groups.last_mut() {
                Some(g) if !is_label => g.1.push(cur),
                Some(_) => {}
                // Statements before the first label are unreachable.
                None => {}
            }
        }
        let disc = self.rvalue(cond);
        let dty = disc.ty;
        let disc = self.snapshot(disc, span);
        let n = groups.len() as i64;
        let default = groups
            .iter()
            .position(|(labels, _)| labels.iter().any(Option::is_none))
            .map(|i| i as i64)
            .unwrap_or(n);
        let mut selector = Expr::int(default, Ty::I32);
        for (i, (labels, _)) in groups.iter().enumerate().rev() {
            for v in labels.iter().flatten() {
                let eq = super::expr::make_binary(
                    BinOp::Eq,
                    disc.clone(),
                    super::convert(v.clone(), dty),
                    Ty::BOOL,
                );
                selector = Expr::new(
                    ExprKind::Select(
                        Box::new(eq),
                        Box::new(Expr::int(i as i64, Ty::I32)),
                        Box::new(selector),
                    ),
                    Ty::I32,
                );
            }
        }
        let sel = self.new_temp(Ty::I32);
        self.emit(
            StmtKind::Assign {
                dst: sel,
                value: selector,
            },
            span,
        );
        let scope = self.new_scope();
        self.frame_mut().breaks.push(BreakTarget::Switch(scope));
        let mut scope_body = Vec::new();
        for (i, (_, stmts)) in groups.iter().enumerate() {
            let then_body = self.block(|l| stmts.iter().for_each(|st| l.stmt(*st)));
            let cond = super::expr::make_binary(
                BinOp::Le,
                Expr::new(ExprKind::Local(sel), Ty::I32),
                Expr::int(i as i64, Ty::I32),
                Ty::BOOL,
            );
            scope_body.push(Stmt {
                kind: StmtKind::If {
                    cond,
                    then_body,
                    else_body: Vec::new(),
                },
                span,
            });
        }
        self.frame_mut().breaks.pop();
        self.emit(
            StmtKind::Scope {
                id: scope,
                body: scope_body,
            },
            span,
        );
    }
}

/// File offsets of the two top-level `;` in a `for` header.
fn header_semicolons(s: Entity) -> Option<(u32, u32)> {
    match header_semicolon_offsets(s)?.as_slice() {
        [a, b] => Some((*a, *b)),
        _ => None,
    }
}

/// File offsets of the top-level `;` in a statement's parenthesised header. None for a
/// statement written in a macro: its tokens are read where the macro is defined, its parts'
/// places where it is used or where its arguments are written, so the two cannot be compared.
fn header_semicolon_offsets(s: Entity) -> Option<Vec<u32>> {
    let start = s.get_range()?.get_start();
    if start.get_spelling_location() != start.get_file_location() {
        return None;
    }
    let tokens = s.get_range()?.tokenize();
    let mut depth = 0;
    let mut semis = Vec::new();
    for t in tokens {
        match t.get_spelling().as_str() {
            // A lambda's body in the header nests its own `;`.
            "(" | "{" => depth += 1,
            ")" | "}" => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ";" if depth == 1 => semis.push(t.get_location().get_file_location().offset),
            _ => {}
        }
    }
    Some(semis)
}

/// Whether `e` contains a `goto name`.
fn jumps_to(e: Entity, name: &str) -> bool {
    let mut found = false;
    crate::frontend::cursor::visit(e, &mut |x| {
        if x.get_kind() == EntityKind::GotoStmt {
            found |= x
                .get_children()
                .first()
                .and_then(|l| l.get_name())
                .is_some_and(|n| n == name);
        }
    });
    found
}

/// A loop's condition variable is made and destroyed on each test; destroying it runs code, at
/// a place the lowering does not model.
fn destroyed_each_test(cond_var: Option<Entity>) -> bool {
    let class = cond_var.and_then(|v| v.get_type()).and_then(class_of);
    class.is_some_and(|c| needs_destruction(c, 0))
}
