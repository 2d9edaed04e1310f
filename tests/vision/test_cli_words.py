"""``cardtable vision``'s errors as a person meets them, run as the real command: what goes wrong below the command
(the model, the video source, the table's markers) is said from the catalogue, in Chinese, or in English when
asked (``--lang en``, ``$CARDTABLE_LANG``)."""

from __future__ import annotations

import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

CLI = [sys.executable, "-m", "cardtable", "vision"]


def run(args: list[str], lang: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_LANG"} | ({"CARDTABLE_LANG": lang} if lang else {})
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture(scope="module")
def green(tmp_path_factory):
    """A frame of bare cloth: no markers, no cards."""
    path = tmp_path_factory.mktemp("frames") / "cloth.png"
    cv2.imwrite(str(path), np.full((480, 640, 3), (40, 110, 40), np.uint8))
    return path


def test_a_missing_model_is_said_in_either_language(green, tmp_path):
    args = ["read", str(green), "--model", str(tmp_path / "none.onnx")]
    zh, en = run(args), run(args, "en")
    assert zh.returncode == en.returncode == 2
    assert f"{tmp_path / 'none.onnx'} 没有识别模型（用 `cardtable vision train` 训练一个）" in zh.stderr, zh.stderr
    assert f"no recognition model at {tmp_path / 'none.onnx'} (train one with" in en.stderr, en.stderr
    assert "no recognition" not in zh.stderr and "没有" not in en.stderr


def test_a_missing_video_is_said_in_either_language(tmp_path):
    args = ["watch", "--table", "t1", "--source", str(tmp_path / "none.mp4"), "--broker", "mqtt://camera-t1:pw@127.0.0.1:1"]
    zh, en = run(args), run([*args, "--lang", "en"])
    assert zh.returncode == en.returncode == 1
    assert f"没有这个视频文件或摄像机设备：{tmp_path / 'none.mp4'}" in zh.stderr and "no such" not in zh.stderr, zh.stderr
    assert f"no such video file or camera device: {tmp_path / 'none.mp4'}" in en.stderr, en.stderr


def test_a_camera_whose_model_will_not_do_stops_with_the_status_its_unit_does_not_restart(tmp_path):
    """`vision watch` with a damaged model exits 2 (``REFUSED``), which the hall's camera unit does not start again
    (``hall setup``: ``RestartPreventExitStatus``): started again every 2 s it would only be refused again; a video
    that is not there yet (status 1) is worth trying again."""
    bad = tmp_path / "cards.onnx"
    bad.write_bytes(b"not a model" * 10)
    done = run(["watch", "--table", "t1", "--source", str(tmp_path / "none.mp4"), "--model", str(bad),
                "--broker", "mqtt://camera-t1:pw@127.0.0.1:1"])
    assert done.returncode == 2, done.stderr
    assert f"{bad} 不是 `ONNX` 模型文件，或已损坏" in done.stderr, done.stderr


def test_a_rulebook_that_is_not_ours_is_refused_in_either_language():
    args = ["watch", "--table", "t1", "--source", "0", "--rulebook", "nope"]
    zh, en = run(args), run(args, "en")
    assert zh.returncode == en.returncode == 2
    assert "参数 --rulebook：没有规则“nope”；可用的规则：classic-3deck, sanjiang-2012" in zh.stderr, zh.stderr
    assert "argument --rulebook: unknown rulebook 'nope'; known: classic-3deck" in en.stderr, en.stderr


def test_a_frame_without_markers_is_said_in_either_language(green, tmp_path):
    args = ["calibrate", "--source", str(green), "--out", str(tmp_path / "c.png")]
    zh, en = run(args), run(args, "en")
    assert zh.returncode == en.returncode == 2 and not (tmp_path / "c.png").exists()
    assert "未标定：找不到桌角标记：缺 0、1、2、3 号" in zh.stderr and "找到：无" in zh.stderr, zh.stderr
    assert "not calibrated: table markers not found: id 0, 1, 2, 3 missing" in en.stderr and "found none)" in en.stderr


def test_a_bad_frame_size_is_said_in_either_language():
    zh, en = run(["calibrate", "--source", "0", "--size", "3x4"]), run(["calibrate", "--source", "0", "--size", "3x4"], "en")
    assert zh.returncode == en.returncode == 2
    assert "参数 --size：不是画面尺寸 `WxH`（宽、高都至少 32）：'3x4'" in zh.stderr, zh.stderr
    assert "argument --size: not a frame size WxH (each 32 or more): '3x4'" in en.stderr, en.stderr


@pytest.mark.parametrize("args, said", [
    (["sure", "--deck", "sans", "--frames", "-3", "--check", "0"], "参数 --frames：不是不小于 1 的整数：'-3'"),
    (["sure", "--deck", "sans", "--minutes", "nan"], "参数 --minutes：不是大于 0 的数：'nan'"),
    (["sure", "--deck", "sans", "--workers", "-1", "--frames", "1"], "参数 --workers：不是不小于 0 的整数：'-1'"),
    (["train", "--part", "index", "--minutes", "-1"], "参数 --minutes：不是大于 0 的数：'-1'"),
    (["train", "--part", "index", "--lr", "0"], "参数 --lr：不是大于 0 的数：'0'"),
    (["train", "--part", "index", "--steps", "0"], "参数 --steps：不是不小于 1 的整数：'0'"),
    (["deck", "--layout", "x.png", "--budget", "inf"], "参数 --budget：不是大于 0 的数：'inf'"),
    (["calibrate", "--source", "0", "--frames", "0"], "参数 --frames：不是不小于 1 的整数：'0'"),
    (["watch", "--source", "0", "--table", "t01", "--fps", "-1"], "参数 --fps：不是大于 0 的数：'-1'"),
])
def test_a_count_or_a_length_out_of_its_range_is_refused_in_words_changing_nothing(args, said, tmp_path):
    """A negative number of tables once wrote a calibration fitted on none, a negative training length trained with a
    negative learning rate, and negative workers were a traceback: each is now refused before anything runs."""
    out = ["--out", str(tmp_path / ("s.json" if args[0] == "sure" else "o"))] if args[0] != "watch" else []
    done = run([*args, *out])
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert not list(tmp_path.iterdir())


def test_a_deck_that_names_nothing_is_refused_in_words(tmp_path):
    done = run(["sure", "--deck", " , ", "--frames", "1", "--out", str(tmp_path / "s.json")], "en")
    assert done.returncode == 2 and "no such deck (it names no art style and no folder)" in done.stderr, done.stderr
    assert not list(tmp_path.iterdir())


def test_a_mistyped_picture_to_calibrate_on_is_refused_in_chinese_alone(tmp_path):
    """OpenCV's warning in English came first (`can't open/read file`), and the line called it no picture."""
    done = run(["calibrate", "--source", str(tmp_path / "nosuch.png"), "--out", str(tmp_path / "c.png")])
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"cardtable vision calibrate：错误：没有这个图片：{tmp_path / 'nosuch.png'}"], done.stderr
    assert not list(tmp_path.iterdir())


def test_a_calibration_that_is_another_commands_file_is_refused_in_chinese_alone(green, tmp_path):
    """`--sure` naming a database (a mistyped path to the console's file) was said with Python's decoding error in
    English inside the Chinese line ('utf-8' codec can't decode ...); a text file with its JSON parser's."""
    db, text = tmp_path / "console.db", tmp_path / "notes.txt"
    db.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 4)
    text.write_text("王老师\n")
    for path in (db, text):
        done = run(["read", "--sure", str(path), str(green)])
        assert done.returncode == 2 and done.stderr.strip().splitlines() == [
            f"cardtable vision read：错误：分类器的置信度校准不能用：置信度校准 {path} 已损坏：不是 `JSON` 文本"], done.stderr
    done = run(["read", "--model", str(db), str(green)])  # as a model: protobuf's English was said
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"cardtable vision read：错误：{db} 不是 `ONNX` 模型文件，或已损坏"], done.stderr


def test_the_classifier_given_for_the_detector_is_said_in_words(green, tmp_path):
    """`--model index.onnx` (the classifier for the detector) was onnx's English (`names were not found in
    value_infos`) inside the Chinese line; a detector put where the classifier goes, the same."""
    from vision.model import DEFAULT_MODEL

    done = run(["read", "--model", str(DEFAULT_MODEL.with_name("index.onnx")), str(green)])
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"cardtable vision read：错误：{DEFAULT_MODEL.with_name('index.onnx')} 不是识别模型的检测器（它没有输入 `image` 和"
        "输出 `heat`、`offset`）：`--model` 要的是检测器 `cards.onnx`，分类器 `index.onnx` 放在它旁边"], done.stderr
    for name in ("cards.onnx", "index.onnx"):
        (tmp_path / name).write_bytes(DEFAULT_MODEL.read_bytes())
    done = run(["read", "--model", str(tmp_path / "cards.onnx"), str(green)], "en")
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"cardtable vision read: error: {tmp_path / 'index.onnx'} is not the recognition model's classifier (it has no "
        "input `patch`, output `probs` and last fully connected layer): the `index.onnx` beside the detector must be "
        "the classifier"], done.stderr


def test_a_mistyped_faces_folder_is_named_once(tmp_path):
    """`vision deck --faces` of a folder not there said its name twice (`nosuch：nosuch：没有这个文件夹`)."""
    done = run(["deck", "--faces", str(tmp_path / "nosuch"), "--out", str(tmp_path / "models")])
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"cardtable vision deck：错误：{tmp_path / 'nosuch'}：没有这个文件夹"], done.stderr
    assert not list(tmp_path.iterdir())


def test_a_mistyped_deck_is_refused_in_chinese_alone(tmp_path):
    """A style that is not there was said in English inside the Chinese line (`no art for SA in style ...`), after
    OpenCV's own warning in English; now the system's error in the catalogue's words, and no other line."""
    done = run(["sure", "--deck", "nosuchstyle", "--frames", "1", "--out", str(tmp_path / "s.json")])
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        "cardtable vision sure：错误：`--deck nosuchstyle`：没有这副牌（没有这个文件或文件夹）"], done.stderr
    assert not list(tmp_path.iterdir())


def test_the_deck_order_is_said_in_the_command_lines_language():
    """README: every command speaks Chinese, English with ``--lang en``. ``vision deck --order`` printed both
    languages whatever was asked, its sentence written in the code rather than the catalogue."""
    zh, en = run(["deck", "--order"]), run(["deck", "--order"], "en")
    assert zh.returncode == en.returncode == 0, zh.stderr + en.stderr
    assert zh.stdout.startswith("请把整副牌（54 张）正面朝上") and "Lay the" not in zh.stdout, zh.stdout
    assert en.stdout.startswith("Lay the 54 cards face up") and "请" not in en.stdout, en.stdout
    for out in (zh.stdout, en.stdout):
        assert out.splitlines()[1:] == [line for line in out.splitlines()[1:] if len(line.split()) == 9] and \
            out.splitlines()[1] == "S2 S3 S4 S5 S6 S7 S8 S9 ST" and out.splitlines()[-1] == "C8 C9 CT CJ CQ CK CA BJ LJ"
