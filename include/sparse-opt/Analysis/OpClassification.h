//===- OpClassification.h - compute-intensive vs memory-bound ---*- C++ -*-===//
//
// Technique 1 splits a graph at its compute-intensive ops (GEMM, SpMM, SDDMM,
// SpMV, attention with a schedule): each is a kernel of its own. Every other
// op is memory-bound and may be fused with its memory-bound neighbours.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_ANALYSIS_OPCLASSIFICATION_H
#define SPARSE_OPT_ANALYSIS_OPCLASSIFICATION_H

#include "mlir/IR/Operation.h"

namespace mlir::sopt {

/// Matrix products and attention: kernels of their own.
bool isComputeIntensive(Operation *op);

/// sopt ops a fusion region may hold (elementwise, broadcast, reduce,
/// reshape, transpose). Constants are not nodes: splats are cloned into the
/// regions that use them, other constants become region inputs. Neither are
/// ops on the stored entries of CSR matrices, nor broadcasts only they read.
bool isFusible(Operation *op);
/// A broadcast read only by ops on stored entries: each reads it at its own
/// entries, so it is recomputed there instead of stored densely.
bool isSampledBroadcast(Operation *op);

/// A constant whose every element is equal: a scalar inside a kernel.
bool isSplatConstant(Operation *op);

/// Roughly the instructions one element of an elementwise `op` costs in a
/// fused kernel computing in f32 (a counted guess from the code nvcc emits:
/// 1 for an add, about 4 for `expf`, about 24 for `erff`); 0 for ops that
/// only move data. Mappings weigh arithmetic against bytes with it.
int64_t estimatedInstructionsPerElement(Operation *op);

} // namespace mlir::sopt

#endif // SPARSE_OPT_ANALYSIS_OPCLASSIFICATION_H
