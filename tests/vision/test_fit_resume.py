"""A training run killed part way goes on from its checkpoint, and ends where an unbroken run ends (needs torch)."""

import itertools
import json

import pytest

torch = pytest.importorskip("torch")

from vision.train.fit import CheckpointError, Stream, fit  # noqa: E402


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
    with pytest.raises(CheckpointError) as refused:
        run(tmp_path, steps=80)
    assert "a run of `--steps 60`, not of `--steps 80`" in refused.value.text("en")
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


def test_a_checkpoint_of_another_network_or_damaged_is_refused_in_words_and_changes_nothing(tmp_path):
    """A run given a checkpoint it cannot go on from (another network's, or a file cut short when a disk filled) says
    so, in either language, before training: the checkpoint stays as it was, for the run it belongs to."""
    run(tmp_path, steps=10)
    kept = (tmp_path / "run.ckpt").read_bytes()

    def other(net):
        return fit(net, lambda n, b: (n(b[0]).sum() * 0, {}), Stream(batches, 1), lambda n: None, steps=10,
                   checkpoint=tmp_path / "run.ckpt", log=lambda line: None)

    with pytest.raises(CheckpointError) as refused:
        other(torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Linear(4, 1)))
    assert "another network" in refused.value.text("en") and "另一个网络" in refused.value.text("zh")
    assert (tmp_path / "run.ckpt").read_bytes() == kept
    (tmp_path / "run.ckpt").write_bytes(kept[:len(kept) // 2])
    with pytest.raises(CheckpointError) as refused:
        other(torch.nn.Linear(3, 1))
    assert "cannot be read as a checkpoint" in refused.value.text("en") and "已损坏" in refused.value.text("zh")
    assert len((tmp_path / "run.ckpt").read_bytes()) == len(kept) // 2


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_train_with_a_checkpoint_it_cannot_go_on_from_says_so_and_makes_no_folder(tmp_path, capsys, lang):
    """``cardtable vision train --checkpoint`` of another run (here another width) was a traceback."""
    from cardtable.cli import main

    folder = tmp_path / "ck"
    assert main(["vision", "train", "--part", "index", "--steps", "1", "--checkpoint", str(folder),
                 "--out", str(tmp_path / "first")]) == 0
    capsys.readouterr()
    out = tmp_path / "second"
    assert main(["--lang", lang, "vision", "train", "--part", "index", "--steps", "1", "--width", "2",
                 "--checkpoint", str(folder), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert ("another network" if lang == "en" else "另一个网络") in err and "Traceback" not in err
    assert not out.exists()
