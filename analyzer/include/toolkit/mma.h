/*
 * With a real toolkit, gmrace reads its own mma.h (see ../gmrace_toolkit_prelude.h): the
 * toolkit's warp matrix functions are inline PTX, which gmrace cannot follow.
 */
#include "../mma.h"
