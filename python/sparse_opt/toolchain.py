"""sparse-opt and nvcc, and the on-disk cache of what they produced.

A cache entry is a directory named by the hash of the MLIR text and the
compile options; it holds the MLIR, the generated CUDA, the identity of
the sparse-opt that generated it, and one shared library per target
(named by the hash of the CUDA arch and nvcc's version). A second run
finds the library and compiles nothing; a machine with nvcc but without
sparse-opt (no LLVM/MLIR) uses the CUDA an entry already holds.

Environment: SPARSE_OPT_BIN (the sparse-opt binary; else PATH), SPARSE_OPT_INCLUDE
(the project's include/ directory), SPARSE_OPT_CACHE_DIR (default
~/.cache/sparse_opt), SPARSE_OPT_CUDA_ARCH (default: the current GPU's,
sm_90a without one), SPARSE_OPT_QUIET=1 (no progress lines),
SPARSE_OPT_DUMP=1 (print the MLIR and the path of the CUDA), SPARSE_OPT_PREPARE=1
(graphs and ops called on CPU tensors are compiled into the cache too, for
a GPU machine without sparse-opt), SPARSE_OPT_POISON=1 (outputs are filled
with NaN before each call: tests see what a kernel leaves unwritten).

COUNTS says how many times sparse-opt and nvcc ran in this process."""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from functools import lru_cache
from pathlib import Path


COUNTS = {"sparse-opt": 0, "nvcc": 0}


class ToolchainError(RuntimeError):
    pass


def log(message):
    if os.environ.get("SPARSE_OPT_QUIET") != "1":
        print(f"sparse_opt: {message}", file=sys.stderr, flush=True)


def dumping():
    return os.environ.get("SPARSE_OPT_DUMP") == "1"


def preparing():
    return os.environ.get("SPARSE_OPT_PREPARE") == "1"


def poison(tensor):
    if os.environ.get("SPARSE_OPT_POISON") == "1":
        tensor.fill_(float("nan"))
    return tensor


def cache_dir():
    return Path(os.environ.get("SPARSE_OPT_CACHE_DIR",
                               Path.home() / ".cache" / "sparse_opt"))


@lru_cache(maxsize=None)
def sparse_opt_binary():
    path = os.environ.get("SPARSE_OPT_BIN") or shutil.which("sparse-opt")
    return path if path and os.access(path, os.X_OK) else None


@lru_cache(maxsize=None)
def compiler_identity(binary):
    """The binary's content hash: a rebuilt compiler regenerates the CUDA."""
    digest = hashlib.sha256()
    with open(binary, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@lru_cache(maxsize=None)
def nvcc_binary():
    for candidate in (os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@lru_cache(maxsize=None)
def nvcc_release(nvcc):
    """"13.0" for CUDA 13.0: libraries one release builds for one arch are
    interchangeable, whatever the patch level of its nvcc."""
    text = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    found = re.search(r"release (\d+\.\d+)", text)
    return found.group(1) if found else text.strip()


@lru_cache(maxsize=None)
def include_dir():
    """The project's include/ (the generated CUDA includes its runtime
    headers): $SPARSE_OPT_INCLUDE, the source tree this package sits in,
    or the install prefix or build tree of sparse-opt."""
    candidates = [os.environ.get("SPARSE_OPT_INCLUDE"),
                  Path(__file__).resolve().parents[2] / "include"]
    binary = sparse_opt_binary()
    if binary:
        root = Path(binary).resolve().parents[1]
        candidates.append(root / "include")
        cmake_cache = root / "CMakeCache.txt"
        if cmake_cache.exists():
            for line in cmake_cache.read_text().splitlines():
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    candidates.append(Path(line.split("=", 1)[1]) / "include")
    for c in candidates:
        if c and (Path(c) / "sparse-opt" / "Runtime").is_dir():
            return str(c)
    raise ToolchainError("cannot find the sparse-opt runtime headers "
                         "(include/sparse-opt/Runtime); set SPARSE_OPT_INCLUDE")


def cuda_arch():
    arch = os.environ.get("SPARSE_OPT_CUDA_ARCH")
    if arch:
        return arch
    import torch
    if torch.cuda.is_available():
        major, minor = torch.cuda.get_device_capability()
        # sm_90a: the architecture-specific features (wgmma, TMA) the
        # kernels use on Hopper.
        return f"sm_{major}{minor}" + ("a" if major == 9 else "")
    return "sm_90a"


def sm_count():
    import torch
    if torch.cuda.is_available():
        return torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    return 132  # sparse-opt's default target, the H100/H200


def _run(command, what):
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise ToolchainError(f"{what} failed ({' '.join(map(str, command))}):\n"
                             f"{done.stderr.strip() or done.stdout.strip()}")
    return time.perf_counter() - started


def _write_atomically(path, text):
    tmp = path.with_suffix(path.suffix + f".{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def generate_cuda(mlir, name, options=(), files=None):
    """The cache entry holding `mlir` compiled to CUDA; runs sparse-opt
    unless the entry already holds CUDA from the same compiler. `files`
    (name -> text: sparsity patterns the MLIR names, content-hashed) are
    written beside it."""
    options = [f"--sm-count={sm_count()}", *options]
    key = hashlib.sha256("\0".join([mlir, *options]).encode()).hexdigest()[:32]
    entry = cache_dir() / key
    entry.mkdir(parents=True, exist_ok=True)
    cu, identity_file = entry / f"{name}.cu", entry / "compiler.txt"
    binary = sparse_opt_binary()
    if dumping():
        log(f"MLIR of {name}:\n{mlir}")
    if binary:
        identity = compiler_identity(binary)
        if cu.exists() and identity_file.exists() and identity_file.read_text() == identity:
            return entry
    elif cu.exists():
        return entry  # CUDA generated elsewhere, by the compiler that made the entry
    else:
        raise ToolchainError("sparse-opt not found (set SPARSE_OPT_BIN or put it on PATH), "
                             f"and the cache {entry} holds no CUDA for this graph")
    _write_atomically(entry / "graph.mlir", mlir)
    for file_name, text in (files or {}).items():
        _write_atomically(entry / file_name, text)
    with tempfile.TemporaryDirectory(dir=entry) as tmp:
        out = Path(tmp) / f"{name}.cu"
        COUNTS["sparse-opt"] += 1
        seconds = _run([binary, str(entry / "graph.mlir"), "--emit=cuda", "-o", str(out), *options],
                       "sparse-opt")
        for produced in Path(tmp).iterdir():
            os.replace(produced, entry / produced.name)
    _write_atomically(identity_file, identity)
    log(f"generated CUDA for {name} in {seconds:.1f} s ({cu})")
    return entry


def build_library(entry, name):
    """The shared library of an entry for the current target; runs nvcc
    unless it is there."""
    nvcc = nvcc_binary()
    arch = cuda_arch()
    release = nvcc_release(nvcc) if nvcc else "none"
    library = entry / f"lib{name}-{arch}-cuda{release}.so"
    if dumping():
        log(f"CUDA of {name}: {entry / (name + '.cu')}")
    if library.exists():
        return library
    if not nvcc:
        raise ToolchainError("nvcc not found (set NVCC or put the CUDA toolkit on PATH)")
    tmp = library.with_suffix(f".{os.getpid()}.tmp")
    virtual = arch.replace("sm_", "compute_", 1)
    log(f"compiling {name} for {arch} with nvcc ...")
    COUNTS["nvcc"] += 1
    seconds = _run([nvcc, "-std=c++17", "-O3", f"-gencode=arch={virtual},code={arch}",
                    f"-I{include_dir()}", "-shared", "-Xcompiler", "-fPIC",
                    str(entry / f"{name}.cu"), "-o", str(tmp), "-lcublas", "-lcusparse"], "nvcc")
    os.replace(tmp, library)
    log(f"compiled {name} in {seconds:.1f} s")
    return library
