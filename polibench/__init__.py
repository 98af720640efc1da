"""polibench: measure where language models sit on the economic and social axes.

Stages, one module or subpackage each, joined by the typed record in :mod:`polibench.records`:
task specs (``taskspec``) -> model backends (``models``) -> stance scoring (``scoring``) -> metrics
(``metrics``) -> results files (``results``) -> report (``report``). :mod:`polibench.pipeline` runs them in
order, one module a stage; :mod:`polibench.cli` is the command line.
"""

__version__ = "0.1.0"
