# The reference for ncclCollectives: the same four collectives, sizes,
# element type, checked inputs and timing (one checked run, one untimed
# run, then --iters runs between two CUDA events on the rank's stream) through PyTorch's NCCL
# backend, one process per GPU, printing the same table.
#
#	python3 collectives.py [--min 8] [--max 4294967296] [--step 8] [--iters 20]
import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def sizes(lo, hi, step, nranks):
    unit = 4 * nranks
    out = []
    s = lo
    while s < hi:
        v = s // unit * unit
        if v > 0 and (not out or out[-1] != v):
            out.append(v)
        s *= step
    v = hi // unit * unit
    if not out or out[-1] != v:
        out.append(v)
    return out


def rank_main(rank, nranks, args):
    torch.cuda.set_device(rank)
    dev = torch.device("cuda", rank)
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29512", rank=rank,
                            world_size=nranks, device_id=dev)
    n = args.max // 4
    send = torch.empty(n, dtype=torch.float32, device=dev)
    recv = torch.empty(n, dtype=torch.float32, device=dev)
    total = nranks * (nranks + 1) / 2

    def allreduce(size):
        c = size // 4
        recv[:c].copy_(send[:c])
        dist.all_reduce(recv[:c])
        return recv[:c], lambda: torch.full((c,), total, device=dev)

    def allgather(size):
        c = size // 4 // nranks
        dist.all_gather_into_tensor(recv[:c * nranks], send[:c])
        return recv[:c * nranks], lambda: torch.arange(1, nranks + 1, dtype=torch.float32, device=dev).repeat_interleave(c)

    def reducescatter(size):
        c = size // 4 // nranks
        dist.reduce_scatter_tensor(recv[:c], send[:c * nranks])
        return recv[:c], lambda: torch.full((c,), total, device=dev)

    def broadcast(size):
        c = size // 4
        dist.broadcast(send[:c], src=0)
        return send[:c], lambda: torch.ones(c, device=dev)

    ops = [("all-reduce", allreduce, 2 * (nranks - 1) / nranks),
           ("all-gather", allgather, (nranks - 1) / nranks),
           ("reduce-scatter", reducescatter, (nranks - 1) / nranks),
           ("broadcast", broadcast, 1.0)]
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    for name, run, bus in ops:
        if rank == 0:
            print(f"\n{name}, {nranks} ranks, float32 sum (PyTorch {torch.__version__}, NCCL {'.'.join(map(str, torch.cuda.nccl.version()))})")
            print(f"{'size (B)':>14} {'time (us)':>12} {'algbw GB/s':>12} {'busbw GB/s':>12}")
        for size in sizes(args.min, args.max, args.step, nranks):
            send.fill_(rank + 1)
            recv.fill_(float("nan"))
            out, want = run(size)
            torch.cuda.synchronize()
            if not torch.equal(out, want()):
                raise SystemExit(f"rank {rank}: {name} {size} B: wrong result")
            # One untimed run, so that the timing starts when every rank
            # has joined; all-reduce's timed runs reduce in place (the
            # bytes moved are the same; the checked run's copy is not timed).
            def timed():
                if name == "all-reduce":
                    dist.all_reduce(recv[:size // 4])
                else:
                    run(size)
            timed()
            start.record()
            for _ in range(args.iters):
                timed()
            stop.record()
            stop.synchronize()
            us = start.elapsed_time(stop) * 1e3 / args.iters
            algbw = size / us / 1e3
            if rank == 0:
                print(f"{size:14d} {us:12.2f} {algbw:12.2f} {algbw * bus:12.2f}")
    if rank == 0:
        print("\nevery result checked: PASS")
    dist.destroy_process_group()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--min", type=int, default=8)
    p.add_argument("--max", type=int, default=4 << 30)
    p.add_argument("--step", type=int, default=8)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--nranks", type=int, default=torch.cuda.device_count())
    args = p.parse_args()
    mp.spawn(rank_main, args=(args.nranks, args), nprocs=args.nranks)
