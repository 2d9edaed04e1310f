"""The training loop both networks share (torch, the ``train`` extra; the runtime never imports this module).

Batches come from a ``Stream``: an endless, seeded source of ready batches, run in ``workers`` processes (each
its own seed, ``seed * 1000 + worker``; the loader takes them in turn, so a run is the same for the same seed,
workers and steps, up to the GPU's own non-determinism) or in this process when ``workers`` is 0. The rate
rises for the first 5% and falls to zero along a half cosine, by steps, or by the clock when the run is given
``minutes`` instead (the log then says how many steps it made, to repeat it with ``steps``).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import torch
from torch import nn
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

from referee.catalogue import Refusal
from vision.options import deaf_workers
from vision.whole import whole


class CheckpointError(Refusal):
    """A checkpoint a run cannot go on from (another run's length, another network, damaged): nothing is trained."""

    section = "vision.error"


LOG_EVERY_S = 20.0  # a log line every 100 steps, and at least this often


class Stream(IterableDataset):
    """Endless batches from ``make(seed)`` (a generator of batches), seeded per worker."""

    def __init__(self, make: Callable[[int], Iterator], seed: int) -> None:
        self.make, self.seed = make, seed

    def __iter__(self):
        info = get_worker_info()
        if info:  # one thread per worker process: the workers are the parallelism
            cv2.setNumThreads(1)
        return self.make(self.seed * 1000 + (info.id if info else 0))


def fit(net: nn.Module, loss_fn: Callable, stream: Stream, export: Callable[[nn.Module], None], *,
        steps: int | None = None, minutes: float | None = None, workers: int = 0, device: str = "cpu",
        lr: float = 3e-3, export_every: float = 120.0, checkpoint: Path | None = None, until: float | None = None,
        log=print) -> dict:
    """Train ``net`` on ``stream``; ``loss_fn(net, batch on device) -> (loss, parts)``; ``export(net)`` writes the
    model (every ``export_every`` seconds and at the end). Stops after ``steps`` or ``minutes``. With
    ``checkpoint`` the run saves its state there as it exports, and a run started again with the same file goes on
    from the step it had reached (the rate schedule where it was, the data from a seed of that step), so a long run
    on a busy machine is done in pieces; a finished run's checkpoint says so and starts nothing. ``until`` (a time
    as ``time.time()`` gives it) instead of steps or minutes: the run ends then, its start-up included (the minutes
    are what is left of it when the first batch comes), for a job with a deadline."""
    if sum(v is not None for v in (steps, minutes, until)) != 1:
        raise ValueError("give steps, minutes or until")
    net.to(device).train()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    step, spent = 0, 0.0  # steps made and training seconds spent by earlier pieces of this run
    if checkpoint and Path(checkpoint).is_file():
        try:
            state = torch.load(checkpoint, map_location=device, weights_only=False)
            run = state["steps"], state["minutes"]
        except Exception as e:  # a cut or foreign file: pickle, zip and torch each raise their own
            raise CheckpointError("checkpoint_damaged", path=checkpoint, error=e) from e
        if run != (steps, minutes):
            raise CheckpointError("checkpoint_run", path=checkpoint, was=_length(*run), now=_length(steps, minutes))
        try:
            net.load_state_dict(state["net"])
            opt.load_state_dict(state["opt"])
        except (RuntimeError, ValueError, KeyError) as e:
            raise CheckpointError("checkpoint_other", path=checkpoint) from e
        step, spent = state["step"], state["spent"]
        stream.seed = stream.seed + 7919 * step
        log(json.dumps({"resumed_at_step": step, "spent_s": round(spent, 1)}))
        if state.get("done"):
            _export(net, export)
            return {"steps": step, "seconds": round(spent, 1), "workers": workers, "device": device}

    def save(done: bool = False) -> None:
        if checkpoint:  # a process killed while saving leaves the last whole checkpoint
            whole(checkpoint, lambda to: torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "step": step,
                                                     "steps": steps, "minutes": minutes,
                                                     "spent": spent + time.time() - t0, "done": done}, to))
    # workers are started afresh ("spawn"): a forked copy of a process whose OpenCV has run its thread pool (as
    # `cardtable vision deck` has, reading the faces) can hang on the first OpenCV call
    loader = DataLoader(stream, batch_size=None, num_workers=workers, prefetch_factor=4 if workers else None,
                        persistent_workers=bool(workers), pin_memory=device != "cpu",
                        multiprocessing_context="spawn" if workers else None)
    started = last_log = time.time()
    t0 = last_export = None
    with deaf_workers():  # Ctrl-C is this process's to handle, not the workers'
        batches = iter(loader)
    for batch in batches:
        if t0 is None:  # the clock starts with the first batch: the workers' start-up is not training
            t0 = last_export = time.time()
            log(json.dumps({"start_up_s": round(t0 - started, 1)}))
            if until is not None:
                minutes = max(0.05, (until - t0) / 60)
        done = step / steps if steps else (spent + time.time() - t0) / (minutes * 60)
        if done >= 1:
            break
        rate = lr * (done / 0.05 if done < 0.05 else 0.5 * (1 + math.cos(math.pi * (done - 0.05) / 0.95)))
        for group in opt.param_groups:
            group["lr"] = rate
        loss, parts = loss_fn(net, [b.to(device, non_blocking=True) for b in batch])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 100 == 0 or time.time() - last_log > LOG_EVERY_S:
            last_log = time.time()
            log(json.dumps({"step": step, "loss": round(loss.item(), 4), **{k: round(float(v), 4) for k, v in parts.items()},
                            "lr": round(rate, 6), "s": round(time.time() - t0, 1)}))
        step += 1
        if time.time() - last_export > export_every:
            _export(net, export)
            save()
            last_export = time.time()
    _export(net, export)
    save(done=True)
    return {"steps": step, "seconds": round(spent + time.time() - t0, 1), "workers": workers, "device": device}


def _length(steps: int | None, minutes: float | None) -> str:
    """A run's length as its options give it.

    >>> _length(3000, None), _length(None, 90.0)
    ('--steps 3000', '--minutes 90')
    """
    return f"--steps {steps}" if steps is not None else f"--minutes {minutes:g}"


def onnx_weights(path) -> tuple:
    """An exported model's graph and its weights by name (torch tensors), to build the network again from."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    return graph, {t.name: torch.from_numpy(numpy_helper.to_array(t).copy()) for t in graph.initializer}


def _export(net: nn.Module, export: Callable[[nn.Module], None]) -> None:
    device = next(net.parameters()).device
    net.cpu().eval()
    export(net)
    net.to(device).train()
