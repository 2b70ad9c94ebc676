"""Reference values for tests/rotation (run with /usr/bin/python3 tests/reference/rotation/reference.py).

An independent implementation of the documented formulas, in Python's standard library and numpy:
- the benchmark fingerprint: sha256 over the canonical text (src/rotation/fingerprint.ts);
- word-shingle Jaccard similarity (src/rotation/leakage.ts);
- the saturation trend: least-squares line through (day, share), numpy.polyfit(deg=1), and the
  day it reaches the threshold (src/rotation/saturation.ts).
Writes reference.json beside this script.
"""
import datetime
import hashlib
import json
import math
import os
import re
import unicodedata

import numpy as np

# ---------------------------------------------------------------- fingerprint
ITEMS = [
    {"item": "b2", "stratum": "routine", "split": "eval", "label": "present", "text": "Payment is due within 30 days."},
    {"item": "a1", "stratum": "rare_clause", "split": "dev", "label": 1, "text": "Upon a change of control — the Licensee may terminate."},
    {"item": "c3", "stratum": "negative_control", "split": "eval", "text": "Governed by the laws of England and Wales."},
    {"item": "B0", "stratum": "routine", "split": "eval", "label": True, "text": "Invoices accrue interest at 4 percent."},
]
GUIDELINE = "2026.2"


def canonical(items, guideline):
    lines = ["benchplan-fingerprint/1", "guideline " + json.dumps(guideline, ensure_ascii=False)]
    for x in sorted(items, key=lambda x: x["item"]):
        sha = hashlib.sha256(x["text"].encode("utf-8")).hexdigest()
        lines.append(json.dumps([x["item"], x["stratum"], x["split"], x.get("label"), sha], ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines)


fingerprint = hashlib.sha256(canonical(ITEMS, GUIDELINE).encode("utf-8")).hexdigest()
fingerprint_no_guideline = hashlib.sha256(canonical(ITEMS, None).encode("utf-8")).hexdigest()

# ---------------------------------------------------------------- shingles
def words(text):
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[^\w]+|_", " ", text).strip()  # letters and digits (Python's \w also has "_": removed)
    return text.split() if text else []


def shingles(text, k=3):
    w = words(text)
    if not w:
        return set()
    if len(w) < k:
        return {" ".join(w)}
    return {" ".join(w[i:i + k]) for i in range(len(w) - k + 1)}


PAIRS = [
    ("Notwithstanding clause 12, the liability of the Supplier for indirect loss is capped at 5 percent of the fees.",
     "Notwithstanding clause 12, the liability of the Supplier for indirect loss is capped at 5 percent of the fees, as amended."),
    ("Payment is due in full within 51 days after the invoice date.", "Payment is due in full within 44 days after the invoice date."),
    ("The Client shall pay each invoice within 66 days of receipt.", "the CLIENT shall pay — each invoice within 66 days of receipt"),
]
jaccard = []
for a, b in PAIRS:
    sa, sb = shingles(a), shingles(b)
    jaccard.append({"a": a, "b": b, "jaccard": len(sa & sb) / len(sa | sb)})

# ---------------------------------------------------------------- saturation trend
DATES = ["2026-01-01", "2026-04-01", "2026-07-01", "2026-10-01"]
SHARES = [0.40, 0.45, 0.55, 0.60]
THRESHOLD = 0.8
epoch = datetime.date(1970, 1, 1)
days = np.array([(datetime.date.fromisoformat(d) - epoch).days for d in DATES], dtype=float)
slope, intercept = np.polyfit(days, np.array(SHARES), 1)
crossing = (THRESHOLD - intercept) / slope
crossing_date = (epoch + datetime.timedelta(days=math.ceil(crossing))).isoformat()

out = {
    "fingerprint": {"items": ITEMS, "guideline": GUIDELINE, "fingerprint": fingerprint, "fingerprintWithoutGuideline": fingerprint_no_guideline},
    "jaccard": jaccard,
    "trend": {"dates": DATES, "shares": SHARES, "threshold": THRESHOLD, "slopePerDay": slope, "slopePerYear": slope * 365.25, "crossingDay": crossing, "saturatesOn": crossing_date},
}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.json"), "w") as f:
    json.dump(out, f, indent=2, ensure_ascii=False)
    f.write("\n")
print(json.dumps(out["trend"], indent=2))
