//===- CodeBlock.cpp - C++ lines held until their place is known ----------===//

#include "CodeBlock.h"

using namespace mlir;
using namespace mlir::sopt::cuda;

CodeBlock &CodeBlock::line(const llvm::Twine &text) {
  lines.push_back({depth, /*directive=*/false, text.str()});
  return *this;
}

CodeBlock &CodeBlock::directive(const llvm::Twine &text) {
  lines.push_back({0, /*directive=*/true, text.str()});
  return *this;
}

CodeBlock &CodeBlock::append(const CodeBlock &other) {
  for (const Line &l : other.lines)
    lines.push_back({l.directive ? 0 : depth + l.depth, l.directive, l.text});
  return *this;
}

void CodeBlock::print(raw_indented_ostream &os) const {
  for (const Line &l : lines) {
    if (l.directive) {
      // The indented stream is unbuffered and at the start of a line here.
      os.getOStream() << l.text << '\n';
      continue;
    }
    for (int i = 0; i < l.depth; ++i)
      os.indent();
    os << l.text << '\n';
    for (int i = 0; i < l.depth; ++i)
      os.unindent();
  }
}
