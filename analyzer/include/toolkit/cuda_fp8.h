/*
 * With a real toolkit, gmrace reads its own cuda_fp8.h (see ../gmrace_toolkit_prelude.h):
 * the stand-in's, whose conversions it can follow, and which builds on the stand-in
 * <cuda_fp16.h> and <cuda_bf16.h> that replace the toolkit's (the toolkit's cuda_fp8.hpp
 * expects its own).
 */
#include "../cuda_fp8.h"
