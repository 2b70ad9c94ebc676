// Amendment 6 (c): information per label. For the supplementary pools (N = 2000, m = 0.05, 0/1 scores,
// generated as bench/label-loop-study.mjs does), the variance of one label's contribution under each design:
//   select: (n_D/N)² Var(y | disagree) / 0.9   (10% of its labels audit agreeing items, which carry none)
//   compare --judge (PPI++, power-tuned λ, uniform draws): Var(y − λ g) = Var(y)(1 − corr(y, g)²)
//   the loop (one draw, sampling rule of src/label/sampling.ts with the group's residual calibration, the
//   judge recalibrated as a + b g on the disagreeing items, as calibrateJudge ends up): Σ_i π_i (Z_i − θ)².
// With the floor of bench/label-loop-floor.py (0.68 at the loop's ~100% power against a fixed design's 90%),
// the least ratio the loop could reach in a cell is about 0.68 × Var(loop) / min(Var(select), Var(PPI++)).
// drawsGaussian = log(1/α)/(Δ²/2σ²) and drawsBestBet = log(1/α)/KL_inf (the best constant bet on the actual
// contributions within their possible range): the draws a bettor told the distribution would need.
// Run: npx tsx bench/label-loop-information.mts (a few seconds). Writes bench/label-loop-information.json.
import { writeFileSync } from 'node:fs';
import { createRng } from '../src/random/xoshiro.js';
import { labelSamplingProbabilities } from '../src/label/sampling.js';

const N = 2000;
const M = 0.05;
const FLOOR = 0.6797; // bench/label-loop-floor.json, sequential power 0.99 vs fixed 0.9
const REPS = 20;
function pool(agree: number, judge: string, theta: number, rep: number) {
  const rng = createRng(`info:${agree}:${judge}:${theta}`, rep);
  const nD = Math.round(N * (1 - agree));
  const diff = Math.round(theta * N);
  let nonzero = Math.round(0.9 * nD);
  if ((nonzero - diff) % 2 !== 0) nonzero -= 1;
  const kP = (nonzero + diff) / 2;
  const kM = (nonzero - diff) / 2;
  const d: number[] = [];
  for (let i = 0; i < nD; i++) d.push(i < kP ? 1 : i < kP + kM ? -1 : 0);
  for (let i = nD - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [d[i], d[j]] = [d[j], d[i]];
  }
  const y = new Float64Array(N);
  for (let i = 0; i < nD; i++) y[i] = d[i];
  const g = new Float64Array(N);
  if (judge !== 'none') {
    const rho = judge === 'biased' ? 0.5 : Number(judge);
    const shift = judge === 'biased' ? 0.5 : 0;
    for (let i = 0; i < nD; i++) {
      const v = rng.nextFloat() < rho ? y[i] : y[rng.nextInt(nD)];
      g[i] = Math.min(1, Math.max(-1, v + shift));
    }
  }
  return { y, g, nD };
}
const mean = (a: ArrayLike<number>, n = a.length) => Array.from(a).slice(0, n).reduce((s, x) => s + x, 0) / n;
const rows = [];
for (const agree of [0.8, 0.5])
  for (const judge of ['none', '0.9', 'biased', '0.5'])
    for (const theta of [0, -2 * M]) {
      let vs = 0;
      let vp = 0;
      let vl = 0;
      let growth = 0;
      let gauss = 0;
      for (let r = 0; r < REPS; r++) {
        const { y, g, nD } = pool(agree, judge, theta, r);
        const yD = Array.from(y).slice(0, nD);
        const gD = Array.from(g).slice(0, nD);
        const my = mean(yD);
        const varYD = yD.reduce((s, x) => s + (x - my) ** 2, 0) / nD;
        vs += ((nD / N) ** 2 * varYD) / 0.9;
        const myAll = mean(y);
        const mg = mean(g);
        let syy = 0;
        let sgg = 0;
        let syg = 0;
        for (let i = 0; i < N; i++) {
          syy += (y[i] - myAll) ** 2;
          sgg += (g[i] - mg) ** 2;
          syg += (y[i] - myAll) * (g[i] - mg);
        }
        vp += (syy / N) * (sgg > 0 ? 1 - (syg * syg) / (syy * sgg) : 1);
        // recalibrated control on disagreeing items
        const mgD = mean(gD);
        let cgg = 0;
        let cgy = 0;
        for (let i = 0; i < nD; i++) {
          cgg += (gD[i] - mgD) ** 2;
          cgy += (gD[i] - mgD) * (yD[i] - my);
        }
        const b = cgg > 1e-12 ? Math.min(2, Math.max(0, cgy / cgg)) : 0;
        const a = my - b * mgD;
        const c = Array.from({ length: N }, (_, i) => (i < nD ? Math.min(1, Math.max(-1, a + b * g[i])) : 0));
        const cbar = mean(c);
        const items = c.map((ci, i) => ({ same: i >= nD, judge: ci, stratum: '', label: y[i] }));
        const pi = labelSamplingProbabilities(items, { width: 1, auditFloor: 0.05, uniformShare: 0.1 });
        const th = myAll;
        let v = 0;
        const z = new Float64Array(N);
        let zMin = Infinity;
        for (let i = 0; i < N; i++) {
          z[i] = cbar + (y[i] - c[i]) / (N * pi[i]);
          v += pi[i] * (z[i] - th) ** 2;
          zMin = Math.min(zMin, cbar + ((i < nD ? -1 : 0) - c[i]) / (N * pi[i]));
        }
        vl += v;
        // The best constant bet on the gambler that must reject θ ≤ −m (θ ≥ 0 here) or θ ≥ −m (θ = −2m):
        // growth* = max over λ keeping every possible factor ≥ 0 of Σ π_i log(1 + λ(Z_i − (−m))) — the
        // KL_inf of Honda & Takemura; log(1/α)/growth* draws is what even a bettor told the distribution needs.
        const sgn = th > -M ? 1 : -1;
        let zMax = -Infinity;
        for (let i = 0; i < N; i++) zMax = Math.max(zMax, cbar + ((i < nD ? 1 : 0) - c[i]) / (N * pi[i]));
        const lamMax = sgn > 0 ? 1 / (-M - zMin) : 1 / (zMax + M);
        let best = 0;
        for (let k = 1; k < 400; k++) {
          const lam = (lamMax * k) / 400;
          let gsum = 0;
          for (let i = 0; i < N; i++) gsum += pi[i] * Math.log1p(sgn * lam * (z[i] + M));
          if (gsum > best) best = gsum;
        }
        growth += best;
        gauss += ((th + M) ** 2) / (2 * v);
      }
      const sel = vs / REPS;
      const ppi = vp / REPS;
      const loop = vl / REPS;
      rows.push({ agree, judge, gap: theta / M, varSelect: +sel.toPrecision(4), varPpi: +ppi.toPrecision(4), varLoop: +loop.toPrecision(4), loopOverBest: +(loop / Math.min(sel, ppi)).toFixed(3), ratioFloor: +((FLOOR * loop) / Math.min(sel, ppi)).toFixed(3), drawsGaussian: +(Math.log(20) / (gauss / REPS)).toFixed(1), drawsBestBet: +(Math.log(20) / (growth / REPS)).toFixed(1) });
    }
console.table(rows);
writeFileSync(new URL('./label-loop-information.json', import.meta.url), JSON.stringify({ source: 'bench/label-loop-information.mts', reps: REPS, floor: FLOOR, rows }, null, 1) + '\n');
