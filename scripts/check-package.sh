#!/usr/bin/env bash
# Packs plangate as it would be published, installs the tarball into a temporary prefix (dependencies come
# from the configured npm registry), and runs the installed command: its version, and a validation of a
# valid and an invalid example (exit 0 and 1).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
npm run build --silent
npm pack --silent --pack-destination "$tmp" >/dev/null
tarball=("$tmp"/plangate-*.tgz)
npm install --global --prefix "$tmp/prefix" --no-audit --no-fund --loglevel=error "${tarball[0]}" >/dev/null
bin="$tmp/prefix/bin/plangate"
want="$(node -p 'require("./package.json").version')"
got="$("$bin" --version)"
if [ "$got" != "$want" ]; then echo "installed plangate --version says $got, expected $want" >&2; exit 1; fi
"$bin" validate examples/intake.valid.json --policy examples/plangate.yaml >/dev/null
status=0
"$bin" validate examples/intake.invalid.json --policy examples/plangate.yaml >/dev/null || status=$?
if [ "$status" != 1 ]; then echo "the installed plangate exited $status on an invalid plan, expected 1" >&2; exit 1; fi
# The shell grammar (vendor/) ships with the package: a command line is read by the shell parser.
printf '{"steps": [{"tool": "run_command", "intent": "list", "arguments": {"command": "ls; rm -rf build"}}]}\n' > "$tmp/command.json"
out="$("$bin" validate "$tmp/command.json" --no-policy 2>&1)" || true
if [[ "$out" != *"[multiple-tools]"* ]]; then echo "the installed plangate did not read a command line with the shell parser: $out" >&2; exit 1; fi
# The tokenizer is an optional peer dependency, not installed with the package: check-return says so.
printf '{"status": "completed", "summary": "Done.", "artifacts": []}\n' > "$tmp/return.json"
status=0
err="$("$bin" check-return "$tmp/return.json" 2>&1 >/dev/null)" || status=$?
if [ "$status" != 2 ] || [[ "$err" != *"npm install gpt-tokenizer"* ]]; then echo "check-return without gpt-tokenizer: exit $status, $err" >&2; exit 1; fi
# So is the MCP SDK: plangate mcp says how to install it.
status=0
err="$("$bin" mcp </dev/null 2>&1 >/dev/null)" || status=$?
if [ "$status" != 2 ] || [[ "$err" != *"npm install @modelcontextprotocol/sdk"* ]]; then echo "mcp without @modelcontextprotocol/sdk: exit $status, $err" >&2; exit 1; fi
echo "package: $(basename "${tarball[0]}") installs ($(du -sh "$tmp/prefix" | cut -f1) with its dependencies); plangate $got validates the examples"
