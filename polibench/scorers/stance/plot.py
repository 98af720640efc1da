"""Macro-F1 and retained share against the confidence threshold (as Faulborn et al.'s Figure 3)."""

from __future__ import annotations

from pathlib import Path


def plot_thresholds(report: dict, stem: Path) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg``; return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["thresholds"]
    xs = [r["threshold"] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(xs, [r["macro_f1"] for r in rows], marker="o", color="tab:blue", label="macro-F1 (retained)")
    for label, style in zip(rows[0]["per_class"], (":", "--", "-.", (0, (1, 3)))):
        ax.plot(xs, [r["per_class"][label]["f1"] for r in rows], linestyle=style, linewidth=1, alpha=0.7,
                label=f"F1 {label}")
    ax.plot(xs, [r["retained_share"] for r in rows], marker="s", color="black", label="share retained")
    ax.set_xlabel("confidence threshold")
    ax.set_ylim(0, 1.02)
    ax.set_xticks(xs)
    ax.grid(alpha=0.3)
    scorer = report["scorer"].get("scorer", "?")
    ax.set_title(f"{scorer} on {Path(report['data']).name if report['data'] else 'data'} (n={report['n']})",
                 fontsize=10)
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    stem = Path(stem)
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for path in paths:
        fig.savefig(path, dpi=120)
    plt.close(fig)
    return paths
