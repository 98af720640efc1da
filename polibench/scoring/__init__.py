"""Stance scoring: the Likert parser, the scorer interface and its implementations, the scoring stage."""
