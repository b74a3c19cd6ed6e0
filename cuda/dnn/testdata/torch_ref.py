#!/usr/bin/env python3
"""torch_ref.py [--engine-log FILE] DIR...: the PyTorch side of layer/dnn's
GPU tests.

For each DIR (one case; one run for all, torch loads once), reads
DIR/spec.json and the inputs the Go test wrote (raw little-endian
arrays in each tensor's memory order), computes the same operation with
PyTorch on the same GPU (torch.backends.cudnn with its heuristics, no
benchmark search, as the Go side asks cuDNN's mode A), compares it with
the Go test's output, times it (CUDA events, median after warm-up) and
prints one JSON object a line. Exit status 3: torch or its GPU is missing.

With --engine-log FILE it only observes which cuDNN engine PyTorch runs:
cuDNN's API log (CUDNN_LOGLEVEL_DBG=3, written to FILE) records each
cudnnBackendExecute with its plan's engine_id (the engine's global index)
and knobs; each case runs once, and the engine of the last execute it
logged is printed ({"dir", "engine", "knobs"}; engine -1 when the case
ran no cuDNN plan, as a matmul, which PyTorch gives to cuBLAS). Logging
slows every cuDNN call, so the timed run is a process of its own.
"""
import json
import os
import re
import sys

ENGINE_LOG = None
if len(sys.argv) > 2 and sys.argv[1] == "--engine-log":
    ENGINE_LOG = sys.argv[2]
    del sys.argv[1:3]
    # Before torch loads cuDNN, which reads them once.
    os.environ["CUDNN_LOGLEVEL_DBG"] = "3"
    os.environ["CUDNN_LOGDEST_DBG"] = ENGINE_LOG

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

    if ENGINE_LOG is not None:
        observe(d, run)
        return
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


EXECUTE = "function cudnnBackendExecute() called:"


def log_size():
    return os.path.getsize(ENGINE_LOG) if os.path.exists(ENGINE_LOG) else 0


def observe(d, run):
    """Runs the case once and prints the engine of its last logged execute."""
    start = log_size()
    run()
    torch.cuda.synchronize()
    text = ""
    if os.path.exists(ENGINE_LOG):  # cuDNN makes it at its first call
        with open(ENGINE_LOG, errors="replace") as f:
            f.seek(start)
            text = f.read()
    engine, knobs = -1, ""
    for block in text.split(EXECUTE)[1:]:
        block = block.split("\n\n", 1)[0]  # to the call's end
        m = re.search(r"engine_id: type=int; val=(-?\d+);", block)
        if m:
            engine = int(m.group(1))
            knobs = ",".join(f"{k}={v}" for k, v in re.findall(r"CUDNN_KNOB_TYPE_(\w+): type=int; val=(-?\d+);", block))
    print(json.dumps({"dir": d, "engine": engine, "knobs": knobs}))


for d in sys.argv[1:]:
    case(d)
    sys.stdout.flush()
