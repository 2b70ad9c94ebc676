// The simulated labelled rows of the bias-probe studies (bench/judge-probes.txt): shared by
// bench/judge-probes.mjs (first run) and bench/judge-probes-fwer.mjs (the amendment).

function normal(rng) {
  let u = 0;
  while (u === 0) u = rng.nextFloat();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.nextFloat());
}

/** One replicate's labelled rows: error, human, length, position, self, noise. */
export function simulate(cell, n, rng) {
  const accS = cell.accS ?? 0.7;
  const accO = cell.accO ?? 0.7;
  const se = 0.9;
  const rows = { error: [], human: [], length: [], position: [], self: [], noise: [] };
  // P-self: flip S's judge 0 → 1 with probability q so that S's mean judge rate rises by `selfBias`:
  // P(judge 0 on S) = accS(1 − se) + (1 − accS)(1 − fp); q = selfBias / that.
  const pZeroS = accS * (1 - se) + (1 - accS) * (1 - 0.15);
  const flip = (cell.selfBias ?? 0) / pZeroS;
  for (let i = 0; i < n; i++) {
    const lenient = cell.lenient ? rng.nextFloat() < 0.3 : false;
    const fp = lenient ? 0.45 : 0.15;
    const itemLength = 100 + 400 * rng.nextFloat();
    const sFirst = rng.nextFloat() < 0.5;
    for (const self of [1, 0]) {
      const h = rng.nextFloat() < (self ? accS : accO) ? 1 : 0;
      let length = cell.itemLength ? itemLength : 100 + 400 * rng.nextFloat();
      if (cell.confounded) length = 100 + 300 * rng.nextFloat() + 150 * h;
      const lift = cell.lengthBias ? (cell.lengthBias * (length - 100)) / 100 : 0;
      let j = rng.nextFloat() < (h === 1 ? se : fp) + lift ? 1 : 0;
      if (self && j === 0 && flip > 0 && rng.nextFloat() < flip) j = 1;
      rows.error.push(j - h);
      rows.human.push(h);
      rows.length.push(length);
      rows.position.push(self ? (sFirst ? 1 : 2) : sFirst ? 2 : 1);
      rows.self.push(self);
      rows.noise.push(normal(rng));
    }
  }
  return rows;
}
