// Throughput of ex2.approx.f32 against ex2.approx.f16x2 (two results per lane) on sm_90.
#include <cstdio>
#include <cuda_fp16.h>
__global__ void k32(float* out, float seed, int iters) {
  float a[8];
  for (int i = 0; i < 8; ++i) a[i] = -(seed + threadIdx.x * 1e-3f + i * 0.1f);
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int i = 0; i < 8; ++i) { float y; asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(a[i])); a[i] = -y; }
  float s = 0; for (int i = 0; i < 8; ++i) s += a[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void k16x2(float* out, float seed, int iters) {
  unsigned a[8];
  for (int i = 0; i < 8; ++i) { __half2 h = __floats2half2_rn(-(seed + i * 0.1f), -(seed + threadIdx.x * 1e-3f)); a[i] = *(unsigned*)&h; }
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int i = 0; i < 8; ++i) { unsigned y; asm volatile("ex2.approx.f16x2 %0, %1;" : "=r"(y) : "r"(a[i])); a[i] = y ^ 0x80008000u; }
  float s = 0; for (int i = 0; i < 8; ++i) { __half2 h = *(__half2*)&a[i]; s += __low2float(h) + __high2float(h); }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
int main() {
  float* d; cudaMalloc(&d, 132 * 8 * 1024 * 4);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  int iters = 4096; float ms;
  for (int rep = 0; rep < 3; ++rep) {
    cudaEventRecord(e0); k32<<<132 * 8, 1024>>>(d, 0.5f, iters); cudaEventRecord(e1); cudaEventSynchronize(e1);
    cudaEventElapsedTime(&ms, e0, e1);
    double n32 = 132.0 * 8 * 1024 * iters * 8;
    printf("f32   : %.3f ms, %.1f G results/s\n", ms, n32 / ms / 1e6);
    cudaEventRecord(e0); k16x2<<<132 * 8, 1024>>>(d, 0.5f, iters); cudaEventRecord(e1); cudaEventSynchronize(e1);
    cudaEventElapsedTime(&ms, e0, e1);
    printf("f16x2 : %.3f ms, %.1f G results/s (2 per lane-instruction)\n", ms, 2 * n32 / ms / 1e6);
  }
  int clk; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
  printf("max clock %d kHz; 16/clk/SM would be %.1f G results/s\n", clk, 16.0 * 132 * clk / 1e6);
  return 0;
}
