/*
 * With a real toolkit, gmrace reads its own cuda_bf16.h (see ../gmrace_toolkit_prelude.h):
 * the stand-in's, whose arithmetic it can follow.
 */
#include "../cuda_bf16.h"
