"""The network in floating point (PyTorch), what it predicts, and the loss it is trained on.

Per perspective an EmbeddingBag over the <= 24 active inputs plus a bias (H values, shared by
both perspectives), clamp(0, 1), [side to move's half | other half] (and the E extra inputs),
Linear(2H + E, L), clamp(0, 1), [Linear(L, L2), clamp(0, 1) with a second hidden layer],
Linear(L or L2, 1); evaluation = output * S centi-units.

Quantisation-aware training (`quantised = True`, train.py's --qat-epochs): the forward pass
computes what the engine's integers compute. Every weight and bias is rounded to its grid (C's
round, as export.py quantises), the accumulators are put on the 1/127 grid, the hidden units are
floored to 1/127 as the engine's arithmetic shift does (in float64, which keeps every value
within a small fraction of a step of its grid), and the gradients pass the roundings straight
through (the straight-through estimator). The output differs from the engine's only by its
final truncation to an integer centi-unit.

Importing this module imports torch: train.py imports it only after it has set the thread
count, which torch's OpenMP and BLAS pools read once, when they start.
"""

import math

import numpy as np
import torch
from torch import nn

from data import Data, proven
from features import BUCKET_SETS, INPUTS, MAX_PIECES, batch_features, connectivity_inputs, pad_index
from net_format import BIAS_SCALE, EVAL_LIMIT, FT_SCALE, WEIGHT_SCALE

# Weight limits, so that quantisation neither overflows nor saturates:
# - the accumulator is int16: the bias and 24 columns, at scale 127, must stay within 32767.
#   We leave room for one more column (26 terms), so an engine that adds a moving piece's new
#   square before it removes a captured piece never leaves int16 either.
FT_LIMIT = (32767 // (MAX_PIECES + 2)) / FT_SCALE
# - l1_weight is int8 at scale 64;
L1_WEIGHT_LIMIT = 127 / WEIGHT_SCALE
# - out_weight is int16 at scale 64.
OUT_WEIGHT_LIMIT = 32767 / WEIGHT_SCALE


def bias_limit(terms, term_max):
    """The largest float bias (scale 127 * 64) whose int32 sum with `terms` products of at most
    `term_max` each still fits int32."""
    return (2**31 - 1 - terms * term_max) / BIAS_SCALE


def fake_round(x, scale):
    """x (float64) rounded to the nearest multiple of 1/scale, halves away from zero, as
    export.py's round_half_away rounds the float32 weights in float64; the gradient is the
    identity's."""
    rounded = torch.sign(x) * torch.floor(torch.abs(x) * scale + 0.5) / scale
    return x + (rounded - x).detach()


def fake_hidden_floor(pre):
    """A hidden layer's sum (float64) floored to a multiple of 1/127, as the engine's arithmetic
    shift does (h_int >> 6); the gradient is the identity's. pre * 127 is h_int / 64, a multiple
    of 1/64 in exact arithmetic: half a step is added before the floor, so that rounding cannot
    move an exact multiple (one sum in 64) below it. In float64 the error of a sum of 2056
    products stays far below that half step; in float32 it would not at large H."""
    steps = torch.floor(pre * FT_SCALE + 0.5 / (1 << 6))
    return pre + (steps / FT_SCALE - pre).detach()


class Nnue(nn.Module):
    def __init__(self, H, L, E, L2=0, buckets=0):
        super().__init__()
        self.H, self.L, self.E, self.L2, self.buckets = H, L, E, L2, buckets
        # Row self.pad (the last) is the padding index: EmbeddingBag leaves it out of the sums and its
        # gradient is zero; it is not exported.
        self.pad = pad_index(buckets)
        self.ft = nn.EmbeddingBag(INPUTS * BUCKET_SETS[buckets] + 1, H, mode="sum", padding_idx=self.pad)
        self.ft_bias = nn.Parameter(torch.zeros(H))
        self.l1 = nn.Linear(2 * H + E, L)  # E extra inputs (0 or 8) after the halves
        self.l2 = nn.Linear(L, L2) if L2 else None  # the second hidden layer, if any
        self.out = nn.Linear(L2 or L, 1)
        with torch.no_grad():
            # Small columns and a bias of 0.5 start every accumulator inside (0, 1), where
            # the clipped ReLU passes gradients, whatever the number of pieces.
            self.ft.weight.uniform_(-0.1, 0.1)
            self.ft_bias.fill_(0.5)
            self.out.bias.zero_()

        self.quantised = False  # the forward pass of quantisation-aware training

    def forward(self, stm, other, extra):
        if self.quantised:
            return self.quantised_forward(stm, other, extra)
        a_stm = torch.clamp(self.ft(stm) + self.ft_bias, 0.0, 1.0)
        a_other = torch.clamp(self.ft(other) + self.ft_bias, 0.0, 1.0)
        # The extra inputs are integers 0..127 as the engine reads them: 1.0 is 127.
        h = torch.clamp(self.l1(torch.cat([a_stm, a_other, extra], dim=1)), 0.0, 1.0)
        if self.l2 is not None:
            h = torch.clamp(self.l2(h), 0.0, 1.0)
        return self.out(h).squeeze(1)

    def quantised_forward(self, stm, other, extra):
        # Float64 from the accumulators on: each value is then on its integer grid to within far
        # less than the half steps that the roundings and floors keep.
        ft_weight = fake_round(self.ft.weight.double(), FT_SCALE).float()
        ft_bias = fake_round(self.ft_bias.double(), FT_SCALE)

        def half(features):
            # A sum of at most 24 columns in float32, put back on the 1/127 grid that the
            # engine's int16 sum is on (its error is far below half a step).
            sums = nn.functional.embedding_bag(features, ft_weight, mode="sum", padding_idx=self.pad).double()
            return torch.clamp(fake_round(sums + ft_bias, FT_SCALE), 0.0, 1.0)

        def layer(linear, inputs):
            pre = nn.functional.linear(inputs, fake_round(linear.weight.double(), WEIGHT_SCALE),
                                       fake_round(linear.bias.double(), BIAS_SCALE))
            return torch.clamp(fake_hidden_floor(pre), 0.0, 1.0)

        h = layer(self.l1, torch.cat([half(stm), half(other), extra.double()], dim=1))
        if self.l2 is not None:
            h = layer(self.l2, h)
        out = nn.functional.linear(h, fake_round(self.out.weight.double(), WEIGHT_SCALE),
                                   fake_round(self.out.bias.double(), BIAS_SCALE))
        return out.squeeze(1).float()

    @torch.no_grad()
    def clamp_weights(self):
        """After every step: keeps the quantised weights in their types (the limits above)."""
        H, L, E = self.H, self.L, self.E
        self.ft.weight.clamp_(-FT_LIMIT, FT_LIMIT)
        self.ft_bias.clamp_(-FT_LIMIT, FT_LIMIT)
        self.l1.weight.clamp_(-L1_WEIGHT_LIMIT, L1_WEIGHT_LIMIT)
        # The engine's load check bounds the biases with products of 127 x 128 (an int8 weight
        # may be -128): the same bound here, so that no trained net is refused.
        l1_bias = bias_limit(2 * H + E, 127 * 128)
        self.l1.bias.clamp_(-l1_bias, l1_bias)
        if self.l2 is not None:
            self.l2.weight.clamp_(-L1_WEIGHT_LIMIT, L1_WEIGHT_LIMIT)
            l2_bias = bias_limit(L, 127 * 128)
            self.l2.bias.clamp_(-l2_bias, l2_bias)
        self.out.weight.clamp_(-OUT_WEIGHT_LIMIT, OUT_WEIGHT_LIMIT)
        out_bias = bias_limit(self.L2 or L, 127 * 32767)
        self.out.bias.clamp_(-out_bias, out_bias)


def extra_tensor(data, sel):
    """The extra inputs of data[sel] as the model reads them: (n, 0) without, (n, 8) / 127."""
    if data.conn is None:
        return torch.zeros((len(sel), 0), dtype=torch.float32)
    return torch.from_numpy(data.conn[sel].astype(np.float32) / FT_SCALE)


def forward(model, data, sel, symmetry):
    """The network's output for data[sel], each position mapped by its symmetry first."""
    stm, other = batch_features(data.codes[sel], data.black_to_move[sel], symmetry, model.buckets)
    return model(torch.from_numpy(stm), torch.from_numpy(other), extra_tensor(data, sel))


def predict(model, data, indices, batch=65536):
    """The network's output (not yet times S) for data[indices] as they are, float32."""
    outputs = []
    with torch.no_grad():
        for start in range(0, len(indices), batch):
            sel = indices[start:start + batch]
            outputs.append(forward(model, data, sel, np.zeros(len(sel), np.int64)).numpy())
    return np.concatenate(outputs) if outputs else np.zeros(0, np.float32)


def float_evals(model, positions, scale, connectivity):
    """The model's evaluations of positions (black, white, stm) in centi-units, unrounded,
    clamped like the engine's: the float column of the test vectors."""
    pos = Data.from_positions(positions)
    if connectivity:
        pos.conn = np.array([connectivity_inputs(*p) for p in positions], dtype=np.int64)
    y = predict(model, pos, np.arange(len(pos))).astype(np.float64) * scale
    return np.clip(y, -EVAL_LIMIT, EVAL_LIMIT)


# ---------------------------------------------------------------------------------------------
# Targets and loss: mean squared error between sigmoid(K * evaluation) and
# lambda * sigmoid(K * score) + (1 - lambda) * result.

def targets(data, k, lam):
    """A proven result (data.PROVEN_SCORE and beyond, from `datagen --keep-decisive`) is its own
    target, 1 for a proven win and 0 for a proven loss, whatever lambda and the game's result
    say: the game knows it for certain."""
    # (The nets made before proven results keep their bytes: the same arithmetic on their scores.)
    searched = lam / (1.0 + np.exp(-k * limited(data.score))) + (1.0 - lam) * data.result
    return np.where(proven(data.score), (data.score > 0).astype(np.float64), searched)


def limited(score):
    """Scores with a decisive one taken at the evaluation's limit (20000), where sigmoid(K *
    score) is 0 or 1 to a double's precision already for the K of these nets (0.0245 gives
    exp(490)), rather than at 30000."""
    return np.clip(score, -EVAL_LIMIT, EVAL_LIMIT)


def batch_loss(y, target, k, scale):
    """The loss of outputs y (a tensor, not yet times S) against their targets (a tensor)."""
    return torch.mean((torch.sigmoid(y * (k * scale)) - target) ** 2)


def validation_loss(model, data, indices, target, k, scale):
    y = predict(model, data, indices).astype(np.float64)
    p = 1.0 / (1.0 + np.exp(-k * scale * y))
    return float(np.mean((p - target[indices]) ** 2))


def fit_k(score, result):
    """The K minimising the log-loss of sigmoid(K * score) against the result: golden-section
    search (the loss is convex in K, a logistic regression without intercept)."""
    def loss(k):
        p = np.clip(1.0 / (1.0 + np.exp(-k * score)), 1e-12, 1 - 1e-12)
        return -np.mean(result * np.log(p) + (1 - result) * np.log(1 - p))

    lo, hi = 0.0, 0.1
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss(a), loss(b)
    while hi - lo > 1e-7:
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss(b)
    k = (lo + hi) / 2
    return k, loss(k)
