"""iKOMA's plan models as iKOMA's contract describes them (Pydantic v2), timed with model_validate_json.

Usage: python3 bench/ikoma_models.py PLAN.json TOOLS.txt ITERATIONS
Prints one JSON line: {"pydantic": VERSION, "ns_per_plan": N}.
"""
import json
import sys
import time

import pydantic
from pydantic import BaseModel, ConfigDict, Field, field_validator

TOOL_NAMES: set[str] = set()


class PlanStep(BaseModel):
    step: int = Field(..., ge=1, description="Step number (1-based)")
    tool_name: str = Field(..., description="Name of the tool to execute")
    args: dict = Field(..., description="Arguments for the tool")
    description: str = Field(..., description="Human-readable description of what this step accomplishes")
    citations: list[int] | None = Field(default=None, description="Optional citation IDs for this step")

    @field_validator("tool_name")
    @classmethod
    def tool_exists(cls, v: str) -> str:
        if v not in TOOL_NAMES:
            raise ValueError(f"Tool '{v}' not found. Available tools: {sorted(TOOL_NAMES)}")
        return v

    @field_validator("citations")
    @classmethod
    def citations_positive(cls, v):
        if v is not None:
            for c in v:
                if c < 1:
                    raise ValueError(f"Citation ID must be a positive integer, got {c}")
        return v


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")
    plan: list[PlanStep] = Field(..., min_length=1, description="List of plan steps")
    reasoning: str = Field(..., description="Explanation of why this plan will achieve the goal")


def main() -> None:
    plan_file, tools_file, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3])
    TOOL_NAMES.update(line.strip() for line in open(tools_file) if line.strip() and not line.startswith("#"))
    text = open(plan_file).read()
    Plan.model_validate_json(text)  # must be valid, and warms up
    for _ in range(min(200, iterations)):
        Plan.model_validate_json(text)
    # CPU time of this process, in rounds: the median round stands, as on the Node side.
    rounds = []
    per_round = max(1, iterations // 15)
    for _ in range(15):
        start = time.process_time_ns()
        for _ in range(per_round):
            Plan.model_validate_json(text)
        rounds.append((time.process_time_ns() - start) / per_round)
    rounds.sort()
    print(json.dumps({"pydantic": pydantic.VERSION, "ns_per_plan": rounds[len(rounds) // 2]}))


if __name__ == "__main__":
    main()
