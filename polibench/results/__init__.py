"""Results on disk: ``samples.jsonl`` (one Sample per line) and ``results.json`` (lm-eval-like layout)."""
