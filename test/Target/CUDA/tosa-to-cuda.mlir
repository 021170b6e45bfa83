// A TOSA graph (as torch-mlir writes it) goes to CUDA in one invocation: the
// LayerNorm spelled in TOSA primitives becomes one fused kernel.
// RUN: sparse-opt %s --emit=cuda -o %t.cu --kernel-summary 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=CUDA < %t.cu

// CHECK: mlp_kernel0: 2 ops | elementwise
// CHECK: mlp_matmul0: sopt.matmul on the project's GEMM kernel | 4x8x16 | tile 32x128, k_step 8, no split
// CHECK: mlp_kernel1: 5 ops | elementwise 32x1
// CHECK: layer_norm_like_kernel0: 17 ops (2 reductions) | subwarp_rows 4x8
// CHECK-NOT: kernel

// CUDA: extern "C" cudaError_t mlp(const float *arg0, float *result0, cudaStream_t stream)
// CUDA: problem.m = 4, problem.n = 8, problem.k = 16;
// CUDA: SOPT_TRY((sopt::gemm_simt::gemmSimtFixed<32, 128, 8, false, false>(problem, 1, stream)));
// CUDA: extern "C" cudaError_t layer_norm_like(const float *arg0, const float *arg1, const float *arg2, float *result0, cudaStream_t stream)

func.func @mlp(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<8x16xf32>}> : () -> tensor<8x16xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<8xf32>}> : () -> tensor<8xf32>
  %wt = tosa.transpose %w {perms = array<i32: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %s0 = tosa.const_shape {values = dense<[1, 4, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %s0 : (tensor<4x16xf32>, !tosa.shape<3>) -> tensor<1x4x16xf32>
  %s1 = tosa.const_shape {values = dense<[1, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w3 = tosa.reshape %wt, %s1 : (tensor<16x8xf32>, !tosa.shape<3>) -> tensor<1x16x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %x3, %w3, %zp, %zp : (tensor<1x4x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %s2 = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.reshape %mm, %s2 : (tensor<1x4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  %s3 = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b2 = tosa.reshape %b, %s3 : (tensor<8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
  %z = tosa.add %y, %b2 : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %r = tosa.clamp %z {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @layer_norm_like(%x: tensor<4x8xf32>, %gamma: tensor<1x8xf32>, %beta: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %mean = tosa.mul %sum, %inv_n, %shift : (tensor<4x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x1xf32>
  %c = tosa.sub %x, %mean : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %sq = tosa.mul %c, %c, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %ssq = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %var = tosa.mul %ssq, %inv_n, %shift : (tensor<4x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x1xf32>
  %ve = tosa.add %var, %eps : (tensor<4x1xf32>, tensor<1x1xf32>) -> tensor<4x1xf32>
  %rs = tosa.rsqrt %ve : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %norm = tosa.mul %c, %rs, %shift : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %scaled = tosa.mul %norm, %gamma, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %y = tosa.add %scaled, %beta : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
