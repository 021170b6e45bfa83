//===- CodeBlock.h - C++ lines held until their place is known --*- C++ -*-===//
//
// A kernel body is built scope by scope (what a row computes once, what each
// element computes, the vector loads around them) before the loops that hold
// them are written. A CodeBlock keeps such lines with their nesting relative
// to the block, so a block is placed at any depth of the kernel without its
// text being read again.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_LIB_TARGET_CUDA_CODEBLOCK_H
#define SPARSE_OPT_LIB_TARGET_CUDA_CODEBLOCK_H

#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include <string>

namespace mlir::sopt::cuda {

class CodeBlock {
public:
  /// Appends one line at the block's current depth.
  CodeBlock &line(const llvm::Twine &text);
  /// Appends a preprocessor line: always in the first column.
  CodeBlock &directive(const llvm::Twine &text);
  /// Lines appended from now on nest one level deeper (or less).
  CodeBlock &indent() {
    ++depth;
    return *this;
  }
  CodeBlock &unindent() {
    --depth;
    return *this;
  }
  /// Appends `other`'s lines nested at the current depth.
  CodeBlock &append(const CodeBlock &other);

  bool empty() const { return lines.empty(); }
  /// Writes the lines at `os`'s current indentation, two columns a level.
  void print(raw_indented_ostream &os) const;

private:
  struct Line {
    int depth;
    bool directive;
    std::string text;
  };
  llvm::SmallVector<Line, 0> lines;
  int depth = 0;
};

} // namespace mlir::sopt::cuda

#endif // SPARSE_OPT_LIB_TARGET_CUDA_CODEBLOCK_H
