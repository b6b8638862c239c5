//! Arbitrary bytes → `parse_source`. Errors are fine; panics and aborts are bugs.
#![no_main]

use gmrace_analyzer::frontend::{parse_source, FrontendOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_source("fuzz.cu", text, &FrontendOptions::default());
    }
});
