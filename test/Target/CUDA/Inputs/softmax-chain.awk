# Writes a function applying `n` softmaxes in a row over a tensor of `shape`
# (awk -v n=N [-v shape=RxC] -f softmax-chain.awk; 64x128 by default).
BEGIN {
  if (shape == "")
    shape = "64x128"
  t = "tensor<" shape "xf32>"
  print "func.func @chain(%s0: " t ") -> " t " {"
  for (i = 1; i <= n; i++)
    print "  %s" i " = sopt.softmax %s" i - 1 " dim = 1 : " t
  print "  return %s" n " : " t
  print "}"
}
