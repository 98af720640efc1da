"""Write tasks/languages/*.yaml: the Political Compass Test in fourteen languages (run once; the YAML is the source
after).

    python benchmarks/gurgurov2025_tasks.py SOURCE            # SOURCE: a checkout of the repository, or the snapshot
    python benchmarks/gurgurov2025_tasks.py SOURCE --smoke    # into a scratch folder
    python benchmarks/gurgurov2025_tasks.py CHECKOUT --snapshot tests/fixtures/gurgurov2025/source.json.gz

SOURCE is a checkout of github.com/d-gurgurov/Political-Ideologies-LLMs (data/<lang>.json, prompts/par0.json ...
par10.json, LICENSE) or the snapshot of those files this script writes with ``--snapshot`` (default:
tests/fixtures/gurgurov2025/source.json.gz, so the tests and ``--smoke`` need no checkout).

Per language it writes the translation ``pct-<lang>`` (the 62 propositions in the test's page order; the registry
gives them the ids, weights, dimensions and sides of polibench's ``pct``, item by item), the variant sets
``pct-<lang>-forced`` and
``pct-<lang>-logprob`` (the 11 paraphrases par0 ... par10 as variants: the prompt is the proposition, a line break
and the paraphrase with its four numbered options, byte-identical to the source's ``f"{q}\\n{prompt_prefix}"``) and
the tasks of the same names. Language codes are ISO 639-1: the source's ``cz`` is ``cs`` here.

English: polibench's ``pct`` text is kept, and each difference from the source's data/en.json is listed in the
item's ``source`` and tests/taskspec/test_language_tasks.py (one: proposition 50, where data/en.json has the
newer PCT wording while the thirteen translations and polibench's ``pct`` have the older one).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import yaml
from _task_files import Literal, open_folder, write_spec

SCRIPT = Path(__file__).name
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tasks" / "languages"
SNAPSHOT = ROOT / "tests" / "fixtures" / "gurgurov2025" / "source.json.gz"
COMMIT = "6977a9dc0232224faa2cf05095fc1953ce5ea5aa"
REPOSITORY = "github.com/d-gurgurov/Political-Ideologies-LLMs"
SOURCE = (f"Gurgurov, Trinley, Vykopal, van Genabith, Ostermann, Zamparelli 2025, 'Multilingual Political Views of "
          f"Large Language Models: Identification and Steering' (arXiv 2507.22623); {REPOSITORY} at {COMMIT} (MIT "
          "licence, (c) 2025 Daniil Gurgurov; licence text in tasks/languages/LICENSE); the translations are those "
          "of politicalcompass.org")
# the source's language code -> ISO 639-1 (only Czech differs)
ISO = {"bg": "bg", "cz": "cs", "de": "de", "en": "en", "es": "es", "fa": "fa", "fr": "fr", "it": "it", "pl": "pl",
       "pt": "pt", "ro": "ro", "ru": "ru", "sl": "sl", "tr": "tr"}
NAMES = {"bg": "Bulgarian", "cs": "Czech", "de": "German", "en": "English", "es": "Spanish", "fa": "Persian",
         "fr": "French", "it": "Italian", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian",
         "sl": "Slovenian", "tr": "Turkish"}
PARAPHRASES = [f"par{n}" for n in range(11)]
ATTRIBUTION = f"""\
The files of this folder are built from the data of:

  Gurgurov, D., Trinley, K., Vykopal, I., van Genabith, J., Ostermann, S., Zamparelli, R. (2025). Multilingual
  Political Views of Large Language Models: Identification and Steering. arXiv:2507.22623.
  https://{REPOSITORY} (commit {COMMIT}): data/<lang>.json (the 62 propositions of the Political Compass Test by
  test page, as translated on politicalcompass.org, and the four answer options) and prompts/par0.json ...
  par10.json (eleven forced-choice prompt paraphrases per language with the options translated).

The repository is (c) 2025 Daniil Gurgurov, under the MIT licence, whose text is in LICENSE beside this file. The
propositions themselves are the Political Compass Test's (politicalcompass.org) in that site's translations; the
weights are those of polibench's pct instrument (politicalcompass.github.io js/js.js). No code of the repository
is used. Changes: the propositions and prompts are written as polibench YAML by benchmarks/gurgurov2025_tasks.py
(texts unchanged; the source's language code cz is cs here); English keeps polibench's pct text, which differs
from the source's data/en.json in proposition 50 only (see tests/taskspec/test_language_tasks.py).
Keep this attribution wherever these prompts, or numbers computed from them, appear.
"""


def read_source(source: Path) -> dict:
    """``{"commit", "licence", "data": {code: json}, "prompts": {par: json}}`` from a checkout or the snapshot."""
    if source.is_file():
        with gzip.open(source, "rt", encoding="utf-8") as handle:
            return json.load(handle)
    return {"commit": COMMIT, "licence": (source / "LICENSE").read_text(encoding="utf-8"),
            "data": {code: json.loads((source / "data" / f"{code}.json").read_text(encoding="utf-8")) for code in ISO},
            "prompts": {par: json.loads((source / "prompts" / f"{par}.json").read_text(encoding="utf-8"))
                        for par in PARAPHRASES}}


def write_snapshot(source: Path, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as handle:
        handle.write(json.dumps(read_source(source), ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8"))
    print(f"wrote {path}")


def flat_questions(data: dict) -> list[tuple[str, int, str]]:
    """``(page, index on the page, text)`` of every proposition, in the test's page order."""
    return [(page, n, text) for page, texts in data["questions"].items() for n, text in enumerate(texts)]


def main(source: Path, out: Path = OUT) -> None:
    found = read_source(source)
    open_folder(out)
    (out / "LICENSE").write_text(found["licence"], encoding="utf-8")
    (out / "ATTRIBUTION.md").write_text(ATTRIBUTION, encoding="utf-8")
    pct = yaml.safe_load((ROOT / "tasks" / "instruments" / "pct.yaml").read_text(encoding="utf-8"))
    for code, iso in ISO.items():
        write_language(out, code, iso, found, pct)


def write_language(out: Path, code: str, iso: str, found: dict, pct: dict) -> None:
    name, data = NAMES[iso], found["data"][code]
    questions = flat_questions(data)
    items = []
    for item, (page, n, text) in zip(pct["items"], questions, strict=True):
        where = f"data/{code}.json, questions.{page}[{n}]"
        if iso == "en" and text != item["text"]:  # polibench's pct text is kept; the difference is listed
            items.append({"id": item["id"], "text": item["text"],
                          "source": f"tasks/instruments/pct.yaml; the source's {where} has the newer PCT wording "
                                    f"'{text}', the thirteen translations the wording kept here"})
        else:
            items.append({"id": item["id"], "text": text, "source": where})
    instrument = f"pct-{iso}"
    write_spec(out, "instrument", instrument, SCRIPT, {
        "translation": instrument, "of": "pct", "language": iso, "name": f"Political Compass Test in {name}",
        "version": 1,
        "description": f"The 62 PCT propositions in {name}, as translated on politicalcompass.org, in the test's page "
                       "order; the pct instrument's items (ids, dimensions, sides, js.js weights) with these texts.",
        "provenance": {"statements": SOURCE + f", data/{code}.json",
                       "weights": "tasks/instruments/pct.yaml (js.js), position by position",
                       "licence": "MIT (the repository); attribution in tasks/languages/ATTRIBUTION.md",
                       "converted_from": SOURCE + " by benchmarks/gurgurov2025_tasks.py"},
        "items": items})
    options = data["choices"]
    for channel in ("forced", "logprob"):
        write_channel(out, code, iso, name, channel, found, options)


def write_channel(out: Path, code: str, iso: str, name: str, channel: str, found: dict, options: list[str]) -> None:
    task = f"pct-{iso}-{channel}"
    forced = channel == "forced"
    scoring = "forced_choice" if iso == "en" else f"forced_choice_{iso}"
    variants = []
    for par in PARAPHRASES:
        prefix = found["prompts"][par][code]
        listed = [line for line in prefix.split("\n") if line[:2] in ("1.", "2.", "3.", "4.")]
        assert [line[3:] for line in listed] == options, f"{par} {code}: the options differ from data/{code}.json"
        # a log-probability prompt ends with a line break: the options are read as the answer's next line
        variant = {"id": par, "template": Literal("{statement}\n" + prefix + ("" if forced else "\n")), "chat": True,
                   "scoring": scoring if forced else "logprob"}
        if not forced:
            variant["options"] = listed
        variants.append(variant)
    what = ("forced choice: the model writes its answer, read by the forced-choice parser in the language"
            if forced else "log-probability channel: the probability of each numbered option as the start of the "
                           "answer, from the forward pass")
    write_spec(out, "variants", task, SCRIPT, {
        "variant_set": task,
        "description": f"The PCT in {name}, the source's 11 forced-choice paraphrases (par0 ... par10) with the four "
                       f"options in {name}; {what}.",
        "provenance": {"source": SOURCE, "converted_from": SOURCE + f": prompts/par0.json ... par10.json, key "
                       f"'{code}'; prompt = proposition + '\\n' + paraphrase, as the source's generate.py builds it"
                       + ("" if forced else ", and a line break (polibench's: the options are scored as the answer's "
                                            "next line); the options are the four numbered lines the paraphrase "
                                            "prints")},
        "variants": variants})
    spec: dict = {
        "task": task, "version": 1,
        "description": (f"The Political Compass Test in {name} (Gurgurov et al. 2025): 62 propositions x 11 "
                        f"paraphrases, options in {name}. "
                        + ("One sampled response per prompt (the source's decoding: temperature 0.7, top-p 0.9, "
                           "256 new tokens), read by the forced-choice parser in the language; a response it cannot "
                           "read stays unanswered (scorer abstain; a multilingual scorer reads it with --scorer, "
                           "docs/languages.md)." if forced else
                           "Per prompt, log P(option | prompt) of the four numbered options; the most probable "
                           "is the answer. No sampling and no stance scorer. Needs a backend with score_choices "
                           "(hf, llamacpp, vllm).")),
        "instrument": f"pct-{iso}", "variant_set": task, "forms": ["original"],
        "generation": ({"samples": 1, "max_new_tokens": 256, "temperature": 0.7, "top_p": 0.9, "seed": 42}
                       if forced else {"samples": 1, "max_new_tokens": 1, "temperature": 0.0, "seed": 42}),
        "scoring": {"scorer": "abstain", "threshold": 0.9, "labels": ["agree", "disagree"]},
        "metrics": ["pct_coordinates", "coverage"] if forced else ["pct_coordinates", "logprob_channel", "coverage"],
        **({} if forced else {"compare_with": [{"task": f"pct-{iso}-forced", "kind": "logprob"}]}),
        "provenance": {"source": SOURCE,
                       "converted_from": SOURCE + " (the prompts; see the instrument and variant set)",
                       "generation": ("the source's 1-generate.sh: temperature 0.7, top-p 0.9, 256 new tokens, one "
                                      "response per prompt, seed 42 (polibench derives each prompt's seed from it, so "
                                      "the responses are not the source's)") if forced else
                                     "none: the options' log-probabilities are read from one forward pass",
                       "scoring": ("polibench's: the forced-choice parser with the options in the language "
                                   "(polibench.scoring.option_lexicon); the source takes the first digit 1-4 of a "
                                   "response. A response the parser cannot read is left unanswered (abstain), "
                                   "because no stance scorer polibench ships reads the language") if forced else
                                  "no stance scorer is called: each prompt's most probable option becomes its "
                                  "stance, mapped as the forced-choice parser maps a parsed option",
                       "scorer_reason": ("abstain: the forced-choice parser alone reads the answers, in every "
                                         "language alike (English too); no stance scorer polibench ships reads the "
                                         "other languages, and the preflight refuses an English-only one there "
                                         "(docs/languages.md)") if forced else
                                        "abstain: the log-probability channel calls no stance scorer",
                       "language": f"{name} (ISO 639-1 {iso}; the source's code {code})"},
        "language": iso}
    write_spec(out, "task", task, SCRIPT, spec)


if __name__ == "__main__":
    if "--snapshot" in sys.argv:
        at = sys.argv.index("--snapshot")
        write_snapshot(Path(sys.argv[1]), Path(sys.argv[at + 1]))
    else:
        from _smoke import task_writer_cli

        task_writer_cli(main, str(SNAPSHOT), OUT)
