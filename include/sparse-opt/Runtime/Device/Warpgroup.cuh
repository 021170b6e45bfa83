//===- Warpgroup.cuh - Hopper wgmma building blocks -------------*- CUDA -*-===//
//
// The warpgroup matrix multiplies of sm_90a (`wgmma.mma_async`): four
// consecutive warps, the first a multiple of four, multiply together; B
// comes from shared memory through a descriptor, A here from registers, the
// accumulators stay in registers. The instructions exist only when the code
// is compiled for sm_90a (`__CUDA_ARCH_FEAT_SM90_ALL`, kAvailable below);
// elsewhere these functions trap, and callers take an mma.sync path
// instead.
//
// Shared-memory operand layout used here: K-major with the 128-byte swizzle,
// rows of exactly 128 bytes (32 TF32 or 64 16-bit elements), each row's
// 16-byte units stored at position `unit ^ (row % 8)`, eight rows (1024
// bytes, aligned to 1024) per swizzle atom. A k step (8 TF32 or 16 16-bit
// elements) starts 32 bytes further into the same rows.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_RUNTIME_WARPGROUP_CUH
#define SPARSE_OPT_RUNTIME_WARPGROUP_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace sopt::warpgroup {

/// The element offset of element (row, k) in a 128-byte-swizzled tile of
/// T (128-byte rows).
template <typename T> __host__ __device__ constexpr int swizzled128(int row, int k) {
  constexpr int kPerUnit = 16 / sizeof(T), kPerRow = 128 / sizeof(T);
  return row * kPerRow + (((k / kPerUnit) ^ (row % 8)) * kPerUnit) + k % kPerUnit;
}

/// Whether this compilation has the instructions (always false on the host).
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
constexpr bool kAvailable = true;
#define SOPT_WGMMA(...) asm volatile(__VA_ARGS__)
#else
constexpr bool kAvailable = false;
#define SOPT_WGMMA(...) __trap()
#endif

/// The 32 accumulators of a 64 x 64 f32 tile as read-write asm operands.
#define SOPT_ACCUMULATORS(d)                                                              \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),      \
      "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),          \
      "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),       \
      "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),       \
      "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),       \
      "+f"(d[31])

/// The descriptor of a K-major, 128-byte-swizzled operand starting at
/// `tile` (inside a 1024-byte-aligned atom): stride between 8-row groups
/// 1024 bytes; the leading offset is unused by this layout (1 by
/// convention).
__device__ __forceinline__ uint64_t swizzled128Descriptor(const void *tile) {
  const uint32_t address = uint32_t(__cvta_generic_to_shared(tile));
  return uint64_t((address & 0x3ffff) >> 4) | (uint64_t(1) << 16) |
         (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
}

/// Orders this thread's earlier register writes before the next wgmma.
__device__ __forceinline__ void fence() {
  SOPT_WGMMA("wgmma.fence.sync.aligned;\n" ::: "memory");
}

/// Makes this thread's ordinary shared-memory writes visible to the async
/// proxy (the wgmma operand reads); a barrier must follow.
__device__ __forceinline__ void fenceSharedForAsync() {
  SOPT_WGMMA("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/// Closes the group of wgmmas issued since the last commit.
__device__ __forceinline__ void commit() {
  SOPT_WGMMA("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/// Waits for every committed group; `d` are the accumulators they write
/// (named so that the compiler reads them only after the wait).
__device__ __forceinline__ void waitAll(float (&d)[32]) {
  SOPT_WGMMA("wgmma.wait_group.sync.aligned 0;\n"
             : SOPT_ACCUMULATORS(d)
             :
             : "memory");
}

/// d (+)= a · b for the warpgroup's 64 x 64 tile, k = 8, TF32 inputs: a in
/// registers (the m16n8k8 A fragment of rows 16 w .. 16 w + 15 in warp w),
/// b through `bDescriptor`; `accumulate` false overwrites d. Thread (g, t)
/// of warp w holds d[4 j + i] at row 16 w + g + 8 (i / 2), column 8 j + 2 t
/// + i % 2.
__device__ __forceinline__ void mma64x64x8Tf32(float (&d)[32], const uint32_t (&a)[4],
                                               uint64_t bDescriptor, bool accumulate) {
  SOPT_WGMMA("{\n"
             ".reg .pred p;\n"
             "setp.ne.b32 p, %37, 0;\n"
             "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
             "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
             "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, "
             "%31}, {%32, %33, %34, %35}, %36, p, 1, 1;\n"
             "}\n"
             : SOPT_ACCUMULATORS(d)
             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(bDescriptor),
               "r"(int(accumulate)));
}

/// d += a · b for the warpgroup's 64 x 64 tile, k = 16, 16-bit inputs T
/// (__half or __nv_bfloat16), both through descriptors of K-major,
/// 128-byte-swizzled tiles; d's layout as in mma64x64x8Tf32.
template <typename T>
__device__ __forceinline__ void mma64x64x16(float (&d)[32], uint64_t aDescriptor,
                                            uint64_t bDescriptor) {
#define SOPT_MMA_K16(TYPES)                                                                \
  SOPT_WGMMA("{\n"                                                                          \
             ".reg .pred p;\n"                                                              \
             "setp.ne.b32 p, %34, 0;\n"                                                     \
             "wgmma.mma_async.sync.aligned.m64n64k16.f32." TYPES " "                        \
             "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "      \
             "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, "  \
             "%31}, %32, %33, p, 1, 1, 0, 0;\n"                                             \
             "}\n"                                                                          \
             : SOPT_ACCUMULATORS(d)                                                        \
             : "l"(aDescriptor), "l"(bDescriptor), "r"(1))
  if constexpr (std::is_same_v<T, __half>)
    SOPT_MMA_K16("f16.f16");
  else
    SOPT_MMA_K16("bf16.bf16");
#undef SOPT_MMA_K16
}

/// Waits until at most the latest committed group is still running; `d`
/// are the accumulators the groups write.
__device__ __forceinline__ void waitAllButLatest(float (&d)[32]) {
  SOPT_WGMMA("wgmma.wait_group.sync.aligned 1;\n"
             : SOPT_ACCUMULATORS(d)
             :
             : "memory");
}

#undef SOPT_ACCUMULATORS
#undef SOPT_WGMMA

} // namespace sopt::warpgroup

#endif // SPARSE_OPT_RUNTIME_WARPGROUP_CUH
