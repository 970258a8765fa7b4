#!/usr/bin/env python3
"""Writes test/fixtures/python-json-vectors.json: JSON source texts with what CPython's
json.dumps(json.loads(text), sort_keys=True) makes of them and its SHA-256 (the scQC checksum).

The texts are written here, not by json.dumps, so that number lexemes ("1.0", "1E-07", "-0",
huge integers) and string escapes (lone surrogates, controls) reach the reader as a plan author
might spell them. Deterministic: rerunning with the same Python gives the same file.

    python3 test/tools/make-python-vectors.py
"""

import hashlib
import json
import math
import os
import random
import struct
import sys

COUNT = 300
rng = random.Random(8785)

ALPHABET = (
    [chr(c) for c in range(0x20, 0x7F)] * 4
    + [chr(c) for c in range(0x00, 0x20)]
    + ["\x7f", "\x80", "\xa0", "\xe9", "\xff", "\u0100", "\u20ac", "\u2028", "\u2029", "\ufeff"]
    + ["\ue000", "\uffff", "\ufb33", "\u200b", "\u202e", "\u4e2d", "\u0416"]
    + ["\U0001f600", "\U00010000", "\U0010ffff", "\U0001d11e"]
)
ESCAPES = ['\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"]
LONE = ["\\ud800", "\\udbff", "\\udc00", "\\udfff", "\\ud83d", "\\ude00"]


def string_lexeme() -> str:
    parts = []
    for _ in range(rng.choice([0, 1, 2, 4, 8, 16])):
        r = rng.random()
        if r < 0.1:
            parts.append(rng.choice(ESCAPES))
        elif r < 0.15:
            parts.append(rng.choice(LONE))
        elif r < 0.25:
            parts.append("\\u%04x" % rng.choice([0, 0x1F, 0x7F, 0xE9, 0x20AC, 0xFFFF, rng.randrange(0x10000)]))
        elif r < 0.28:
            # A surrogate pair spelt as escapes: Python joins it into one astral character.
            cp = rng.randrange(0x10000, 0x110000) - 0x10000
            parts.append("\\u%04X\\u%04x" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)))
        else:
            ch = rng.choice(ALPHABET)
            if ch == '"' or ch == "\\":
                ch = "\\" + ch
            elif ord(ch) < 0x20:
                ch = "\\u%04x" % ord(ch)
            parts.append(ch)
    return '"' + "".join(parts) + '"'


def random_double() -> float:
    r = rng.random()
    if r < 0.3:
        (x,) = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))
        return x if math.isfinite(x) else 1.5
    if r < 0.6:
        return rng.choice([-1, 1]) * rng.random() * 10.0 ** rng.randrange(-320, 309)
    if r < 0.8:
        return float(rng.randrange(-(10**rng.randrange(1, 18)), 10**rng.randrange(1, 18)))
    return rng.choice([0.1, 0.5, 1.0, 100.0, 1e15, 1e16, 1e-4, 1e-5, 1e21, 1e22, 5e-324, 2.2250738585072014e-308,
                       1.7976931348623157e308, 9007199254740993.0, 1234567890123456.0, 0.30000000000000004])


def float_lexeme() -> str:
    x = random_double()
    forms = [repr(x), "%.17g" % x, "%.{}e".format(rng.randrange(0, 17)) % x, "%.{}E".format(rng.randrange(0, 5)) % x]
    if abs(x) < 1e17 and abs(x) >= 1e-6:
        forms.append("%.{}f".format(rng.randrange(1, 8)) % x)
    s = rng.choice(forms)
    if s in ("inf", "-inf", "nan") or "." not in s and "e" not in s.lower():
        s = repr(x)
    return s


def number_lexeme() -> str:
    r = rng.random()
    if r < 0.3:
        return str(rng.randrange(-1000, 1000))
    if r < 0.4:
        return str(rng.randrange(-(10 ** rng.randrange(15, 60)), 10 ** rng.randrange(15, 60)))
    if r < 0.45:
        return rng.choice(["-0", "0", "-0.0", "0.0", "1.0", "-1.0", "1e5", "1E5", "1e-07", "1E+2", "4.50", "2e-3",
                           "1e400", "-1e400", "1e-400", "-1e-400", "0e0", "-0E-0", "9007199254740993", "1.5e300",
                           "12345678901234567890", "100.0e0", "0.000001", "0.0000001", "123456789012345678.0"])
    return float_lexeme()


def value_lexeme(depth: int) -> str:
    r = rng.random()
    if depth < 4 and r < 0.2:
        items = [value_lexeme(depth + 1) for _ in range(rng.randrange(0, 5))]
        return "[" + ", ".join(items) + "]"
    if depth < 4 and r < 0.45:
        keys = {string_lexeme() for _ in range(rng.randrange(0, 5))}
        return "{" + ",".join("%s:%s" % (k, value_lexeme(depth + 1)) for k in sorted(keys)) + "}"
    if r < 0.7:
        return number_lexeme()
    if r < 0.9:
        return string_lexeme()
    return rng.choice(["null", "true", "false"])


def main() -> None:
    vectors = []
    seen = set()
    while len(vectors) < COUNT:
        text = value_lexeme(0 if rng.random() < 0.7 else 4)
        if text in seen:
            continue
        seen.add(text)
        # Objects keyed by lexeme may still repeat a decoded key; a reader reports those, so skip them.
        try:
            json.loads(text, object_pairs_hook=_no_duplicates)
        except ValueError:
            continue
        dumps = json.dumps(json.loads(text), sort_keys=True)
        sha = hashlib.sha256(dumps.encode("utf-8")).hexdigest()
        vectors.append({"json": text, "dumps": dumps, "sha256": sha})
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "fixtures", "python-json-vectors.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write("[\n" + ",\n".join(json.dumps(v) for v in vectors) + "\n]\n")
    print("wrote %d vectors with Python %s to %s" % (len(vectors), sys.version.split()[0], os.path.normpath(out)))


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


if __name__ == "__main__":
    main()
