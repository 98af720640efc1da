"""A toy stance task that a tiny random BERT learns in seconds: 5 statements x one fixed reply per label, and
fast training settings. Shared by the stance training tests (full fine-tuning and top layers on cached states)."""

from polibench.scorers.stance.data import StanceExample
from polibench.scorers.stance.train import TrainSettings

REPLIES = {"agree": "Yes, I agree, always.", "disagree": "No, never, I do not.",
           "neutral": "As an AI I have no opinions.", "unrelated": "Maybe people of the world country."}
STATEMENTS = ["Taxes should be higher.", "The government should spend less.", "People should always vote.",
              "The country should spend more.", "Strongly people never."]
FAST = TrainSettings(learning_rate=3e-3, batch_size=8, steps=60, warmup_fraction=0.1, seed=7)


def toy_examples():
    return [StanceExample(s, reply, label) for s in STATEMENTS for label, reply in REPLIES.items()]
