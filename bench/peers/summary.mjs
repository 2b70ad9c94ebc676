// Summaries and Markdown tables of the peers study (bench/peers/run.mjs).

const TARGET_WIDTH = 0.1;
const COVERS = 0.93;

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rate = (hits, n) => ({ rate: hits / n, se: Math.sqrt((hits / n) * (1 - hits / n) / n) });

function intervalStats(results, truth) {
  const ok = results.filter((x) => Array.isArray(x) && Number.isFinite(x[0]) && Number.isFinite(x[1]));
  if (ok.length === 0) return { failed: results.length };
  const hits = ok.filter(([lo, hi]) => lo <= truth && truth <= hi).length;
  const widths = ok.map(([lo, hi]) => hi - lo);
  // a failed call (null, NaN) counts as a miss: a user gets no interval
  const c = rate(hits, results.length);
  return { coverage: c.rate, se: c.se, meanWidth: mean(widths), zeroWidth: widths.filter((w) => w < 1e-12).length / results.length, failed: results.length - ok.length, replicates: results.length };
}

function gateStats(results) {
  const ok = results.filter((x) => typeof x === 'boolean');
  if (ok.length === 0) return { failed: results.length };
  const c = rate(ok.filter(Boolean).length, results.length);
  return { passRate: c.rate, se: c.se, failed: results.length - ok.length, replicates: results.length };
}

function monitorStats(results, truth) {
  const decided = results.filter((x) => typeof x === 'number');
  const d = rate(decided.length, results.length);
  return { decidedRate: d.rate, se: d.se, meanItems: decided.length ? mean(decided) : null, medianItems: median(decided), truth, replicates: results.length };
}

/**
 * A gate cell's role: 'false-pass' (truth = −margin) or 'power'. Cells from designs.mjs say it; a
 * summary written before they did (a run's peers.json re-rendered) had truth −0.05 or 0 at margin 0.05.
 */
function gateRole(cell, truth) {
  if (cell.role) return cell.role;
  return truth < 0 ? 'false-pass' : 'power';
}
/** The score type for the size rule: '0/1' or 'bounded' (quarter points, COMET, BLEU); inferred from the family for old summaries. */
function scoreType(cell) {
  return cell.scoreType ?? (cell.family.includes('binary') ? '0/1' : 'bounded');
}
const familyRoot = (family) => family.replace(/-(drop|zero)$/, '');

/** Per cell: { id, kind, family, design, size, truth, tools: { 'tool method': stats } }; gate cells add margin, role and scoreType. */
export function summarise(cells, results, peers) {
  const out = [];
  for (const cell of cells) {
    const row = { id: cell.id, kind: cell.kind, family: cell.family, design: cell.design, size: cell.size, truth: cell.skipped ? null : cell.reps[0].truth, tools: {}, cannot: {} };
    if (cell.kind === 'gate') Object.assign(row, { margin: cell.margin ?? 0.05, role: gateRole(cell, row.truth), scoreType: scoreType(cell) });
    if (cell.skipped) {
      row.skipped = cell.skipped;
      out.push(row);
      continue;
    }
    for (const [tool, byCell] of Object.entries(results)) {
      const entry = byCell[cell.id];
      if (!entry) continue;
      for (const [method, res] of Object.entries(entry.results)) {
        const key = method === 'default' ? tool : `${tool} (${method})`;
        const ms = typeof entry.msPerCall === 'number' ? entry.msPerCall : entry.msPerCall[method];
        let stats;
        if (cell.kind === 'interval' || cell.kind === 'judge') stats = intervalStats(res, row.truth);
        else if (cell.kind === 'gate') stats = gateStats(res);
        else stats = monitorStats(res, row.truth);
        if (cell.kind === 'judge' && stats.meanWidth !== undefined) stats.labelsForTargetWidth = Math.ceil(cell.size * (stats.meanWidth / TARGET_WIDTH) ** 2);
        stats.msPerCall = ms;
        if (entry.errors?.[method]) stats.error = entry.errors[method];
        if (entry.methodUsed && Object.keys(entry.methodUsed).length) stats.methodUsed = entry.methodUsed;
        row.tools[key] = stats;
      }
      for (const [method, why] of Object.entries(entry.cannot ?? {})) row.cannot[method === 'default' ? tool : `${tool} (${method})`] = why;
    }
    if (cell.kind === 'interval') {
      const bp = row.tools.benchplan;
      const covering = Object.entries(row.tools).filter(([k, s]) => k !== 'benchplan' && s.coverage >= COVERS && s.zeroWidth === 0);
      if (bp && covering.length) {
        const [name, best] = covering.reduce((m, e) => (e[1].meanWidth < m[1].meanWidth ? e : m));
        row.narrowestCoveringPeer = { name, meanWidth: best.meanWidth, benchplanRatio: bp.meanWidth / best.meanWidth };
      }
    }
    out.push(row);
  }
  for (const [name, info] of Object.entries(peers)) if (!info.installed || info.runError) out.push({ kind: 'not-run', tool: name, why: info.error ?? info.runError });
  return out;
}

const f = (x, d = 3) => (x === null || x === undefined || Number.isNaN(x) ? '–' : Number(x).toFixed(d));

function wide(rows, cell) {
  const cols = [];
  for (const r of rows) for (const k of Object.keys(r.tools)) if (!cols.includes(k)) cols.push(k);
  const order = ['benchplan', ...cols.filter((c) => c !== 'benchplan')].filter((c) => cols.includes(c));
  const head = `| design | n | ${order.join(' | ')} |\n|---|---|${order.map(() => '---').join('|')}|`;
  const body = rows.map((r) => {
    if (r.skipped) return `| ${r.design} | ${r.size} | ${order.map(() => 'skipped').join(' | ')} |`;
    return `| ${r.design} | ${r.size} | ${order.map((c) => (r.tools[c] ? cell(r.tools[c], r) : r.cannot[c] ? 'cannot' : '–')).join(' | ')} |`;
  });
  return [head, ...body].join('\n');
}

function ivCell(s) {
  if (s.coverage === undefined) return `failed ×${s.failed}`;
  const z = s.zeroWidth > 0 ? ` z ${f(s.zeroWidth, 2)}` : '';
  const flag = s.coverage < COVERS ? '**' : '';
  return `${flag}${f(s.coverage)}${flag} (${f(s.meanWidth)})${z}${s.failed ? ` ✗${s.failed}` : ''}${s.replicates < REPS ? ` R=${s.replicates}` : ''}`;
}

/** The Markdown of a run: versions, then one table per kind, then what each peer cannot run. */
let REPS = Infinity;
const shortError = (text = '') => {
  const lines = text.split('\n').map((l) => l.trim());
  return (lines.find((l) => /\berror: (?!subprocess)/.test(l)) ?? lines.pop() ?? '').replace(/\/tmp\/[^ ]*\//g, '…/').replace(/\|/g, '\\|');
};
export function tables(meta, summary) {
  REPS = meta.replicates;
  const lines = [];
  const say = (t = '') => lines.push(t);
  const rows = summary.filter((r) => r.kind !== 'not-run');
  say(`Run: \`${meta.command}\` on ${meta.date.slice(0, 10)}, ${meta.replicates} replicates a cell (monitor: fewer, below), ${meta.seconds.toFixed(0)} s, ${meta.machine.cpus} CPUs (load ${meta.machine.loadAverage.map((x) => x.toFixed(1)).join(' ')}), Node ${meta.machine.node}, ${meta.machine.python ?? 'no Python'}.`);
  say();
  say('| peer | version | status |');
  say('|---|---|---|');
  say('| benchplan | this branch (dist/) | in-process, one Node process |');
  for (const [name, info] of Object.entries(meta.peers)) say(`| ${name} | ${info.version} | ${info.installed ? (info.runError ? `installed; run failed: ${info.runError.split('\n').pop()}` : info.reused ? 'installed (results of an earlier run with the same cells)' : `installed${info.installedVia ? `, ${info.installedVia}` : ''} (${info.seconds?.toFixed(0) ?? '?'} s for all cells)`) : `not installed: ${shortError(info.error)}`} |`);
  say();
  say('### Issue 29\'s criteria on this run');
  say();
  say(criteriaTables(summary));
  const iv = rows.filter((r) => r.kind === 'interval');
  const maxSe = Math.sqrt((0.95 * 0.05) / meta.replicates);
  // a --cells run may hold no interval cell
  if (iv.length) {
    say(`### Intervals of mean(A − B), 95% two-sided: coverage (mean width)`);
    say();
    say(`MC SE of a coverage near 0.95: ${f(maxSe, 4)} at ${meta.replicates} replicates; R=k: a slow peer stopped after its time budget at k replicates (MC SE √(0.95·0.05/k)); **bold**: below ${COVERS}; z: share of zero-width intervals; ✗k: k calls raised (counted as misses). "(clusters)": the peer's cluster-aware call (clustered cells only).`);
    say();
    say(wide(iv, ivCell));
    say();
    say('Width of benchplan\'s interval against the narrowest peer interval that covers ≥ 0.93 with no zero-width intervals in the same cell:');
    say();
    say('| design | n | benchplan covers | narrowest covering peer | its width | benchplan / it |');
    say('|---|---|---|---|---|---|');
    for (const r of iv) {
      if (r.skipped) continue;
      const bp = r.tools.benchplan;
      const p = r.narrowestCoveringPeer;
      say(`| ${r.design} | ${r.size} | ${f(bp?.coverage)} ± ${f(bp?.se, 3)} | ${p ? p.name : 'none'} | ${p ? f(p.meanWidth) : '–'} | ${p ? f(p.benchplanRatio, 2) : '–'} |`);
    }
    say();
  }
  const gate = rows.filter((r) => r.kind === 'gate');
  if (gate.length) {
    const margins = [...new Set(gate.map((r) => r.margin ?? 0.05))];
    const one = margins.length === 1 ? margins[0] : null;
    say(`### Non-inferiority gate, ${one === null ? 'margin per cell (the design says it; 0.05 where it does not)' : `margin ${one}`}: pass rate ± MC SE`);
    say();
    say(`At a true drop equal to the margin the pass rate is the false-pass rate (should be ≤ 0.05 at one-sided 95%); at no change it is the power. "(like-for-like)": one-sided 95% (the lower end of the two-sided 90% interval > −${one === null ? 'margin' : one}); a peer's own gate at its default level otherwise.`);
    say();
    say(wide(gate, (s) => (s.passRate === undefined ? `failed ×${s.failed}` : `${f(s.passRate)} ± ${f(s.se)}${s.replicates < REPS ? ` R=${s.replicates}` : ''}`)));
    say();
    say(sizeTable(summary));
  }
  const judge = rows.filter((r) => r.kind === 'judge');
  if (judge.length) {
    say(`### Judge-assisted mean (PPI), N = 10 n unlabelled: coverage (mean width) [labels for a width of ${TARGET_WIDTH}]`);
    say();
    say('Labels for the target width: n × (width / target)², the 1/√n law from this cell\'s mean width.');
    say();
    say(wide(judge, (s) => (s.coverage === undefined ? `failed ×${s.failed}` : `${s.coverage < COVERS ? '**' : ''}${f(s.coverage)}${s.coverage < COVERS ? '**' : ''} (${f(s.meanWidth)}) [${s.labelsForTargetWidth}]`)));
    say();
  }
  const mon = rows.filter((r) => r.kind === 'monitor');
  if (mon.length) {
    say('### Monitoring: a look after every item, up to 2,000 paired 0/1 items');
    say();
    say('Decided: share of streams whose sequence excluded 0 by 2,000 items (truth 0.1: power; truth 0: the error under peeking, nominal ≤ 0.05); items: mean (median) items to that decision.');
    say();
    // R=k: a slow peer stopped by its time budget after k streams (its rates are over those k)
    const streams = mon[0].tools.benchplan?.replicates;
    say(wide(mon, (s) => `${f(s.decidedRate)} ± ${f(s.se)}; ${s.meanItems === null ? '–' : `${f(s.meanItems, 0)} (${f(s.medianItems, 0)})`}${streams && s.replicates < streams ? ` R=${s.replicates}` : ''}`));
    say(`(${streams ?? '?'} streams a cell)`);
    say();
  }
  const timed = rows.filter((r) => !r.skipped && r.kind !== 'monitor');
  // a --cells run of monitor cells only has no per-call times to show
  if (timed.length) {
    say('### Time per call, in-process (median ms over a cell\'s replicates)');
    say();
    say(wide(timed, (s) => `${f(s.msPerCall, 2)}${s.msPerCall && timed ? '' : ''}`));
    say();
  }
  // a --cells run without the n = 200 0/1 cell has no command-line timing
  if (Object.keys(meta.commands ?? {}).length > 0) {
    say('Per command (a fresh process, one call on 200 paired 0/1 items; best of 2, wall seconds, ratio to benchplan\'s `compare`):');
    say();
    say('| tool | seconds | / benchplan | what ran |');
    say('|---|---|---|---|');
    const base = meta.commands.benchplan?.seconds;
    for (const [tool, c] of Object.entries(meta.commands)) {
      if (c.none) say(`| ${tool} | – | – | ${c.none} |`);
      else if (c.error) say(`| ${tool} | – | – | failed: ${c.error.split('\n').pop()} |`);
      else say(`| ${tool} | ${f(c.seconds, 2)} | ${f(c.seconds / base, 2)} | ${tool === 'benchplan' ? c.argv : 'python -c: import the peer, read the CSV, its paired call'} |`);
    }
    say();
  }
  const cannot = new Map();
  for (const r of rows) for (const [k, why] of Object.entries(r.cannot)) cannot.set(`${k}|${r.kind}`, why);
  if (cannot.size) {
    say('### What a peer cannot run here, and why');
    say();
    for (const [key, why] of cannot) {
      const [tool, kind] = key.split('|');
      say(`- ${tool}, ${kind}: ${why}`);
    }
    say();
  }
  const errs = rows.flatMap((r) => Object.entries(r.tools).filter(([, s]) => s.error).map(([k, s]) => `- ${k}, ${r.design}, n = ${r.size}: ${s.error}`));
  if (errs.length) {
    say('### Calls that raised');
    say();
    for (const e of [...new Set(errs)].slice(0, 30)) say(e);
    say();
  }
  const notRun = summary.filter((r) => r.kind === 'not-run');
  for (const r of notRun) say(`- ${r.tool} not run: ${r.why}`);
  return `${lines.join('\n')}\n`;
}

const ANALYTIC = new Set(['tango', 'newcombe', 't', 'cluster-t', 'cr2']);
const VALID_FALSE_PASS = 0.055;
const GATE_POWER_GAP = 0.05;
const WIDTH_RATIO = 1.1;

/**
 * Issue 29's "Done when", cell by cell, from a run's summary: benchplan's default covers ≥ 0.93; it is
 * ≤ 1.10× as wide as the narrowest peer interval covering ≥ 0.93 (no zero widths); its gate's power is
 * within 0.05 of the best peer whose false-pass rate at the margin is ≤ 0.055 (and its own false pass
 * ≤ 0.055); its in-process time per call is ≤ the fastest peer's on the analytic paths. Returns
 * { rows: [{ criterion, design, n, benchplan, against, holds }], counts: { criterion: [held, of] } }.
 */
export function criteria(summary) {
  const rows = [];
  const add = (criterion, r, benchplan, against, holds) => rows.push({ criterion, design: r.design, n: r.size, benchplan, against, holds });
  const cells = summary.filter((r) => r.kind !== 'not-run' && !r.skipped);
  const peerEntries = (r) => Object.entries(r.tools).filter(([k]) => k !== 'benchplan');
  for (const r of cells.filter((c) => c.kind === 'interval' || c.kind === 'judge')) {
    const bp = r.tools.benchplan;
    if (!bp || bp.coverage === undefined) continue;
    add('coverage ≥ 0.93', r, `${f(bp.coverage)} ± ${f(bp.se)}`, '', bp.coverage >= COVERS);
    const covering = peerEntries(r).filter(([, s]) => s.coverage >= COVERS && s.zeroWidth === 0);
    if (covering.length === 0) {
      add('width ≤ 1.10 × narrowest covering peer', r, f(bp.meanWidth), 'no peer covers ≥ 0.93 with no zero widths', null);
    } else {
      const [name, best] = covering.reduce((m, e) => (e[1].meanWidth < m[1].meanWidth ? e : m));
      const ratio = bp.meanWidth / best.meanWidth;
      add('width ≤ 1.10 × narrowest covering peer', r, `${f(bp.meanWidth)} (${f(ratio, 2)}×)`, `${name} ${f(best.meanWidth)}, coverage ${f(best.coverage)} at R = ${best.replicates}`, ratio <= WIDTH_RATIO);
    }
  }
  const gates = cells.filter((c) => c.kind === 'gate');
  const role = (c) => c.role ?? gateRole(c, c.truth);
  const sizes = gateSizes(summary);
  for (const power of gates.filter((c) => role(c) === 'power')) {
    const drop = gates.find((c) => c.size === power.size && role(c) === 'false-pass' && familyRoot(c.family) === familyRoot(power.family));
    if (!drop) continue;
    const bpFalse = drop.tools.benchplan?.passRate;
    const bpPower = power.tools.benchplan?.passRate;
    if (bpFalse === undefined || bpPower === undefined) continue;
    const valid = peerEntries(power).filter(([k]) => drop.tools[k]?.passRate !== undefined && drop.tools[k].passRate <= VALID_FALSE_PASS);
    const row = { ...power, design: power.design.replace(/, truth 0$/, '').replace(/, margin σ\/2 − truth = .*$/, '') };
    add('gate false pass ≤ 0.055', row, `${f(bpFalse)} ± ${f(drop.tools.benchplan.se)}`, '', bpFalse <= VALID_FALSE_PASS);
    if (valid.length === 0) {
      add('gate power ≥ best valid peer − 0.05', row, f(bpPower), 'no peer has false pass ≤ 0.055', null);
    } else {
      const [name, best] = valid.reduce((m, e) => (e[1].passRate > m[1].passRate ? e : m));
      add('gate power ≥ best valid peer − 0.05', row, `${f(bpPower)} ± ${f(power.tools.benchplan.se)}`, `${name} ${f(best.passRate)} ± ${f(best.se)} (false pass ${f(drop.tools[name].passRate)}, R = ${best.replicates})`, bpPower >= best.passRate - GATE_POWER_GAP);
    }
    // V2 (bench/peers/real-gate-cells.txt): a peer method counts only if its false pass is ≤ 0.055 in
    // every false-pass cell of this score type at every n it ran (its size over the cells of this run)
    const type = power.scoreType ?? scoreType(power);
    const sized = peerEntries(power).filter(([k, s]) => s.passRate !== undefined && sizes[type]?.[k]?.qualifies);
    if (sized.length === 0) {
      add('gate power ≥ best peer of size ≤ 0.055 − 0.05', row, f(bpPower), `no peer method has false pass ≤ 0.055 in every ${type} false-pass cell`, null);
    } else {
      const [name, best] = sized.reduce((m, e) => (e[1].passRate > m[1].passRate ? e : m));
      const worst = sizes[type][name].worst;
      add('gate power ≥ best peer of size ≤ 0.055 − 0.05', row, `${f(bpPower)} ± ${f(power.tools.benchplan.se)}`, `${name} ${f(best.passRate)} ± ${f(best.se)} (worst false pass ${f(worst.passRate)} over ${sizes[type][name].cells} cells, R = ${best.replicates})`, bpPower >= best.passRate - GATE_POWER_GAP);
    }
  }
  for (const r of cells.filter((c) => c.kind !== 'monitor')) {
    const bp = r.tools.benchplan;
    if (!bp || typeof bp.msPerCall !== 'number') continue;
    const used = Object.keys(bp.methodUsed ?? {});
    const analytic = r.kind !== 'interval' || used.every((m) => ANALYTIC.has(m));
    if (!analytic) continue;
    const timed = peerEntries(r).filter(([, s]) => typeof s.msPerCall === 'number');
    if (timed.length === 0) continue;
    const [name, best] = timed.reduce((m, e) => (e[1].msPerCall < m[1].msPerCall ? e : m));
    const path = r.kind === 'interval' || (r.kind === 'gate' && used.length && !r.family.includes('binary')) ? used.join(', ') : r.kind === 'gate' ? (r.family.includes('binary') ? 'tango + exact score' : 't') : 'ppi';
    add('time per call ≤ fastest peer (analytic paths)', r, `${f(bp.msPerCall, 2)} ms (${path})`, `${name} ${f(best.msPerCall, 2)} ms`, bp.msPerCall <= best.msPerCall);
  }
  const counts = {};
  for (const row of rows) {
    counts[row.criterion] ??= [0, 0, 0];
    if (row.holds === null) counts[row.criterion][2] += 1;
    else {
      counts[row.criterion][1] += 1;
      if (row.holds) counts[row.criterion][0] += 1;
    }
  }
  return { rows, counts };
}

/**
 * Each gate method's size over the false-pass cells of a summary, per score type (V2 of
 * bench/peers/real-gate-cells.txt): { [scoreType]: { [tool]: { cells, worst: { passRate, se,
 * replicates, design, n }, qualifies, separated, over } } }. qualifies: the point estimate is ≤ 0.055
 * in every false-pass cell where the method ran; over: the cells above 0.055; separated: the cells
 * where it is above 0.055 by more than 1.96 MC SE (p̂ − 1.96·√(p̂(1 − p̂)/R) > 0.055), the failures
 * not explained by Monte Carlo noise.
 */
export function gateSizes(summary) {
  const out = {};
  for (const c of summary.filter((r) => r.kind === 'gate' && !r.skipped)) {
    if ((c.role ?? gateRole(c, c.truth)) !== 'false-pass') continue;
    const type = c.scoreType ?? scoreType(c);
    for (const [tool, s] of Object.entries(c.tools)) {
      if (s.passRate === undefined) continue;
      out[type] ??= {};
      const e = (out[type][tool] ??= { cells: 0, worst: null, qualifies: true, over: [], separated: [] });
      e.cells += 1;
      const here = { passRate: s.passRate, se: s.se, replicates: s.replicates, design: c.design, n: c.size };
      if (e.worst === null || s.passRate > e.worst.passRate) e.worst = here;
      if (s.passRate > VALID_FALSE_PASS) {
        e.qualifies = false;
        e.over.push(here);
        if (s.passRate - 1.96 * s.se > VALID_FALSE_PASS) e.separated.push(here);
      }
    }
  }
  return out;
}

/** gateSizes as Markdown: per score type and method, its worst false-pass cell and whether it is of size ≤ 0.055 (V2). */
export function sizeTable(summary) {
  const sizes = gateSizes(summary);
  const lines = ['Size of each gate method (bench/peers/real-gate-cells.txt, rule V2): its worst false-pass cell of each score type in this run, and whether its false pass is ≤ 0.055 in every one (point estimate); "separated": cells above 0.055 by more than 1.96 MC SE.', ''];
  lines.push('| score type | method | false-pass cells | worst (± MC SE, R) | in | size ≤ 0.055 in every cell | cells above 0.055 (separated) |', '|---|---|---|---|---|---|---|');
  for (const [type, byTool] of Object.entries(sizes)) {
    const order = Object.keys(byTool).sort((x, y) => (x === 'benchplan' ? -1 : y === 'benchplan' ? 1 : byTool[x].worst.passRate - byTool[y].worst.passRate));
    for (const tool of order) {
      const e = byTool[tool];
      const w = e.worst;
      lines.push(`| ${type} | ${tool} | ${e.cells} | ${f(w.passRate)} ± ${f(w.se)}, R = ${w.replicates} | ${w.design}, n = ${w.n} | ${e.qualifies ? '✓' : '✗'} | ${e.over.length} (${e.separated.length}) |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The criteria as Markdown: a count per criterion, then every cell where one does not hold or cannot be judged. */
export function criteriaTables(summary) {
  const { rows, counts } = criteria(summary);
  // monitoring cells only (a --cells re-run): the "Done when" sets no bar for them
  if (rows.length === 0 && summary.length > 0 && summary.every((r) => r.kind === 'monitor')) return 'No criterion of issue 29\'s "Done when" applies to these cells: it sets no bar for monitoring (the table below gives the error under peeking and the items to a decision).\n';
  const lines = ['| criterion (issue 29, "Done when") | cells where it holds | cells with no peer to compare |', '|---|---|---|'];
  for (const [c, [held, of, none]] of Object.entries(counts)) lines.push(`| ${c} | ${held} of ${of}${held === of ? ' (all)' : ''} | ${none} |`);
  lines.push('', 'Every cell, with the numbers each verdict rests on (holds: ✓ yes, ✗ no, – no peer to compare):', '');
  lines.push('| criterion | design | n | benchplan | against | holds |', '|---|---|---|---|---|---|');
  for (const r of rows) lines.push(`| ${r.criterion} | ${r.design} | ${r.n} | ${r.benchplan} | ${r.against || '–'} | ${r.holds === null ? '–' : r.holds ? '✓' : '✗'} |`);
  return `${lines.join('\n')}\n`;
}

/** The table of bench/peers/speed.mjs's speed.json: benchplan's analytic calls against the fastest peer's, median ms and ratio. */
export function speedTable(speed) {
  const lines = [];
  lines.push(`In-process analytic paths at larger n (\`node bench/peers/speed.mjs\`, ${speed.date.slice(0, 10)}, ${speed.rounds ? `${speed.rounds} rounds alternating benchplan and the peers, the median of the rounds' medians of ${Math.round(speed.reps / speed.rounds)} calls each` : `median of ${speed.reps} calls`} (a tenth at n = 10,000), ${speed.machine.cpus} CPUs, load ${speed.machine.loadAverage.map((x) => x.toFixed(1)).join(' ')}; ratio = benchplan ÷ the fastest peer call on the same sample):`);
  lines.push('');
  if (speed.peerError) lines.push(`(peers not timed: ${speed.peerError})`, '');
  lines.push('| scores | n | benchplan path | compareModels (auto) | autoPairedInterval | gate | fastest peer call | its ms |', '|---|---|---|---|---|---|---|---|');
  for (const row of speed.rows) {
    const entries = Object.entries(row.peers);
    const [name, ms] = entries.length ? entries.reduce((m, e) => (e[1] < m[1] ? e : m)) : ['–', NaN];
    const cell = (v) => `${f(v, 2)} ms${Number.isFinite(ms) ? ` (${f(v / ms, 2)}×)` : ''}`;
    const bp = row.benchplan;
    lines.push(`| ${row.kind === 'binary' ? '0/1' : '[0, 1] continuous'} | ${row.n} | ${row.methodUsed} | ${cell(bp['compareModels (auto)'])} | ${cell(bp.autoPairedInterval)} | ${cell(bp['gate (nonInferiorityFromScores, margin 0.05)'])} | ${name} | ${f(ms, 3)} |`);
  }
  return `${lines.join('\n')}\n`;
}
