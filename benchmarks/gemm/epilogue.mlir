// Linear + bias + GELU (erf) in f32, the shapes of benchmarks/gemm/epilogue_bench.cu.
// Compiled twice: with --gemm-kernel (the project's GEMM, bias + GELU fused
// as its epilogue where the schedule has one K slice) and without (cuBLAS
// SGEMM, then bias + GELU as a kernel of their own).

func.func @lbg_2048x3072x768(%x: tensor<2048x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<3072xf32>) -> tensor<2048x3072xf32> {
  %y = sopt.matmul %x, %w : tensor<2048x768xf32>, tensor<768x3072xf32> -> tensor<2048x3072xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<3072xf32> -> tensor<2048x3072xf32>
  %s = sopt.add %y, %bb : tensor<2048x3072xf32>
  %g = sopt.gelu %s : tensor<2048x3072xf32>
  return %g : tensor<2048x3072xf32>
}

func.func @lbg_8192x3072x768(%x: tensor<8192x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<3072xf32>) -> tensor<8192x3072xf32> {
  %y = sopt.matmul %x, %w : tensor<8192x768xf32>, tensor<768x3072xf32> -> tensor<8192x3072xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<3072xf32> -> tensor<8192x3072xf32>
  %s = sopt.add %y, %bb : tensor<8192x3072xf32>
  %g = sopt.gelu %s : tensor<8192x3072xf32>
  return %g : tensor<8192x3072xf32>
}

func.func @lbg_8192x768x3072(%x: tensor<8192x3072xf32>, %w: tensor<3072x768xf32>, %b: tensor<768xf32>) -> tensor<8192x768xf32> {
  %y = sopt.matmul %x, %w : tensor<8192x3072xf32>, tensor<3072x768xf32> -> tensor<8192x768xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<768xf32> -> tensor<8192x768xf32>
  %s = sopt.add %y, %bb : tensor<8192x768xf32>
  %g = sopt.gelu %s : tensor<8192x768xf32>
  return %g : tensor<8192x768xf32>
}

func.func @lbg_2048x768x3072(%x: tensor<2048x3072xf32>, %w: tensor<3072x768xf32>, %b: tensor<768xf32>) -> tensor<2048x768xf32> {
  %y = sopt.matmul %x, %w : tensor<2048x3072xf32>, tensor<3072x768xf32> -> tensor<2048x768xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<768xf32> -> tensor<2048x768xf32>
  %s = sopt.add %y, %bb : tensor<2048x768xf32>
  %g = sopt.gelu %s : tensor<2048x768xf32>
  return %g : tensor<2048x768xf32>
}

func.func @lbg_2048x11008x4096(%x: tensor<2048x4096xf32>, %w: tensor<4096x11008xf32>, %b: tensor<11008xf32>) -> tensor<2048x11008xf32> {
  %y = sopt.matmul %x, %w : tensor<2048x4096xf32>, tensor<4096x11008xf32> -> tensor<2048x11008xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<11008xf32> -> tensor<2048x11008xf32>
  %s = sopt.add %y, %bb : tensor<2048x11008xf32>
  %g = sopt.gelu %s : tensor<2048x11008xf32>
  return %g : tensor<2048x11008xf32>
}

func.func @lbg_4096x4096x4096(%x: tensor<4096x4096xf32>, %w: tensor<4096x4096xf32>, %b: tensor<4096xf32>) -> tensor<4096x4096xf32> {
  %y = sopt.matmul %x, %w : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  %bb = sopt.broadcast %b dims = [1] : tensor<4096xf32> -> tensor<4096x4096xf32>
  %s = sopt.add %y, %bb : tensor<4096x4096xf32>
  %g = sopt.gelu %s : tensor<4096x4096xf32>
  return %g : tensor<4096x4096xf32>
}
