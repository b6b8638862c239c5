//! GPUVerify-style header comments: `//pass` on line 1, then
//! `//--blockDim=[256,1,1] --gridDim=[4,1,1] -DN=8`, and `--warp-sync=N` (lockstep warps); other
//! GPUVerify flags are ignored. `analyze_kernel` reads `--warp-sync=N` as the `lockstep` warp
//! model when the options leave the warp model to the file (`AnalysisOptions::header_warp_model`:
//! the CLI without `--warp-model`).

use crate::ir::HeaderConfig;

/// Reads the header from the leading `//` comment lines of a source file.
pub fn parse(source: &str) -> HeaderConfig {
    let mut h = HeaderConfig::default();
    for (i, line) in source.lines().enumerate().take(8) {
        let Some(text) = line.trim().strip_prefix("//") else {
            break;
        };
        let text = text.trim();
        if i == 0 && !text.starts_with("--") {
            if let Some(word) = text.split_whitespace().next() {
                h.expect = Some(word.to_string());
            }
            continue;
        }
        if text.contains("--warp-sync") {
            h.warp_sync = Some(i as u32 + 1);
        }
        if !text.contains("--blockDim") && !text.contains("--gridDim") && !text.contains("-D") {
            continue;
        }
        let mut found = false;
        for word in split_flags(text) {
            if let Some(v) = word.strip_prefix("--blockDim=") {
                h.block = parse_dims(v);
                found = true;
            } else if let Some(v) = word.strip_prefix("--gridDim=") {
                h.grid = parse_dims(v);
                found = true;
            } else if let Some(d) = word.strip_prefix("-D") {
                match d.split_once('=') {
                    Some((n, v)) => h.defines.push((n.to_string(), Some(v.to_string()))),
                    None if !d.is_empty() => h.defines.push((d.to_string(), None)),
                    None => {}
                }
                found = true;
            }
        }
        if found && h.line.is_none() {
            h.line = Some(i as u32 + 1);
        }
    }
    h
}

/// Splits on whitespace outside brackets, so `[16, 16]` stays one word.
fn split_flags(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ => {}
        }
        if c.is_whitespace() && depth <= 0 {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
        } else if !c.is_whitespace() {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// `256`, `[16,16]`, `[16,16,1]`, `16x16` into three extents, missing ones 1.
pub fn parse_dims(v: &str) -> Option<[u32; 3]> {
    let v = v.trim().trim_start_matches('[').trim_end_matches(']');
    let parts: Vec<&str> = v
        .split([',', 'x'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut out = [1u32; 3];
    for (slot, p) in out.iter_mut().zip(&parts) {
        *slot = p.parse().ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_gpuverify_header() {
        let h = parse("//xfail\n//--blockDim=[16, 8] --gridDim=4 --no-inline -DN=3 -DFOO\nint x;");
        assert_eq!(h.expect.as_deref(), Some("xfail"));
        assert_eq!(h.block, Some([16, 8, 1]));
        assert_eq!(h.grid, Some([4, 1, 1]));
        assert_eq!(
            h.defines,
            vec![("N".into(), Some("3".into())), ("FOO".into(), None)]
        );
        assert_eq!(h.line, Some(2));
        assert_eq!(h.warp_sync, None);
        let h = parse("//pass\n//--blockDim=64 --gridDim=1 --warp-sync=32\nint x;");
        assert_eq!(h.warp_sync, Some(2));
    }

    #[test]
    fn no_header_means_nothing() {
        let h = parse("#include <cuda.h>\n// --blockDim=8\n");
        assert_eq!(h.block, None);
        assert_eq!(h.expect, None);
    }

    #[test]
    fn dims_forms() {
        assert_eq!(parse_dims("16x16"), Some([16, 16, 1]));
        assert_eq!(parse_dims("[2,3,4]"), Some([2, 3, 4]));
        assert_eq!(parse_dims("[1,2,3,4]"), None);
        assert_eq!(parse_dims("abc"), None);
    }
}
