// Row mean and biased variance as two outputs (row scalars), and the
// centred rows (a broadcast after a reduce).

func.func @mean_variance_f32_1000x100(%x: tensor<1000x100xf32>) -> (tensor<1000xf32>, tensor<1000xf32>, tensor<1000x100xf32>) {
  %m = sopt.reduce mean %x dims = [1] keep_dims : tensor<1000x100xf32> -> tensor<1000x1xf32>
  %mb = sopt.broadcast %m dims = [0, 1] : tensor<1000x1xf32> -> tensor<1000x100xf32>
  %d = sopt.sub %x, %mb : tensor<1000x100xf32>
  %sq = sopt.mul %d, %d : tensor<1000x100xf32>
  %v = sopt.reduce mean %sq dims = [1] : tensor<1000x100xf32> -> tensor<1000xf32>
  %mean = sopt.reshape %m : tensor<1000x1xf32> -> tensor<1000xf32>
  return %mean, %v, %d : tensor<1000xf32>, tensor<1000xf32>, tensor<1000x100xf32>
}

func.func @mean_variance_f32_5000x64(%x: tensor<5000x64xf32>) -> (tensor<5000xf32>, tensor<5000xf32>, tensor<5000x64xf32>) {
  %m = sopt.reduce mean %x dims = [1] keep_dims : tensor<5000x64xf32> -> tensor<5000x1xf32>
  %mb = sopt.broadcast %m dims = [0, 1] : tensor<5000x1xf32> -> tensor<5000x64xf32>
  %d = sopt.sub %x, %mb : tensor<5000x64xf32>
  %sq = sopt.mul %d, %d : tensor<5000x64xf32>
  %v = sopt.reduce mean %sq dims = [1] : tensor<5000x64xf32> -> tensor<5000xf32>
  %mean = sopt.reshape %m : tensor<5000x1xf32> -> tensor<5000xf32>
  return %mean, %v, %d : tensor<5000xf32>, tensor<5000xf32>, tensor<5000x64xf32>
}

func.func @mean_variance_bf16_640x2000(%x: tensor<640x2000xbf16>) -> (tensor<640xbf16>, tensor<640xbf16>, tensor<640x2000xbf16>) {
  %m = sopt.reduce mean %x dims = [1] keep_dims : tensor<640x2000xbf16> -> tensor<640x1xbf16>
  %mb = sopt.broadcast %m dims = [0, 1] : tensor<640x1xbf16> -> tensor<640x2000xbf16>
  %d = sopt.sub %x, %mb : tensor<640x2000xbf16>
  %sq = sopt.mul %d, %d : tensor<640x2000xbf16>
  %v = sopt.reduce mean %sq dims = [1] : tensor<640x2000xbf16> -> tensor<640xbf16>
  %mean = sopt.reshape %m : tensor<640x1xbf16> -> tensor<640xbf16>
  return %mean, %v, %d : tensor<640xbf16>, tensor<640xbf16>, tensor<640x2000xbf16>
}

