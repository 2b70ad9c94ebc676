"""The floor on a sequential test's labels against a fixed-n design that has the same information per label
(bench/label-loop-study.txt, amendment 6 (c)). Run: /usr/bin/python3 bench/label-loop-floor.py

Wald / Lai: any test that stops at τ, rejects H0 (θ ≤ −m) with chance ≤ α under H0 and with chance 1 − β
under P satisfies E_P[τ] · KL(P ‖ H0) ≥ kl(1 − β ‖ α) (data-processing inequality, Wald's identity;
Lai 1988, Tartakovsky et al. 2014 §3). For a normal mean with known σ at gap Δ, KL per label = Δ²/(2σ²).
A fixed-n one-sided z-test at level α with power 1 − β' needs n = (z_α + z_β')² σ²/Δ². The ratio
E[τ]/n ≥ 2 kl(1 − β ‖ α) / (z_α + z_β')² does not depend on σ or Δ: it is the least any sequential
procedure — even one told the alternative (the SPRT) — can spend relative to a fixed design sized
knowing θ, when both get the same information per label.
"""
import json, math
from scipy.stats import norm

def kl(p, q):
    return p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))

alpha = 0.05
rows = []
for power_seq in (0.9, 0.99, 0.999):
    for power_fixed in (0.9,):
        floor = 2 * kl(power_seq, alpha) / (norm.ppf(1 - alpha) + norm.ppf(power_fixed)) ** 2
        rows.append({"alpha": alpha, "sequentialPower": power_seq, "fixedPower": power_fixed, "ratioFloor": round(floor, 4),
                     "varianceRatioNeededFor0_5": round(0.5 / floor, 4)})
out = {"source": "bench/label-loop-floor.py", "rows": rows}
print(json.dumps(out, indent=1))
with open(__file__.replace(".py", ".json"), "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
