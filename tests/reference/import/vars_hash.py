"""Reference ids for promptfoo tests matched by vars (benchplan import --item-key vars).

id = "v:" + sha256(json.dumps(vars without _* and sessionId keys, sort_keys=True,
separators=(",", ":"), ensure_ascii=False)).hexdigest()[:12]

Run: /usr/bin/python3 tests/reference/import/vars_hash.py > tests/reference/import/vars_hash.json
"""
import hashlib
import json

CASES = [
    {"question": "Who may terminate?", "doc": "msa-7"},
    {"doc": "msa-7", "question": "What is the notice period?", "sessionId": "run-4f", "_conversation": []},
    {"clause": "indemnity", "contract": "doc-01"},
    {"nested": {"b": [1, 2, {"z": None, "a": True}], "a": "é ü 中"}, "n": 3},
]


def item_id(v):
    kept = {k: x for k, x in v.items() if not k.startswith("_") and k != "sessionId"}
    text = json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "v:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


print(json.dumps([{"vars": v, "id": item_id(v)} for v in CASES], indent=2, ensure_ascii=False))
