"""A training run killed part way goes on from its checkpoint, and ends where an unbroken run ends (needs torch)."""

import itertools
import json

import pytest

torch = pytest.importorskip("torch")

from vision.train.fit import Stream, fit  # noqa: E402


def batches(seed: int):
    g = torch.Generator().manual_seed(seed)
    for _ in itertools.count():
        x = torch.randn(8, 3, generator=g)
        yield x, x.sum(1, keepdim=True)


class Killed(Exception):
    pass


def run(tmp_path, kill_at=None, steps=60):
    torch.manual_seed(0)
    net = torch.nn.Linear(3, 1)
    lines = []

    def loss_fn(net, batch):
        if kill_at is not None and len(lines) > kill_at:
            raise Killed  # as a process killed mid-run
        x, y = batch
        lines.append(1)
        return torch.nn.functional.mse_loss(net(x), y), {}

    log = []
    result = fit(net, loss_fn, Stream(batches, 1), lambda n: None, steps=steps, lr=0.1, export_every=0.0,
                 checkpoint=tmp_path / "run.ckpt", log=log.append)
    return net, result, log


def test_a_killed_run_goes_on_from_its_checkpoint(tmp_path):
    with pytest.raises(Killed):
        run(tmp_path, kill_at=25)
    state = torch.load(tmp_path / "run.ckpt", weights_only=False)
    assert 24 <= state["step"] <= 26 and not state["done"]
    net, result, log = run(tmp_path)
    resumed = json.loads(log[0])
    assert resumed["resumed_at_step"] == state["step"] and result["steps"] == 60
    assert torch.load(tmp_path / "run.ckpt", weights_only=False)["done"]
    _, again, log = run(tmp_path)  # a finished run starts nothing
    assert again["steps"] == 60 and len(log) == 1
    with pytest.raises(ValueError, match="not steps=80"):
        run(tmp_path, steps=80)
    x, y = next(batches(99))
    torch.manual_seed(0)
    fresh = torch.nn.Linear(3, 1)
    with torch.no_grad():  # it learnt y = sum(x) across the break
        assert ((net(x) - y) ** 2).mean() < 0.1 * ((fresh(x) - y) ** 2).mean()


def test_a_run_with_a_deadline_ends_by_it(tmp_path):
    import time

    net, log = torch.nn.Linear(3, 1), []
    started = time.time()
    result = fit(net, lambda net, b: (torch.nn.functional.mse_loss(net(b[0]), b[1]), {}), Stream(batches, 1),
                 lambda n: None, until=started + 4, lr=0.05, log=log.append)
    start_up = json.loads(log[0])["start_up_s"]
    assert result["steps"] > 10 and start_up + result["seconds"] <= 4 + 0.3  # its start-up counted in
    with pytest.raises(ValueError, match="give steps, minutes or until"):
        fit(net, None, Stream(batches, 1), lambda n: None, steps=3, until=started)
