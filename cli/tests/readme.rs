//! README.md's examples are the binary's real output: every fenced block that starts with a
//! `$ ` command line is run, command by command, from a scratch directory that sees the
//! repository's `tests/` (so paths print as in the README, and `out/` is written there rather
//! than into the checkout), and what it prints (stdout and stderr together, in order) must be
//! the lines under the command.
//!
//! Only what must vary is normalised: a `...` line stands for any number of lines (the README
//! shortens long outputs), times (`0.52s`) with the padding of their table rows, and blank lines
//! at the end (a README block does not show them). Run examples name `--backend emu`, so that a
//! machine with a GPU prints the same.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A command of the README and the lines it shows under it.
struct Example {
    command: String,
    expected: Vec<String>,
}

/// The examples of every fenced block whose first line is a command.
fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("```") {
            continue;
        }
        let block: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        if !block.first().is_some_and(|l| l.starts_with("$ ")) {
            continue;
        }
        for line in block {
            match line.strip_prefix("$ ") {
                Some(command) => out.push(Example {
                    command: command.to_string(),
                    expected: Vec::new(),
                }),
                None => out
                    .last_mut()
                    .expect("a block starting with a command")
                    .expected
                    .push(line.to_string()),
            }
        }
    }
    out
}

/// The directory the examples run in: `tests` is the repository's, `proj` the small project
/// of the `analyze DIR` example (a syntax error, a race-free and a racy reduction).
fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("proj/sub")).expect("mkdir");
    std::os::unix::fs::symlink(root().join("tests"), dir.join("tests")).expect("symlink");
    std::fs::write(
        dir.join("proj/bad.cu"),
        "__global__ void k(int *a) { a[0] = 1 }\n",
    )
    .expect("write");
    let corpus = root().join("tests/kernels/analysis");
    std::fs::copy(corpus.join("reduce_seq_fixed.cu"), dir.join("proj/safe.cu")).expect("copy");
    std::fs::copy(
        corpus.join("reduce_seq_race.cu"),
        dir.join("proj/sub/racy.cu"),
    )
    .expect("copy");
    dir
}

/// `0.52s` is a time.
fn is_time(word: &str) -> bool {
    word.strip_suffix('s')
        .and_then(|w| w.split_once('.'))
        .is_some_and(|(a, b)| {
            !a.is_empty() && !b.is_empty() && a.bytes().chain(b.bytes()).all(|c| c.is_ascii_digit())
        })
}

/// A line with its times replaced and, since their width pads the row, its spacing collapsed.
fn normalise(line: &str) -> String {
    let line = line.trim_end();
    if !line.split_whitespace().any(is_time) {
        return line.to_string();
    }
    line.split_whitespace()
        .map(|w| if is_time(w) { "<time>" } else { w })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lines of `text`, normalised, without blank lines at the end.
fn normalised_lines<'a>(text: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut lines: Vec<String> = text.map(normalise).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Whether `actual` is `expected`, a `...` line of which stands for any number of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e.trim() == "..." => {
            (0..=actual.len()).any(|i| matches(rest, &actual[i..]))
        }
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| a == e && matches(rest, more)),
    }
}

/// What the command prints, stdout and stderr interleaved as on a terminal.
fn run(dir: &Path, command: &str) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_gmrace"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("{command} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("CLICOLOR_FORCE")
        // The examples show the stand-ins, as on a machine without a toolkit.
        .env_remove("CUDA_PATH")
        .env_remove("CUDA_HOME")
        .output()
        .expect("run sh");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn readme_examples_print_what_the_readme_shows() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let examples = examples(&readme);
    assert!(
        examples
            .iter()
            .filter(|e| e.command.starts_with("gmrace "))
            .count()
            >= 5,
        "the README's examples were not found"
    );
    let dir = scratch();
    let mut failures = Vec::new();
    for ex in &examples {
        let printed = run(&dir, &ex.command);
        let actual = normalised_lines(printed.lines());
        let expected = normalised_lines(ex.expected.iter().map(String::as_str));
        if !matches(&expected, &actual) {
            failures.push(format!(
                "$ {}\n--- README.md\n{}\n--- printed\n{printed}",
                ex.command,
                ex.expected.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn an_ellipsis_stands_for_any_number_of_lines() {
    let l = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(matches(&l(&["a", "...", "d"]), &l(&["a", "b", "c", "d"])));
    assert!(matches(&l(&["a", "..."]), &l(&["a"])));
    assert!(!matches(&l(&["a", "...", "d"]), &l(&["a", "b"])));
    assert!(!matches(&l(&["a"]), &l(&["a", "b"])));
    assert_eq!(
        normalise("proj/bad.cu     0  0.52s  error"),
        "proj/bad.cu 0 <time> error"
    );
}
