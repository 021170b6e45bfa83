// Prints chooseGemmSchedule's choice for the shapes named on the command
// line as M,N,K (132 multiprocessors, the H200's): gemm-schedule.test
// checks the rule's three steps.
#include "sparse-opt/Runtime/Schedule/GemmSchedule.h"

#include <cstdio>

int main(int argc, char **argv) {
  constexpr int multiprocessors = 132;
  for (int i = 1; i < argc; ++i) {
    long long m = 0, n = 0, k = 0;
    if (std::sscanf(argv[i], "%lld,%lld,%lld", &m, &n, &k) != 3) {
      std::fprintf(stderr, "error: expected M,N,K, got '%s'\n", argv[i]);
      return 1;
    }
    const sopt::GemmSchedule s = sopt::chooseGemmSchedule(m, n, k, multiprocessors);
    std::printf("%lld,%lld,%lld: %dx%d k%d splits %d\n", m, n, k, s.blockM, s.blockN, s.kStep,
                s.kSplits);
  }
  return 0;
}
