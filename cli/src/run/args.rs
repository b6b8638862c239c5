//! `gmrace run`'s command line, shared by the plain and the checked run.

use crate::analyze::Model;
use crate::FrontArgs;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    Flag,
    Stmt,
    Off,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    Auto,
    Emu,
    Cuda,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WarpTableArg {
    Shared,
    Global,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    Text,
    Json,
    Sarif,
}

#[derive(Args)]
pub struct RunArgs {
    pub(crate) file: PathBuf,
    /// The launch spec (TOML): kernel, grid, block, arguments.
    #[arg(long, value_name = "LAUNCH.toml")]
    pub(crate) launch: PathBuf,
    /// Race checking: `flag` (per-warp bitmaps: address and warp pair), `stmt` (BlockStmtTable:
    /// statement pair, thread pair and address), `off` (the kernel as written).
    #[arg(long, value_enum)]
    pub(crate) mode: Mode,
    /// `auto` takes a GPU when a CUDA driver is present, the CPU device (`emu`) otherwise.
    #[arg(long, value_enum, default_value = "auto")]
    pub(crate) backend: Backend,
    /// Check every shared access, not only those the analysis left undecided.
    #[arg(long)]
    pub(crate) all: bool,
    /// The analysis' warp model (the run's checkers implement GMRace's lock-step model).
    #[arg(long, value_enum, default_value = "its")]
    pub(crate) warp_model: Model,
    /// Where the runtime keeps its warpTable (default: shared memory when the kernel leaves
    /// room for it).
    #[arg(long, value_enum)]
    pub(crate) warp_table: Option<WarpTableArg>,
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: RunFormat,
    /// Write every buffer after the run to DIR/<name>.bin plus DIR/index.json.
    #[arg(long, value_name = "DIR")]
    pub(crate) dump_buffers: Option<PathBuf>,
    /// Step budget: warp-instructions over the whole launch (CPU device only; default: 2^20
    /// per warp of the launch, at least 2^26, at most 2^32).
    #[arg(long, value_name = "N")]
    pub(crate) max_steps: Option<u64>,
    /// Print only faults and races (no summary, no front-end warnings, no progress).
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Report the wall time of the device run alone (`run_ms`); off by default so that the
    /// same input gives the same report, byte for byte.
    #[arg(long)]
    pub(crate) timing: bool,
    /// Count the checks the runtime executes (`executed_checks`: warp-level calls of the
    /// recording hook). Counting costs one atomic per check, so time such runs separately.
    #[arg(long)]
    pub(crate) count_checks: bool,
    /// Write everything the run needs into DIR instead of running it, for `gmrace-gpu DIR` on
    /// a machine with a CUDA driver (README, "Running on a GPU machine").
    #[arg(long, value_name = "DIR")]
    pub(crate) bundle: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) front: FrontArgs,
}
