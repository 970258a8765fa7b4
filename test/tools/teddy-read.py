#!/usr/bin/env python3
"""Reads plan.md texts with TeDDy's own parser and prints what it would run, as JSON.

Input (stdin): a JSON array of plan texts. Output (stdout): a JSON array, one entry per plan:
  {"ok": false, "error": "..."}                        TeDDy refuses the plan (nothing runs), or
  {"ok": true, "actions": [{"type", "description", "params"}]}

TeDDy's parser and mistletoe are not part of this repository: their source trees are put on
PYTHONPATH by the caller (TEDDY_SRC, MISTLETOE_SRC; see test/teddy-differential.test.ts).
The text is given to the parser as TeDDy's file system adapter gives it (Path.read_text, which
turns CRLF and lone CR into LF).
"""
import json
import signal
import sys


def jsonable(value):
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items() if not k.endswith("_node")}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def read(parser, text):
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        plan = parser.parse(text)
    except Exception as e:  # InvalidPlanError and anything else: TeDDy runs nothing
        return {"ok": False, "error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]}
    actions = []
    for a in plan.actions:
        kind = a.type.value if hasattr(a.type, "value") else str(a.type)
        actions.append({"type": kind, "description": a.description, "params": jsonable(a.params)})
    return {"ok": True, "actions": actions}


def main():
    from teddy_executor.core.services.markdown_plan_parser import MarkdownPlanParser

    parser = MarkdownPlanParser()
    texts = json.load(sys.stdin)

    def timeout(_sig, _frame):
        raise TimeoutError("TeDDy's parser took more than 10 s")

    signal.signal(signal.SIGALRM, timeout)
    out = []
    for text in texts:
        signal.alarm(10)
        try:
            out.append(read(parser, text))
        except TimeoutError as e:
            out.append({"ok": False, "error": str(e)})
        finally:
            signal.alarm(0)
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
