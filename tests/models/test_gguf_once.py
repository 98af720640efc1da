"""polibench.models.gguf_once: inside the block a read-only GGUF is parsed once per file version and the
tensor-name table built once; a reader for writing is never shared, and leaving the block puts gguf back.
(That the embedded model loads the same weights and tokens with it is what tests/models/test_same_tokens.py and
test_backend_hf.py check through the hf backend.)"""

import os

import pytest

gguf = pytest.importorskip("gguf")

from polibench.models.gguf_once import gguf_read_once  # noqa: E402


def tiny_gguf(path, value: int):
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_uint32("test.value", value)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def value(reader) -> int:
    field = reader.fields["test.value"]
    return int(field.parts[field.data[0]][0])


def test_a_file_is_parsed_once_per_version_and_gguf_is_restored(tmp_path):
    original_reader, original_map = gguf.GGUFReader, gguf.get_tensor_name_map
    path = tiny_gguf(tmp_path / "a.gguf", 1)
    with gguf_read_once():
        first = gguf.GGUFReader(path)
        assert gguf.GGUFReader(str(path)) is first and value(first) == 1
        assert gguf.GGUFReader(path, "r+") is not first  # a reader that may write is its own
        other = tiny_gguf(tmp_path / "b.gguf", 2)
        assert value(gguf.GGUFReader(other)) == 2
        tiny_gguf(path, 3)  # the file rewritten: a new version, read again
        os.utime(path, ns=(1, 1))
        assert value(gguf.GGUFReader(path)) == 3
        arch = gguf.MODEL_ARCH.LLAMA
        assert gguf.get_tensor_name_map(arch, 2) is gguf.get_tensor_name_map(arch, 2)
        assert gguf.get_tensor_name_map(arch, 2) is not gguf.get_tensor_name_map(arch, 3)
    assert (gguf.GGUFReader, gguf.get_tensor_name_map) == (original_reader, original_map)
    assert gguf.GGUFReader(path) is not gguf.GGUFReader(path)
    with pytest.raises(RuntimeError), gguf_read_once():
        raise RuntimeError("load failed")
    assert (gguf.GGUFReader, gguf.get_tensor_name_map) == (original_reader, original_map)


def test_overlapping_blocks_in_two_threads_leave_gguf_as_it_was(tmp_path):
    import threading

    original = (gguf.GGUFReader, gguf.get_tensor_name_map)
    path = tiny_gguf(tmp_path / "a.gguf", 1)
    first_in, go_on = threading.Event(), threading.Event()

    def load(wait: bool):
        with gguf_read_once():
            first_in.set()
            if wait:
                go_on.wait(5)
            assert value(gguf.GGUFReader(path)) == 1

    one = threading.Thread(target=load, args=(True,))
    one.start()
    first_in.wait(5)
    two = threading.Thread(target=load, args=(False,))
    two.start()  # waits for the first block to end, rather than saving its stand-ins as the originals
    go_on.set()
    one.join(5)
    two.join(5)
    assert (gguf.GGUFReader, gguf.get_tensor_name_map) == original
