"""The backend and the sparse ops on the GPU against float64 PyTorch.

Every output is poisoned before its kernel (SPARSE_OPT_POISON), inputs are
fresh random tensors, and the error is ||out - ref|| / ||ref|| against the
module run in float64 on the CPU. Then the same models compile again in a
fresh torch.compile: nothing may run sparse-opt or nvcc.

With --once only the first pass runs (what compute-sanitizer is given).
With --prepare (a machine with sparse-opt but no GPU) the same graphs run
on the CPU and are compiled into $SPARSE_OPT_CACHE_DIR, which a GPU
machine without LLVM then uses."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("SPARSE_OPT_POISON", "1")

import torch  # noqa: E402
import torch._dynamo  # noqa: E402

import sparse_opt  # noqa: E402
from sparse_opt import ops  # noqa: E402
from sparse_opt.toolchain import COUNTS  # noqa: E402
from models import Block, Heads, Mlp  # noqa: E402

PREPARE = "--prepare" in sys.argv
if PREPARE:
    os.environ["SPARSE_OPT_PREPARE"] = "1"
DEVICE = "cpu" if PREPARE else "cuda"
TOLERANCE = {torch.float32: 1e-4, torch.float16: 5e-3, torch.bfloat16: 3e-2}
failures = []


def relative_error(out, ref):
    out, ref = out.detach().to("cpu", torch.float64), ref.detach().to("cpu", torch.float64)
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def check(label, out, ref, dtype):
    if PREPARE:
        return
    outs = out if isinstance(out, (tuple, list)) else (out,)
    refs = ref if isinstance(ref, (tuple, list)) else (ref,)
    worst = max(relative_error(o, r) for o, r in zip(outs, refs))
    ok = worst <= TOLERANCE[dtype]
    print(f"{label}: relative error {worst:.2e} (tolerance {TOLERANCE[dtype]:.0e}) "
          f"{'ok' if ok else 'FAILED'}", flush=True)
    if not ok:
        failures.append(label)


def run_models(tag):
    torch.manual_seed(1)
    cases = [("mlp", Mlp, [(2, 7, 64), (1, 1, 64)]), ("block", Block, [(2, 9, 64)]),
             ("heads", Heads, [(3, 5, 33)])]
    for name, cls, shapes in cases:
        for dtype in (torch.float32, torch.bfloat16):
            model = cls().eval()
            reference = cls().eval()
            reference.load_state_dict(model.state_dict())
            reference = reference.double()
            model = model.to(DEVICE, dtype)
            compiled = torch.compile(model, backend="sparse_opt", dynamic=False)
            for shape in shapes:  # a new shape compiles again
                x = torch.randn(shape)
                with torch.no_grad():
                    out = compiled(x.to(DEVICE, dtype))
                    ref = reference(x.double())
                check(f"{tag} {name} {str(dtype)[6:]} {shape}", out, ref, dtype)


class PrunedMlp(torch.nn.Module):
    """Two linear layers with CSR weights (90 % of the entries pruned)."""

    def __init__(self, dtype, width=256, hidden=512):
        super().__init__()
        self.w1 = torch.nn.Parameter(csr(hidden, width, 0.1, dtype), requires_grad=False)
        # Drawn on the CPU: the patterns (compiled in) must be the same
        # wherever the cache was prepared.
        self.b1 = torch.nn.Parameter(torch.randn(hidden, dtype=dtype).to(DEVICE), requires_grad=False)
        self.w2 = torch.nn.Parameter(csr(width, hidden, 0.1, dtype), requires_grad=False)

    def forward(self, x):
        return torch.nn.functional.linear(torch.relu(torch.nn.functional.linear(x, self.w1, self.b1)),
                                          self.w2) + x

    def reference(self, x):
        h = torch.relu(x @ self.w1.cpu().to_dense().double().T + self.b1.cpu().double())
        return h @ self.w2.cpu().to_dense().double().T + x


def run_pruned(tag):
    """torch.export's route for CSR parameters (torch.compile does not
    trace them): the patterns are compiled in."""
    torch.manual_seed(4)
    for dtype in (torch.float32, torch.float16):
        model = PrunedMlp(dtype).eval()
        x = torch.randn(33, 256, dtype=dtype).to(DEVICE)
        compiled = sparse_opt.compile_exported(torch.export.export(model, (x,)))
        with torch.no_grad():
            try:
                out = compiled(x)
            except NotImplementedError:  # PyTorch's CPU has no f16 CSR product
                if not PREPARE:
                    raise
                continue
        check(f"{tag} pruned mlp {str(dtype)[6:]}", out, model.reference(x.cpu().double()), dtype)


def run_dynamic(tag):
    """torch.compile's default: after a second shape Dynamo hands over a
    graph with symbolic sizes; each shape compiles once."""
    torch.manual_seed(5)
    model = Block().eval().to(DEVICE)
    reference = Block().eval()
    reference.load_state_dict(model.state_dict())
    reference = reference.double()
    compiled = torch.compile(model, backend="sparse_opt")
    for shape in [(2, 9, 64), (2, 5, 64), (3, 7, 64), (2, 5, 64)]:
        x = torch.randn(shape)
        with torch.no_grad():
            out = compiled(x.to(DEVICE))
        check(f"{tag} dynamic block {shape}", out, reference(x.double()), torch.float32)


def csr(rows, cols, density, dtype, empty_rows=()):
    dense = torch.randn(rows, cols) * (torch.rand(rows, cols) < density)
    for r in empty_rows:
        dense[r] = 0
    return dense.to_sparse_csr().to(DEVICE).to(dtype) if dtype != torch.float32 else \
        dense.to_sparse_csr().to(DEVICE)


def run_ops(tag):
    torch.manual_seed(2)
    for dtype in (torch.float32, torch.float16):
        for rows, cols, n, empty in [(97, 61, 33, (0, 5)), (1, 19, 8, ()), (40, 1, 5, (3,)),
                                     (256, 512, 64, ())]:
            a = csr(rows, cols, 0.2, dtype, empty)
            x = torch.randn(cols, n, device=DEVICE, dtype=dtype)
            ref = a.to("cpu").to_dense().double() @ x.cpu().double()
            check(f"{tag} spmm {str(dtype)[6:]} {rows}x{cols} n={n}", ops.spmm(a, x), ref, dtype)
            lhs = torch.randn(rows, n, device=DEVICE, dtype=dtype)
            rhs = torch.randn(cols, n, device=DEVICE, dtype=dtype)
            ref = (lhs.cpu().double() @ rhs.cpu().double().T) * a.cpu().to_dense().double()
            out = ops.sddmm(lhs, rhs, a)
            check(f"{tag} sddmm {str(dtype)[6:]} {rows}x{cols} k={n}",
                  out.values(), ref.to_sparse_csr().values() if a._nnz() else out.values().double(),
                  dtype)

    # A GNN layer, relu(A · (X · W)), with the CSR adjacency as its arrays:
    # the custom op in a fullgraph torch.compile, the rest compiled by us.
    nodes, features = 300, 48
    adjacency = csr(nodes, nodes, 0.03, torch.float32)
    arrays = (adjacency.crow_indices().clone(), adjacency.col_indices().clone(),
              adjacency.values().clone())
    x = torch.randn(nodes, features, device=DEVICE)
    w = torch.randn(features, 32, device=DEVICE) / features ** 0.5

    def gnn(p, c, v, x, w):
        return torch.relu(torch.ops.sparse_opt.spmm(p, c, v, x @ w, nodes))

    compiled = torch.compile(gnn, backend="sparse_opt", fullgraph=True, dynamic=False)
    with torch.no_grad():
        out = compiled(*arrays, x, w)
    ref = torch.relu(adjacency.cpu().to_dense().double() @ (x.cpu().double() @ w.cpu().double()))
    check(f"{tag} gnn f32", out, ref, torch.float32)


def run_cuda_graph():
    """A compiled module replayed from a CUDA graph."""
    torch.manual_seed(3)
    model = Mlp().eval().to(DEVICE)
    compiled = torch.compile(model, backend="sparse_opt", dynamic=False)
    x = torch.randn(2, 7, 64, device=DEVICE)
    with torch.no_grad():
        compiled(x)  # compiled outside the capture
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = compiled(x)
        x.copy_(torch.randn(2, 7, 64))
        graph.replay()
        torch.cuda.synchronize()
        check("cuda graph mlp f32", out, model.double().cpu()(x.cpu().double()), torch.float32)


ONCE = "--once" in sys.argv  # one pass (under compute-sanitizer)
run_models("first")
run_ops("first")
run_pruned("first")
run_dynamic("first")
print(f"first pass ran sparse-opt {COUNTS['sparse-opt']} times, nvcc {COUNTS['nvcc']} times", flush=True)
if not PREPARE and not ONCE:
    torch._dynamo.reset()
    ops._functions.clear()
    before = dict(COUNTS)
    run_models("again")
    run_ops("again")
    run_pruned("again")
    run_dynamic("again")
    again = {k: COUNTS[k] - before[k] for k in COUNTS}
    print(f"second pass ran sparse-opt {again['sparse-opt']} times, nvcc {again['nvcc']} times")
    if any(again.values()):
        failures.append("second pass compiled")
    run_cuda_graph()
print("FAILED: " + ", ".join(failures) if failures else "all passed")
sys.exit(1 if failures else 0)
