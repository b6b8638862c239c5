//! What nvcc reads and clang refuses, respelled column for column for the parse that is
//! analysed, where clang's error says where:
//!
//! - Kernel launches in device code (dynamic parallelism, which nvcc compiles with
//!   `-rdc=true`). clang reports `reference to __global__ function 'child' in __global__
//!   function` and drops the statement, so the parent would be read without its launch. The
//!   launch becomes a call of `__gmlaunch` (`include/gmrace_device_launch.h`) with the launch's
//!   arguments: the kernel's name and configuration become that name and spaces, and the
//!   lowering reads the child's name back from the file (`launched_name`).
//! - `__shared__ alignas(16) float a[N];`: clang's `__shared__` is a GNU attribute, after which
//!   `alignas` may not come. The two swap places.
//! - `extern "C"__global__ void k(...)`: without a space C++11 reads `"C"__global__` as a
//!   user-defined literal; nvcc (EDG) does not. The linkage only names the symbol, which the
//!   analysis never sees: `"C"` becomes spaces, leaving `extern __global__`.
//! - `%globaltimer` in inline PTX: a special register nvcc passes through, which clang takes
//!   for a bad operand escape. The asm is opaque to the analysis; the `%` becomes a space.
//!
//! The file and the project's headers are respelled alike (not system headers: the toolkit,
//! the stand-ins). Every line and column stays where it was, so diagnostics and spans need no
//! mapping.

use super::instantiations::closing_paren;

/// The function a launch in device code is rewritten into.
pub(crate) const LAUNCH_FN: &str = "__gmlaunch";

/// Whether clang's error `text` marks a kernel launch in device code: the kernel named there
/// (at its name), or the configuration call `<<<` stands for (at the `<<<`; a kernel template's
/// launch has only this one, besides "no matching function").
fn is_device_launch_error(text: &str) -> bool {
    let in_device = ["in __global__ function", "in __device__ function"]
        .iter()
        .any(|s| text.ends_with(s));
    let configure = ["'cudaConfigureCall'", "'__cudaPushCallConfiguration'"]
        .iter()
        .any(|f| text.starts_with(&format!("reference to __host__ function {f}")));
    in_device && (text.starts_with("reference to __global__ function") || configure)
}

/// An error clang gave in a file: message, 1-based line and byte column.
pub(crate) type ErrorAt = (String, u32, u32);

/// `text` respelled where clang's `errors` refuse what nvcc reads; None when none of them is
/// such a place.
pub(crate) fn respell(text: &str, errors: &[ErrorAt]) -> Option<String> {
    let mut bytes = text.as_bytes().to_vec();
    let mut changed = false;
    for (message, line, column) in errors {
        let at = offset(text, *line, *column);
        match message.as_str() {
            "an attribute list cannot appear here" => {
                changed |= at.is_some_and(|at| alignas_first(&mut bytes, at));
            }
            "string literal with user-defined suffix cannot be used here" => {
                changed |= at.is_some_and(|at| unglue_extern_c(&mut bytes, at));
            }
            "invalid % escape in inline assembly string" => {
                changed |= at.is_some_and(|at| unescape_register(&mut bytes, at));
            }
            _ => {}
        }
    }
    let launches: Vec<(u32, u32)> = errors
        .iter()
        .filter(|(m, _, _)| is_device_launch_error(m))
        .map(|(_, l, c)| (*l, *c))
        .collect();
    // Only ASCII replaced whole ASCII-delimited regions: the text is still UTF-8.
    let text = String::from_utf8(bytes).ok()?;
    match rewrite(&text, &launches) {
        Some(t) => Some(t),
        None => changed.then_some(text),
    }
}

/// `extern "C"__global__` (at the suffix, where clang says) becomes `extern    __global__`:
/// whether it did.
fn unglue_extern_c(bytes: &mut [u8], at: usize) -> bool {
    let Some(at) = at.checked_sub(3) else {
        return false;
    };
    let glued =
        bytes[at..].starts_with(b"\"C\"__") && bytes[..at].trim_ascii_end().ends_with(b"extern");
    if glued {
        bytes[at..at + 3].fill(b' ');
    }
    glued
}

/// `%globaltimer` in inline PTX (clang points past the `%`'s next byte), a special register
/// nvcc passes through and clang reads as a bad operand escape, becomes ` globaltimer`: the
/// analysis reads inline assembly as opaque either way. Whether the `%` was there.
fn unescape_register(bytes: &mut [u8], at: usize) -> bool {
    let percent = (at.saturating_sub(2)..at)
        .rev()
        .find(|&i| bytes[i] == b'%' && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic));
    if let Some(i) = percent {
        bytes[i] = b' ';
    }
    percent.is_some()
}

/// `__shared__ alignas(A)` (at the `alignas`, or before it on its line) becomes
/// `alignas(A) __shared__`, the same bytes: whether the qualifier before it was swapped.
fn alignas_first(bytes: &mut [u8], at: usize) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let Some(start) = text[at..line_end].find("alignas").map(|i| at + i) else {
        return false;
    };
    let Some(open) = text[start..line_end].find('(').map(|i| start + i) else {
        return false;
    };
    let Some(end) = closing_paren(&text[..line_end], open).map(|close| close + 1) else {
        return false;
    };
    let gap = text[..start].trim_end_matches([' ', '\t']).len();
    let qualifier = ["__shared__", "__device__", "__constant__", "__managed__"]
        .into_iter()
        .find(|q| text[..gap].ends_with(q));
    let Some(q) = qualifier else { return false };
    let swapped = format!("{}{}{q}", &text[start..end], &text[gap..start]);
    bytes[gap - q.len()..end].copy_from_slice(swapped.as_bytes());
    true
}

/// `text` with the launches at `sites` (1-based line and byte column of the kernel's name or of
/// the `<<<`) rewritten; None when none of them is a `<<<...>>>` launch. A reference to each
/// kernel launched is appended in host code (whose errors past the file's last line are not
/// reported), so that a kernel template only device code launches is still instantiated.
fn rewrite(text: &str, sites: &[(u32, u32)]) -> Option<String> {
    let mut bytes = text.as_bytes().to_vec();
    let mut launched: Vec<String> = Vec::new();
    for &(line, column) in sites {
        let Some(at) = offset(text, line, column) else {
            continue;
        };
        let Some((start, end)) = launch_extent(text, at) else {
            continue;
        };
        let name = launched_name(&text[start..]);
        let region = &mut bytes[start..end];
        if region.len() < LAUNCH_FN.len() || region[..LAUNCH_FN.len()].contains(&b'\n') {
            continue;
        }
        for (i, b) in region.iter_mut().enumerate() {
            *b = match (*b, LAUNCH_FN.as_bytes().get(i)) {
                (b'\n', _) => b'\n',
                (_, Some(&c)) => c,
                (_, None) => b' ',
            };
        }
        launched.extend(name.filter(|n| !launched.contains(n)));
    }
    if launched.is_empty() {
        return None;
    }
    // Only ASCII replaced whole ASCII-delimited regions: the text is still UTF-8.
    let mut out = String::from_utf8(bytes).ok()?;
    for (i, name) in launched.iter().enumerate() {
        out.push_str(&format!(
            "\nstatic void __gmrace_device_launch_{i}() {{ (void)&{name}; }}"
        ));
    }
    Some(out)
}

/// The kernel a rewritten launch names, from the original text at its call: `child` or
/// `child<float>`.
pub(crate) fn launched_name(text: &str) -> Option<String> {
    let name: String = text[..text.find("<<<")?].split_whitespace().collect();
    (!name.is_empty() && !name.contains([';', '{', '}'])).then_some(name)
}

pub(crate) fn offset(text: &str, line: u32, column: u32) -> Option<usize> {
    let mut start = 0;
    for _ in 1..line {
        start += text[start..].find('\n')? + 1;
    }
    let at = start + column.checked_sub(1)? as usize;
    (at <= text.len()).then_some(at)
}

/// The bytes from the launch's (qualified) name to the end of its `>>>`, from `at`: the name's
/// start or the `<<<`.
fn launch_extent(text: &str, at: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let is_name = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_' || *c == b':';
    let (name_end, open) = match text[at..].starts_with("<<<") {
        true => (before_template_args(bytes, at)?, at),
        false if bytes.get(at).is_some_and(is_name) => (at, at + text[at..].find("<<<")?),
        false => return None,
    };
    let start = bytes[..name_end]
        .iter()
        .rposition(|c| !is_name(c))
        .map_or(0, |i| i + 1);
    // A name, then only its template arguments before `<<<`.
    let named = start < name_end || at == name_end;
    if !named || text[name_end..open].contains([';', '{', '}', '(']) {
        return None;
    }
    let close = open + 3 + text[open + 3..].find(">>>")?;
    Some((start, close + 3))
}

/// Going back from the `<<<` at `at` over blanks and a kernel template's arguments: the end of
/// the name before them (its last byte's successor).
fn before_template_args(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while i > 0 && bytes[i - 1].is_ascii_whitespace() {
        i -= 1;
    }
    if i > 0 && bytes[i - 1] == b'>' {
        let mut depth = 0usize;
        while i > 0 {
            i -= 1;
            match bytes[i] {
                b'>' => depth += 1,
                b'<' => depth -= 1,
                b';' | b'{' | b'}' => return None,
                _ => {}
            }
            if depth == 0 {
                break;
            }
        }
        while i > 0 && bytes[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
    }
    Some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launch_becomes_a_call_of_the_same_length() {
        let src = "__global__ void p(int *a) {\n  if (a) ns::child<<<1, 32>>>(a, 2);\n}\n";
        let out = rewrite(src, &[(2, 15)]).unwrap();
        let (rewritten, refs) = out.split_at(src.len());
        assert_eq!(
            rewritten,
            "__global__ void p(int *a) {\n  if (a) __gmlaunch          (a, 2);\n}\n"
        );
        assert_eq!(
            refs,
            "\nstatic void __gmrace_device_launch_0() { (void)&ns::child; }"
        );
        let call = &src[src.find("ns::").unwrap()..];
        assert_eq!(launched_name(call).as_deref(), Some("ns::child"));
    }

    #[test]
    fn a_configuration_over_lines_keeps_its_line_breaks() {
        let src = "k<int><<<grid,\n   block>>>(x);";
        assert!(rewrite(src, &[(1, 1)])
            .unwrap()
            .starts_with("__gmlaunch    \n           (x);\n"));
    }

    #[test]
    fn a_template_launch_is_found_from_its_configuration() {
        let src = "{\n    build<N, M>\n      <<<4, N>>>(a);";
        let out = rewrite(src, &[(3, 7)]).unwrap();
        assert!(out.starts_with("{\n    __gmlaunch \n                (a);\n"));
        assert!(out.ends_with("(void)&build<N,M>; }"));
        let from_call = &src[src.find("build").unwrap()..];
        assert_eq!(launched_name(from_call).as_deref(), Some("build<N,M>"));
    }

    #[test]
    fn a_linkage_glued_to_the_kernel_qualifier_is_spaced_out() {
        let src = "extern \"C\"__global__\nvoid k(float *a) {}\n";
        let error = (
            "string literal with user-defined suffix cannot be used here".to_string(),
            1,
            11,
        );
        assert_eq!(
            respell(src, std::slice::from_ref(&error)).unwrap(),
            "extern    __global__\nvoid k(float *a) {}\n"
        );
        let other = "auto s = \"C\"__suffix;\n";
        assert_eq!(respell(other, &[(error.0, 1, 14)]), None);
    }

    #[test]
    fn a_special_register_in_inline_ptx_loses_its_percent() {
        let src = "  asm volatile(\"mov.u64 %0, %globaltimer;\" : \"=l\"(t));\n";
        let error = (
            "invalid % escape in inline assembly string".to_string(),
            1,
            31,
        );
        assert_eq!(
            respell(src, std::slice::from_ref(&error)).unwrap(),
            "  asm volatile(\"mov.u64 %0,  globaltimer;\" : \"=l\"(t));\n"
        );
        assert_eq!(
            respell("  asm(\"mov %0, %1;\");", &[(error.0, 1, 17)]),
            None
        );
    }

    #[test]
    fn alignas_after_a_memory_space_comes_first() {
        let src = "  __shared__ alignas(alignof(float4)) float a[4];\n";
        let error = ("an attribute list cannot appear here".to_string(), 1, 14);
        assert_eq!(
            respell(src, std::slice::from_ref(&error)).unwrap(),
            "  alignas(alignof(float4)) __shared__ float a[4];\n"
        );
        assert_eq!(respell("  static alignas(8) int a;", &[error]), None);
    }

    #[test]
    fn what_is_not_a_launch_is_left_alone() {
        assert_eq!(rewrite("auto f = &child; g<<<1,1>>>();", &[(1, 11)]), None);
        assert_eq!(rewrite("k<<<1>>>();", &[(1, 1)]), None);
        assert!(is_device_launch_error(
            "reference to __global__ function 'k' in __global__ function"
        ));
        assert!(is_device_launch_error(
            "reference to __host__ function 'cudaConfigureCall' in __device__ function"
        ));
        assert!(!is_device_launch_error(
            "reference to __device__ function 'k' in __host__ function"
        ));
    }
}
