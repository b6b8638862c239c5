//! `gmrace instrument FILE.cu --mode flag|stmt`: the instrumented source (stdout, or `-o OUT.cu`
//! with the runtime header, the stand-in CUDA headers and `OUT.plan.json` next to it).

use crate::analyze::{analyze_file, AssumeArgs, Selection};
use crate::render;
use crate::FrontArgs;
use clap::{Args, ValueEnum};
use gmrace_instrumenter::{self as instrumenter, Mode, Options, OutputError, WarpTable};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub enum ModeArg {
    Flag,
    Stmt,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum WarpTableArg {
    Shared,
    Global,
    /// Shared memory unless a kernel leaves too little of it.
    Auto,
}

#[derive(Args)]
pub struct InstrumentArgs {
    file: PathBuf,
    #[arg(long, value_enum)]
    mode: ModeArg,
    /// Write the instrumented file here (and its headers and plan next to it).
    #[arg(short = 'o', value_name = "OUT.cu")]
    output: Option<PathBuf>,
    /// Record every shared access, whatever the analysis proved.
    #[arg(long)]
    all: bool,
    #[arg(long, value_enum, default_value = "auto")]
    warp_table: WarpTableArg,
    /// Only this kernel's accesses are recorded (every kernel still gets the runtime ABI).
    #[arg(long)]
    kernel: Option<String>,
    #[command(flatten)]
    assume: AssumeArgs,
    #[command(flatten)]
    pub(crate) front: FrontArgs,
}

pub fn run(args: InstrumentArgs) -> ExitCode {
    let selection = Selection {
        front: &args.front,
        kernel: args.kernel.as_deref(),
        quiet: false,
    };
    let Ok((module, reports)) = analyze_file(&args.file, &selection, &args.assume.options()) else {
        return ExitCode::from(2);
    };
    let text = match std::fs::read(&args.file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            render::error(&format!("cannot read `{}`: {e}", args.file.display()), None);
            return ExitCode::from(2);
        }
    };
    let opts = Options {
        mode: match args.mode {
            ModeArg::Flag => Mode::Flag,
            ModeArg::Stmt => Mode::Stmt,
        },
        all: args.all,
        warp_table: match args.warp_table {
            WarpTableArg::Shared => Some(WarpTable::Shared),
            WarpTableArg::Global => Some(WarpTable::Global),
            WarpTableArg::Auto => None,
        },
        defines: args.front.options().defines,
    };
    let file = args.file.display().to_string();
    let inst = match instrumenter::instrument(&file, &text, &module, &reports, &opts) {
        Ok(i) => i,
        Err(e) => {
            render::located_error(&module.files, &e.message, e.span);
            return ExitCode::from(2);
        }
    };
    let Some(out) = &args.output else {
        print!("{}", inst.source);
        return ExitCode::SUCCESS;
    };
    let front = args.front.options();
    let origin = instrumenter::Origin {
        file: &args.file,
        include_dirs: &front.include_dirs,
    };
    match instrumenter::write_output(out, &inst, &origin) {
        Ok(files) => {
            let recorded = (inst.plan.kernels.iter())
                .flat_map(|k| k.instrumented.iter().map(|s| s.id))
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            let unchecked: usize = inst.plan.kernels.iter().map(|k| k.unchecked.len()).sum();
            eprintln!(
                "wrote {} ({recorded} recorded sites, {unchecked} unchecked accesses), {} and {}",
                files.source.display(),
                files.plan.display(),
                files.runtime.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            output_error(out, &e);
            ExitCode::from(2)
        }
    }
}

fn output_error(out: &Path, e: &OutputError) {
    match e {
        OutputError::Input(path) => render::error(
            &format!("`-o {}` names the file being instrumented", path.display()),
            Some("write the instrumented file elsewhere, e.g. `-o instrumented/NAME.cu`"),
        ),
        OutputError::NotOurs(path) => render::error(
            &format!(
                "`{}` exists and gmrace did not write it: refusing to overwrite it",
                path.display()
            ),
            Some("gmrace writes its headers next to OUT.cu: give -o a directory of its own"),
        ),
        OutputError::Io(e) => {
            render::error(&format!("cannot write `{}`: {e}", out.display()), None)
        }
    }
}
