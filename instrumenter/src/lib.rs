//! gmrace's instrumenter: from the analyzer's verdicts, a source-to-source rewrite of a `.cu`
//! file that records the accesses left `unknown`, plus the device runtime header
//! (`gmrace_runtime.cuh`). It consumes `gmrace_analyzer::ir` and produces CUDA text; it never
//! executes anything. Not implemented yet (issue 5); the crate fixes the layering.
