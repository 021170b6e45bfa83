// Kernels of three kinds and a sparse product's epilogue, for the split
// build: an elementwise chain, a row softmax, a kernel with grid-wide
// barriers (cooperative launch with a scratch buffer) and an SpMM + bias.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>

func.func @mixed(%x: tensor<256x96xf32>, %w: tensor<40x24xf32, #CSR>,
                 %b: tensor<24x16xf32>, %r: tensor<40x16xf32>)
    -> (tensor<256x96xf32>, tensor<40x16xf32>) {
  %e = sopt.exp %x : tensor<256x96xf32>
  %g = sopt.relu %e : tensor<256x96xf32>
  %s = sopt.softmax %g dim = 1 : tensor<256x96xf32>
  %y = sopt.spmm %w, %b : tensor<40x24xf32, #CSR>, tensor<24x16xf32> -> tensor<40x16xf32>
  %z = sopt.add %y, %r : tensor<40x16xf32>
  return %s, %z : tensor<256x96xf32>, tensor<40x16xf32>
}

func.func @wave(%x: tensor<16896x128xf32>) -> tensor<f32> {
  %e = sopt.exp %x : tensor<16896x128xf32>
  %r = sopt.reduce sum %e dims = [1] : tensor<16896x128xf32> -> tensor<16896xf32>
  %l = sopt.log %r : tensor<16896xf32>
  %t = sopt.reduce sum %l dims = [0] : tensor<16896xf32> -> tensor<f32>
  return %t : tensor<f32>
}
