//! The `gmrace` command line. Exit status: 0 nothing found, 1 the kernel has a problem,
//! 2 gmrace could not do its job (usage, unreadable or invalid input), as DESIGN.md fixes them.
//! Arguments are parsed with clap. A file without kernels is a warning (`render::no_kernels`)
//! with exit 0, since host-only files are normal, except within `analyze DIR`, which says
//! nothing of them. Every command runs on `STACK_BYTES` stacks (the main thread, rayon's workers
//! and, through `LIBCLANG_NOTHREADS`, libclang's parse): every stage recurses over expressions.

mod analyze;
mod failed;
mod instrument;
mod run;

use gmrace_report::{render, sarif, text as report};

use clap::{Args, Parser, Subcommand, ValueEnum};
use failed::Failed;
use gmrace_analyzer::frontend::{self, FrontendOptions};
use gmrace_analyzer::ir;
use gmrace_runtime_cuda::cuda;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "gmrace", version, about = "Find data races in CUDA kernels")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the kernel IR of a .cu file.
    Ir(IrArgs),
    /// Classify every memory access as safe, racy or unknown, without running anything.
    Analyze(analyze::AnalyzeArgs),
    /// Rewrite a .cu file so its unchecked shared accesses are recorded by gmrace's runtime.
    Instrument(instrument::InstrumentArgs),
    /// Run a kernel on a device (the CPU SIMT device without a GPU) and report its faults.
    Run(run::RunArgs),
}

#[derive(Args)]
pub(crate) struct FrontArgs {
    /// Add a directory to the include search path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Define a macro, NAME or NAME=VALUE.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Read this CUDA toolkit's headers (default: the one at CUDA_PATH, CUDA_HOME or
    /// /usr/local/cuda, else gmrace's stand-in headers).
    #[arg(long, value_name = "DIR")]
    cuda_path: Option<PathBuf>,
    /// Read gmrace's stand-in headers even where a CUDA toolkit is installed.
    #[arg(long, conflicts_with = "cuda_path")]
    stand_ins: bool,
    /// The headers found by `resolve`.
    #[arg(skip)]
    headers: frontend::Headers,
}

impl FrontArgs {
    /// Finds the headers to read, once, before any parse.
    fn resolve(&mut self) -> Result<(), String> {
        if !self.stand_ins {
            self.headers = frontend::Headers::find(self.cuda_path.as_deref())?;
        }
        Ok(())
    }

    pub(crate) fn options(&self) -> FrontendOptions {
        FrontendOptions {
            headers: self.headers.clone(),
            include_dirs: self.include.clone(),
            defines: self
                .define
                .iter()
                .map(|d| match d.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (d.clone(), None),
                })
                .collect(),
            build: Default::default(),
            callers: Default::default(),
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum IrFormat {
    Text,
    Json,
}

#[derive(Args)]
struct IrArgs {
    file: PathBuf,
    /// Only this kernel (as clang prints it, e.g. `stage<512>`).
    #[arg(long)]
    kernel: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    format: IrFormat,
    #[command(flatten)]
    front: FrontArgs,
}

/// The stack of gmrace's main thread and of rayon's workers. Every stage recurses over
/// expression trees, as deep as the front end's nesting limit allows (2000 levels; about 16 MiB
/// in a debug build, which the default 8 MiB main and 2 MiB worker stacks are not), and so
/// does clang's parser on whatever it is given, before that limit is checked (about 130 bytes
/// a level: a 100000-term sum overflows 8 MiB). Only the pages used are ever allocated.
pub(crate) const STACK_BYTES: usize = 256 << 20;

fn main() -> ExitCode {
    // libclang parses on a thread of its own with an 8 MiB stack unless this is set; then it
    // parses on the calling thread, whose stack is STACK_BYTES. Set before any thread exists.
    std::env::set_var("LIBCLANG_NOTHREADS", "1");
    // Fails only if a pool exists already, and then that one is used.
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(STACK_BYTES)
        .build_global();
    let code = match std::thread::Builder::new()
        .name("gmrace".into())
        .stack_size(STACK_BYTES)
        .spawn(run_cli)
    {
        // A panic was reported by the hook already; 101 is the status it would have given.
        Ok(main) => main.join().unwrap_or(ExitCode::from(101)),
        Err(_) => run_cli(),
    };
    if cuda::gpu_held() {
        // A kernel left running on the GPU: ending the usual way would wait for it.
        cuda::exit_leaving_gpu((0..=3).find(|&c| code == ExitCode::from(c)).unwrap_or(1));
    }
    code
}

fn run_cli() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            if !e.use_stderr() {
                return ExitCode::SUCCESS;
            }
            let args: Vec<String> = std::env::args().collect();
            return match failed::requested_document(&args) {
                Some((document, input)) => Failed::usage(&e).exit(Some(document), &input),
                None => ExitCode::from(2),
            };
        }
    };
    let mut cli = cli;
    let front = match &mut cli.command {
        Command::Ir(a) => &mut a.front,
        Command::Analyze(a) => &mut a.front,
        Command::Instrument(a) => &mut a.front,
        Command::Run(a) => &mut a.front,
    };
    if let Err(e) = front.resolve() {
        let args: Vec<String> = std::env::args().collect();
        let (document, input) = failed::requested_document(&args).unzip();
        return Failed::error(&e, None).exit(document, &input.unwrap_or_default());
    }
    match cli.command {
        Command::Ir(args) => cmd_ir(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Instrument(args) => instrument::run(args),
        Command::Run(args) => run::cmd_run(args),
    }
}

fn cmd_ir(args: IrArgs) -> ExitCode {
    let document = match args.format {
        IrFormat::Text => None,
        IrFormat::Json => Some(failed::Document::Json),
    };
    match print_ir(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.exit(document, &args.file.display().to_string()),
    }
}

fn print_ir(args: &IrArgs) -> Result<(), Failed> {
    let mut module = frontend::parse_file(&args.file, &args.front.options())
        .map_err(|e| Failed::diagnostics(&e.files, &e.diagnostics))?;
    if module.kernels.is_empty() {
        let launched = module.launched_elsewhere();
        let warning = render::no_kernels(&args.file, &launched);
        module.diagnostics.push(warning);
    }
    render::diagnostics(&module.files, &module.diagnostics);
    if let Some(name) = &args.kernel {
        if module.kernel(name).is_none() {
            let names: Vec<&str> = module.kernels.iter().map(|k| k.name.as_str()).collect();
            return Err(Failed::error(
                &format!("no kernel named `{name}` in {}", args.file.display()),
                Some(&format!("kernels in this file: {}", names.join(", "))),
            ));
        }
        module.kernels.retain(|k| &k.name == name);
    }
    match args.format {
        IrFormat::Text => print!("{}", ir::print_module(&module)),
        IrFormat::Json => {
            let s = serde_json::to_string_pretty(&module)
                .map_err(|e| Failed::error(&format!("cannot serialise the IR: {e}"), None))?;
            println!("{s}");
        }
    }
    Ok(())
}
