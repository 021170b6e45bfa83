// RUN: sparse-opt %s --emit=cuda -o %t.cu --kernel-summary 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s < %t.cu

// A region of three groups (row sums, their maximum, the input scaled by
// it) that fits in one wave: one cooperative kernel, the groups in turn,
// a grid-wide barrier before each group that reads an earlier one's value.
// SUMMARY: scale_kernel0: 3 groups, 2 grid-wide barrier(s), 256 threads, grid 113, smem 48 B, 3136 B exchanged through global memory | [group 0: 1 ops (1 reductions) | subwarp_rows 777x37, 256 threads{{.+}}] [group 1: 1 ops (1 reductions) | block_rows 1x777, 256 threads{{.+}}] [group 2: 2 ops | elementwise 28749x1, 256 threads{{.+}}]
// SUMMARY-NOT: scale_kernel1

// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(256)
// CHECK-NEXT: scale_kernel0(const float *__restrict__ in0,
// CHECK-NEXT: float *__restrict__ out0,
// CHECK-NEXT: float *__restrict__ kernelScratch) {
// Each crossing value has a buffer of its own in the scratch, 16-byte aligned.
// CHECK-NEXT: float *x0 = reinterpret_cast<float *>(kernelScratch + 0);
// CHECK-NEXT: float *x1 = reinterpret_cast<float *>(kernelScratch + 780);
// CHECK-NEXT: { // group 0:
// CHECK: x0[d0] = sopt::fromFloat<float>(acc{{[0-9]+}});
// CHECK: cooperative_groups::this_grid().sync();
// CHECK-NEXT: { // group 1:
// Read back through L2, never the read-only path.
// CHECK: sopt::toFloat(sopt::loadFromGrid(x0 + d0))
// CHECK: x1[0] = sopt::fromFloat<float>(acc{{[0-9]+}});
// CHECK: cooperative_groups::this_grid().sync();
// CHECK-NEXT: { // group 2:
// The maximum is the same for every element: read once, before the loop.
// CHECK: const float [[MAX:v[0-9]+]] = sopt::toFloat(sopt::loadFromGrid(x1 + 0));
// CHECK-NEXT: for (int64_t e0 =
// CHECK-NOT: loadFromGrid
// The input has the group's own shape: read at the flat index, no dims.
// CHECK: const float [[X:v[0-9]+]] = sopt::toFloat(in0[e]);
// CHECK-NEXT: = ([[X]] / [[MAX]]);
// CHECK-NEXT: out0[e] =
// CHECK-NOT: this_grid().sync()
func.func @scale(%x: tensor<777x37xf32>) -> tensor<777x37xf32> {
  %r = sopt.reduce sum %x dims = [1] : tensor<777x37xf32> -> tensor<777xf32>
  %m = sopt.reduce max %r dims = [0] : tensor<777xf32> -> tensor<f32>
  %b = sopt.broadcast %m dims = [] : tensor<f32> -> tensor<777x37xf32>
  %y = sopt.div %x, %b : tensor<777x37xf32>
  return %y : tensor<777x37xf32>
}

// The largest one-wave grid: 132 blocks of 1024 threads, one per SM (the
// second group's row of 16896 sums takes 1024 threads and more than they
// keep in registers, so it is split over 5 blocks, its partials in the
// scratch after the exchanged row sums; the blocks past them only pass the
// barriers). The first group runs 128 rows of 8 threads per block.
// SUMMARY: wave_kernel0: 2 groups, 1 grid-wide barrier(s), 1024 threads, grid 132, smem 144 B, 67584 B exchanged
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(1024)
// CHECK-NEXT: wave_kernel0(
// CHECK: { // group 1: 1 ops (1 reductions) | split_row 1x16896
// CHECK-NEXT: float *__restrict__ scratch = kernelScratch + 16896;
// CHECK: const int64_t rowBase = int64_t(blockIdx.x / kBlocksPerRow) * kRowsPerBlock;
// CHECK: cooperative_groups::this_grid().sync();

// The host functions: the exchanged values and the partials in one scratch
// buffer, a cooperative launch (which fails rather than hangs when the grid
// cannot be resident).
// CHECK: extern "C" cudaError_t scale(
// CHECK: sopt::allocateTemporary(&{{t[0-9]+}}, 3136, stream)
// CHECK: cudaLaunchCooperativeKernel((const void *)scale_kernel0, 113, 256, params, 48, stream)
// CHECK: extern "C" cudaError_t wave(
// CHECK: sopt::allocateTemporary(&{{t[0-9]+}}, 67604, stream)
// CHECK: cudaLaunchCooperativeKernel((const void *)wave_kernel0, 132, 1024, params, 144, stream)
func.func @wave(%x: tensor<16896x128xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<16896x128xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<16896x128xf32> -> tensor<16896xf32>
  %l = sopt.log %r : tensor<16896xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<16896xf32> -> tensor<f32>
  return %t : tensor<f32>
}
