//===- NestingDepth.h - refuse input nested deeper than the parser can take -===//
//
// MLIR's parser descends recursively into every nested region, attribute,
// type and bracket: a few thousand levels (a 20 KB file) overflow the stack.
// The tools scan the input for its bracket depth before parsing and refuse,
// at the bracket that goes too deep, what no real graph needs.
//
//===----------------------------------------------------------------------===//

#ifndef SPARSE_OPT_SUPPORT_NESTINGDEPTH_H
#define SPARSE_OPT_SUPPORT_NESTINGDEPTH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::sopt {

/// The deepest bracket nesting accepted: far beyond hand-written or
/// generated graphs (tens of levels), far below what overflows the parser's
/// stack, also under AddressSanitizer's larger frames (thousands).
constexpr unsigned kMaxNestingDepth = 256;

/// The first opening bracket ( [ { < of `text` at a nesting depth beyond
/// `limit`, or null. String literals and `//` comments are skipped, and so
/// are the arrows and comparisons `->`, `<=`, `>=`, which bracket nothing.
inline const char *findExcessiveNesting(llvm::StringRef text,
                                        unsigned limit = kMaxNestingDepth) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i], next = i + 1 < e ? text[i + 1] : '\0';
    if (c == '"') {
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && next == '/') {
      while (i < e && text[i] != '\n')
        ++i;
    } else if ((c == '-' && next == '>') || ((c == '<' || c == '>') && next == '=')) {
      ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > limit)
        return text.data() + i;
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) {
      --depth;
    }
  }
  return nullptr;
}

/// Reports, through `sourceMgr` as `file:line:col: error:`, the bracket of
/// its main buffer that nests too deep; true when there is none.
inline bool checkNestingDepth(const llvm::SourceMgr &sourceMgr,
                              llvm::raw_ostream &os = llvm::errs()) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  const char *where = findExcessiveNesting(buffer->getBuffer());
  if (!where)
    return true;
  sourceMgr.PrintMessage(os, llvm::SMLoc::getFromPointer(where), llvm::SourceMgr::DK_Error,
                         "brackets nested deeper than " + llvm::Twine(kMaxNestingDepth) +
                             " levels; sparse-opt refuses such input rather than "
                             "overflow the parser's stack");
  return false;
}

} // namespace mlir::sopt

#endif // SPARSE_OPT_SUPPORT_NESTINGDEPTH_H
