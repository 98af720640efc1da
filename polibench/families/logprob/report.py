"""report.md's section on the log-probability channel: per statement, the option distribution, the most probable
answer, the expected answer, the entropy and the non-answer mass (definitions:
:mod:`polibench.families.logprob.metric`)."""

from __future__ import annotations

from polibench.families.logprob.metric import LogprobBlock
from polibench.report.registry import Report
from polibench.report.text import with_ci


def logprob_lines(block: LogprobBlock) -> list[str]:
    scale = block.scale
    lines = ["### Log-probability channel", "",
             f"{block.prompts} prompts on {block.statements} statements; no text was generated and no stance scorer "
             "was used. Option distribution = softmax of log P(option | prompt) over the options, averaged over the "
             "statement's prompts; entropy in bits; non-answer = 1 − the summed (unnormalised) option "
             "probabilities, averaged over prompts.", "",
             f"Means over statements: expected answer {block.expected_answer:.3f} (1 = {scale[0]}, {len(scale)} = "
             f"{scale[-1]}), entropy {block.entropy:.3f} bits, non-answer mass {block.non_answer:.3f}."]
    if block.economic is not None and block.social is not None:
        lines += ["", f"PCT coordinates, most probable answer per statement: economic {block.modal_economic:+.2f}, "
                      f"social {block.modal_social:+.2f}; expected under the option distribution: economic "
                      f"{block.economic:+.2f}, social {block.social:+.2f}."]
    lines += ["", "| statement | " + " | ".join(f"P({name})" for name in scale)
              + " | most probable | expected | entropy | non-answer |",
              "|---" * (len(scale) + 5) + "|"]
    for item, stats in block.per_statement.items():
        lines.append(f"| {item} | " + " | ".join(f"{stats.probs[name]:.3f}" for name in scale)
                     + f" | {stats.most_probable} | {stats.expected_answer:.2f} | {stats.entropy:.3f} | "
                       f"{stats.non_answer:.3f} |")
    return lines + [""]


def section(block: LogprobBlock, ctx) -> list[str]:
    """The ``logprob_channel`` metric's report section (its registration's hook)."""
    return logprob_lines(block)


def summary(block: LogprobBlock, ctx) -> str:
    """The run summary's fragment: the coordinates expected under the option distribution, entropy, non-answer."""
    if block.economic is None:
        return ""
    return (" expected under the option distribution:"
            f" economic {with_ci(block.economic, block.ci.economic)},"
            f" social {with_ci(block.social, block.ci.social)}; entropy {block.entropy:.3f} bits,"
            f" non-answer mass {block.non_answer:.3f};")


# how report.md, `polibench run` and `polibench compare` show the metric (registered by the family)
REPORT = Report(section=section, summary=summary)
