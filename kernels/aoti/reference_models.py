"""The reference models of the AOTInductor suite, run inside one torch release's Python (torch and
nothing else): each is exported with torch.export and compiled by AOTInductor at a release B, then
loaded under every release R and compared with eager under R (matrix/aoti_cells.py).

Chosen to make the generated code reach a wide part of the C shim: ops that Inductor lowers to its
own C++ loops reach only the tensor and memory shims, so each model also calls ops it leaves to
ATen (sort, topk, convolution, scatter with a reduction, searchsorted, ...), each of which the
generated wrapper calls through an aoti_torch_cpu_* shim. Everything is deterministic: weights and
inputs come from seeded generators, and the compile step saves both beside the package, so eager
under R runs on exactly what the package was compiled from.

Three models, so that a release compiles three times, not once per part (the compiler's start
dominates): wide_ops (every static part, several outputs), dynamic_batch (a dynamic batch dimension
changes the whole generated wrapper) and custom_op (operators of the reference extension, which the
generated code calls through the shim's proxy executor; it needs the extension, built at the same
release, loaded first: load_extension). A model: name -> (factory, inputs, dynamic batch dimension or
None).
"""

import torch


# The models that call operators of the reference extension (kernels/cpu/v2_9, the abiref library):
# the process that exports, compiles, loads or runs them must have loaded it (load_extension).
EXTENSION_MODELS = {"custom_op"}


def _generator(seed):
    return torch.Generator().manual_seed(seed)


class LinearConv(torch.nn.Module):
    """Linear and convolution layers, three outputs (a tuple and a dict in one pytree)."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.conv_t = torch.nn.ConvTranspose2d(8, 4, 2, stride=2)
        self.norm = torch.nn.BatchNorm2d(8).eval()
        self.linear = torch.nn.Linear(8 * 4 * 4, 16)
        self.bilinear = torch.nn.Linear(16, 16, bias=False)

    def forward(self, image, features):
        x = torch.relu(self.norm(self.conv(image)))
        pooled = torch.nn.functional.adaptive_avg_pool2d(torch.nn.functional.max_pool2d(x, 2), 4)
        hidden = torch.nn.functional.gelu(self.linear(pooled.flatten(1)))
        mixed = torch.addmm(hidden, features, self.bilinear.weight)
        batched = torch.bmm(mixed.unsqueeze(2), mixed.unsqueeze(1))
        upsampled = torch.nn.functional.interpolate(self.conv_t(x), scale_factor=0.5, mode="bilinear")
        return mixed, {"outer": batched, "image": upsampled}


class Reductions(torch.nn.Module):
    """Reductions and the ops Inductor leaves to ATen: sort, topk, cumulative ops, order statistics."""

    def forward(self, x):
        values, indices = torch.sort(x, dim=-1, descending=True)
        top_values, top_indices = torch.topk(x, 3, dim=-1)
        kth, _ = torch.kthvalue(x, 2, dim=-1)
        median, _ = torch.median(x, dim=-1)
        stats = torch.stack([x.sum(-1), x.amax(-1), x.mean(-1), x.var(-1), torch.logsumexp(x, -1), kth, median], -1)
        return (stats, values, indices, top_values, top_indices, torch.cumsum(x, -1), torch.cumprod(x.tanh(), -1),
                torch.argmax(x, -1), torch.histc(x, bins=8, min=-3.0, max=3.0))


class IndexingScatter(torch.nn.Module):
    """Gathers, scatters with reductions, index_put, searchsorted and bucketize, an embedding bag."""

    def __init__(self):
        super().__init__()
        self.embedding = torch.nn.EmbeddingBag(20, 6, mode="sum")

    def forward(self, x, index, boundaries, tokens, offsets):
        gathered = torch.gather(x, 1, index)
        scattered = torch.zeros_like(x).scatter_add(1, index, gathered)
        reduced = torch.ones_like(x).scatter_reduce(1, index, x, reduce="amax", include_self=False)
        put = x.index_put((index[:, 0], index[:, 1]), torch.ones(x.shape[0]), accumulate=True)
        selected = torch.index_select(x, 0, index[:, 0])
        masked = x.masked_fill(x > 1.0, -1.0)
        sorted_boundaries = torch.sort(boundaries).values
        positions = torch.searchsorted(sorted_boundaries, x.contiguous())
        buckets = torch.bucketize(x, sorted_boundaries)
        return gathered, scattered, reduced, put, selected, masked, positions, buckets, self.embedding(tokens, offsets)


class DynamicBatch(torch.nn.Module):
    """A batch dimension that is dynamic in the export: the generated code computes sizes at run time."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(12, 12)

    def forward(self, x):
        y = torch.softmax(self.linear(x), dim=-1)
        rows = torch.nn.functional.pad(y, (0, 4)).reshape(x.shape[0], -1, 4)
        return torch.cat([y, y.flip(0)], dim=1), rows.sum(1), torch.nn.functional.layer_norm(x, (12,))


class Int8Bf16(torch.nn.Module):
    """int8 and bfloat16 tensors: a quantise-dequantise round trip and a bf16 linear layer."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(16, 8).to(torch.bfloat16)

    def forward(self, x, codes):
        quantized = torch.clamp(torch.round(x / 0.05), -128, 127).to(torch.int8)
        summed = (quantized.to(torch.int32) + codes.to(torch.int32)).clamp(-128, 127).to(torch.int8)
        dequantized = summed.to(torch.float32) * 0.05
        half = self.linear(x.to(torch.bfloat16))
        # silu stays in bf16: a float32 sum of it would hold Inductor (which computes silu in float32 and
        # rounds once) to float32's tolerance against eager (which rounds to bf16 first): 2e-3 apart.
        return summed, dequantized, half, torch.nn.functional.silu(half)


class AtenFallbacks(torch.nn.Module):
    """Ops with no Inductor lowering, each a call of its own aoti_torch_cpu_* shim: cumulative and
    order statistics, distances, pooling with indices, matrix-vector products, an index reduction,
    a masked scatter, the int8-weight matmul."""

    def forward(self, x, image, a, b, integers, index, int8_weight, scales):
        cummax, _ = torch.cummax(x, -1)
        cummin, _ = torch.cummin(x, -1)
        mode, _ = torch.mode(torch.round(x), -1)
        nanmedian, _ = torch.nanmedian(x, -1)
        pooled, pool_indices = torch.nn.functional.max_pool2d(image, 2, return_indices=True)
        adaptive, adaptive_indices = torch.nn.functional.adaptive_max_pool2d(image, 3, return_indices=True)
        reduced = x.index_reduce(0, index, x[: index.shape[0]] + 2.0, "prod")
        scattered = x.masked_scatter(x > 0.5, torch.arange(x.numel(), dtype=x.dtype).reshape(x.shape))
        return (cummax, cummin, torch.logcumsumexp(x, -1), mode, nanmedian, torch.cdist(a, b), torch.pdist(a),
                pooled, pool_indices, adaptive, adaptive_indices, torch.gcd(integers, integers.flip(0)),
                torch.addmv(a[:, 0], a, b[0]),
                torch.addbmm(a, torch.stack([a, a * 2]), torch.stack([a.t() @ a, torch.eye(a.shape[1])])),
                reduced, scattered, torch._weight_int8pack_mm(a, int8_weight, scales))


class WideOps(torch.nn.Module):
    """Every static part in one model, several outputs in one pytree: one compile per release costs
    the compiler's fixed start (its headers) once, not once per part."""

    def __init__(self):
        super().__init__()
        self.linear_conv = LinearConv()
        self.reductions = Reductions()
        self.indexing = IndexingScatter()
        self.int8_bf16 = Int8Bf16()
        self.fallbacks = AtenFallbacks()

    def forward(self, image, features, values, x, index, boundaries, tokens, offsets, small, codes, a, b, integers,
                rows, int8_weight, scales):
        return {"linear_conv": self.linear_conv(image, features), "reductions": self.reductions(values),
                "indexing_scatter": self.indexing(x, index, boundaries, tokens, offsets),
                "int8_bf16": self.int8_bf16(small, codes),
                "fallbacks": self.fallbacks(x, image, a, b, integers, rows, int8_weight, scales)}


class CustomOp(torch.nn.Module):
    """Two operators of the reference extension (abiref::scaled_add and abiref::amax_dim, registered
    with STABLE_TORCH_LIBRARY), which Inductor cannot lower: the generated wrapper calls each through
    the shim's proxy executor (aoti_torch_proxy_executor_call_function, with the op named in the
    package's wrapper.json), so the loader must find the op in the dispatcher of the release it
    runs under. Ops around them are Inductor's own."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 8)

    def forward(self, x, y):
        mixed = torch.ops.abiref.scaled_add(torch.relu(self.linear(x)), y, 0.5)
        return mixed * 2.0, torch.ops.abiref.amax_dim(mixed.tanh(), 1, False)


def _wide_inputs():
    g = _generator(1)
    return (torch.randn(2, 3, 8, 8, generator=g), torch.randn(2, 16, generator=g),  # linear and convolution
            torch.randn(4, 10, generator=g),  # reductions
            torch.randn(5, 7, generator=g), torch.randint(0, 5, (5, 7), generator=g), torch.randn(9, generator=g),
            torch.randint(0, 20, (12,), generator=g), torch.tensor([0, 4, 9]),  # indexing and scatter
            torch.randn(3, 16, generator=g), torch.randint(-100, 100, (3, 16), generator=g).to(torch.int8),  # int8, bf16
            torch.randn(4, 6, generator=g), torch.randn(3, 6, generator=g),  # distances, products
            torch.randint(1, 60, (8,), generator=g), torch.tensor([0, 2, 2, 4]),  # gcd, index_reduce
            torch.randint(-100, 100, (5, 6), generator=g).to(torch.int8), torch.rand(5, generator=g) + 0.5)


def _custom_op_inputs():
    g = _generator(7)
    return torch.randn(4, 8, generator=g), torch.randn(4, 8, generator=g)


def _dynamic_inputs():
    return (torch.randn(6, 12, generator=_generator(4)),)


MODELS = {
    "wide_ops": (WideOps, _wide_inputs, None),
    "dynamic_batch": (DynamicBatch, _dynamic_inputs, 0),
    "custom_op": (CustomOp, _custom_op_inputs, None),
}

# Seeds by a fixed order, so that a new model does not change the weights of the others.
_SEEDS = {"dynamic_batch": 0, "wide_ops": 1, "custom_op": 2}


def load_extension(library):
    """Loads the reference extension's library into this process (its STABLE_TORCH_LIBRARY registers
    the abiref ops with the dispatcher) and gives torch.export the shapes of the ops the models call
    (an op written in C++ has no Python meta function)."""
    torch.ops.load_library(library)

    @torch.library.register_fake("abiref::scaled_add")
    def _scaled_add(a, b, alpha):
        return a.new_empty(a.shape)

    @torch.library.register_fake("abiref::amax_dim")
    def _amax_dim(x, dim, keepdim):
        return torch.amax(x, dim, keepdim)


def make_model(name):
    """The model, in eval mode, with weights from a seeded generator."""
    factory = MODELS[name][0]
    torch.manual_seed(1000 + _SEEDS[name])
    return factory().eval()


def example_inputs(name):
    return MODELS[name][1]()


def dynamic_shapes(name, inputs):
    """torch.export's dynamic_shapes for the model's inputs, or None for a static export."""
    dimension = MODELS[name][2]
    if dimension is None:
        return None
    batch = torch.export.Dim("batch", min=2, max=64)
    return tuple({dimension: batch} for _ in inputs)


def run_inputs(name, inputs):
    """The inputs a loaded package is run on: the saved ones, and for a model with a dynamic dimension
    another size (9 rows) than the one it was exported with (6)."""
    if MODELS[name][2] is None:
        return inputs
    return tuple(torch.cat([tensor, tensor[:3]]) for tensor in inputs)


def tolerance(dtype):
    """(rtol, atol) against eager: bf16 and half differ in their last bits where Inductor computes in
    float32; integers must be equal."""
    if dtype in (torch.bfloat16, torch.float16):
        return 2e-2, 2e-2
    if dtype.is_floating_point:
        return 1e-4, 1e-4
    return 0, 0
