//! Reports of `gmrace run`: of a checked run (`checked`), in DESIGN.md's JSON (`json`) and in
//! SARIF (`sarif`).

pub mod checked;
pub mod json;
pub mod print;
pub mod sarif;
