"""The tabs of the index page: each is a :class:`SiteTab` (its anchor, the title on its link, the heading of its
panel and its HTML), put in order by :func:`polibench.leaderboard.render.site_tabs`.

Adding a tab is one step: a metric's board declares a ``tab`` (one row per task), a run-level metric's board a
``tab`` (its blocks), a board an ``entries_tab`` (drawn from every entry and the files beside them;
polibench/leaderboard/board.py), or :func:`~polibench.leaderboard.render.site_tabs` gets one more :class:`SiteTab`.
A tab with nothing to show (no entry has what it shows) is left out, link and panel. The primary tabs (the
compass and the frontier models) come first and their links are drawn larger.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class SiteTab:
    """One tab: ``index.html#<anchor>`` opens it; ``html`` is its panel's content ("" hides the tab)."""

    anchor: str
    title: str
    heading: str
    html: str
    primary: bool = False

    @property
    def shown(self) -> bool:
        return bool(self.html and self.html.strip())


def tab_links(tabs: list[SiteTab]) -> str:
    """The navigation: one link per tab, the first one active (the script then follows the address's #tab)."""
    def classes(n: int, tab: SiteTab) -> str:
        found = [name for name, on in (("active", n == 0), ("primary", tab.primary)) if on]
        return f' class="{" ".join(found)}"' if found else ""

    return "\n    ".join(f'<a href="#{escape(t.anchor)}" role="tab" data-tab="{escape(t.anchor)}"{classes(n, t)}>'
                          f"{escape(t.title)}</a>" for n, t in enumerate(tabs))


def tab_panels(tabs: list[SiteTab]) -> str:
    """One ``section.tab-panel`` per tab, the first one active."""
    return "\n".join(f'<section id="{escape(t.anchor)}" class="tab-panel{" active" if n == 0 else ""}">\n'
                     f"  <h2>{escape(t.heading)}</h2>\n  {t.html}\n</section>" for n, t in enumerate(tabs))
