//! The five applications of GMRace's evaluation, as re-created in `benchmarks/kernels/paper/`
//! from the paper's descriptions: one `.cu` per kernel (a racy file only where a barrier is
//! removed) and one launch spec per variant, named `NAME.toml`, `NAME.safe.toml` or
//! `NAME.racy.toml` for `NAME.cu`; a variant is racy when its name says `racy`
//! (`cli/tests/paper.rs` relies on this naming).

/// One kernel file with one launch spec.
pub struct Variant {
    pub file: &'static str,
    pub launch: &'static str,
}

/// An application with a race-free variant (the paper's "normal input", used for overhead) and a
/// racy one (the paper's "bug-triggering input or parameters", used for Table 1).
pub struct App {
    pub name: &'static str,
    /// What makes the racy variant race, for the tables.
    pub trigger: &'static str,
    pub safe: Variant,
    pub racy: Variant,
}

pub const APPS: &[App] = &[
    App {
        name: "co-cluster",
        trigger: "labels leave [0, K): indirect shared index",
        safe: Variant {
            file: "cocluster.cu",
            launch: "cocluster.safe.toml",
        },
        racy: Variant {
            file: "cocluster.cu",
            launch: "cocluster.racy.toml",
        },
    },
    App {
        name: "em",
        trigger: "512 threads per block (assumes 256)",
        safe: Variant {
            file: "em.cu",
            launch: "em.safe.toml",
        },
        racy: Variant {
            file: "em.cu",
            launch: "em.racy.toml",
        },
    },
    App {
        name: "scan",
        trigger: "first barrier removed",
        safe: Variant {
            file: "scan.cu",
            launch: "scan.toml",
        },
        racy: Variant {
            file: "scan_racy.cu",
            launch: "scan_racy.toml",
        },
    },
    App {
        name: "spmv",
        trigger: "injected shared read; columns in ascending order",
        safe: Variant {
            file: "spmv.cu",
            launch: "spmv.safe.toml",
        },
        racy: Variant {
            file: "spmv.cu",
            launch: "spmv.racy.toml",
        },
    },
    App {
        name: "bo",
        trigger: "barrier removed",
        safe: Variant {
            file: "bo.cu",
            launch: "bo.toml",
        },
        racy: Variant {
            file: "bo_racy.cu",
            launch: "bo_racy.toml",
        },
    },
];
