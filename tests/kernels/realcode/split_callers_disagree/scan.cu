// split_callers' scan, called by this directory's program with two lengths.
#include "../split_callers/scan.cu"
