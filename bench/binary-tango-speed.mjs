#!/usr/bin/env node
// Cost of the n/(n − 1) correction in the 0/1 default, as a ratio (bench/binary-tango-fix.txt):
// pairedProportionInterval with biasCorrection on (default) vs off, on 2,000 tables at n = 1,000.
// The correction only inflates the quantile (z √(n/(n − 1))), so the ratio should be ~1.
// Run: npm run build && node bench/binary-tango-speed.mjs
import { pairedProportionInterval } from '../dist/paired/index.js';

const tables = [];
for (let i = 0; i < 2000; i++) {
  const b = (i * 7) % 90;
  const c = (i * 13) % 70;
  tables.push({ both: 500, onlyA: b, onlyB: c, neither: 1000 - 500 - b - c });
}
function run(biasCorrection) {
  let sink = 0;
  const t0 = process.hrtime.bigint();
  for (const t of tables) sink += pairedProportionInterval(t, { biasCorrection }).confidenceInterval[0];
  return [Number(process.hrtime.bigint() - t0) / 1e6, sink];
}
run(true);
run(false); // warm-up
const on = [];
const off = [];
for (let k = 0; k < 5; k++) {
  on.push(run(true)[0]);
  off.push(run(false)[0]);
}
const median = (x) => x.sort((a, b) => a - b)[2];
console.log(`per call at n = 1,000: corrected ${(median(on) / tables.length).toFixed(4)} ms, uncorrected ${(median(off) / tables.length).toFixed(4)} ms; ratio ${(median(on) / median(off)).toFixed(3)} (median of 5 runs of ${tables.length} tables)`);
