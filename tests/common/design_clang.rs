//! DESIGN.md's command for compiling CUDA device code to PTX without a toolkit, for the tests
//! that check generated or rewritten CUDA compiles: the one spelling of it in the test suite.

use std::process::Command;

/// `clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -Xclang
/// -target-feature -Xclang +ptx70`; callers add `-I`, `-D`, `-S`, `-o` and the file.
pub fn command() -> Command {
    let mut cmd = Command::new("clang");
    cmd.args(["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_70"])
        .args(["-nocudainc", "-nocudalib", "-Xclang", "-target-feature"])
        .args(["-Xclang", "+ptx70"]);
    cmd
}
