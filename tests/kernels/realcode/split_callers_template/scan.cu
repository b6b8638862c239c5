// split_callers' scan, called by this directory's program from a template too.
#include "../split_callers/scan.cu"
