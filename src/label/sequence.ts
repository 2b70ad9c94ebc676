/**
 * The running state of the labelling loop's confidence sequence: plain JSON-serialisable data.
 * Two families of aGRAPA gamblers on a grid of candidate values m of θ: `up` gamblers bet that
 * θ > m (stakes λ ≥ 0), `down` gamblers that θ < m (λ ≤ 0); log-capitals and whether each was ever
 * at 1/α (rejected, for good: the running intersection).
 */
export interface LabelSequenceState {
  /** Contributions folded in so far. */
  t: number;
  sumZ: number;
  /** Predictable running mean and variance of the contributions (before the next one). */
  muHat: number;
  sigmaHat2: number;
  sumSquares: number;
  /** μ̂_0 and σ̂²_0, each worth one pseudo-contribution: μ̂_t = (μ̂_0 + Σ Z)/(t + 1), σ̂²_t = (σ̂²_0 + Σ (Z_i − μ̂_{i−1})²)/(t + 1). */
  priorMean: number;
  priorVariance: number;
  /** Candidate values of θ, ascending; includes −margin exactly. */
  grid: number[];
  logUp: number[];
  logDown: number[];
  /** 1 once the gambler's capital reached 1/α. */
  rejectedUp: number[];
  rejectedDown: number[];
}

/** The one-sided bounds the sequence gives now: θ > lower and θ < upper, each with probability ≥ 1 − α at every t at once. */
export function sequenceBounds(seq: LabelSequenceState, width: number): { lower: number; upper: number } {
  const { grid, rejectedUp, rejectedDown } = seq;
  const g = grid.length;
  // lower: the grid point just below the smallest m the up-gamblers have not rejected (θ > it).
  let k = 0;
  while (k < g && rejectedUp[k] === 1) k++;
  const lower = k === 0 ? -width : grid[k - 1];
  let h = g - 1;
  while (h >= 0 && rejectedDown[h] === 1) h--;
  const upper = h === g - 1 ? width : grid[h + 1];
  return { lower, upper };
}

/** The constants of one sequence. */
export interface LabelSequenceSettings {
  /** log(1/α): each one-sided family rejects m when its log-capital reaches it. */
  logThreshold: number;
  /** c in (0, 1): the bet never risks more than the share c of the capital. */
  truncation: number;
}

/**
 * A fresh sequence: grid of G points evenly spaced over (−R, R) plus the threshold −margin, prior
 * mean μ̂_0 = ḡ (the judge's pool mean) and prior variance σ̂²_0 = R²/4.
 */
export function newLabelSequence(width: number, gridSize: number, threshold: number, priorMean: number): LabelSequenceState {
  const grid: number[] = [];
  for (let j = 0; j < gridSize; j++) grid.push(-width + ((j + 0.5) * 2 * width) / gridSize);
  if (!grid.includes(threshold)) grid.push(threshold);
  grid.sort((a, b) => a - b);
  const g = grid.length;
  return {
    t: 0,
    sumZ: 0,
    muHat: priorMean,
    sigmaHat2: (width * width) / 4,
    sumSquares: 0,
    priorMean,
    priorVariance: (width * width) / 4,
    grid,
    logUp: new Array<number>(g).fill(0),
    logDown: new Array<number>(g).fill(0),
    rejectedUp: new Array<number>(g).fill(0),
    rejectedDown: new Array<number>(g).fill(0),
  };
}

/**
 * Folds one contribution Z into the sequence (mutates `seq`). zMin and zMax bound every value Z
 * could have taken at this draw given the past (predictable), so the bets keep each factor
 * 1 + λ(Z − m) ≥ 1 − c > 0:
 *   λ⁺(m) = min( max(0, (μ̂ − m)/(σ̂² + (μ̂ − m)²)),  c/(m − zMin) )      (cap only when m > zMin)
 *   λ⁻(m) = max( min(0, (μ̂ − m)/(σ̂² + (μ̂ − m)²)), −c/(zMax − m) )     (cap only when m < zMax)
 * A value outside [zMin, zMax] (only possible when an assumption about unlabelled items was wrong)
 * that would make a factor ≤ 0 sets that capital to −∞: it can then never reject (conservative).
 */
export function pushContribution(seq: LabelSequenceState, z: number, zMin: number, zMax: number, settings: LabelSequenceSettings): void {
  const { grid, logUp, logDown, rejectedUp, rejectedDown } = seq;
  const c = settings.truncation;
  const reject = settings.logThreshold;
  const mu = seq.muHat;
  const s2 = seq.sigmaHat2;
  for (let j = 0; j < grid.length; j++) {
    const m = grid[j];
    const d = mu - m;
    const kelly = d / (s2 + d * d);
    if (rejectedUp[j] === 0) {
      let lambda = kelly > 0 ? kelly : 0;
      if (m > zMin) {
        const cap = c / (m - zMin);
        if (lambda > cap) lambda = cap;
      }
      logUp[j] += safeLog1p(lambda * (z - m));
      if (logUp[j] >= reject) rejectedUp[j] = 1;
    }
    if (rejectedDown[j] === 0) {
      let lambda = kelly < 0 ? kelly : 0;
      if (m < zMax) {
        const cap = -c / (zMax - m);
        if (lambda < cap) lambda = cap;
      }
      logDown[j] += safeLog1p(lambda * (z - m));
      if (logDown[j] >= reject) rejectedDown[j] = 1;
    }
  }
  const t = seq.t + 1;
  const prevMu = seq.muHat;
  seq.t = t;
  seq.sumZ += z;
  seq.sumSquares += (z - prevMu) * (z - prevMu);
  seq.muHat = (seq.priorMean + seq.sumZ) / (t + 1);
  seq.sigmaHat2 = (seq.priorVariance + seq.sumSquares) / (t + 1);
}

function safeLog1p(x: number): number {
  return x <= -1 ? -Infinity : Math.log1p(x);
}
