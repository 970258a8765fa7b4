# scQC's stored-plan checks (_validate_and_load_plan), run over many files in one process,
# as the baseline plangate is compared with.
import hashlib, json, sys, time
from datetime import datetime, timedelta
from pathlib import Path

def validate(path, tools):
    plan_file = Path(path)
    if not plan_file.exists():
        return {"error": f"Plan file not found: {path}"}
    try:
        with open(plan_file) as f:
            plan_data = json.load(f)
    except json.JSONDecodeError as e:
        return {"error": f"Failed to parse plan file: {e}"}
    if isinstance(plan_data, dict) and "plan" in plan_data:
        plan = plan_data["plan"]
        metadata = plan_data
        if metadata.get("checksum"):
            computed = hashlib.sha256(json.dumps(plan, sort_keys=True).encode()).hexdigest()
            if computed != metadata["checksum"]:
                return {"error": "Plan integrity check failed: checksum mismatch"}
        if metadata.get("created_at"):
            age = datetime.now() - datetime.fromisoformat(metadata["created_at"])
            if age > timedelta(days=30):
                metadata["age_warning"] = f"Plan is {age.days} days old"
    elif isinstance(plan_data, list):
        plan = plan_data
    else:
        return {"error": "Invalid plan format"}
    if not isinstance(plan, list):
        return {"error": "Plan must be a list"}
    if len(plan) == 0:
        return {"error": "Plan is empty"}
    for i, step in enumerate(plan):
        if not isinstance(step, dict):
            return {"error": f"Step {i} is not a dictionary"}
        if "tool" not in step:
            return {"error": f"Step {i} missing required 'tool' field"}
        if step["tool"] not in tools:
            return {"error": f"Step {i}: Unknown tool '{step['tool']}'"}
    return {"ok": True}

tools = set(l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#"))
files = sys.argv[2:]
t0 = time.perf_counter()
bad = sum(1 for f in files if "error" in validate(f, tools))
print(json.dumps({"seconds": time.perf_counter() - t0, "errors": bad}))
