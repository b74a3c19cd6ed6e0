#!/usr/bin/env python3
"""gpu-report.py RAWDIR: the Markdown report of a .gpu/run.sh run (copied
to .gpu/report.py by make gpu-build; it runs where there is no Go).

RAWDIR holds machine.txt, commit.txt, status.txt (KIND NAME RC SECONDS),
cbuild.txt and logs/ (NAME.log, NAME.bench.log, ex-NAME.go.log,
ex-NAME.c.log, ex-NAME.orig.log, c-NAME.build.log, orig-NAME.build.log). The report goes to stdout: the machine,
the commit, per test binary the pass/fail/skip counts with every failure
and skip and its reason, benchmark medians, and per example its key lines
beside its C reference's. The exit status is 1 if anything was unexpected:
a failed test, a binary that crashed or timed out, a skip that EXPECTED
below does not list, an example or C reference that failed.
"""
import os
import re
import statistics
import sys

# The skips a GPU machine is expected to show, and only these: (binary
# regex, test regex, reason substring, condition). Anything else that
# skips is unexpected. The reasons are those of cugentest (SkipFewGPUs,
# SkipHasGPU, SkipNoLib) and of the tests named.
ONE_GPU = "one GPU"
ALWAYS = "always"
EXPECTED = [
    # two-GPU tests on a one-GPU machine (cugentest.SkipFewGPUs)
    (r"layer1[23]", r"TestGPUPeerCopy|TestGPUPeerAccess|TestGPUCollectives|TestGPUJoinComm", "needs 2 GPUs", ONE_GPU),
    (r"e2e", r"TestPeerAccessAndCopy", "needs 2 GPUs", ONE_GPU),
    (r"e2e13", r"TestNCCLGoroutinePerGPU|TestNCCLTwoProcesses", "needs 2 GPUs", ONE_GPU),
    (r"example", r"ncclCollectives", "needs 2 GPUs", ONE_GPU),
    # tests of the no-GPU case (cugentest.SkipHasGPU)
    (r"e2e", r"TestNVMLInitWithoutDriver12", "a GPU runs here", ALWAYS),
    (r"e2e13", r"TestNVMLInitWithoutDriver", "a GPU runs here", ALWAYS),
    (r"reliability", r"TestLibraryNotFoundBySearch|TestArgumentChecks", "a GPU runs here", ALWAYS),
    (r"e2e", r"TestCuFileWithoutGPU12|TestCUPTIWithoutDriver12", "a GPU runs here", ALWAYS),
    # Debian's CUDA 12 cuBLASXt, cuFFTXt, nvFatbin, nvJPEG and NVTX v2
    # libraries do not travel (make test runs their tests on the CPU)
    (r"e2e", r"TestCuBLASXtHandle12|TestCuFFTXtInvalidPlan12|TestNVFatbinTwoArchs12|TestNVJPEGWithoutGPU12|TestNVTXWithoutTool", "library not found", ALWAYS),
    # NPP 12's other libraries (nppif: 99 MB) and cuSOLVERMg 12 (80 MB,
    # with Debian's cuBLAS 12) do not travel; nppc, nppial and nppicc do
    (r"npp12", r"TestCuSOLVERMgWithoutGPU12|TestCuSOLVERMgSyevd12", "library not found", ALWAYS),
    (r"npp12", r"TestNPPSymbolsExported12/(nppidei|nppif|nppig|nppim|nppist|nppisu|nppitc|npps|cusolvermg)", "library not found", ALWAYS),
    (r"npp12", r"TestNPPStreamContextWithoutGPU12", "a GPU runs here", ALWAYS),
    # Debian's cuSOLVER 12 (libcusolver.so.11, with its cuBLAS 12) does
    # not travel (their CUDA 13 binding needs the toolkit's headers)
    (r"e2e", r"TestCuSOLVER(Sp|Rf)\w*12", "library not found", ALWAYS),
    # buffers of another context need a second device (a context of the
    # same device is its primary context again)
    (r"algo13", r"TestGPUOtherContext", "no second context", ONE_GPU),
    # the child-process half of a test, run by its parent
    (r"e2e13", r"TestNCCLRankProcess", "not started by TestNCCLTwoProcesses", ALWAYS),
    (r"layer1[23]", r"TestJoinRankChild", "run by TestJoinCommFromEnvProcs", ALWAYS),
    # no header cache on the GPU machine (make test runs it)
    (r"e2e", r"TestNCCLInitializersMatchC", "not in the cache", ALWAYS),
    (r"e2e", r"TestNCCLInitializersMatchC", "module (go.mod, headers.lock)", ALWAYS),
    # Debian's NVRTC 12 and nvJitLink 12 (115 MB) do not travel; the
    # cuda13 binaries run the same tests with the toolkit's
    (r"e2e", r"TestNVRTC\w*|TestNVJitLink\w*|TestCompilersFromSeveralThreads", "library not found", ALWAYS),
    # (every layer test that calls needNVRTC, directly or through
    # textureModule or condModule)
    (r"layer12", r"TestCompile|TestCompileErrors|TestArchFor|TestGPUModuleFromSource|TestGPUCooperativeLaunch|TestGPUClusterLaunch|TestGPULaunchPriority|TestGPUOccupancy|TestGPUKernelAttributes|TestLaunchSourcesCompile|TestGPUGraphConditional", "library not found", ALWAYS),
    (r"layer12", r"TestTextureKernelsCompile|TestGPUTexture2D|TestGPUArrayShapes|TestGPUSurfaceAndNormalized|TestGPUMemTextures", "library not found", ALWAYS),
    # benchmarks: built with CGO_ENABLED=0; one needs a process in which
    # the driver was never initialised
    (r"e2e", r"Benchmark\w+(/.*)?", "built without cgo", ALWAYS),
    (r"e2e", r"BenchmarkErrorPath", "the driver is initialised", ALWAYS),
]


def read(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def shown(reason):
    """A reason as the report shows it: the tree's directory on the GPU
    machine (CUGEN_GPU_TREE, set by run.sh) as <tree>, the home directory
    as ~, and at most 200
    characters (a library search lists every directory it tried; the raw
    log has it all)."""
    tree = os.environ.get("CUGEN_GPU_TREE", "")
    if tree:
        reason = reason.replace(tree, "<tree>")
    home = os.path.expanduser("~")
    if home not in ("", "/", "~"):
        reason = reason.replace(home + "/", "~/")
    return reason if len(reason) <= 200 else reason[:200] + " [...]"


def expected(binary, test, reason, gpus):
    for b, t, r, cond in EXPECTED:
        if cond == ONE_GPU and gpus >= 2:
            continue
        if re.fullmatch(b, binary) and re.fullmatch(t, test) and r in reason:
            return True
    return False


RESULT = re.compile(r"^(\s*)--- (PASS|FAIL|SKIP): (\S+) \(([\d.]+)s\)")
LOGLINE = re.compile(r"^\s+\S+\.go:\d+: (.*)$")


def parse_test_log(text):
    """Results of a go test -test.v log: [(depth, verdict, name, reason)]."""
    out = []
    lines = text.splitlines()
    # A parent's verdict comes after its subtests' verdicts, so a subtest's
    # log stands under its own === RUN line, not above its verdict: the
    # last log line of each test's === RUN block, by name.
    block_reason = {}
    current = None
    for line in lines:
        if line.startswith("=== "):
            parts = line.split()
            current = parts[2] if len(parts) >= 3 and parts[1] in ("RUN", "CONT") else None
            continue
        if RESULT.match(line):
            current = None
            continue
        lm = LOGLINE.match(line)
        if lm and current:
            block_reason[current] = lm.group(1)
    for i, line in enumerate(lines):
        m = RESULT.match(line)
        if m:
            depth = len(m.group(1)) // 4
            reason = ""
            if m.group(2) != "PASS":
                # -test.v streams a test's log before its verdict: the
                # reason is the last log line since the test's === line
                for j in range(i - 1, max(i - 200, -1), -1):
                    if lines[j].startswith("=== ") or RESULT.match(lines[j]):
                        break
                    lm = LOGLINE.match(lines[j])
                    if lm:
                        reason = lm.group(1)
                        break
                if not reason:
                    reason = block_reason.get(m.group(3), "")
            out.append((depth, m.group(2), m.group(3), reason))
    return out


BENCH = re.compile(r"^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.*)$")


def parse_bench(text):
    """{name: {unit: [values]}} of a benchmark log."""
    res = {}
    for line in text.splitlines():
        m = BENCH.match(line)
        if not m:
            continue
        fields = m.group(3).split()
        units = res.setdefault(m.group(1), {})
        for k in range(0, len(fields) - 1, 2):
            try:
                units.setdefault(fields[k + 1], []).append(float(fields[k]))
            except ValueError:
                pass
    return res


def num(v):
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.4g}"


KEY = re.compile(r"Result|PASS|FAIL|GFlop|TFLOP|GB/s|Gsamples|ms\b|µs|error|max|mean|residual|\|\||\|b - A", re.I)


def key_lines(text, n=14):
    lines = [l.rstrip() for l in text.splitlines() if l.strip()]
    keys = [l for l in lines if KEY.search(l)]
    return (keys or lines)[:n]


def main():
    raw = sys.argv[1]
    logs = os.path.join(raw, "logs")
    machine = read(os.path.join(raw, "machine.txt"))
    gpus = 0
    m = re.search(r"^gpus (\d+)", machine, re.M)
    if m:
        gpus = int(m.group(1))
    status = [l.split() for l in read(os.path.join(raw, "status.txt")).splitlines() if l.strip()]
    builds = [l.split() for l in read(os.path.join(raw, "cbuild.txt")).splitlines() if len(l.split()) == 3]
    cbuild = dict((b[1], b[2]) for b in builds if b[0] == "cbuild")
    obuild = dict((b[1], b[2]) for b in builds if b[0] == "obuild")
    unexpected = []
    w = []
    w.append("# GPU report\n")
    w.append("Written by `.gpu/report.py` from the logs of `.gpu/run.sh` (`make gpu`);"
             " see [gpu.md](gpu.md) for how to run it. Do not edit: run it again.\n")
    w.append("## Machine and commit\n")
    w.append("```")
    w.append(machine.rstrip())
    w.append(read(os.path.join(raw, "commit.txt")).rstrip())
    w.append("```\n")

    tests = [s for s in status if s[0] == "test"]
    w.append("## Test binaries\n")
    w.append("CUGEN_REQUIRE_GPU=1 and CUGEN_REQUIRE_LIBS=1 (0 for e2e, layer12 and npp12: Debian's NVRTC 12,"
             " nvJitLink 12, cuSOLVERMg 12 and most of NPP 12 do not travel). Counts are of top-level tests and benchmarks.\n")
    w.append("| binary | exit | s | pass | fail | skip | unexpected |")
    w.append("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    details = []
    for kind, name, rc, secs in (s[:4] for s in tests):
        res = parse_test_log(read(os.path.join(logs, name + ".log")))
        top = [r for r in res if r[0] == 0]
        n = {v: sum(1 for r in top if r[1] == v) for v in ("PASS", "FAIL", "SKIP")}
        bad = []
        for depth, verdict, test, reason in res:
            if verdict == "FAIL" and depth == 0:
                bad.append(f"FAIL {test}: {shown(reason)}")
            elif verdict == "SKIP" and not expected(name, test, reason, gpus):
                bad.append(f"unexpected SKIP {test}: {shown(reason)}")
        if rc not in ("0",) and not any(b.startswith("FAIL") for b in bad):
            why = {"124": "timed out", "137": "killed (timeout)", "127": "binary missing"}.get(rc, "exit " + rc)
            bad.append(f"{name}: {why} without a failed test (a crash, panic or timeout: see its log)")
        if not top:
            bad.append(f"{name}: no test ran")
        w.append(f"| {name} | {rc} | {secs} | {n['PASS']} | {n['FAIL']} | {n['SKIP']} | {len(bad) or ''} |")
        unexpected += [f"{name}: {b}" for b in bad]
        skips = [(t, r) for d, v, t, r in res if v == "SKIP"]
        if skips or bad:
            details.append(f"### {name}\n")
            for b in bad:
                details.append(f"- **{b}**")
            for t, r in skips:
                if expected(name, t, r, gpus):
                    details.append(f"- expected SKIP {t}: {shown(r)}")
            details.append("")
    w.append("")
    w += details

    benches = [s for s in status if s[0] == "bench"]
    if benches:
        w.append("## Benchmarks (median of the runs)\n")
        for kind, name, rc, secs in (s[:4] for s in benches):
            if rc != "0":
                unexpected.append(f"{name} benchmarks: exit {rc}")
            text = read(os.path.join(logs, name + ".bench.log"))
            for depth, verdict, test, reason in parse_test_log(text):
                if verdict == "FAIL":
                    unexpected.append(f"{name}: FAIL {test}: {shown(reason)}")
                elif verdict == "SKIP" and not expected(name, test, reason, gpus):
                    unexpected.append(f"{name}: unexpected SKIP {test}: {shown(reason)}")
            res = parse_bench(text)
            w.append(f"### {name} (exit {rc})\n")
            w.append("| benchmark | runs | median |")
            w.append("| --- | ---: | --- |")
            for b, units in res.items():
                runs = max(len(v) for v in units.values()) if units else 0
                med = ", ".join(f"{num(statistics.median(v))} {u}" for u, v in units.items())
                w.append(f"| {b} | {runs} | {med} |")
            w.append("")

    examples = [s for s in status if s[0] in ("example", "cref", "orig")]
    if examples:
        w.append("## Examples, Go beside the C reference and NVIDIA's original\n")
        w.append("| example | Go exit | C build | C exit | original build | original exit |")
        w.append("| --- | ---: | ---: | ---: | ---: | ---: |")
        names = []
        for s in examples:
            if s[1] not in names:
                names.append(s[1])
        rcs = {(s[0], s[1]): s[2] for s in examples}
        for name in names:
            go, c = rcs.get(("example", name), "-"), rcs.get(("cref", name), "-")
            o = rcs.get(("orig", name), "-")
            if o not in ("-", "0"):
                unexpected.append(f"original {name}: exit {o}")
            if obuild.get(name, "0") != "0":
                unexpected.append(f"original {name}: nvcc failed (orig-{name}.build.log)")
            if go == "skip":
                ok = expected("example", name, read(os.path.join(logs, f"ex-{name}.go.log")), gpus)
                if not ok:
                    unexpected.append(f"example {name}: unexpected skip")
            elif go != "0":
                unexpected.append(f"example {name}: exit {go}")
            if c not in ("-", "0"):
                unexpected.append(f"C reference {name}: exit {c}")
            if cbuild.get(name, "0") != "0":
                unexpected.append(f"C reference {name}: nvcc failed (c-{name}.build.log)")
            w.append(f"| {name} | {go} | {cbuild.get(name, '-')} | {c} | {obuild.get(name, '-')} | {o} |")
        w.append("")
        for name in names:
            gl = key_lines(read(os.path.join(logs, f"ex-{name}.go.log")))
            cl = key_lines(read(os.path.join(logs, f"ex-{name}.c.log"))) if ("cref", name) in rcs else []
            other = "C"
            if ("orig", name) in rcs:
                cl, other = key_lines(read(os.path.join(logs, f"ex-{name}.orig.log"))), "NVIDIA's original"
            w.append(f"### {name}\n")
            if cl:
                w.append(f"| Go | {other} |")
                w.append("| --- | --- |")
                for i in range(max(len(gl), len(cl))):
                    g = gl[i] if i < len(gl) else ""
                    c = cl[i] if i < len(cl) else ""
                    w.append(f"| `{g}` | `{c}` |".replace("``", ""))
            else:
                w.append("```")
                w += gl
                w.append("```")
            w.append("")

    # Diagnostics (mk/gpu-run.sh's "diag" runs, cuFile's C reference):
    # their exit status and the end of their output, not counted.
    diags = [s for s in status if s[0] == "diag"]
    if diags:
        w.append("## Diagnostics (not counted)\n")
        for s in diags:
            w.append(f"### {s[1]}: exit {s[2]}\n")
            w.append("```")
            w += read(os.path.join(logs, f"{s[1]}.log")).splitlines()[-40:]
            w.append("```\n")

    w.insert(1, "## Summary\n")
    if unexpected:
        summary = [f"**UNEXPECTED: {len(unexpected)}**\n"] + [f"- {u}" for u in unexpected] + [""]
    else:
        summary = ["Everything passed; every skip is an expected one (listed per binary below).\n"]
    w[2:2] = summary
    print("\n".join(w))
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
