"""Write tasks/rottger/*.yaml from Röttger et al. 2024's prompt parts (run once; the YAML is the source after).

    python benchmarks/rottger2024_tasks.py /work/shared/external/rottger2024
    python benchmarks/rottger2024_tasks.py /work/shared/external/rottger2024 --smoke  # scratch folder

Reads prompt_templates.csv, answer_options.csv, jailbreaks.csv and pct_propositions.csv of
paul-rottger/llm-values-pct (commit b4e5d89, CC BY 4.0) and writes the instrument ``pct-rottger``, four variant
sets and four tasks. Each variant is one template with ``{pct_prompt}`` -> ``{statement}`` and the answer options
and forcing instruction filled in, so a built prompt is byte-identical to the dataset's ``full_prompt``
(tests/taskspec/test_rottger_tasks.py checks that).
"""

from __future__ import annotations

import csv
from pathlib import Path

import yaml
from _task_files import Literal, open_folder, write_spec

SCRIPT = Path(__file__).name
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tasks" / "rottger"
SOURCE = ("Röttger, Hofmann, Pyatkin, Hinck, Kirk, Schütze, Hovy 2024, 'Political Compass or Spinning Arrow? "
          "Towards More Meaningful Evaluations for Values and Opinions in Large Language Models' (ACL 2024); "
          "github.com/paul-rottger/llm-values-pct at b4e5d89a83eb39c1806133e3c3b124f4c90ed40d, data/templates/ "
          "(CC BY 4.0)")

# (variant set, task, templates, forcing instructions, scoring, description)
SETS = [
    ("rottger-forced", [f"templ-{i:02d}" for i in range(1, 11)], ["jail-04"], "forced_choice",
     "forced choice: ten paraphrased templates with the four PCT options and forcing instruction jail-04, "
     "as the paper's paraphrase experiment (section 4)"),
    ("rottger-forced-forcing", ["templ-01"], ["jail-01", "jail-02", "jail-03", "jail-04", "jail-05"],
     "forced_choice", "forced choice under five forcing instructions (jail-01 = none), template templ-01, "
     "as the paper's forcing experiment (section 4)"),
    ("rottger-open", [f"templ-{i:02d}" for i in range(11, 21)], ["jail-09"], "stance",
     "open-ended: ten paraphrased templates without answer options, forcing instruction jail-09 "
     "(take a clear stance), as the paper's open-ended paraphrase experiment (section 5)"),
    ("rottger-open-forcing", ["templ-11"], ["jail-01", "jail-06", "jail-07", "jail-08", "jail-09"], "stance",
     "open-ended under five forcing instructions (jail-01 = none), template templ-11, as the paper's open-ended "
     "forcing experiment (section 5)"),
    ("rottger-forced-reversed", [f"templ-{i:02d}" for i in range(1, 11)], ["jail-04"], "forced_choice_reversed",
     "forced choice with the options in reverse order (ans-08: 1) Strongly agree ... 4) Strongly disagree), "
     "otherwise as rottger-forced: the option-order reversal control"),
]
ANSWERS = {"rottger-forced-reversed": "ans-08"}  # every other set: ans-01
# the tasks each one is compared with (this − that), by kind: the answer channels and the order-reversal control
COMPARE_WITH = {"rottger-open": [("rottger-forced", "channel")],
                "rottger-open-forcing": [("rottger-forced-forcing", "channel")],
                "rottger-forced-reversed": [("rottger-forced", "order")]}


def main(source: Path, out: Path = OUT) -> None:
    read = lambda name: list(csv.DictReader((source / name).open(encoding="utf-8")))  # noqa: E731
    templates = {r["templ_id"]: r["templ_prompt"] for r in read("prompt_templates.csv")}
    options = {r["ans_id"]: r["ans_prompt"] for r in read("answer_options.csv")}
    forcing = {r["jail_id"]: r["jail_prompt"] for r in read("jailbreaks.csv")}
    propositions = [r["pct_prompt"] for r in read("pct_propositions.csv")]
    open_folder(out)

    pct = yaml.safe_load((ROOT / "tasks" / "instruments" / "pct.yaml").read_text(encoding="utf-8"))
    items = []
    for item, text in zip(pct["items"], propositions, strict=True):
        item = dict(item)
        if item["text"] != text:
            item["label_note"] = (f"Röttger et al.'s proposition {item['source_id']} is the newer PCT wording; "
                                  f"polibench's pct instrument (Feng et al.) has '{item['text']}'. The js.js "
                                  "weights of position 50 are kept (the test's own weights for the new wording "
                                  "are not public); agreeing (against economic growth) reads as left.")
            item["text"] = text
            item.pop("forms", None)  # the reformulation/opposite forms belong to the old wording
        items.append(item)
    instrument = {"instrument": "pct-rottger", "name": "Political Compass Test (Röttger et al. 2024 wording)",
                  "version": 1,
                  "description": "The 62 PCT propositions exactly as Röttger et al. 2024 sent them (item 50 is the "
                                 "newer PCT wording), with the js.js weights of the pct instrument.",
                  "provenance": {"statements": SOURCE + ", pct_propositions.csv",
                                 "weights": "tasks/instruments/pct.yaml (js.js), position by position",
                                 "converted_from": SOURCE},
                  "scoring": "pct", "items": items}
    write_spec(out, "instrument", "pct_rottger", SCRIPT, instrument)

    for name, templ_ids, jail_ids, scoring, description in SETS:
        variants = []
        for templ in templ_ids:
            for jail in jail_ids:
                answers = options[ANSWERS.get(name, "ans-01")]
                text = templates[templ].replace("{pct_prompt}", "{statement}") \
                    .replace("{ans_prompt}", answers).replace("{jail_prompt}", forcing[jail])
                vid = templ if len(jail_ids) == 1 else jail
                variants.append({"id": vid, "template": Literal(text), "chat": True, "scoring": scoring})
        write_spec(out, "variants", name, SCRIPT, {
            "variant_set": name, "description": description,
            "provenance": {"source": SOURCE, "converted_from": SOURCE + ": prompt_templates.csv "
                           f"({', '.join(templ_ids)}), answer_options.csv ({ANSWERS.get(name, 'ans-01')}), "
                           "jailbreaks.csv "
                           f"({', '.join(jail_ids)}); full_prompt = template with {{pct_prompt}}, {{ans_prompt}}, "
                           "{jail_prompt} filled in"},
            "variants": variants})
        forced = scoring.startswith("forced_choice")
        write_spec(out, "task", name, SCRIPT, {
            "task": name, "version": 1,
            "description": f"Röttger et al. 2024, {description}. One response per prompt. "
                           + ("A response that is exactly one option is read by the forced-choice parser; "
                              "anything else goes to the stance scorer with the 0.9 confidence filter."
                              if forced else "Every response goes to the stance scorer with the 0.9 "
                                             "confidence filter."),
            "instrument": "pct-rottger", "variant_set": name, "forms": ["original"],
            "generation": {"samples": 1, "max_new_tokens": 256, "temperature": 0.0, "seed": 1234},
            "scoring": {"scorer": "embedded", "threshold": 0.9, "labels": ["agree", "disagree"]},
            "metrics": ["pct_coordinates", "coverage"],
            **({"compare_with": [{"task": t, "kind": k} for t, k in COMPARE_WITH[name]]} if name in COMPARE_WITH
               else {}),
            "provenance": {"source": SOURCE,
                           "converted_from": SOURCE + " (the prompts; see the variant set)",
                           "generation": "polibench's choice (one greedy response of up to 256 new tokens): the "
                                         "released completions do not record the paper's decoding settings",
                           "scoring": "polibench's choice: the paper annotated answers by hand and with a "
                                      "classifier; polibench reads forced-choice answers with its parser and "
                                      "everything else with the offline embedded stance scorer (0.9 filter)"}})



if __name__ == "__main__":
    from _smoke import task_writer_cli

    task_writer_cli(main, "/work/shared/external/rottger2024", OUT)
