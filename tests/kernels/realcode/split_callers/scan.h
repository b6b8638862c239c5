// The scan the program's main.cpp calls; scan.cu defines it.
#define SCAN_BLOCK 256

void scanDevice(float *d_out, const float *d_in, int length);
