#!/usr/bin/env node
// Reads bench/binary-gate-shortcut.json (written by bench/binary-gate-shortcut.mjs) and prints each
// rule's worst false pass per α against α itself and 1.1·α (0.055 at α = 0.05): the reading of the
// registered threshold at α = 0.025 and 0.10 (see the deviation in bench/binary-gate-shortcut.txt).
// Also the worst cells of K = 30 and K = 100 at α = 0.05 with the discordance r where the supremum sits.
// Run: node bench/binary-gate-shortcut-by-alpha.mjs   (no computation beyond the JSON; < 1 s)
import { readFileSync } from 'node:fs';

const j = JSON.parse(readFileSync(new URL('./binary-gate-shortcut.json', import.meta.url), 'utf8'));
const rows = [['tango alone', (x) => x.tango], ['today (K=∞)', (x) => x.today], ...j.ks.map((K, k) => [`K = ${K}`, (x) => x.byK[k]])];
console.log('α      | rule          | max false pass | cell (grid, m, n, r)            | cells > α | cells > 1.1α | of');
for (const a of [0.025, 0.05, 0.1]) {
  const cs = j.cells.filter((c) => c.alpha === a);
  for (const [name, get] of rows) {
    let w = cs[0];
    for (const c of cs) if (get(c.falsePass) > get(w.falsePass)) w = c;
    const where = `${w.grid} m=${w.m} n=${w.n} r=${w.r ?? 'sup'}`;
    console.log(`${String(a).padEnd(6)} | ${name.padEnd(13)} | ${get(w.falsePass).toFixed(4).padStart(14)} | ${where.padEnd(31)} | ${String(cs.filter((c) => get(c.falsePass) > a).length).padStart(9)} | ${String(cs.filter((c) => get(c.falsePass) > 1.1 * a).length).padStart(12)} | ${cs.length}`);
  }
}
for (const K of [30, 100]) {
  const k = j.ks.indexOf(K);
  const over = j.cells.filter((c) => c.alpha === 0.05 && c.falsePass.byK[k] > 0.055).sort((x, y) => y.falsePass.byK[k] - x.falsePass.byK[k]);
  console.log(`\nK = ${K}, α = 0.05: the ${over.length} cells above 0.055 (today's rule in the same cell in brackets)`);
  for (const c of over.slice(0, 12)) {
    const r = c.r === null ? `sup at r=${c.rAt[k].toFixed(3)}` : `r=${c.r}`;
    console.log(`  ${c.grid} m=${c.m} n=${c.n} ${r}: ${c.falsePass.byK[k].toFixed(4)} [${c.falsePass.today.toFixed(4)}]`);
  }
}
