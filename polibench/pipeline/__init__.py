"""The run pipeline, one module a stage, in run order:

1. ``plan``: the tasks of a run and their samples (prompts, per-sample seeds), and the run options;
2. ``preflight``: everything that can fail before the first model call;
3. ``respond``: responses from a backend, from a finished run, or (``import_file``) from an import file;
4. ``score``: a stance for every response;
5. ``compute``: the numbers, by the metric registry;
6. ``write``: samples.jsonl, results.json, report.md.

``run`` wires them together (:func:`polibench.pipeline.run.run_pipeline`); ``polibench run``, ``import`` and
``score --scorer`` are thin commands over it.
"""
