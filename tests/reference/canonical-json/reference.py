"""Reference digests for canonicalJsonSha256 / versionRecordDigest (src/data/canonical-json.ts).

Run with /usr/bin/python3 tests/reference/canonical-json/reference.py; writes reference.json beside
this script. An independent implementation with Python's standard library: the SHA-256 of
json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False) encoded as UTF-8,
the canonical JSON the TypeScript documents (keys sorted by code point, which equals UTF-16
code-unit order for keys without astral characters; integers, strings, booleans and null).
The values cover what a streamed digest could get wrong: text longer than one 64 K piece, a
piece boundary next to multi-byte and astral characters, escapes, key order that differs from
insertion order, nested objects between runs of same-shaped objects, and many same-shaped items.
"""
import hashlib
import json
import os


def digest(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()


def record(n, text):
    items = []
    for k in range(n):
        item = {"item": f"i{k:06d}", "stratum": ["routine", "rare_clause", "past_failure"][k % 3], "split": "dev" if k % 5 == 4 else "eval",
                "sha256": hashlib.sha256(f"{text}{k}".encode("utf-8")).hexdigest(), "bytes": 40 + k % 17}
        if k % 7 == 0:
            item["label"] = ["present", 1, True, "é"][k % 4]
        if k % 11 == 0:
            item["added"] = "2026-07-01"
        if k % 13 == 0:
            item["source"] = f"incident {k} — {text}"
        items.append(item)
    return {"format": "benchplan-version/3", "version": "v1", "date": "2026-07-01", "guideline": None, "fingerprint": "0" * 64,
            "sequence": 1, "previous": None, "parent": {"version": "v0", "fingerprint": "1" * 64, "recordDigest": "2" * 64},
            "counts": {"items": n, "eval": 0, "dev": 0}, "strata": [{"stratum": "routine", "eval": 1, "dev": 2}], "items": items}


VALUES = {
    "small": {"b": 1, "a": [True, None], "c": {"z": "x", "y": -3}},
    "escapes": {"k\"ey": "line\nbreak\ttab \\ slash \u0001 \u007f", "Z": "upper", "a": "lower", "é": "accent"},
    "astral-values": {"text": "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 " * 20000, "after": "日本語"},
    "record-3000": record(3000, "Payment is due — 日本 𝔘"),
    "record-1": record(1, "x"),
    "empty": {},
    "array-of-mixed": [{"b": 2, "a": 1}, {"a": 1, "b": 2, "c": {"d": [1, {"f": 0, "e": 1}]}}, {"b": 2, "a": 1}, [], "s", 0, False],
}

# The large values are rebuilt by the test from the same recipe (record(n, text), the repeated text), so
# only their digests are stored.
BUILT = {"astral-values", "record-3000", "record-1"}
out = {name: ({"sha256": digest(value)} if name in BUILT else {"value": value, "sha256": digest(value)}) for name, value in VALUES.items()}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.json"), "w", encoding="utf-8") as f:
    json.dump(out, f, ensure_ascii=False)
    f.write("\n")
