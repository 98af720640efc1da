"""The small infrastructure every part of polibench shares, so that no side product keeps its own copy.

``strict`` (the pydantic base that refuses unknown fields), ``jsonl`` (the one JSON-lines reader and its
error wording), ``files`` (atomic writers), ``training`` (settings, main-process check, precision and quiet
transformers for the fine-tuning recipes) and ``registry`` (``Registry[T]``: objects of one kind by name, lazy
``"module:object"`` entries, entry points, one error for an unknown name; ``Family``, ``families()``).
The package sits below every layer but ``errors``, so any module may import it; it imports nothing of polibench
but ``errors``.
"""
