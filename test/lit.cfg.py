# -*- Python -*-
# lit configuration of the sparse-opt test suite.
#
# Features:
#   nvcc      nvcc was found; tests compile CUDA (generated or hand-written).
#   cuda-gpu  a CUDA GPU is visible; tests run the GPU test binaries on it
#             (built by the target sopt-gpu-tests into %gpu_bin).
#   sm90-target  those binaries target the H100 family (sm_90*).
#   cuda-multi-gpu  two CUDA GPUs or more are visible (one host).
#   dlmc-data the DLMC matrices are beside the checkout or at $SOPT_DLMC_DIR
#             (../shared/data/dlmc, substituted as %dlmc_dir).
#   strace    strace is installed (tests counting the files a compile opens).
#   mtx-data  the SuiteSparse Matrix Market files are beside the checkout or at
#             $SOPT_MTX_DIR (../shared/data/matrix-market, as %mtx_dir).
# GPU tests say `REQUIRES: cuda-gpu` and report UNSUPPORTED elsewhere.

import os
import shutil
import subprocess

import lit.formats

# Without a build tree's lit.site.cfg.py (the GPU machine has no LLVM/MLIR:
# utils/gpu/run-tests.sh points lit at the source tree), take the settings
# from --param and PATH instead.
if not hasattr(config, "sopt_src_root"):
    import lit.llvm

    lit.llvm.initialize(lit_config, config)
    config.sopt_src_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    config.sopt_obj_root = lit_config.params.get(
        "sopt_obj_root", os.path.join(config.sopt_src_root, "build"))
    config.sopt_tools_dir = os.path.join(config.sopt_obj_root, "bin")
    config.llvm_tools_dir = lit_config.params.get("llvm_tools_dir", "")
    config.mlir_dir = config.cmake_executable = config.cmake_generator = ""
    config.cxx_compiler = ""
    # The GPU machine runs the binaries built with the compiler; it compiles
    # nothing (the compile-only tests are the build's checks).
    config.nvcc_executable = None
    config.sopt_gpu_bin_dir = lit_config.params.get(
        "sopt_gpu_bin_dir", os.path.join(config.sopt_obj_root, "test", "GPU", "bin"))

from lit.llvm import llvm_config

config.name = "SPARSE_OPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".cu"]
# test/GPU/lib: the GPU tests' shared sources (kernel units among them).
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "lib"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = lit_config.params.get(
    "exec_root", os.path.join(config.sopt_obj_root, "test"))

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%sopt_src_root", config.sopt_src_root))
config.substitutions.append(("%sopt_obj_root", config.sopt_obj_root))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%cmake", config.cmake_executable))
# A sanitized build (docs/Fuzzing.md) links what %cxx builds against its
# instrumented runtime: the sanitizer flags come along.
config.substitutions.append(
    ("%cxx", " ".join(filter(None, [config.cxx_compiler, getattr(config, "cxx_flags", "")]))))
# The GPU tests' binaries and the objects they are linked from
# (test/GPU/CMakeLists.txt).
config.substitutions.append(("%gpu_bin", config.sopt_gpu_bin_dir))
config.substitutions.append(
    ("%gpu_obj", os.path.join(os.path.dirname(config.sopt_gpu_bin_dir), "obj")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                     "CUDA_HOME", "CUDA_VISIBLE_DEVICES"])
llvm_config.use_default_substitutions()

tool_dirs = [config.sopt_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["sparse-opt", "sopt-sparse-info"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.sopt_tools_dir, append_path=True)

# --- Data beside the checkout, or at $SOPT_DLMC_DIR / $SOPT_MTX_DIR (not in
# CI) ---------------------------------------------------------------------
def add_data_dir(feature, variable, name, substitution):
    path = os.environ.get(variable) or os.path.normpath(
        os.path.join(config.sopt_src_root, "..", "shared", "data", name))
    if os.path.isdir(path):
        config.available_features.add(feature)
    config.substitutions.append((substitution, path))


# strace: tests that count the files a compile opens.
if shutil.which("strace"):
    config.available_features.add("strace")

add_data_dir("dlmc-data", "SOPT_DLMC_DIR", "dlmc", "%dlmc_dir")
add_data_dir("mtx-data", "SOPT_MTX_DIR", "matrix-market", "%mtx_dir")

# --- CUDA ---------------------------------------------------------------
nvcc = config.nvcc_executable
if nvcc is not None and not os.path.exists(nvcc):
    nvcc = shutil.which("nvcc")
# --param nvcc=off leaves out every test that compiles CUDA (the sanitized
# build's run: docs/Fuzzing.md).
if lit_config.params.get("nvcc", "on") == "off":
    nvcc = None
if nvcc:
    config.available_features.add("nvcc")
    # sm_90a by default (the H100 we measure on); override with
    # SPARSE_OPT_CUDA_ARCH for another GPU.
    arch = os.environ.get("SPARSE_OPT_CUDA_ARCH", "sm_90a")
    config.substitutions.append(
        ("%nvcc_sm90", f"{nvcc} -std=c++17 -O2 -arch=sm_90"))
    # An Ampere target: the runtime's sm_90 paths must compile away there.
    config.substitutions.append(
        ("%nvcc_sm80", f"{nvcc} -std=c++17 -O2 -arch=sm_80"))
    # Code for that one target only (sm_90 would add compute_90 PTX, so a
    # second pass of cicc).
    config.substitutions.append(
        ("%nvcc", f"{nvcc} -std=c++17 -O2 "
                  f"-arch={arch.replace('sm_', 'compute_', 1)} -code={arch}"))

# A binary built for the H100 family (sm_90, with or without `a`) runs only
# where the GPU test binaries target it (the build writes their -arch).
try:
    with open(os.path.join(config.sopt_gpu_bin_dir, "cuda-arch")) as f:
        if f.read().strip().startswith("sm_90"):
            config.available_features.add("sm90-target")
except OSError:
    pass


def cuda_gpus_visible():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return 0
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True,
                             timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    if out.returncode != 0:
        return 0
    return sum(1 for line in out.stdout.splitlines() if line.startswith("GPU "))


gpus = cuda_gpus_visible()
if gpus >= 1:
    config.available_features.add("cuda-gpu")
if gpus >= 2:
    config.available_features.add("cuda-multi-gpu")

# --- PyTorch (python/sparse_opt) -------------------------------------------
# `torch`: a Python that imports torch: $SOPT_TORCH_PYTHON, the venv that
# utils/dev.sh installs into the build tree, or python3; `transformers`: it
# imports transformers too (BERT and GPT-2 blocks). %torch_python runs
# it with the package on its path, this build's sparse-opt and a cache of
# compiled graphs inside the test tree.
def find_torch_python():
    candidates = [os.environ.get("SOPT_TORCH_PYTHON"),
                  os.path.join(config.sopt_obj_root, "torch-venv", "bin", "python3"),
                  shutil.which("python3")]
    for python in filter(None, candidates):
        try:
            if subprocess.run([python, "-c", "import torch"], capture_output=True,
                              timeout=120).returncode == 0:
                return python
        except (OSError, subprocess.TimeoutExpired):
            pass
    return None


torch_python = find_torch_python()
if torch_python:
    config.available_features.add("torch")
    config.environment["PYTHONPATH"] = os.path.join(config.sopt_src_root, "python")
    config.environment["SPARSE_OPT_BIN"] = os.path.join(config.sopt_tools_dir, "sparse-opt")
    config.environment["SPARSE_OPT_CACHE_DIR"] = os.path.join(config.test_exec_root, "torch-cache")
    config.environment["SPARSE_OPT_INCLUDE"] = os.path.join(config.sopt_src_root, "include")
    config.substitutions.append(("%torch_python", torch_python))
    if subprocess.run([torch_python, "-c", "import transformers"], capture_output=True,
                      timeout=120).returncode == 0:
        config.available_features.add("transformers")
