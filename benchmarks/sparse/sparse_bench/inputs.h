//===- sparse_bench/inputs.h - the matrices to measure ----------*- C++ -*-===//
//
// Collects the .smtx/.mtx files the options name, sorted, each named by its
// path relative to the folders' common root.
//
// Part of sparse_bench.cu's program (SOPT_BENCH_UNIT 0 or 1): included once,
// in order, by that one translation unit, its definitions local to it (an
// anonymous namespace); not a header to include elsewhere.
//
//===----------------------------------------------------------------------===//

namespace {

// ----------------------------------------------------------------------------
// Inputs
// ----------------------------------------------------------------------------

struct Input {
  std::string path, name;
};

std::string lowercase(std::string s) {
  for (char &c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool isMatrixFile(const fs::path &p) {
  const std::string ext = lowercase(p.extension().string());
  return ext == ".smtx" || ext == ".mtx";
}

/// The deepest directory holding every directory among `inputs` (itself
/// when there is one): matrices are named relative to it, so that
/// magnitude_pruning/0.9 and random_pruning/0.9 given together keep their
/// files' names apart.
fs::path namingRoot(const std::vector<std::string> &inputs) {
  std::optional<fs::path> root;
  for (const std::string &arg : inputs) {
    std::error_code ec;
    if (!fs::is_directory(arg, ec))
      continue;
    const fs::path dir = fs::absolute(arg, ec).lexically_normal();
    if (!root) {
      root = dir;
      continue;
    }
    while (!root->empty() && dir.lexically_relative(*root).string().rfind("..", 0) == 0)
      *root = root->parent_path() == *root ? fs::path() : root->parent_path();
  }
  return root.value_or(fs::path());
}

/// Every .smtx/.mtx under each directory (sorted, named by the path relative
/// to namingRoot, without the extension) and every file named (named by its
/// path without the extension; the reader reports a missing or unreadable
/// one).
std::vector<Input> collectInputs(const Options &o) {
  std::vector<Input> inputs;
  const fs::path root = namingRoot(o.inputs);
  for (const std::string &arg : o.inputs) {
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> files;
      fs::recursive_directory_iterator it(
          arg, fs::directory_options::skip_permission_denied, ec),
          end;
      if (ec) {
        std::fprintf(stderr, "sparse_bench: %s: cannot list the directory: %s\n", arg.c_str(),
                     ec.message().c_str());
        continue;
      }
      for (; it != end; it.increment(ec)) {
        if (ec)
          break;
        if (it->is_regular_file(ec) && isMatrixFile(it->path()))
          files.push_back(it->path());
      }
      std::sort(files.begin(), files.end());
      if (files.empty())
        std::fprintf(stderr, "sparse_bench: %s: no .smtx or .mtx files in it\n", arg.c_str());
      for (const fs::path &f : files) {
        fs::path rel = fs::absolute(f, ec).lexically_normal().lexically_relative(root);
        rel.replace_extension();
        inputs.push_back({f.string(), rel.generic_string()});
      }
    } else {
      fs::path p(arg);
      fs::path name = p.lexically_normal();
      name.replace_extension();
      inputs.push_back({arg, name.generic_string()});
    }
  }
  if (!o.match.empty())
    inputs.erase(std::remove_if(inputs.begin(), inputs.end(),
                                [&](const Input &in) {
                                  return in.name.find(o.match) == std::string::npos;
                                }),
                 inputs.end());
  if (o.limit > 0 && int(inputs.size()) > o.limit)
    inputs.resize(o.limit);
  return inputs;
}

} // namespace
