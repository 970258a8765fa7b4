"""CPU time (user + system, microsecond resolution from wait4) of each command in a JSON list.

Reads [{"argv": [...], "cwd": "...", "stdin": "file or null"}, ...] on standard input and prints one
JSON list of seconds, in the same order. Each command's output is discarded; a non-zero exit whose
"ok" list does not hold it is an error. The caller interleaves the commands it compares.
"""
import json
import os
import subprocess
import sys

out = []
for c in json.load(sys.stdin):
    stdin = open(c["stdin"], "rb") if c.get("stdin") else subprocess.DEVNULL
    p = subprocess.Popen(c["argv"], cwd=c.get("cwd"), stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if stdin is not subprocess.DEVNULL:
        stdin.close()
    if p.returncode not in c.get("ok", [0]):
        sys.exit(f"{c['argv']} exited {p.returncode}: {err.decode(errors='replace')}")
    out.append(usage.ru_utime + usage.ru_stime)
print(json.dumps(out))
