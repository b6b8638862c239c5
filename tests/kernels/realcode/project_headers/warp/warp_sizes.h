// Reached only through `block_sizes.h`: found in the project as well, and named.
#pragma once
#define PAIR 2
