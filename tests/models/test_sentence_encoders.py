"""all-mpnet-base-v2 from its five wheels (polibench.models.sentence_encoders): the parts join and unzip into a
checked folder, a broken or altered part is one clear error and publishes nothing, the hub id stays the loading
path where the wheels are missing, and the assembled encoder behaves as the real model: paraphrases rank above
unrelated sentences (CI installs the ``mpnet`` extra, so this runs there)."""

import hashlib
import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from polibench.errors import PolibenchError
from polibench.models import sentence_encoders as se


def zip_parts(tmp_path: Path, files: dict[str, bytes], parts: int = 3) -> list[Path]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    blob = buffer.getvalue()
    cut = np.linspace(0, len(blob), parts + 1).astype(int)
    out = []
    for i in range(parts):
        path = tmp_path / f"model.zip.{i + 1:03d}"
        path.write_bytes(blob[cut[i]:cut[i + 1]])
        out.append(path)
    return out


WEIGHTS = bytes(range(256)) * 40
FILES = {"all-mpnet-base-v2/config.json": b'{"model_type": "mpnet"}',
         "all-mpnet-base-v2/model.safetensors": WEIGHTS,
         "all-mpnet-base-v2/1_Pooling/config.json": b"{}",
         "all-mpnet-base-v2/desktop.ini": b"junk"}


def test_parts_join_unzip_and_are_checked(tmp_path):
    parts = zip_parts(tmp_path, FILES)
    folder = se.assemble(parts, tmp_path / "out", size=len(WEIGHTS), sha256=hashlib.sha256(WEIGHTS).hexdigest())
    assert (folder / "model.safetensors").read_bytes() == WEIGHTS
    assert (folder / "1_Pooling" / "config.json").is_file() and not (folder / "desktop.ini").exists()
    assert (folder / se.MARKER).is_file()


@pytest.mark.parametrize("damage", ["hash", "size", "order", "truncated"])
def test_a_wrong_part_is_one_clear_error(tmp_path, damage):
    parts = zip_parts(tmp_path, FILES)
    size, digest = len(WEIGHTS), hashlib.sha256(WEIGHTS).hexdigest()
    if damage == "hash":
        digest = "0" * 64
    elif damage == "size":
        size += 1
    elif damage == "order":
        parts = [parts[1], parts[0], parts[2]]
    else:
        parts[-1].write_bytes(parts[-1].read_bytes()[:-40])
    with pytest.raises(PolibenchError, match="all-mpnet-base-v2"):
        se.assemble(parts, tmp_path / "out", size=size, sha256=digest)


def test_without_the_wheels_the_hub_id_is_the_loading_path(monkeypatch, tmp_path):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path))
    monkeypatch.setattr(se, "mpnet_parts", lambda: None)
    assert se.mpnet_path() == se.MPNET_HUB_ID == "sentence-transformers/all-mpnet-base-v2"
    assert se.encoder_path("mpnet") == se.MPNET_HUB_ID
    assert se.encoder_path("/some/folder") == "/some/folder"


def test_a_partial_install_says_which_wheels_are_missing(monkeypatch):
    import importlib.metadata

    real = importlib.metadata.distribution

    def some_missing(name):
        if name.endswith("004"):
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    if se.mpnet_parts() is None:
        pytest.skip("the mpnet extra is not installed (make install-dev installs it)")
    monkeypatch.setattr(importlib.metadata, "distribution", some_missing)
    with pytest.raises(PolibenchError, match="part-004 is missing"):
        se.mpnet_parts()


def test_the_assembled_model_is_the_real_all_mpnet_base_v2():
    """The folder assembled from the installed wheels is the published model file (size and SHA-256 checked when
    assembled), and it embeds as a sentence encoder should: each sentence's paraphrase is its nearest neighbour
    among sentences on other subjects."""
    if se.mpnet_parts() is None:
        pytest.skip("the mpnet extra is not installed (make install-dev installs it)")
    from polibench.kit.encoder import mean_pooled

    path = Path(se.mpnet_path())
    assert (path / se.MARKER).is_file() and (path / "model.safetensors").stat().st_size == se.MPNET_SIZE
    pairs = [("A man is eating a meal.", "Someone is having food."),
             ("The city council voted to raise the minimum wage.", "Local lawmakers approved a higher minimum pay."),
             ("The cat is sleeping on the sofa.", "A kitten naps on the couch."),
             ("Stock markets fell sharply on Monday.", "Share prices dropped steeply at the start of the week."),
             ("She is learning to play the violin.", "She takes violin lessons.")]
    left = mean_pooled(str(path), [a for a, _ in pairs], max_length=64, batch_size=8, who="test")
    right = mean_pooled(str(path), [b for _, b in pairs], max_length=64, batch_size=8, who="test")
    assert left.shape == (5, 768) and np.allclose(np.linalg.norm(left, axis=1), 1.0, atol=1e-4)
    similarity = left @ right.T
    assert (similarity.argmax(axis=1) == np.arange(5)).all()
    assert similarity.diagonal().min() > 0.6 > np.max(similarity - np.eye(5) * 10)
