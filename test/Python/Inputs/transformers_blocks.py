"""A BERT encoder layer and a GPT-2 block from `transformers` configs
(random weights, nothing downloaded), small: `transformers_blocks.py NAME`
prints the fallback report of torch.compile's graph and the sopt MLIR of
each compiled part, as models.py's `dynamo` mode does."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
from transformers import BertConfig, GPT2Config  # noqa: E402
from transformers.models.bert.modeling_bert import BertLayer  # noqa: E402
from transformers.models.gpt2.modeling_gpt2 import GPT2Block  # noqa: E402

from models import print_dynamo  # noqa: E402

torch.manual_seed(0)
WIDTH, HEADS, TOKENS = 64, 4, 16


def bert():
    return BertLayer(BertConfig(hidden_size=WIDTH, num_attention_heads=HEADS,
                                intermediate_size=4 * WIDTH, attn_implementation="sdpa"))


def gpt2():
    return GPT2Block(GPT2Config(n_embd=WIDTH, n_head=HEADS, attn_implementation="sdpa"))


if __name__ == "__main__":
    model = {"bert": bert, "gpt2": gpt2}[sys.argv[1]]().eval()
    with torch.no_grad():
        print_dynamo(model, (torch.randn(2, TOKENS, WIDTH),))
