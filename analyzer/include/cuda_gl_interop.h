/*
 * gmrace stand-in for the CUDA toolkit's <cuda_gl_interop.h>: OpenGL buffer and
 * image registration, so that host code sharing buffers with OpenGL
 * type-checks.  The two OpenGL types it needs are declared as <GL/gl.h>
 * declares them (a repeated identical typedef is allowed), so the file reads
 * the same whether or not the machine has OpenGL's headers.
 */
#ifndef GMRACE_CUDA_GL_INTEROP_H
#define GMRACE_CUDA_GL_INTEROP_H

#include "gmrace_cuda.h"

typedef unsigned int GLuint;
typedef unsigned int GLenum;

#define GMRACE_GL extern "C" __host__ cudaError_t

enum cudaGLDeviceList {
  cudaGLDeviceListAll = 1,
  cudaGLDeviceListCurrentFrame = 2,
  cudaGLDeviceListNextFrame = 3
};
enum cudaGLMapFlags {
  cudaGLMapFlagsNone = 0,
  cudaGLMapFlagsReadOnly = 1,
  cudaGLMapFlagsWriteDiscard = 2
};

GMRACE_GL cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices,
                           unsigned int cudaDeviceCount,
                           enum cudaGLDeviceList deviceList);
GMRACE_GL cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource,
                                      GLuint image, GLenum target,
                                      unsigned int flags);
GMRACE_GL cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **resource,
                                       GLuint buffer, unsigned int flags);
/* Deprecated since CUDA 3.0, still used by older samples. */
GMRACE_GL cudaGLSetGLDevice(int device);
GMRACE_GL cudaGLRegisterBufferObject(GLuint bufObj);
GMRACE_GL cudaGLMapBufferObject(void **devPtr, GLuint bufObj);
GMRACE_GL cudaGLUnmapBufferObject(GLuint bufObj);
GMRACE_GL cudaGLUnregisterBufferObject(GLuint bufObj);
GMRACE_GL cudaGLSetBufferObjectMapFlags(GLuint bufObj, unsigned int flags);
GMRACE_GL cudaGLMapBufferObjectAsync(void **devPtr, GLuint bufObj,
                                     cudaStream_t stream);
GMRACE_GL cudaGLUnmapBufferObjectAsync(GLuint bufObj, cudaStream_t stream);

#undef GMRACE_GL
#endif /* GMRACE_CUDA_GL_INTEROP_H */
