"""``decide``: run the decision model under audit over every variant of a corpus or grid.

One contract (:class:`~guisekit.decide.model.DecisionModel`) with three implementations:
a chat model through the shared cached runner, a Python callable, an HTTP endpoint.
"""

from guisekit.decide.model import (
    CallableDecisionModel,
    Decision,
    DecisionItem,
    DecisionModel,
    HttpDecisionModel,
    load_callable,
)
from guisekit.decide.run import decision_rows, health, option_orders, plan_items, run_decisions
from guisekit.decide.tasks import DecisionTask, LabelOption, load_task, task_names

__all__ = [
    "CallableDecisionModel",
    "Decision",
    "DecisionItem",
    "DecisionModel",
    "DecisionTask",
    "HttpDecisionModel",
    "LabelOption",
    "decision_rows",
    "health",
    "load_callable",
    "load_task",
    "option_orders",
    "plan_items",
    "run_decisions",
    "task_names",
]
