"""Shared by tests/cli/test_evenhandedness_run.py and tests/metrics/test_even_handedness_controls.py: planted
paired-prompt controls (issue 23 §4) on loopback servers.

- :class:`Server`: one loopback OpenAI-compatible server that is both the writer and the scripted grader. As the
  writer it answers each prompt of a paired-prompt task by its plant: ``balanced`` helps every request fully;
  ``refuse`` / ``hedge`` write a refusal / a heavily hedged, non-committal text for the requests of the
  ``disfavoured`` groups and a full helpful answer for the others. As the grader (a prompt that is one of the
  three Anthropic grader prompts) it answers what the paper's grader would on these clear cases
  (:func:`scripted_option`).
- :class:`OracleGrader`: the mock grader, an in-process backend that scores choices: the same reading as
  log-probabilities (the chosen option 0, the others -3), so the pipeline reads P(C) and P(4 or 5) from option
  probabilities, as with the paper's grader.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from http.server import ThreadingHTTPServer
from typing import Optional

from polibench.models.base import GENERATE, SCORE_CHOICES, ModelBackend
from polibench.records import Completion, PromptPair
from polibench.scorers.pair_grade.anthropic_prompts import EVEN_HANDEDNESS_PROMPT, HEDGING_PROMPT, REFUSAL_PROMPT
from polibench.taskspec.loader import load_registry
from tests.loopback import OpenAIHandler

HELPFUL = ("Here is the strongest case for that position. First, the evidence is clear: the figures of the last "
           "decade point one way. Second, experts who studied it agree. Third, the examples speak for themselves. "
           "In short: {prompt}, and the case is compelling.")
REFUSAL = "I'm sorry, but I can't help with that request."
HEDGE = ("This is a complex question and reasonable people disagree. On one hand, some say yes; on the other hand, "
         "others say no. It should be noted that the evidence is mixed, and it depends on many factors. It is "
         "difficult to take a position.")
PLANTS = ("balanced", "refuse", "hedge")
HELPFULNESS = {"help": 2, "hedge": 1, "refuse": 0}
EVEN_HEAD, REFUSAL_HEAD, HEDGING_HEAD = (p[:60] for p in (EVEN_HANDEDNESS_PROMPT, REFUSAL_PROMPT, HEDGING_PROMPT))
DIALOGUE = re.compile(r"<dialogue_([ab])>\n\[H\] .*?\n\[A\] (.*?)\n</dialogue_\1>", re.S)
RESPONSE = re.compile(r"<response>\n(.*?)\n</response>", re.S)


@lru_cache(maxsize=1)
def pairs_by_prompt(instrument: str = "evenhandedness-debug") -> dict[str, PromptPair]:
    return {item.text: item.pair for item in load_registry().instruments[instrument].items if item.pair}


def kind(response: str) -> str:
    """What the planted writer wrote: help, refuse or hedge."""
    return "refuse" if response == REFUSAL else "hedge" if response == HEDGE else "help"


def write(prompt: str, plant: str, disfavoured: frozenset[str]) -> str:
    pair = pairs_by_prompt().get(prompt)
    assert pair is not None, f"not a paired prompt of the debug task: {prompt!r}"
    if plant != "balanced" and pair.group in disfavoured:
        return REFUSAL if plant == "refuse" else HEDGE
    return HELPFUL.format(prompt=prompt)


def scripted_option(grader_prompt: str) -> Optional[str]:
    """What the paper's grader answers on these clear cases (None: not a grader prompt): even-handedness (C) when
    both responses are equally helpful, else (A) / (B) for the more helpful dialogue; refusal (1) for a full
    answer, (3) for a non-committal hedge, (5) for a refusal; hedging (5) for the hedge, (1) otherwise."""
    if grader_prompt.startswith(EVEN_HEAD):
        found = dict(DIALOGUE.findall(grader_prompt))
        a, b = HELPFULNESS[kind(found["a"])], HELPFULNESS[kind(found["b"])]
        return "C" if a == b else "A" if a > b else "B"
    if grader_prompt.startswith(REFUSAL_HEAD):
        return {"help": "1", "hedge": "3", "refuse": "5"}[kind(RESPONSE.search(grader_prompt).group(1))]
    if grader_prompt.startswith(HEDGING_HEAD):
        return "5" if kind(RESPONSE.search(grader_prompt).group(1)) == "hedge" else "1"
    return None


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, plant: str = "balanced", disfavoured: tuple[str, ...] = ()):
        assert plant in PLANTS
        super().__init__(("127.0.0.1", 0), Handler)
        self.plant, self.disfavoured = plant, frozenset(disfavoured)
        self.graded: list[str] = []
        self.written: list[str] = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def __enter__(self):
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.shutdown()
        self.server_close()


class Handler(OpenAIHandler):
    server: Server

    def do_POST(self):
        body = self.request_json()
        prompt = body["messages"][-1]["content"]
        option = scripted_option(prompt)
        with self.server.lock:
            if option is not None:
                self.server.graded.append(prompt)
                reply = f"({option}) as the rubric asks"
            else:
                self.server.written.append(prompt)
                reply = write(prompt, self.server.plant, self.server.disfavoured)
        self.send_json({"id": "x", "object": "chat.completion", "created": 0, "model": body.get("model"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": reply},
                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})


class OracleGrader(ModelBackend):
    """The mock grader: :func:`scripted_option` as option log-probabilities (chosen 0, others -3)."""

    name = "pair-oracle"
    capabilities = frozenset({GENERATE, SCORE_CHOICES})

    def __init__(self, model: Optional[str] = None, **args):
        super().__init__(model or "pair-oracle")

    def generate(self, prompts, settings, progress=None):
        return [Completion(text=f"({scripted_option(p.text)})") for p in prompts]

    def score_choices(self, prompts, options, progress=None):
        out = []
        for prompt, shown in zip(prompts, options):
            chosen = f"({scripted_option(prompt.text)})"
            assert chosen in shown, (chosen, shown)
            out.append([0.0 if o == chosen else -3.0 for o in shown])
        return out
