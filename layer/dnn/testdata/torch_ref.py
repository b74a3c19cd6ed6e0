#!/usr/bin/env python3
"""torch_ref.py DIR...: the PyTorch side of layer/dnn's GPU tests.

For each DIR (one case; one run for all, torch loads once), reads
DIR/spec.json and the inputs the Go test wrote (raw little-endian
arrays in each tensor's memory order), computes the same operation with
PyTorch on the same GPU (torch.backends.cudnn with its heuristics, no
benchmark search, as the Go side asks cuDNN's mode A; which engine
PyTorch ran is not observed here), compares it with
the Go test's output, times it (CUDA events, median after warm-up) and
prints one JSON object a line. Exit status 3: torch or its GPU is missing.
"""
import json
import os
import sys

try:
    import torch
    import torch.nn.functional as F
except Exception as e:  # no torch here: the Go test skips
    print(f"torch not importable: {e}", file=sys.stderr)
    sys.exit(3)
if not torch.cuda.is_available():
    print("torch.cuda.is_available() is False", file=sys.stderr)
    sys.exit(3)

dev = torch.device("cuda")
torch.backends.cudnn.enabled = True
torch.backends.cudnn.benchmark = False  # heuristics, as the Go side
torch.backends.cudnn.deterministic = False


def case(d):
    spec = json.load(open(os.path.join(d, "spec.json")))
    dt = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}[spec["dtype"]]

    def load(name, dims, layout):
        """The tensor of logical dims (outermost first) stored in layout's order."""
        with open(os.path.join(d, name), "rb") as f:
            raw = bytearray(f.read())
        t = torch.frombuffer(raw, dtype=dt).to(dev)  # little-endian, as the Go test wrote it
        if layout == "NHWC":
            n, c, h, w = dims
            return t.reshape(n, h, w, c).permute(0, 3, 1, 2)  # channels_last strides
        return t.reshape(*dims)

    if spec["op"] == "conv":
        layout = spec["layout"]
        x = load("x.bin", spec["x"], layout)
        w = load("w.bin", spec["w"], layout)
        got = load("y.bin", spec["y"], layout)

        def run():
            return F.conv2d(x, w, stride=spec["stride"], padding=spec["pad"], dilation=spec["dilation"])
    else:
        b, m, k = spec["a"]
        n = spec["b"][2]
        a = load("a.bin", spec["a"], "").reshape(b, m, k)
        bm = load("b.bin", spec["b"], "").reshape(b, k, n)
        bias = load("bias.bin", spec["bias"], "").reshape(spec["bias"])
        got = load("y.bin", spec["y"], "").reshape(b, m, n)

        def run():
            return torch.relu(torch.matmul(a, bm) + bias)

    want = run()
    torch.cuda.synchronize()
    diff = (got.float() - want.float()).abs()
    ref = want.float().abs()
    tol = spec["atol"] + spec["rtol"] * ref
    bad = int((diff > tol).sum().item())

    for _ in range(spec["warmup"]):
        run()
    times = []
    for _ in range(spec["iters"]):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        run()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    print(json.dumps({
        "dir": d,
        "torch_ms": times[len(times) // 2],
        "max_abs": diff.max().item(),
        "max_ref": ref.max().item(),
        "bad": bad,
        "elements": want.numel(),
        "torch": torch.__version__,
        "cudnn": torch.backends.cudnn.version(),
        "device": torch.cuda.get_device_name(),
        "channels_last": bool(spec["op"] == "conv" and want.is_contiguous(memory_format=torch.channels_last)),
    }))


for d in sys.argv[1:]:
    case(d)
    sys.stdout.flush()
