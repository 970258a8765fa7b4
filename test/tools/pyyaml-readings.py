#!/usr/bin/env python3
"""Reads a JSON array of YAML texts on stdin and prints, for each, how PyYAML's safe loader reads it:
the text UTF-8 encoded and given to yaml.safe_load, the result written as typed JSON so that plangate's
reading can be compared with it exactly (test/yaml-pyyaml.differential.test.ts):

    null, true, false, "string"       as such
    {"int": "493"}, {"float": "1.0"}  Python int (decimal digits) and float (repr)
    [ ... ]                           a list
    {"map": [[key, value], ...]}      a dict, keys typed like values, in insertion order
    {"other": "date"}                 any other Python type (dates, bytes, sets, recursive lists)
    {"error": "ScannerError"}         safe_load raised

    python3 test/tools/pyyaml-readings.py < texts.json > readings.json
"""

import json
import sys

import yaml


def typed(value, seen=()):
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return {"int": str(value)}
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, str):
        return value
    if id(value) in seen:
        return {"other": "recursive"}
    if isinstance(value, list):
        return [typed(v, seen + (id(value),)) for v in value]
    if isinstance(value, dict):
        return {"map": [[typed(k, seen), typed(v, seen + (id(value),))] for k, v in value.items()]}
    return {"other": type(value).__name__}


def read(text):
    try:
        return typed(yaml.safe_load(text.encode("utf-8", "surrogatepass")))
    except RecursionError:
        return {"error": "RecursionError"}
    except Exception as e:  # the reading is the error's class: safe_load refused the text
        return {"error": type(e).__name__}


def main():
    texts = json.load(sys.stdin)
    json.dump({"pyyaml": yaml.__version__, "readings": [read(t) for t in texts]}, sys.stdout)


if __name__ == "__main__":
    main()
