"""The ``hf`` backend on a CUDA GPU: generation throughput, and GPU memory left when the stance scorer loads.

CI has no GPU, so this is a benchmark script, not a test. It builds a causal LM with random weights from a
config (no hub access needed): the shape of SmolLM2-135M (``--shape smollm2-135m``) or of Llama-3.1-8B
(``--shape llama-8b``), with the tokenizer folder given by ``--tokenizer`` (any saved HF tokenizer; random
weights give random text, so throughput, not content, is measured). It then runs polibench's real evaluator on
the PCT with that model on ``device=cuda`` and a scorer registered for the benchmark that records the GPU
memory in use at the moment it is constructed, i.e. after generation. The same run is repeated with
``close()`` disabled, to show what the memory would be without the lifecycle step.

    python benchmarks/bench_hf_cuda.py --tokenizer DIR --shape smollm2-135m --batch-size 64 --samples 2

Prints one line per figure: responses, generated tokens, seconds, tokens/s, peak GPU memory during
generation, GPU memory allocated when the scorer loads (with close, and without). A short run first warms
CUDA up (kernel loading, cuBLAS handles) and is not counted. Seconds are the whole evaluator run (generation,
scoring, report), so tokens/s is a floor for generation alone.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

SHAPES = {
    "smollm2-135m": dict(hidden_size=576, intermediate_size=1536, num_hidden_layers=30, num_attention_heads=9,
                         num_key_value_heads=3, tie_word_embeddings=True),
    "llama-8b": dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
                     num_key_value_heads=8, tie_word_embeddings=False),
}
MIB = 2 ** 20


def build_model(shape: str, tokenizer_dir: Path, folder: Path) -> int:
    """A random-weight Llama of ``shape`` in bfloat16, saved with the tokenizer; returns its parameter count."""
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    config = LlamaConfig(vocab_size=len(tokenizer), max_position_embeddings=4096, rope_theta=100000.0,
                         bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id or tokenizer.eos_token_id, **SHAPES[shape])
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = LlamaForCausalLM(config).to(torch.bfloat16)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    count = sum(p.numel() for p in model.parameters())
    del model
    torch.cuda.empty_cache()
    return count


def run_once(model_dir: Path, out: Path, args, keep_loaded: bool) -> dict:
    """One evaluator run; returns the figures. ``keep_loaded`` disables ``HFBackend.close`` (the counterfactual)."""
    import torch

    from polibench.models.hf import HFBackend
    from polibench.pipeline.run import RunOptions, evaluate
    from polibench.scorers.stance.lexical import LexicalScorer
    from polibench.scoring.registry import register_scorer
    from polibench.taskspec.loader import load_registry

    seen: dict = {}

    class MemoryRecordingScorer(LexicalScorer):
        """The lexical scorer, recording the GPU memory in use when it is constructed."""

        name = "memory-recording"

        def __init__(self, *a, **k):
            seen["allocated_at_scorer_load"] = torch.cuda.memory_allocated()
            super().__init__(*a, **k)

    globals()["MemoryRecordingScorer"] = MemoryRecordingScorer
    register_scorer("memory-recording", f"{__name__}:MemoryRecordingScorer")
    original_close = HFBackend.close
    if keep_loaded:
        HFBackend.close = lambda self: None  # type: ignore[method-assign]
    try:
        torch.cuda.reset_peak_memory_stats()
        backend = HFBackend(str(model_dir), device="cuda", dtype="bfloat16", batch_size=args.batch_size)
        seen["allocated_after_load"] = torch.cuda.memory_allocated()
        options = RunOptions(seed=1, limit=args.limit, samples_per_prompt=args.samples, scorer="memory-recording",
                             show_progress=False)
        start = time.perf_counter()
        document = evaluate(["pct"], load_registry([]), backend, out, options)
        seconds = time.perf_counter() - start
    finally:
        HFBackend.close = original_close  # type: ignore[method-assign]
    from polibench.results.files import SAMPLES, read_samples

    samples = read_samples(out / SAMPLES)
    tokens = sum(s.usage.completion_tokens or 0 for s in samples)
    seen.update(responses=len(samples), tokens=tokens, seconds=seconds, peak=torch.cuda.max_memory_allocated(),
                document=document)
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokenizer", required=True, help="a saved HF tokenizer folder")
    parser.add_argument("--shape", choices=sorted(SHAPES), default="smollm2-135m")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--samples", type=int, default=2, help="responses per prompt")
    parser.add_argument("--limit", type=int, default=None, help="first N PCT statements (default: all 62)")
    parser.add_argument("--smoke", action="store_true",
                        help="2 statements, 1 sample, batch 2 (only checks that the script runs)")
    args = parser.parse_args()
    if args.smoke:
        args.limit, args.samples, args.batch_size = 2, 1, 2

    import torch

    if not torch.cuda.is_available():
        raise SystemExit("bench_hf_cuda: no CUDA device")
    print(f"device: {torch.cuda.get_device_name(0)}; torch {torch.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = Path(tmp) / "model"
        start = time.perf_counter()
        params = build_model(args.shape, Path(args.tokenizer), model_dir)
        print(f"model: random {args.shape} ({params / 1e6:.0f}M parameters, bfloat16), built and saved in "
              f"{time.perf_counter() - start:.1f} s")
        run_once(model_dir, Path(tmp) / "warm-up", argparse.Namespace(**{**vars(args), "limit": 2}), False)
        for keep_loaded in (False, True):
            figures = run_once(model_dir, Path(tmp) / f"run-{keep_loaded}", args, keep_loaded)
            label = "without close (counterfactual)" if keep_loaded else "with close (polibench)"
            print(f"[{label}] {figures['responses']} responses, {figures['tokens']} tokens in "
                  f"{figures['seconds']:.1f} s = {figures['tokens'] / figures['seconds']:.0f} tokens/s "
                  f"(batch size {args.batch_size}); GPU memory: {figures['allocated_after_load'] / MIB:.0f} MiB "
                  f"after load, peak {figures['peak'] / MIB:.0f} MiB, "
                  f"{figures['allocated_at_scorer_load'] / MIB:.0f} MiB allocated when the scorer loads")


if __name__ == "__main__":
    main()
