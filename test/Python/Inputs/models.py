"""Small PyTorch modules for the importer tests. `models.py NAME MODE`
prints the sopt MLIR of module NAME as MODE sees it: `export`
(torch.export, ATen ops), `dynamo` (torch.compile's graph, partitioned:
the fallback report, then one function per compiled part), `fx`
(torch.fx.symbolic_trace, modules as call_module) or `unlifted`
(torch.export's module with its parameters). With `fx` and `unlifted` the
patterns of CSR parameters are written to the current directory."""

import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

import sparse_opt
from sparse_opt.importer import node_meta
from sparse_opt.partition import partition

torch.manual_seed(0)


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(64, 256)
        self.down = nn.Linear(256, 64)

    def forward(self, x):
        return self.down(F.gelu(self.up(x), approximate="tanh")) + x


class Block(nn.Module):
    """A pre-norm transformer block: attention through SDPA, a SiLU MLP."""

    def __init__(self, width=64, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.q = nn.Linear(width, width)
        self.k = nn.Linear(width, width)
        self.v = nn.Linear(width, width)
        self.proj = nn.Linear(width, width)
        self.norm2 = nn.RMSNorm(width, eps=1e-6)
        self.fc1 = nn.Linear(width, 2 * width)
        self.fc2 = nn.Linear(2 * width, width)

    def forward(self, x):
        b, s, w = x.shape
        h = self.norm1(x)
        q, k, v = (p(h).view(b, s, self.heads, w // self.heads).transpose(1, 2)
                   for p in (self.q, self.k, self.v))
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(o.transpose(1, 2).reshape(b, s, w))
        return x + self.fc2(F.silu(self.fc1(self.norm2(x))))


class Heads(nn.Module):
    """Normalisations, reductions and casts."""

    def forward(self, x):
        p = torch.log_softmax(x, dim=-1)
        m = x.float().mean(dim=1, keepdim=True)     # a middle dimension
        r = torch.relu(x).amax(dim=-1)
        return p, m, x.softmax(dim=1), r.to(torch.float16)


class Masks(nn.Module):
    """Comparisons, where, masked_fill, rsub."""

    def forward(self, x, y):
        keep = x > 0.5
        z = torch.where(keep, x, y * 0.1)
        return z.masked_fill(y <= x, -1e4), torch.rsub(x, y, alpha=2)


class Fallback(nn.Module):
    """cumsum and indexing have no sopt op: they run in PyTorch."""

    def forward(self, x):
        h = torch.sigmoid(x) * 2.0
        return torch.cumsum(h, dim=1)[:, 1:].exp()


class PrunedLinear(nn.Module):
    """A linear layer whose weight is a CSR parameter."""

    def __init__(self):
        super().__init__()
        w = torch.randn(48, 40)
        w[w.abs() < 1.0] = 0
        self.weight = nn.Parameter(w.to_sparse_csr(), requires_grad=False)
        self.bias = nn.Parameter(torch.randn(48))

    def forward(self, x):
        return F.relu(F.linear(x, self.weight, self.bias))


MODELS = {
    "mlp": (Mlp, lambda: (torch.randn(2, 7, 64),)),
    "block": (Block, lambda: (torch.randn(2, 9, 64),)),
    "heads": (Heads, lambda: (torch.randn(3, 5, 33),)),
    "masks": (Masks, lambda: (torch.randn(4, 6), torch.randn(6))),
    "fallback": (Fallback, lambda: (torch.randn(4, 6),)),
    "pruned": (PrunedLinear, lambda: (torch.randn(5, 40),)),
}


def print_dynamo(model, inputs):
    def backend(gm, example_inputs):
        fused, names, report = partition(gm, example_inputs)
        print(f"// {report}")
        for name in names:
            sub = getattr(fused, name)
            sub_inputs = [node_meta(n) for n in sub.graph.nodes if n.op == "placeholder"]
            print(sparse_opt.import_graph(sub, sub_inputs, name).text)
        return gm.forward

    torch.compile(model, backend=backend)(*inputs)


def main():
    name, mode = sys.argv[1], sys.argv[2]
    cls, make_inputs = MODELS[name]
    model, inputs = cls().eval(), make_inputs()
    with torch.no_grad():
        if mode == "export":
            print(sparse_opt.import_program(torch.export.export(model, inputs), name).text)
        elif mode == "dynamo":
            print_dynamo(model, inputs)
        else:
            graph = (torch.export.export(model, inputs).module() if mode == "unlifted"
                     else torch.fx.symbolic_trace(model))
            imported = sparse_opt.import_graph(graph, inputs, name)
            for file_name, text in imported.files.items():
                with open(file_name, "w") as f:
                    f.write(text)
            print(imported.text)


if __name__ == "__main__":
    main()
