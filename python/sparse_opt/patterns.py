"""A CSR parameter's pattern as a DLMC `.smtx` file, so that sparse-opt
chooses the schedule and prepares the tables for that very pattern
(`sopt.sparsity_pattern`, docs/Sparse.md). The file is named by a hash of
its content: a graph whose pattern changes is another graph."""

import hashlib


def smtx(tensor):
    """(file name, text) of a `torch.sparse_csr` tensor's pattern."""
    positions = tensor.crow_indices().tolist()
    coordinates = tensor.col_indices().tolist()
    rows, cols = tensor.shape
    text = (f"{rows}, {cols}, {len(coordinates)}\n" + " ".join(map(str, positions)) + "\n"
            + " ".join(map(str, coordinates)) + "\n")
    return f"pattern-{hashlib.sha256(text.encode()).hexdigest()[:24]}.smtx", text
