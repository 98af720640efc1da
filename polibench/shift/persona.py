"""The persona control: does the measurement see a leaning the model was told to have?

A persona task (``tasks/persona_control.yaml``) asks every statement under three prompt variants: an
explicitly left-leaning persona, an explicitly right-leaning persona and a neutral prompt. Within one run the
three answer the same statements, so their differences are paired (:mod:`polibench.shift.paired`): the
*separation* is the right persona's position minus the left persona's (positive = the right persona measured
further right; PCT economic, PCT social where the right persona is also the authoritarian one, Faulborn's
bias). Each persona is also compared with the neutral prompt.

The verdict tests the separations together. Each of the (usually 5) separations, PCT economic and social and
Faulborn's bias economic, social and total, has a sign-flip p-value; the p-values are corrected for the number
of separations tested with Holm's step-down method (:func:`holm`; family-wise error 0.05). The personas
**separate** when at least one separation is significant after the correction and positive; **separate the
wrong way** when one is significant and negative and none positive; otherwise they **do not separate**, and
the measurement cannot see, at this sample size, a difference the model was told to have. The intervals shown
are each separation's own 95% interval (not corrected).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from polibench.errors import PolibenchError
from polibench.results.folder import RunFolder
from polibench.seeding import derive_seed
from polibench.shift.compute import labels_for, load_run
from polibench.shift.paired import PairedEstimate, paired_estimates

FAMILY_ALPHA = 0.05
DEFAULT_VARIANTS = {"left": "persona-left", "right": "persona-right", "neutral": "neutral"}
PAIRS = (("left", "right"), ("neutral", "left"), ("neutral", "right"))


@dataclass
class PersonaReport:
    run: str
    task: str
    items: int
    pairs: dict[str, list[PairedEstimate]] = field(default_factory=dict)  # "right - left", ...
    separation_p_holm: list[Optional[float]] = field(default_factory=list)  # Holm-adjusted, as pairs["right - left"]
    verdict: str = ""

    def as_dict(self) -> dict:
        return {"run": self.run, "task": self.task, "items": self.items, "verdict": self.verdict,
                "pairs": {k: [e.as_dict() for e in v] for k, v in self.pairs.items()},
                "separation_p_holm": self.separation_p_holm, "family_alpha": FAMILY_ALPHA}


def holm(p_values: Sequence[Optional[float]]) -> list[Optional[float]]:
    """Holm's step-down adjusted p-values (None stays None and is not counted): the k-th smallest of m p-values
    becomes max over j <= k of min(1, (m - j + 1) p_(j))."""
    present = sorted((p, n) for n, p in enumerate(p_values) if p is not None)
    m = len(present)
    out: list[Optional[float]] = [None] * len(p_values)
    running = 0.0
    for rank, (p, n) in enumerate(present):
        running = max(running, min(1.0, (m - rank) * p))
        out[n] = running
    return out


def verdict(separation: Sequence[PairedEstimate], alpha: float = FAMILY_ALPHA) -> str:
    adjusted = holm([e.p_value for e in separation])
    significant = [(e, p) for e, p in zip(separation, adjusted) if p is not None and p < alpha and e.shift]
    above = [(e, p) for e, p in significant if e.shift is not None and e.shift > 0]
    below = [(e, p) for e, p in significant if e.shift is not None and e.shift < 0]
    tested = sum(p is not None for p in adjusted)
    named = lambda found: ", ".join(f"{e.metric} {e.axis} (Holm p = {p:.4g})" for e, p in found)  # noqa: E731
    if above:
        return (f"the personas separate: right persona measured right of the left persona on {named(above)}, "
                f"Holm-corrected for {tested} separations")
    if below:
        return (f"the personas separate the WRONG way: right persona measured left of the left persona on "
                f"{named(below)}, Holm-corrected for {tested} separations")
    return (f"the personas do NOT separate: no separation is significant at {alpha} after Holm's correction for "
            f"{tested} separations, so the measurement cannot see the difference the model was told to have")


def persona_report(run: RunFolder, task: str, variants: dict[str, str], resamples: int, permutations: int,
                   seed: int) -> PersonaReport:
    samples = run.task_samples(task)
    by_role = {role: [s for s in samples if s.variant == name] for role, name in variants.items()}
    absent = [f"{role} ('{variants[role]}')" for role, found in by_role.items() if not found]
    if absent:
        present = sorted({s.variant for s in samples})
        raise PolibenchError(f"{run.path}: task '{task}' has no responses under the {', '.join(absent)} "
                             f"variant(s); its variants: {', '.join(present)} (set them with --left/--right/"
                             f"--neutral)")
    instruments = run.document.task_instruments()
    report = PersonaReport(run=run.label, task=task, items=len({(s.instrument, s.item_id) for s in samples}))
    for a, b in PAIRS:
        report.pairs[f"{b} - {a}"] = paired_estimates(by_role[a], by_role[b], instruments, resamples=resamples,
                                                      permutations=permutations,
                                                      seed=derive_seed(seed, task, "persona", a, b))
    report.separation_p_holm = holm([e.p_value for e in report.pairs["right - left"]])
    report.verdict = verdict(report.pairs["right - left"])
    return report


def persona_reports(paths: Sequence[Path], tasks: Optional[Sequence[str]] = None,
                    variants: Optional[dict[str, str]] = None, labels: Optional[Sequence[str]] = None,
                    resamples: int = 10_000, permutations: int = 10_000, seed: int = 0) -> list[PersonaReport]:
    variants = {**DEFAULT_VARIANTS, **(variants or {})}
    runs = [load_run(p) for p in paths]
    for run, label in zip(runs, labels_for(runs, labels)):
        run.label = label
    out = []
    for run in runs:
        names = list(tasks) if tasks else [t for t in run.document.results
                                           if {s.variant for s in run.task_samples(t)} >= set(variants.values())]
        if not names:
            raise PolibenchError(f"{run.path}: no task with the variants {', '.join(variants.values())} (run the "
                                 f"persona-control task, or name the variants with --left/--right/--neutral)")
        out.extend(persona_report(run, task, variants, resamples, permutations, seed) for task in names)
    return out
