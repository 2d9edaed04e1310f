"""The drawn decks' fonts from a folder (``CARDTABLE_TRAIN_FONTS``) on a machine that cannot install the font
packages, as a lent GPU: the same files in the same order, so ``deck:N`` is drawn the same there. Runs without
Pillow or the packages (only the files' names and paths are read)."""

import pytest

from vision.train.synth import decks


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(decks.FONTS_FOLDER, str(tmp_path))
    decks.font_files.cache_clear()
    yield tmp_path
    monkeypatch.delenv(decks.FONTS_FOLDER)
    decks.font_files.cache_clear()


def test_the_folder_gives_the_packages_files_in_the_order_their_own_paths_sort(folder):
    here = ["/usr/share/fonts/opentype/b/B-Regular.otf", "/usr/share/fonts/truetype/a/A.ttf",
            "/usr/share/fonts/truetype/a/AB.TTF", "/usr/share/fonts/truetype/z/Z-Bold.ttf"]
    left_out = ["/usr/share/fonts/truetype/a/A-Italic.ttf",  # slanted
                "/usr/share/fonts/truetype/d/DejaVuSansMono.ttf",  # a held-out style's
                "/usr/share/fonts/truetype/a/README.txt", "/usr/share/fonts/truetype/a/A.pfb"]
    for f in here + left_out:
        (folder / f[1:]).parent.mkdir(parents=True, exist_ok=True)
        (folder / f[1:]).write_bytes(b"\0")
    (folder / "usr/share/fonts/truetype/empty.ttf").mkdir()  # a folder named like a font is no font
    assert decks.font_files() == tuple(f"{folder}{f}" for f in sorted(here))


def test_a_folder_that_is_not_there_is_refused_in_words(folder, monkeypatch):
    monkeypatch.setenv(decks.FONTS_FOLDER, str(folder / "nowhere"))
    with pytest.raises(FileNotFoundError, match="CARDTABLE_TRAIN_FONTS=.*nowhere: no such folder"):
        decks.font_files()
