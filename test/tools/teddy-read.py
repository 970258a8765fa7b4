#!/usr/bin/env python3
"""Reads plan.md texts with TeDDy's own parser and prints what it would run, as JSON.

Input (stdin): a JSON array of plan texts. Output (stdout): a JSON array, one entry per plan:
  {"ok": false, "error": "..."}                        TeDDy refuses the plan (nothing runs), or
  {"ok": true, "actions": [{"type", "description", "params", "opens"}]}
"opens" is the file TeDDy's file system adapter opens for the action's path (project root /teddy-root).

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


ROOT = "/teddy-root"


def opens(adapter, kind, params):
    """The file TeDDy's file system adapter would open for the action's path, under the project root ROOT."""
    path = params.get("path", params.get("resource"))
    if not isinstance(path, str) or (kind == "READ" and path.startswith("http")):
        return None
    try:
        return str(adapter._resolve_path(path))
    except Exception as e:  # TeDDy fails before opening anything
        return f"error: {type(e).__name__}"


def read(parser, text, adapter=None):
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        plan = parser.parse(text)
    except Exception as e:  # InvalidPlanError and anything else: TeDDy runs nothing
        return {"ok": False, "error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]}
    actions = []
    for a in plan.actions:
        kind = a.type.value if hasattr(a.type, "value") else str(a.type)
        action = {"type": kind, "description": a.description, "params": jsonable(a.params)}
        if adapter is not None:
            target = opens(adapter, kind, a.params)
            if target is not None:
                action["opens"] = target
        actions.append(action)
    return {"ok": True, "actions": actions}


def main():
    from teddy_executor.core.services.markdown_plan_parser import MarkdownPlanParser

    from teddy_executor.adapters.outbound.local_file_system_adapter import LocalFileSystemAdapter

    parser = MarkdownPlanParser()
    # The adapter TeDDy opens files with, rooted at a folder that does not exist (nothing is touched).
    adapter = LocalFileSystemAdapter(edit_simulator=None, root_dir=ROOT)
    texts = json.load(sys.stdin)

    def timeout(_sig, _frame):
        raise TimeoutError("TeDDy's parser took more than 10 s")

    signal.signal(signal.SIGALRM, timeout)
    out = []
    for text in texts:
        signal.alarm(10)
        try:
            out.append(read(parser, text, adapter))
        except TimeoutError as e:
            out.append({"ok": False, "error": str(e)})
        finally:
            signal.alarm(0)
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
