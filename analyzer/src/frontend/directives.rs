//! The preprocessor lines of a text that gmrace reads before clang does: `#include`s (to find
//! a project's headers and the C++ library headers a file uses) and the macros `#define`d or
//! `#undef`d. Read line by line without the preprocessor: a line under `#if 0` counts too, so
//! whoever uses them checks against the parse.

/// One directive of interest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Directive {
    /// `#include "name"`.
    Quoted(String),
    /// `#include <name>`.
    Angled(String),
    /// `#define NAME` or `#undef NAME`.
    Macro(String),
}

/// The directives of `text`, in the order of its lines.
pub(crate) fn directives(text: &str) -> Vec<Directive> {
    text.lines().filter_map(directive).collect()
}

fn directive(line: &str) -> Option<Directive> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    if let Some(rest) = rest.strip_prefix("include") {
        let rest = rest.trim_start();
        let (close, quoted) = match rest.chars().next()? {
            '"' => ('"', true),
            '<' => ('>', false),
            _ => return None,
        };
        let (name, _) = rest[1..].split_once(close)?;
        if name.is_empty() {
            return None;
        }
        let name = name.to_string();
        return Some(match quoted {
            true => Directive::Quoted(name),
            false => Directive::Angled(name),
        });
    }
    let rest = rest
        .strip_prefix("define")
        .or_else(|| rest.strip_prefix("undef"))?;
    if !rest.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    let name: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(Directive::Macro(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_and_macros_are_read_as_written() {
        let text = "  #  include \"a.h\" // why\n#include <vector>\n#include MACRO_H\n\
                    #define N 4\n# undef  _GNU_SOURCE\n#defined X\n#define F(x) x\n#include \"\"\n\
                    int x; // #include <map>\n";
        assert_eq!(
            directives(text),
            [
                Directive::Quoted("a.h".into()),
                Directive::Angled("vector".into()),
                Directive::Macro("N".into()),
                Directive::Macro("_GNU_SOURCE".into()),
                Directive::Macro("F".into()),
            ]
        );
    }
}
