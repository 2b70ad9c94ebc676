import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeInput } from '../helpers/files.js';

const POOL = 'examples/pool.csv';

describe('benchplan select', () => {
  it('writes the annotation list and the design; same seed, same bytes', async () => {
    const dir = tempDir();
    const one = await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'a.csv'), '--json']);
    expect(one.code).toBe(0);
    const report = JSON.parse(one.stdout);
    expect(report).toMatchObject({ a: 'alpha', b: 'beta', method: 'disagreement', budget: 120, auditShare: 0.1, seed: '0', poolSize: 400 });
    expect(report.design).toBe(join(dir, 'a.design.json'));
    // every disagreement is chosen with certainty when the budget covers them
    for (const c of report.cells.filter((x: { kind: string }) => x.kind === 'disagree')) expect(c).toMatchObject({ sampled: c.size, inclusionProbability: 1 });
    const audit = report.cells.filter((x: { kind: string }) => x.kind === 'agree').reduce((s: number, c: { sampled: number }) => s + c.sampled, 0);
    expect(audit).toBe(12); // round(0.1 · 120)
    expect(report.selected).toBe(report.disagreeing + 12);
    const list = readFileSync(join(dir, 'a.csv'), 'utf8').trim().split('\n');
    expect(list[0]).toBe('item,model,output,score,stratum,cell,inclusion_probability,design_digest');
    expect(list.length - 1).toBe(2 * report.selected);
    expect(list[1].split(',')[3]).toBe(''); // score left for the annotator
    const two = await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'b.csv'), '--design', join(dir, 'b.json')]);
    expect(two.code).toBe(0);
    expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe(readFileSync(join(dir, 'a.csv'), 'utf8'));
    expect(JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')).rows).toEqual(JSON.parse(readFileSync(join(dir, 'a.design.json'), 'utf8')).rows);
  });

  it('says which equality it used; exact equality finds more disagreements than normalised', async () => {
    const dir = tempDir();
    const norm = JSON.parse((await runCli(['select', POOL, '--budget', '50', '-o', join(dir, 'n.csv'), '--json'])).stdout);
    const exact = JSON.parse((await runCli(['select', POOL, '--budget', '50', '-o', join(dir, 'e.csv'), '--equality', 'exact', '--json'])).stdout);
    expect(norm.equality).toBe('normalised on column "output"');
    expect(exact.equality).toBe('exact on column "output"');
    // the generator capitalises some copied answers ("Net 30" for "net 30")
    expect(exact.disagreeing).toBeGreaterThan(norm.disagreeing);
  });

  it('--method active: Poisson sampling whose probabilities sum to the budget', async () => {
    const dir = tempDir();
    const { code, stdout } = await runCli(['select', POOL, '--budget', '80', '--method', 'active', '-o', join(dir, 'x.csv'), '--json']);
    expect(code).toBe(0);
    const design = JSON.parse(readFileSync(join(dir, 'x.design.json'), 'utf8'));
    expect(design.sampling).toBe('poisson');
    const total = design.rows.reduce((s: number, r: { inclusionProbability: number }) => s + r.inclusionProbability, 0);
    expect(total).toBeCloseTo(80, 9);
    expect(design.rows.every((r: { prediction?: number }) => typeof r.prediction === 'number')).toBe(true);
    expect(JSON.parse(stdout).sampling).toBe('poisson');
  });

  it('bad input names the file, line, field and value (exit 2)', async () => {
    const dir = tempDir();
    const cases: Array<[string, string[], RegExp]> = [
      ['item,model,output\nx,a,1\nx,a,2\n', [], /p\.csv:3: item "x" and model "a" appear twice \(first on line 2\)/],
      ['item,model\nx,a\n', [], /p\.csv:1: missing the output column "output"/],
      ['item,model,output,judge\nx,a,1,high\nx,b,1,0.5\n', [], /p\.csv:2: judge \(the judge score\) must be a finite number on every row \(got "high"\)/],
      ['item,model,output\nx,a,1\nx,b,1\ny,a,2\n', [], /item "y" has no row for model "b"/],
      ['item,model,output\nx,a,1\nx,b,1\nx,c,1\n', [], /has 3 models \(a, b, c\): name the two/],
      ['item,model,output\nx,a,1\nx,b,1\n', ['--budget', '0'], /--budget: must be a whole number ≥ 1 \(got "0"\)/],
      ['item,model,output\nx,a,1\nx,b,1\n', ['--equality', 'fuzzy'], /--equality: must be one of exact, normalised, numeric \(got "fuzzy"\)/],
    ];
    for (const [content, extra, message] of cases) {
      const pool = writeInput(dir, 'p.csv', content);
      const { code, stderr } = await runCli(['select', pool, '--budget', '5', '-o', join(dir, 'o.csv'), ...extra]);
      expect(code, content).toBe(2);
      expect(stderr).toMatch(message);
    }
  });
});

describe('benchplan compare --design', () => {
  it('reads the labelled list back: the pool estimate with its audit', async () => {
    const dir = tempDir();
    await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'l.csv')]);
    const { code, stdout } = await runCli(['compare', 'examples/pool-labelled.csv', '--design', join(dir, 'l.design.json'), '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ a: 'alpha', b: 'beta', estimator: 'stratified-horvitz-thompson', poolSize: 400, chosenUnlabelled: 0 });
    expect(r.audit).toMatchObject({ audited: 12, differing: 0, assumptionFailed: false });
    // Every disagreement labelled and the audit all 0: the estimate is the pool's exact mean difference,
    // Σ over disagreements / 400, and the subsampling adds no variance.
    const rows = readFileSync('examples/pool-labelled.csv', 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    let sum = 0;
    for (let k = 0; k < rows.length; k += 2) sum += Number(rows[k][3]) - Number(rows[k + 1][3]);
    expect(r.estimate).toBeCloseTo(sum / 400, 12);
    expect(r.poolStandardError).toBe(0);
    expect(r.standardError).toBeGreaterThan(0);
  });

  it('an audited agreeing item with different scores fails the assumption, and says so', async () => {
    const dir = tempDir();
    await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'l.csv')]);
    const lines = readFileSync('examples/pool-labelled.csv', 'utf8').split('\n');
    const k = lines.findIndex((l) => l.includes('/agree'));
    const fields = lines[k].split(',');
    fields[3] = fields[3] === '1' ? '0' : '1';
    lines[k] = fields.join(',');
    const bad = writeInput(dir, 'bad.csv', lines.join('\n'));
    const { code, stdout } = await runCli(['compare', bad, '--design', join(dir, 'l.design.json')]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Audit: FAILED — 1 of 12 agreeing items scored differently/);
    expect(stdout).toMatch(/"same output ⇒ same score" does not hold here/);
  });

  it('refuses labels on items the design did not choose', async () => {
    const dir = tempDir();
    await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'l.csv')]);
    const extra = writeInput(dir, 'x.csv', `${readFileSync('examples/pool-labelled.csv', 'utf8')}doc001-payment,alpha,net 60,1,routine,routine/agree,0.5\ndoc001-payment,beta,net 60,1,routine,routine/agree,0.5\n`);
    const { code, stderr } = await runCli(['compare', extra, '--design', join(dir, 'l.design.json')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/1 labelled item was not chosen by the design \("doc001-payment"\): its inclusion probability is unknown/);
  });
});

describe('benchplan compare --judge', () => {
  it('column mode: PPI++ beside the humans-only interval, per stratum', async () => {
    const { code, stdout } = await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ method: 'ppi++', judgeSource: 'column', a: 'alpha', b: 'beta', nLabelled: 100, nUnlabelled: 300, stratified: true });
    expect(r.strata.map((s: { stratum: string }) => s.stratum)).toEqual(['routine', 'rare_clause', 'negative_control']);
    expect(r.standardError).toBeLessThanOrEqual(r.classicalStandardError);
    expect(r.randomness.rejected).toBe(false);
  });

  it('file mode gives the same numbers as column mode', async () => {
    const dir = tempDir();
    const src = readFileSync('examples/pool-judged.csv', 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const human = writeInput(dir, 'human.csv', `item,model,stratum,score\n${src.filter((f) => f[4] !== '').map((f) => `${f[0]},${f[1]},${f[2]},${f[4]}`).join('\n')}\n`);
    const judge = writeInput(dir, 'judge.csv', `item,model,stratum,score\n${src.map((f) => `${f[0]},${f[1]},${f[2]},${f[3]}`).join('\n')}\n`);
    const file = JSON.parse((await runCli(['compare', human, '--judge', judge, '--json'])).stdout);
    const column = JSON.parse((await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge', '--json'])).stdout);
    expect(file.judgeSource).toBe('file');
    expect(file.estimate).toBeCloseTo(column.estimate, 14);
    expect(file.interval).toEqual(column.interval);
  });

  it('refuses a labelled subset chosen where the judge saw differences', async () => {
    const dir = tempDir();
    // label exactly the items the judge prefers alpha on: not a random subset
    const src = readFileSync('examples/pool.csv', 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const out = ['item,model,stratum,judge,score'];
    for (let k = 0; k < src.length; k += 2) {
      const differ = Number(src[k][4]) > Number(src[k + 1][4]);
      out.push(`${src[k][0]},alpha,${src[k][2]},${src[k][4]},${differ ? 1 : ''}`, `${src[k][0]},beta,${src[k][2]},${src[k + 1][4]},${differ ? 0 : ''}`);
    }
    const path = writeInput(dir, 'biased.csv', `${out.join('\n')}\n`);
    const { code, stderr } = await runCli(['compare', path, '--judge', 'judge']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/biased\.csv: the labelled items do not look like a random sample of the judged items/);
    expect(stderr).toMatch(/--assume-random/);
  });

  it('bad flags and inputs (exit 2)', async () => {
    const both = await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge', '--design', 'x.json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/not both/);
    const side = await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge', '--alternative', 'greater']);
    expect(side.stderr).toMatch(/--alternative: --judge gives a two-sided interval only/);
    const missing = await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'nope']);
    expect(missing.stderr).toMatch(/missing the judge column "nope"/);
    const dir = tempDir();
    const half = writeInput(dir, 'h.csv', 'item,model,judge,score\nx,a,0.5,1\nx,b,0.5,\ny,a,1,\ny,b,0,\n');
    expect((await runCli(['compare', half, '--judge', 'judge'])).stderr).toMatch(/item "x" has a human score for one candidate only/);
  });
});

describe('select and compare --design with clusters', () => {
  it('carries the cluster column into the design, and the estimate reports clusters', async () => {
    const dir = tempDir();
    const rows = ['item,model,output,cluster'];
    const labelled = ['item,model,score'];
    for (let i = 0; i < 40; i++) {
      const doc = `doc${i % 8}`;
      const differ = i % 4 === 0;
      rows.push(`s${i},a,x${i},${doc}`, `s${i},b,${differ ? 'y' : 'x'}${i},${doc}`);
    }
    const pool = writeInput(dir, 'pool.csv', `${rows.join('\n')}\n`);
    const sel = await runCli(['select', pool, '--budget', '20', '-o', join(dir, 'l.csv'), '--json']);
    expect(sel.code).toBe(0);
    expect(JSON.parse(sel.stdout).warnings.join('\n')).toMatch(/pool-level variance by cluster/);
    const design = JSON.parse(readFileSync(join(dir, 'l.design.json'), 'utf8'));
    expect(design.rows[0].cluster).toBe('doc0');
    for (const r of design.rows.filter((x: { selected: boolean }) => x.selected)) labelled.push(`${r.item},a,${r.kind === 'disagree' ? 1 : 0}`, `${r.item},b,0`);
    const scores = writeInput(dir, 'scores.csv', `${labelled.join('\n')}\n`);
    const { code, stdout } = await runCli(['compare', scores, '--design', join(dir, 'l.design.json'), '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    // 10 disagreements (items 0, 4, …, 36: docs 0 and 4 only), all labelled with A − B = 1; the estimate is 10/40
    expect(r.estimate).toBeCloseTo(0.25, 14);
    // the clusters of the labelled items: docs 0 and 4 (the disagreements) and the audit's
    const chosen = new Set(design.rows.filter((x: { selected: boolean }) => x.selected).map((x: { cluster: string }) => x.cluster));
    expect(chosen.has('doc0') && chosen.has('doc4')).toBe(true);
    expect(r.nClusters).toBe(chosen.size);
  });
});

describe('select --sample-unit cluster (whole documents)', () => {
  const DOCS = 'examples/pool-docs.csv';
  it('chooses whole clusters: every item of a chosen document, π = m_h / M_h, the list grouped by document; same seed, same bytes', async () => {
    const dir = tempDir();
    const one = await runCli(['select', DOCS, '--sample-unit', 'cluster', '--budget', '150', '-o', join(dir, 'a.csv'), '--json']);
    expect(one.code).toBe(0);
    const report = JSON.parse(one.stdout);
    expect(report).toMatchObject({ sampling: 'cluster', sampleUnit: 'cluster', method: 'disagreement' });
    const design = JSON.parse(readFileSync(join(dir, 'a.design.json'), 'utf8'));
    const byCluster = new Map<string, Array<{ selected: boolean; inclusionProbability: number; cell: string }>>();
    for (const r of design.rows) byCluster.set(r.cluster, [...(byCluster.get(r.cluster) ?? []), r]);
    for (const rows of byCluster.values()) {
      expect(new Set(rows.map((r) => r.selected)).size).toBe(1);
      expect(new Set(rows.map((r) => r.cell)).size).toBe(1);
    }
    for (const c of design.cells) {
      const clusters = [...byCluster.values()].filter((rows) => rows[0].cell === c.cell);
      expect(clusters.length).toBe(c.size);
      expect(clusters.filter((rows) => rows[0].selected).length).toBe(c.sampled);
      expect(clusters.every((rows) => rows[0].inclusionProbability === c.sampled / c.size)).toBe(true);
    }
    const list = readFileSync(join(dir, 'a.csv'), 'utf8').trim().split('\n');
    expect(list[0]).toBe('item,model,output,score,stratum,cluster,cell,inclusion_probability,design_digest');
    const docs = list.slice(1).map((l) => l.split(',')[5]);
    expect(docs.filter((d, k) => k > 0 && d !== docs[k - 1]).length + 1).toBe(new Set(docs).size); // each document's rows together
    const two = await runCli(['select', DOCS, '--sample-unit', 'cluster', '--budget', '150', '-o', join(dir, 'b.csv')]);
    expect(two.code).toBe(0);
    expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe(readFileSync(join(dir, 'a.csv'), 'utf8'));
  });

  it('compare --design adds up cluster totals: all disagreeing documents labelled gives Σ d / N exactly', async () => {
    const dir = tempDir();
    const rows = ['item,model,output,cluster'];
    for (let i = 0; i < 40; i++) rows.push(`s${i},a,x${i},doc${i % 8}`, `s${i},b,${i % 4 === 0 ? 'y' : 'x'}${i},doc${i % 8}`);
    const pool = writeInput(dir, 'pool.csv', `${rows.join('\n')}\n`);
    const sel = await runCli(['select', pool, '--sample-unit', 'cluster', '--budget', '20', '-o', join(dir, 'l.csv'), '--json']);
    expect(sel.code).toBe(0);
    const design = JSON.parse(readFileSync(join(dir, 'l.design.json'), 'utf8'));
    // docs 0 and 4 hold the 10 disagreements: both chosen with π = 1; 2 of the 6 agreeing documents audited
    expect(design.cells).toEqual([
      expect.objectContaining({ cell: 'disagree', size: 2, sampled: 2, inclusionProbability: 1, items: 10 }),
      expect.objectContaining({ cell: 'agree', size: 6, sampled: 2, items: 30, chosenItems: 10 }),
    ]);
    const labelled = ['item,model,score'];
    for (const r of design.rows.filter((x: { selected: boolean }) => x.selected)) labelled.push(`${r.item},a,${r.kind === 'disagree' ? 1 : 0}`, `${r.item},b,0`);
    const scores = writeInput(dir, 'scores.csv', `${labelled.join('\n')}\n`);
    const r = JSON.parse((await runCli(['compare', scores, '--design', join(dir, 'l.design.json'), '--json'])).stdout);
    expect(r.estimator).toBe('cluster-horvitz-thompson');
    expect(r.estimate).toBeCloseTo(10 / 40, 14);
    expect(r.poolStandardError).toBe(0); // the disagreeing cell is complete and the audited totals are all 0
    // a chosen document labelled only in part is refused
    const partial = writeInput(dir, 'partial.csv', `${labelled.filter((l) => !l.startsWith('s0,')).join('\n')}\n`);
    const bad = await runCli(['compare', partial, '--design', join(dir, 'l.design.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/partial\.csv:\d+: cluster: 1 chosen cluster is labelled only in part \("doc0"; in the first, "s0" has no label\).*\(got "doc0"\)/);
  });

  it('bad flags: no cluster column, --method active, an unknown unit (exit 2)', async () => {
    const dir = tempDir();
    const none = await runCli(['select', POOL, '--sample-unit', 'cluster', '--budget', '50', '-o', join(dir, 'x.csv')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/pool\.csv: cluster: has no cluster column/);
    const active = await runCli(['select', DOCS, '--sample-unit', 'cluster', '--method', 'active', '--budget', '50', '-o', join(dir, 'y.csv')]);
    expect(active.code).toBe(2);
    expect(active.stderr).toMatch(/--sample-unit: --method active draws items one by one/);
    const unknown = await runCli(['select', DOCS, '--sample-unit', 'document', '--budget', '50', '-o', join(dir, 'z.csv')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--sample-unit/);
  });
});

describe('headline --design', () => {
  it('traffic-weighted headlines of both candidates and of A − B, settings echoed', async () => {
    const dir = tempDir();
    await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'l.csv')]);
    const { code, stdout } = await runCli(['headline', 'examples/pool-labelled.csv', '--design', join(dir, 'l.design.json'), '--strata', 'examples/pool-strata.yaml', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ strata: 'examples/pool-strata.yaml', sampling: 'stratified', weighting: 'traffic', estimator: 'stratified-horvitz-thompson', confidenceLevel: 0.95, poolSize: 400, labelled: 65 });
    expect(r.weights).toEqual([
      { stratum: 'routine', weight: 0.75 },
      { stratum: 'rare_clause', weight: 0.05 },
      { stratum: 'negative_control', weight: 0.2 },
    ]);
    // Σ traffic × stratum mean, for each candidate and for the difference
    for (const m of r.models) expect(m.headline.estimate).toBeCloseTo(m.strata.reduce((s: number, x: { weight: number; estimate: number }) => s + x.weight * x.estimate, 0), 14);
    expect(r.difference.estimate).toBeCloseTo(r.models[0].headline.estimate - r.models[1].headline.estimate, 14);
    const text = await runCli(['headline', 'examples/pool-labelled.csv', '--design', join(dir, 'l.design.json'), '--strata', 'examples/pool-strata.yaml']);
    expect(text.stdout).toMatch(/Traffic-weighted headline over all 400 items/);
  });

  it('bad input: a pool stratum the strata file lacks, traffic on a stratum the pool lacks, a bootstrap flag (exit 2)', async () => {
    const dir = tempDir();
    await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'l.csv')]);
    const design = join(dir, 'l.design.json');
    const missing = await runCli(['headline', 'examples/pool-labelled.csv', '--design', design, '--strata', writeInput(dir, 's1.yaml', 'strata:\n  routine: { traffic: 0.8 }\n  rare_clause: { traffic: 0.2 }\n')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/s1\.yaml: stratum "negative_control" is in the pool but not in .*s1\.yaml.*\(got "negative_control"\)/);
    const extra = await runCli(['headline', 'examples/pool-labelled.csv', '--design', design, '--strata', 'examples/strata.yaml']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toMatch(/strata\.yaml:5: strata\.past_failure\.traffic: stratum "past_failure" has traffic 0\.03 but no item in the pool .* \(got 0\.03\)/);
    const flag = await runCli(['headline', 'examples/pool-labelled.csv', '--design', design, '--strata', 'examples/pool-strata.yaml', '--resamples', '99']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--resamples: --design estimates analytically/);
  });
});

describe('compare --judge --strata (traffic-weighted stratified PPI++)', () => {
  it('reweights the per-stratum PPI++ estimates by the strata file\'s traffic, λ per stratum unchanged', async () => {
    const plain = JSON.parse((await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge', '--json'])).stdout);
    const { code, stdout } = await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge', '--strata', 'examples/pool-strata.yaml', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ weighting: 'traffic', strataFile: 'examples/pool-strata.yaml', stratified: true });
    expect(r.strata.map((s: { weight: number }) => s.weight)).toEqual([0.75, 0.05, 0.2]);
    r.strata.forEach((s: { lambda: number; estimate: number }, h: number) => {
      expect(s.lambda).toBe(plain.strata[h].lambda);
      expect(s.estimate).toBe(plain.strata[h].estimate);
    });
    expect(r.estimate).toBeCloseTo(r.strata.reduce((a: number, s: { weight: number; estimate: number }) => a + s.weight * s.estimate, 0), 14);
  });
  it('bad input: a stratum without traffic, traffic on an absent stratum, --strata without --judge (exit 2)', async () => {
    const dir = tempDir();
    const missing = await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge', '--strata', writeInput(dir, 's.yaml', 'strata:\n  routine: { traffic: 0.9 }\n  rare_clause: { traffic: 0.1 }\n')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/s\.yaml: stratum "negative_control" is in the scores but not in .*\(got "negative_control"\)/);
    const extra = await runCli(['compare', 'examples/pool-judged.csv', '--judge', 'judge', '--strata', 'examples/strata.yaml']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toMatch(/strata\.yaml:5: strata\.past_failure\.traffic: .* \(got 0\.03\)/);
    const alone = await runCli(['compare', 'examples/scores.csv', '--strata', 'examples/strata.yaml']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--strata: --strata reweights the judge-assisted estimate/);
  });
});

describe('design file checks', () => {
  it('a cluster design row without its cluster, and a row naming an unknown cell, are errors naming file, field and value (exit 2)', async () => {
    const dir = tempDir();
    await runCli(['select', 'examples/pool-docs.csv', '--sample-unit', 'cluster', '--budget', '150', '-o', join(dir, 'l.csv')]);
    const design = JSON.parse(readFileSync(join(dir, 'l.design.json'), 'utf8'));
    const noCluster = structuredClone(design);
    delete noCluster.rows[3].cluster;
    const a = await runCli(['compare', 'examples/pool-docs-labelled.csv', '--design', writeInput(dir, 'a.json', JSON.stringify(noCluster))]);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/a\.json: rows\[3\]\.cluster: a cluster design needs the cluster of every row/);
    const badCell = structuredClone(design);
    badCell.rows[0].cell = 'nowhere';
    const b = await runCli(['headline', 'examples/pool-docs-labelled.csv', '--design', writeInput(dir, 'b.json', JSON.stringify(badCell)), '--strata', 'examples/pool-strata.yaml']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/b\.json: rows\[0\]\.cell: names a cell that is not in cells \(got "nowhere"\)/);
  });
});

describe('audit of #16: hand-edited design files, foreign labels, judge files (exit 2, file / line / field / value)', () => {
  const edited = async (source: 'item' | 'cluster' | 'active', edit: (d: any) => void) => {
    const dir = tempDir();
    const args =
      source === 'cluster'
        ? ['select', 'examples/pool-docs.csv', '--sample-unit', 'cluster', '--budget', '150', '-o', join(dir, 'l.csv')]
        : ['select', POOL, '--budget', source === 'active' ? '40' : '120', ...(source === 'active' ? ['--method', 'active'] : []), '-o', join(dir, 'l.csv')];
    expect((await runCli(args)).code).toBe(0);
    const design = JSON.parse(readFileSync(join(dir, 'l.design.json'), 'utf8'));
    edit(design);
    const path = writeInput(dir, 'e.json', JSON.stringify(design));
    return runCli(['compare', source === 'cluster' ? 'examples/pool-docs-labelled.csv' : 'examples/pool-labelled.csv', '--design', path]);
  };
  const agreeRow = (d: any) => d.rows.findIndex((r: any) => r.selected && r.kind === 'agree');

  it('refuses a design whose counts or probabilities were edited (each would change the estimate silently)', async () => {
    // The bundled item design: cells[1] is routine/agree with 6 of 217 chosen, π = 6 / 217.
    const cases: Array<['item' | 'cluster' | 'active', (d: any) => void, RegExp]> = [
      ['item', (d) => (d.cells[1].size = 100), /e\.json: rows\[\d+\]\.inclusionProbability: must be its cell's 6 \/ 100 = 0\.06 \(cell routine\/agree\).*\(got 0\.0276/],
      ['item', (d) => (d.rows[agreeRow(d)].inclusionProbability = 0.5), /e\.json: rows\[\d+\]\.inclusionProbability: must be its cell's 6 \/ 217 = 0\.02764976958525345\d \(cell routine\/agree\).*looks edited by hand.*\(got 0\.5\)/],
      ['item', (d) => (d.cells[1].inclusionProbability = 0.5), /e\.json: cells\[1\]\.inclusionProbability: must be 6 \/ 217 = 0\.0276.*\(got 0\.5\)/],
      ['item', (d) => d.rows.push({ ...d.rows[0] }), /e\.json: rows\[400\]\.item: item "doc001-payment" appears twice \(first at rows\[0\]\)/],
      ['item', (d) => (d.rows[agreeRow(d)].kind = 'disagree'), /e\.json: rows\[\d+\]\.kind: its kind must be that of its cell routine\/agree \("agree"\).*\(got "disagree"\)/],
      ['item', (d) => (d.rows[agreeRow(d)].stratum = 'rare_clause'), /rows\[\d+\]\.stratum: its stratum must be that of its cell routine\/agree \("routine"\).*\(got "rare_clause"\)/],
      ['item', (d) => (d.poolSize = 999), /e\.json: poolSize must be the number of rows \(400\).*\(got 999\)/],
      ['item', (d) => (d.rows[agreeRow(d)].selected = false), /e\.json: selected must be the number of chosen rows \(64\).*\(got 65\)/],
      ['item', (d) => (d.rows[agreeRow(d)].inclusionProbability = 0), /rows\[\d+\]\.inclusionProbability: a chosen item must have an inclusion probability in \(0, 1\] \(got 0\)/],
      ['item', (d) => (d.rows[agreeRow(d)].inclusionProbability = 1.5), /rows\[\d+\]\.inclusionProbability: Too big: expected number to be <=1 \(got 1\.5\)/],
      // whole documents: every item of a document shares π = m_h / M_h and is chosen with it
      ['cluster', (d) => d.rows.filter((r: any) => r.cluster === d.rows[0].cluster).forEach((r: any) => (r.inclusionProbability = 0.9)), /rows\[0\]\.inclusionProbability: must be its cell's 2 \/ 30 = 0\.0666.*\(got 0\.9\)/],
      ['cluster', (d) => { const k = d.rows.findIndex((r: any) => r.selected); d.rows[k].selected = false; d.selected -= 1; d.cells.find((c: any) => c.cell === d.rows[k].cell).chosenItems -= 1; }, /a cluster design chooses every item of a cluster or none/],
      ['cluster', (d) => (d.cells[0].items = 1), /e\.json: cells\[0\]\.items: must be the number of rows in cell routine\/disagree \(126\).*\(got 1\)/],
      // active: the probabilities add up to the budget (the expected label count)
      ['active', (d) => (d.rows[0].inclusionProbability = 0.5), /e\.json: cells\[0\]\.inclusionProbability: must be the mean of its rows' probabilities/],
      ['active', (d) => {
        d.rows[0].inclusionProbability = 0.5;
        const inCell = d.rows.filter((r: any) => r.cell === d.cells[0].cell);
        d.cells[0].inclusionProbability = inCell.reduce((s: number, r: any) => s + r.inclusionProbability, 0) / inCell.length;
      }, /rows\[\*\]\.inclusionProbability: the inclusion probabilities of an active design add up to its budget 40 \(its expected number of labels\), not 40\.49/],
    ];
    for (const [source, edit, message] of cases) {
      const { code, stderr } = await edited(source, edit);
      expect(code, String(message)).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
  });

  it('a labelled item outside the design pool, and a document labelled in part, name the line and the value', async () => {
    const dir = tempDir();
    await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'l.csv')]);
    const labelled = readFileSync('examples/pool-labelled.csv', 'utf8');
    const line = labelled.trim().split('\n').length + 1; // the first appended row
    const foreign = writeInput(dir, 'f.csv', `${labelled}docX,alpha,a,1,routine,routine/agree,0.1\ndocX,beta,a,1,routine,routine/agree,0.1\n`);
    const a = await runCli(['compare', foreign, '--design', join(dir, 'l.design.json')]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(`f.csv:${line}: item: 1 labelled item is not in the design's pool examples/pool.csv ("docX")`);
    expect(a.stderr).toMatch(/\(got "docX"\)/);
    const unchosen = writeInput(dir, 'u.csv', `${labelled}doc001-payment,alpha,net 60,1,routine,routine/agree,0.5\ndoc001-payment,beta,net 60,1,routine,routine/agree,0.5\n`);
    const b = await runCli(['gate', unchosen, '--design', join(dir, 'l.design.json'), '--baseline', 'beta', '--candidate', 'alpha', '--margin', '0.02']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(`u.csv:${line}: item: 1 labelled item was not chosen by the design ("doc001-payment"): its inclusion probability is unknown, so it cannot be weighted`);

    await runCli(['select', 'examples/pool-docs.csv', '--sample-unit', 'cluster', '--budget', '150', '-o', join(dir, 'd.csv')]);
    // pool-docs-labelled.csv starts with document doc002 (its rows 2–…); drop its first slot's two rows
    const docs = readFileSync('examples/pool-docs-labelled.csv', 'utf8').split('\n');
    const first = docs[1].split(',')[0];
    const part = writeInput(dir, 'p.csv', docs.filter((l) => !l.startsWith(`${first},`)).join('\n'));
    const c = await runCli(['headline', part, '--design', join(dir, 'd.design.json'), '--strata', 'examples/pool-strata.yaml']);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(new RegExp(`p\\.csv:2: cluster: 1 chosen cluster is labelled only in part \\("doc002"; in the first, "${first}" has no label\\).*\\(got "doc002"\\)`));
  });

  it('the annotation list read back before it is filled in: the empty score names its line and says what to do', async () => {
    const dir = tempDir();
    await runCli(['select', POOL, '--budget', '120', '-o', join(dir, 'l.csv')]);
    const { code, stderr } = await runCli(['compare', join(dir, 'l.csv'), '--design', join(dir, 'l.design.json')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/l\.csv:2: score: a row of the annotation list has no score yet: .*delete the rows of items not labelled yet.*\(got ""\)/);
    // rows deleted instead: a warning, and the estimate runs
    const lines = readFileSync('examples/pool-labelled.csv', 'utf8').split('\n');
    const first = lines[1].split(',')[0];
    const fewer = writeInput(dir, 'f.csv', lines.filter((l) => !l.startsWith(`${first},`)).join('\n'));
    const r = await runCli(['compare', fewer, '--design', join(dir, 'l.design.json'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).warnings).toContain(`1 chosen item has no label ("${first}"); the estimate treats it as missing at random within its cell`);
  });

  it('--method active refuses a judge score outside [0, 1], naming its line', async () => {
    const dir = tempDir();
    const lines = readFileSync(POOL, 'utf8').split('\n');
    lines[2] = lines[2].replace(/,[^,]*$/, ',1.7');
    const pool = writeInput(dir, 'p.csv', lines.join('\n'));
    const { code, stderr } = await runCli(['select', pool, '--method', 'active', '--budget', '40', '-o', join(dir, 'o.csv')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/p\.csv:3: judge: --method active reads judge scores as probabilities in \[0, 1\].*\(got 1\.7\)/);
    expect(() => readFileSync(join(dir, 'o.csv'))).toThrow(); // nothing written
    // the disagreement design does not read the judge as a probability: it still runs
    expect((await runCli(['select', pool, '--budget', '40', '-o', join(dir, 'o.csv')])).code).toBe(0);
  });

  it('a budget above the pool says what is chosen (not "every item"), and the JSON echoes equality and tolerance', async () => {
    const dir = tempDir();
    const { code, stdout } = await runCli(['select', POOL, '--budget', '1000', '-o', join(dir, 'o.csv'), '--equality', 'numeric', '--tolerance', '0.5', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    // 53 disagreements + round(0.1 · 400) = 40 audited agreeing items
    expect(r.selected).toBe(93);
    expect(r.warnings).toContain("the budget 1000 exceeds the pool's 400 items: every disagreement is chosen, and the audit takes its share of the 400 (not of the budget) from the agreeing items");
    expect(r).toMatchObject({ equalityMode: 'numeric', tolerance: 0.5, budget: 1000 });
  });

  it('compare --judge FILE: a human score for one candidate only, strata only in the human file, a missing judge item', async () => {
    const dir = tempDir();
    const src = readFileSync('examples/pool-judged.csv', 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const judge = writeInput(dir, 'j.csv', `item,model,score\n${src.map((f) => `${f[0]},${f[1]},${f[3]}`).join('\n')}\n`);
    const judgeStrata = writeInput(dir, 'js.csv', `item,model,stratum,score\n${src.map((f) => `${f[0]},${f[1]},${f[2]},${f[3]}`).join('\n')}\n`);
    const humans = src.filter((f) => f[4] !== '').map((f) => `${f[0]},${f[1]},${f[2]},${f[4]}`);
    const h = writeInput(dir, 'h.csv', `item,model,stratum,score\n${humans.join('\n')}\n`);
    const a = await runCli(['compare', h, '--judge', judge]);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/j\.csv:1: stratum: the human scores have a stratum column but the judge scores .*j\.csv do not/);
    expect((await runCli(['compare', h, '--judge', judgeStrata])).code).toBe(0);
    const half = writeInput(dir, 'half.csv', `item,model,stratum,score\n${humans.slice(1).join('\n')}\n`);
    const b = await runCli(['compare', half, '--judge', judgeStrata]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(new RegExp(`half\\.csv:2: model: item "${src.find((f) => f[4] !== '')![0]}" has a human score for beta only.*\\(got "beta"\\)`));
    const missing = writeInput(dir, 'jm.csv', `item,model,stratum,score\n${src.filter((f) => f[0] !== humans[0].split(',')[0]).map((f) => `${f[0]},${f[1]},${f[2]},${f[3]}`).join('\n')}\n`);
    const c = await runCli(['compare', h, '--judge', missing]);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(new RegExp(`h\\.csv:2: item "${humans[0].split(',')[0]}" has human scores but no judge score for both candidates`));
  });

  it('a non-random labelled subset under strata names the stratum and a readable threshold', async () => {
    const dir = tempDir();
    const src = readFileSync('examples/pool.csv', 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const out = ['item,model,stratum,judge,score'];
    for (let k = 0; k < src.length; k += 2) {
      const differ = Number(src[k][4]) > Number(src[k + 1][4]);
      out.push(`${src[k][0]},alpha,${src[k][2]},${src[k][4]},${differ ? 1 : ''}`, `${src[k][0]},beta,${src[k][2]},${src[k + 1][4]},${differ ? 0 : ''}`);
    }
    const { code, stderr } = await runCli(['compare', writeInput(dir, 'b.csv', `${out.join('\n')}\n`), '--judge', 'judge']);
    expect(code).toBe(2);
    // The judge never prefers alpha in negative_control, so no item there is labelled and two
    // strata are checked: Bonferroni threshold 0.001 / 2; routine has the most extreme z.
    expect(stderr).toMatch(/judged items in stratum "routine": .*< 0\.0005, Bonferroni over the strata\)/);
  });
});
