// The sizes `project_header_found.cu` takes from its project: its build names this directory
// with `-I`, the user running gmrace on that one file does not.
#pragma once
#define TILE 128
#define GRID 4
// In another directory of the project, which the build names with `-I` too.
#include "warp_sizes.h"
