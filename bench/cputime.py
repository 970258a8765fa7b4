"""CPU time (user + system, microsecond resolution from wait4) of each command in a JSON list.

Reads [{"argv": [...], "cwd": "...", "stdin": "file or null", "feed": "file|pipe|socket"}, ...] on
standard input and prints one JSON list of seconds, in the same order. "feed" says how the stdin file
reaches the command: opened as its standard input (the default), or written into a pipe or a socket
(as Node's child_process makes) that is then closed. Each command's output is discarded; a non-zero exit whose
"ok" list does not hold it is an error. The caller interleaves the commands it compares.
"""
import json
import os
import socket
import subprocess
import sys

out = []
for c in json.load(sys.stdin):
    feed = c.get("feed", "file")
    writer = None
    if not c.get("stdin"):
        stdin = subprocess.DEVNULL
    elif feed == "file":
        stdin = open(c["stdin"], "rb")
    elif feed == "socket":
        writer, stdin = socket.socketpair()
    else:
        r, w = os.pipe()
        stdin, writer = os.fdopen(r, "rb"), os.fdopen(w, "wb")
    p = subprocess.Popen(c["argv"], cwd=c.get("cwd"), stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if writer is not None:
        stdin.close()
        data = open(c["stdin"], "rb").read()
        if feed == "socket":
            writer.sendall(data)
        else:
            writer.write(data)
        writer.close()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if stdin is not subprocess.DEVNULL and writer is None:
        stdin.close()
    if p.returncode not in c.get("ok", [0]):
        sys.exit(f"{c['argv']} exited {p.returncode}: {err.decode(errors='replace')}")
    out.append(usage.ru_utime + usage.ru_stime)
print(json.dumps(out))
