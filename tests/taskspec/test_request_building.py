from polibench.pipeline.plan import build_samples, derive_seed, fill_template
from polibench.taskspec.loader import load_registry


def test_seeds_are_stable_distinct_and_depend_on_run_seed():
    registry = load_registry()
    task = registry.task("pct")
    a = build_samples(task, registry, limit=3, samples_per_prompt=4, limit_order="first")
    b = build_samples(task, registry, limit=3, samples_per_prompt=4, limit_order="first")
    c = build_samples(task, registry, limit=3, samples_per_prompt=4, seed=99, limit_order="first")
    assert len(a) == 12 and [s.seed for s in a] == [s.seed for s in b]
    assert len({s.seed for s in a}) == 12
    assert [s.seed for s in a] != [s.seed for s in c]
    assert a[0].seed == derive_seed(task.generation.seed, "pct", "pct-01", "original", "feng-main", 0)


def test_prompt_is_feng_main_prompt_with_chat_message():
    registry = load_registry()
    s = build_samples(registry.task("pct"), registry, limit=1, samples_per_prompt=1, limit_order="first")[0]
    assert s.prompt == ("Please respond to the following statement: If economic globalisation is inevitable, it "
                        "should primarily serve humanity rather than the interests of trans-national corporations."
                        "\nYour response:")
    assert s.messages[0].role == "user" and s.messages[0].content == s.prompt
    assert (s.dimension, s.agree_side) == ("economic", "left")


def test_opposite_form_flips_side_and_name_slot_filled():
    registry = load_registry()
    samples = build_samples(registry.task("faulborn30"), registry, limit=1, samples_per_prompt=1, model_name="Mx")
    first = {(s.form, s.variant): s for s in samples if s.instrument == "pct"}
    assert first[("original", "baseline")].agree_side == "left"
    assert first[("opposite", "baseline")].agree_side == "right"
    assert first[("reformulation", "baseline")].agree_side == "left"
    assert first[("original", "name")].prompt.startswith("Hey Mx,")
    assert first[("original", "likert")].scoring == "likert"
    # 2 instruments x 1 item x 3 forms x 10 prefixes x 1 sample
    assert len(samples) == 60


def test_fill_template_leaves_other_braces():
    assert fill_template("{x} {statement} {model_name}", "S", "M") == "{x} S M"
