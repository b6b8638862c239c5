//! Reading source files as text. Old sources carry Latin-1 or Windows-1252 bytes in
//! comments: each byte that is not UTF-8 becomes U+FFFD, the front end gives clang the text in
//! that form, and reports quote the same text, so that columns fit. Here so that reports read
//! files the same way where no front end is.

/// A source file's text, with each byte that is not UTF-8 replaced by U+FFFD.
pub struct SourceText {
    pub text: String,
    /// The line of the first invalid byte; `None` when the file is UTF-8.
    pub first_invalid_line: Option<u32>,
}

/// Decodes a source file. Old sources carry Latin-1 or Windows-1252 bytes in comments; clang
/// only needs valid text there, and reports need text they can show.
pub fn decode_source(bytes: Vec<u8>) -> SourceText {
    match String::from_utf8(bytes) {
        Ok(text) => SourceText {
            text,
            first_invalid_line: None,
        },
        Err(e) => {
            let valid_up_to = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let line = 1 + bytes[..valid_up_to].iter().filter(|b| **b == b'\n').count() as u32;
            SourceText {
                text: String::from_utf8_lossy(&bytes).into_owned(),
                first_invalid_line: Some(line),
            }
        }
    }
}

/// Reads a source file with [`decode_source`].
pub fn read_source(path: &std::path::Path) -> std::io::Result<SourceText> {
    std::fs::read(path).map(decode_source)
}
