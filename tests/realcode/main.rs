//! Files as projects ship them, read and analysed once per file for both tests of this binary:
//! the expectations of the real-code corpus (`expectations.rs`) and the comparison of gmrace's
//! stand-in headers with a real toolkit's (`toolkit.rs`).

#[path = "../common/corpus.rs"]
mod corpus;
#[path = "../common/expect.rs"]
mod expect;
#[path = "../common/params.rs"]
mod params;

mod expectations;
mod stand_ins;
mod toolkit;
