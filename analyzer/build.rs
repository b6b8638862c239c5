// The stand-in headers are embedded with `include_dir!`, which stable Rust cannot track: rebuild
// whenever anything under include/ changes.
fn main() {
    println!("cargo:rerun-if-changed=include");
}
