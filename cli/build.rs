//! `cfg(unoptimised)` for code built without optimisation (the `dev` and `test` profiles): the
//! corpus-wide differential test is skipped there, and runs under the `ci` profile, which keeps
//! debug assertions on (so `debug_assertions` cannot tell the two apart).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(unoptimised)");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=unoptimised");
    }
}
