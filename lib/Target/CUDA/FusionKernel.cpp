//===- FusionKernel.cpp - one sopt.fusion region as a CUDA kernel ---------===//
//
// A region of one group is a kernel of that group (FusionGroupWriter.h). A
// region of several groups (a reduction whose result feeds a reduction of
// another shape, planned to fit in one wave) becomes one kernel that runs
// the groups in turn, at one block size: values crossing groups go through
// global buffers, and a grid-wide barrier separates a group from the ones
// it reads.
//
//===----------------------------------------------------------------------===//

#include "FusionKernel.h"
#include "CudaSyntax.h"
#include "FusionGroupWriter.h"

#include "sparse-opt/Analysis/ThreadMapping.h"
#include "sparse-opt/Dialect/SOpt/FusionAnnotations.h"
#include "sparse-opt/Support/Extents.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::sopt;
using namespace mlir::sopt::cuda;

namespace {

/// `extern "C" __global__ void name(inputs, results[, scratch])` and the
/// function's body.
void writeFunction(raw_indented_ostream &os, FusionOp fusion, StringRef name,
                   int64_t threads, int64_t residentBlocks, StringRef scratch,
                   bool dependentLaunch, const CodeBlock &body) {
  os << "extern \"C\" __global__ void __launch_bounds__(" << threads;
  if (residentBlocks > 1)
    os << ", " << residentBlocks; // all resident for the grid-wide barriers
  os << ")\n" << name << "(";
  SmallVector<std::string> params;
  for (auto [i, input] : llvm::enumerate(fusion.getInputs()))
    params.push_back("const " + *storageType(tensorType(input).getElementType()) +
                     " *__restrict__ in" + std::to_string(i));
  for (auto [i, type] : llvm::enumerate(fusion.getResultTypes()))
    params.push_back(*storageType(cast<RankedTensorType>(type).getElementType()) +
                     " *__restrict__ out" + std::to_string(i));
  if (!scratch.empty())
    params.push_back(("float *__restrict__ " + scratch).str());
  llvm::interleave(params, os, ",\n    ");
  os << ") {\n";
  os.indent();
  // Launched as a dependent launch (Launch.cuh), the kernel may start
  // before the one ahead of it in the stream has finished: it waits for
  // it before touching memory. (Cooperative launches are plain ones.)
  if (dependentLaunch)
    os << "sopt::awaitPrecedingKernels();\n";
  body.print(os);
  os.unindent();
  os << "}\n\n";
}

} // namespace

FailureOr<KernelLaunch> GroupWriter::write(raw_indented_ostream &os) {
  FailureOr<GroupCode> code = writeGroup();
  if (failed(code))
    return failure();
  code->launch.summary = name + ": " + code->summary;
  os << "// " << code->launch.summary << "\n";
  writeFunction(os, fusion, name, mapping.getThreadsPerBlock(),
                /*residentBlocks=*/0, isSplit() ? "scratch" : "",
                /*dependentLaunch=*/!code->launch.cooperative, code->body);
  return code->launch;
}

FailureOr<GroupCode> GroupWriter::writeGroup() {
  if (failed(checkSupported()))
    return failure();
  computePhases();
  KernelLaunch launch;
  launch.name = name;
  launch.grid = mapping.getGrid();
  launch.block = mapping.getThreadsPerBlock();
  if (auto bytes = fusion->getAttrOfType<IntegerAttr>(attr::kSharedBytes);
      bytes && !isElementwise())
    launch.sharedBytes = bytes.getInt();
  if (!isElementwise() && isSplit()) {
    launch.cooperative = true;
    launch.scratchFloats = mapping.getRows() * mapping.getBlocksPerRow() *
                           (1 + static_cast<int64_t>(group.subBackbones.size()));
  }

  CodeBlock body;
  if (isElementwise())
    writeElementwise(body);
  else
    writeRows(body);

  // The summary: what was fused, how it maps, where values live.
  std::string summary;
  llvm::raw_string_ostream s(summary);
  s << group.ops.size() << " ops";
  if (group.hasBackbone())
    s << " (" << 1 + group.subBackbones.size() << " reductions)";
  s << " | " << stringifyMappingKind(mapping.getKind()) << " " << mapping.getRows()
    << "x" << mapping.getCols() << ", " << mapping.getThreadsPerBlock()
    << " threads";
  if (group.hasBackbone())
    s << " (" << mapping.getThreadsPerRow() << "/row)";
  s << ", vector " << mapping.getVectorWidth() << ", grid " << mapping.getGrid()
    << " | smem " << launch.sharedBytes << " B";
  if (group.hasBackbone())
    s << " | reductions in "
      << (isSplit() ? "global memory (grid-wide barrier)"
          : isColumns() ? "shared memory (column slices)"
          : mapping.getThreadsPerRow() <= 32 ? "registers (warp shuffles)"
                                              : "shared memory");
  s << " | " << cached.size() << " row value(s) kept across reductions";
  return GroupCode{std::move(body), summary, launch};
}

FailureOr<std::string> GroupWriter::writeEpilogue(unsigned accumulatorInput,
                                                  raw_indented_ostream &os) {
  if (failed(checkSupported()))
    return failure();
  accumulatorArg = accumulatorInput;
  for (int64_t d = 0; d < rank; ++d)
    dimNames.push_back("d" + std::to_string(d));
  inElement = true;
  Value yielded = fusion.getYield().getValues().front();
  AffineMap map = yielded.getDefiningOp()->getAttrOfType<AffineMapAttr>(attr::kIndexMap).getValue();
  std::string result = value(yielded, map);

  std::string summary;
  llvm::raw_string_ostream s(summary);
  bool gemm = isa_and_nonnull<MatmulOp>(fusion.getInputs()[accumulatorInput].getDefiningOp());
  s << name << ": epilogue of " << group.ops.size() << " op(s) fused into the "
    << (gemm ? "GEMM" : "sparse product") << ":";
  for (Operation *op : group.ops)
    s << " " << op->getName().stripDialect();

  os << "// " << summary << "\nstruct " << name << " {\n";
  os.indent();
  for (auto [i, input] : llvm::enumerate(fusion.getInputs()))
    if (i != accumulatorInput)
      os << "const " << *storageType(tensorType(input).getElementType())
         << " *__restrict__ in" << i << ";\n";
  os << "__device__ __forceinline__ float operator()(int64_t d0, int64_t d1, float acc) const {\n";
  os.indent();
  element.code.print(os);
  os << "return " << result << ";\n";
  os.unindent();
  os << "}\n";
  os.unindent();
  os << "};\n\n";
  return summary;
}

namespace {

/// A region of several groups as one kernel: the groups in turn, each in its
/// own scope at the kernel's block size, a grid-wide barrier before a group
/// that reads what an earlier one wrote.
FailureOr<KernelLaunch> writeGroupsKernel(FusionOp fusion,
                                          const BackboneGrouping &grouping,
                                          StringRef name, raw_indented_ostream &os) {
  // Group ids follow dependence (BackboneGrouping), so the groups run in id
  // order; only groups that read from each other have no such order.
  SmallVector<MappingAttr> mappings;
  for (const FusionGroup &group : grouping.getGroups()) {
    MappingAttr mapping = getRecordedMapping(group);
    if (!mapping)
      return fusion.emitOpError("has no thread mapping; run "
                                "sopt-propagate-mapping and sopt-plan-reuse first");
    if (!mappings.empty() &&
        mapping.getThreadsPerBlock() != mappings.front().getThreadsPerBlock())
      return fusion.emitOpError("holds groups of different block sizes; run "
                                "sopt-plan-reuse, which gives a kernel's groups one");
    for (Operation *op : group.ops) {
      if (!op->hasAttr(attr::kIndexMap))
        return op->emitOpError("has no sopt.index_map; run sopt-propagate-mapping");
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (const FusionGroup *from = grouping.getGroup(def); from && from->id > group.id)
            return fusion.emitOpError("holds groups that read from each other; the "
                                      "CUDA emitter needs an order between them");
    }
    mappings.push_back(mapping);
  }

  // Each value crossing groups gets a buffer in the kernel's scratch, in its
  // storage type, 16-byte aligned.
  Exchange exchange;
  DenseMap<Value, unsigned> producer;
  CodeBlock body;
  int64_t scratchFloats = 0;
  for (const FusionGroup &group : grouping.getGroups())
    for (Operation *op : group.ops)
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        const FusionGroup *from = def ? grouping.getGroup(def) : nullptr;
        if (!from || from == &group || exchange.count(operand))
          continue;
        // The reuse plan decided where values crossing groups live.
        auto memory = def->getAttrOfType<MemoryLevelAttr>(attr::kResultMemory);
        if (!memory || memory.getValue() != MemoryLevel::Global)
          return def->emitOpError("is read by a later fusion group but the reuse plan does "
                                  "not keep it in global memory (sopt.result_memory); run "
                                  "sopt-plan-reuse");
        auto type = tensorType(operand);
        std::string storage = *storageType(type.getElementType());
        int64_t bytes = product(type.getShape()) *
                        ceilDiv(type.getElementTypeBitWidth(), 8);
        std::string buffer = "x" + std::to_string(exchange.size());
        body.line(llvm::formatv("{0} *{1} = reinterpret_cast<{0} *>(kernelScratch + {2});",
                                storage, buffer, scratchFloats));
        scratchFloats += ceilDiv(ceilDiv(bytes, 4), 4) * 4;
        exchange[operand] = buffer;
        producer[operand] = from->id;
      }

  int64_t exchangedBytes = 4 * scratchFloats;
  std::string summaries;
  int64_t grid = 0, barriers = 0, sharedBytes = 0;
  bool split = false;
  llvm::SmallDenseSet<unsigned> sinceBarrier; // groups not yet behind a barrier
  for (const FusionGroup &group : grouping.getGroups()) {
    MappingAttr mapping = mappings[group.id];
    bool waits = llvm::any_of(group.ops, [&](Operation *op) {
      return llvm::any_of(op->getOperands(), [&](Value v) {
        auto it = producer.find(v);
        return it != producer.end() && sinceBarrier.contains(it->second);
      });
    });
    if (waits) {
      body.line("// the groups above wrote what the next one reads");
      body.line("cooperative_groups::this_grid().sync();");
      ++barriers;
      sinceBarrier.clear();
    }
    sinceBarrier.insert(group.id);
    std::string groupName = (name + "_group" + Twine(group.id)).str();
    FailureOr<GroupCode> code =
        GroupWriter(fusion, group, mapping, groupName, &exchange).writeGroup();
    if (failed(code))
      return failure();
    body.line("{ // group " + std::to_string(group.id) + ": " + code->summary);
    body.indent();
    if (code->launch.cooperative) {
      // A split reduction's partials, after the exchanged values.
      body.line("float *__restrict__ scratch = kernelScratch + " +
                std::to_string(scratchFloats) + ";");
      scratchFloats += code->launch.scratchFloats;
      split = true;
    }
    body.append(code->body);
    body.unindent().line("}");
    summaries += " [group " + std::to_string(group.id) + ": " + code->summary + "]";
    grid = std::max(grid, code->launch.grid);
    sharedBytes = std::max(sharedBytes, code->launch.sharedBytes);
  }

  auto planned = fusion->getAttrOfType<IntegerAttr>(attr::kGridBarriers);
  if (!planned || planned.getInt() != barriers)
    return fusion.emitOpError() << "needs " << barriers
                                << " grid-wide barrier(s) but the reuse plan (sopt.grid_barriers) "
                                << (planned ? "has " + std::to_string(planned.getInt())
                                            : std::string("is missing"))
                                << "; run sopt-plan-reuse";

  KernelLaunch launch;
  launch.name = name.str();
  launch.grid = grid;
  launch.block = mappings.front().getThreadsPerBlock();
  launch.sharedBytes = sharedBytes;
  launch.cooperative = barriers > 0 || split;
  launch.scratchFloats = scratchFloats;
  launch.summary = llvm::formatv("{0}: {1} groups, {2} grid-wide barrier(s), "
                                 "{3} threads, grid {4}, smem {5} B, {6} B "
                                 "exchanged through global memory |{7}",
                                 name, grouping.getGroups().size(), barriers,
                                 launch.block, grid, sharedBytes,
                                 exchangedBytes, summaries)
                       .str();
  int64_t resident = 0;
  if (auto attr = fusion->getAttrOfType<IntegerAttr>(attr::kResidentBlocks))
    resident = attr.getInt();
  os << "// " << launch.summary << "\n";
  writeFunction(os, fusion, name, launch.block, resident,
                launch.cooperative ? "kernelScratch" : "", !launch.cooperative, body);
  return launch;
}

} // namespace

FailureOr<std::string> sopt::cuda::emitSparseEpilogue(FusionOp fusion,
                                                      unsigned accumulatorInput,
                                                      StringRef name,
                                                      llvm::raw_ostream &os) {
  FailureOr<BackboneGrouping> marks = BackboneGrouping::fromMarks(fusion);
  if (failed(marks))
    return failure();
  const BackboneGrouping &grouping = *marks;
  if (grouping.getGroups().size() != 1 || grouping.getGroups().front().hasBackbone())
    return fusion.emitOpError("is marked as a sparse product's epilogue but is not "
                              "one elementwise group");
  const FusionGroup &group = grouping.getGroups().front();
  MappingAttr mapping = getRecordedMapping(group);
  if (!mapping || group.domain.size() != 2)
    return fusion.emitOpError("is marked as a sparse product's epilogue but has no "
                              "2-D elementwise mapping");
  raw_indented_ostream out(os);
  return GroupWriter(fusion, group, mapping, name).writeEpilogue(accumulatorInput, out);
}

FailureOr<KernelLaunch> sopt::cuda::emitFusionKernel(FusionOp fusion,
                                                     StringRef name,
                                                     llvm::raw_ostream &os) {
  FailureOr<BackboneGrouping> marks = BackboneGrouping::fromMarks(fusion);
  if (failed(marks))
    return failure();
  const BackboneGrouping &grouping = *marks;
  if (grouping.getGroups().empty())
    return fusion.emitOpError("computes nothing the CUDA emitter can place in a kernel");
  raw_indented_ostream out(os);
  if (grouping.getGroups().size() > 1)
    return writeGroupsKernel(fusion, grouping, name, out);
  const FusionGroup &group = grouping.getGroups().front();
  MappingAttr mapping = getRecordedMapping(group);
  if (!mapping)
    return fusion.emitOpError("has no thread mapping; run "
                              "sopt-propagate-mapping and sopt-plan-reuse first");
  for (Operation *op : group.ops)
    if (!op->hasAttr(attr::kIndexMap))
      return op->emitOpError("has no sopt.index_map; run sopt-propagate-mapping");
  return GroupWriter(fusion, group, mapping, name).write(out);
}
