//! The headers a file includes that clang's include path does not hold, from parse to parse:
//! each is the project's file of that name (`project_headers`, looked for before the first
//! parse from the `#include "..."` lines, and when clang says one is missing), or a file of
//! gmrace's, empty or including the CUDA and C++ library headers whose types the file took
//! from it (`recovery::headers_needed`, asked once).
//!
//! libclang goes on past a missing header, so the parse that finds one has read it as empty
//! already: only a header found in the project, or one standing for library headers, needs
//! another parse.

use super::project_headers::{self, Found};
use super::recovery::{self, ClangError};
use clang::{TranslationUnit, Unsaved};
use std::path::{Path, PathBuf};

/// More headers missing than this and the file is read as it is.
const MAX_MISSING_HEADERS: usize = 64;

pub(super) struct Unfound {
    /// Where the headers read as gmrace's files are written.
    dir: PathBuf,
    /// Headers found nowhere, read from `dir`.
    pub missing: Vec<String>,
    /// Headers found in the project around the file.
    pub found: Vec<(String, Found)>,
    /// Whether `found` still holds headers found before any parse, some perhaps never included.
    prefound: bool,
    /// What the missing headers stand for, once asked.
    pub standing_for: Vec<&'static str>,
    asked: bool,
}

impl Unfound {
    /// `found`: the headers `project_headers::prefind` found before any parse.
    pub fn new(found: Vec<(String, Found)>, include: &Path) -> Unfound {
        Unfound {
            dir: include.join("gmrace_missing"),
            missing: Vec::new(),
            prefound: !found.is_empty(),
            found,
            standing_for: Vec::new(),
            asked: false,
        }
    }

    /// The next parse's arguments and files for these headers.
    pub fn add_to(&self, args: &mut Vec<String>, unsaved: &mut Vec<Unsaved>) {
        for (_, f) in &self.found {
            args.push(format!("-idirafter{}", f.dir.display()));
        }
        if !self.missing.is_empty() {
            args.push(format!("-idirafter{}", self.dir.display()));
            let text: String = self
                .standing_for
                .iter()
                .map(|h| format!("#include <{h}>\n"))
                .collect();
            unsaved.extend(
                self.missing
                    .iter()
                    .map(|h| Unsaved::new(self.dir.join(h), &text)),
            );
        }
    }

    /// Takes in a parse of `file` (its tree and errors, if clang gave one): whether the file
    /// must be parsed again for the headers it did not find.
    pub fn parse_again(
        &mut self,
        file: &Path,
        tu: Option<&TranslationUnit>,
        errors: Option<&[ClangError]>,
    ) -> bool {
        if let (true, Some(tu)) = (std::mem::take(&mut self.prefound), tu) {
            self.found = project_headers::included(std::mem::take(&mut self.found), tu);
        }
        let not_found: Vec<String> = errors
            .map(recovery::missing_includes)
            .unwrap_or_default()
            .into_iter()
            .filter(|h| !self.missing.contains(h))
            .collect();
        let mut newly_missing = false;
        if !not_found.is_empty()
            && self.missing.len() + self.found.len() < MAX_MISSING_HEADERS
            && std::fs::create_dir_all(&self.dir).is_ok()
        {
            if self.look_for(file, not_found) {
                // A header found in the project changes the errors.
                return true;
            }
            newly_missing = true;
        }
        if self.missing.is_empty() {
            return false;
        }
        let asking = !std::mem::replace(&mut self.asked, true);
        if asking {
            self.standing_for = errors.map(recovery::headers_needed).unwrap_or_default();
        }
        // Read as empty, as this parse read them, they need no other.
        !self.standing_for.is_empty() && (asking || newly_missing)
    }

    /// Looks for the headers in the project, the others missing: whether one was found.
    fn look_for(&mut self, file: &Path, headers: Vec<String>) -> bool {
        let mut found_now = false;
        for h in headers {
            // One found before and still not found (unreadable) is read as empty.
            let looked = self.found.iter().any(|(f, _)| *f == h);
            self.found.retain(|(f, _)| *f != h);
            match project_headers::find(file, &h).filter(|_| !looked) {
                Some(f) => {
                    self.found.push((h, f));
                    found_now = true;
                }
                None => self.missing.push(h),
            }
        }
        found_now
    }
}
