import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { commands } from '../../scripts/docs-flags.js';
import { DOCS, commandPages, infer, readSchema, withFieldsSection, type Schema } from '../../scripts/json-schemas.js';
import { jsonRunsOfPage } from './json-runs.js';
import { bin, freshFolder, root } from './script.js';

// Every command's `--json` has a published JSON Schema (docs/schemas/COMMAND.schema.json, draft
// 2020-12) and every document the commands print on the docs' own examples (each command page run
// with --json, tests/docs/json-runs.ts) is valid against it. `npx tsx scripts/json-schemas.ts`
// redrafts the schemas and the pages' field lists; a field added, renamed, dropped or retyped fails
// here until it is run and the diff reviewed.
const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true, strict: true });
const names = [...commands().keys()];
const validators = new Map(names.flatMap((name) => {
  const schema = readSchema(name);
  return schema === undefined ? [] : [[name, ajv.compile(schema)] as const];
}));
const errorsOf = (name: string, document: unknown): string => {
  const validate = validators.get(name);
  if (validate === undefined) return `no schema docs/schemas/${name}.schema.json`;
  return validate(document) ? '' : ajv.errorsText(validate.errors, { separator: '\n  ' });
};

describe('JSON Schemas of the commands\' --json', () => {
  for (const name of names) {
    it(`${name}: docs/schemas/${name}.schema.json exists, is closed at the top and its page lists its fields`, () => {
      const schema = readSchema(name);
      expect(schema, `docs/schemas/${name}.schema.json is missing (npx tsx scripts/json-schemas.ts)`).toBeDefined();
      expect(schema!.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema!.additionalProperties).toBe(false);
      expect((schema!.required as string[]).length).toBeGreaterThan(0);
      const page = readFileSync(join(DOCS, `${name}.md`), 'utf8');
      expect(withFieldsSection(page, name, schema!), `docs/${name}.md: the JSON field list is stale (npx tsx scripts/json-schemas.ts)`).toBe(page);
    });
  }
});

describe.concurrent('every --json of the docs\' examples is valid against its schema', () => {
  for (const page of commandPages(names)) {
    it(page, async () => {
      const runs = await jsonRunsOfPage(page, freshFolder());
      const problems: string[] = [];
      let documents = 0;
      for (const run of runs) {
        const where = `${run.page}:${run.line}: benchplan ${run.args.join(' ')}`;
        const allowed = run.command === 'gate' ? [0, 1, 3] : [0];
        if (!allowed.includes(run.status ?? -1)) problems.push(`${where}: exit ${run.status}: ${run.stderr.trim()}`);
        if (run.stdout.trim() === '') continue;
        let document: unknown;
        try {
          document = JSON.parse(run.stdout);
        } catch {
          problems.push(`${where}: printed something that is not one JSON document`);
          continue;
        }
        documents++;
        const errors = errorsOf(run.command, document);
        if (errors !== '') problems.push(`${where}:\n  ${errors}`);
      }
      expect(problems, problems.join('\n')).toEqual([]);
      // A page without commands (its command's examples live on other pages) prints nothing.
      if (runs.length > 0) expect(documents, `${page} printed no JSON document`).toBeGreaterThan(0);
    }, 300_000);
  }
});

describe('the schemas are strict enough to fail', () => {
  // A real document: gate on 39 agreeing items (inconclusive, exit 3).
  const run = spawnSync(process.execPath, [bin, 'gate', 'examples/agree-39.csv', '--baseline', 'main', '--candidate', 'pr', '--margin', '0.05', '--json'], { cwd: root, encoding: 'utf8' });
  const document = () => JSON.parse(run.stdout) as Record<string, unknown>;
  it('the document as printed is valid', () => expect(errorsOf('gate', document())).toBe(''));
  it('an unknown top-level field is rejected', () => {
    expect(errorsOf('gate', { ...document(), interval: [0, 1] })).toMatch(/must NOT have additional properties/);
  });
  it('a required field left out is rejected', () => {
    const { verdict: _, ...rest } = document();
    expect(errorsOf('gate', rest)).toMatch(/must have required property 'verdict'/);
  });
  it('a field of the wrong type is rejected', () => {
    expect(errorsOf('gate', { ...document(), margin: '0.05' })).toMatch(/margin must be number/);
  });
  it('an unknown field in a nested check is rejected', () => {
    const d = document();
    expect(errorsOf('gate', { ...d, overall: { ...(d.overall as object), resamples: 9999 } })).toMatch(/overall must NOT have additional properties/);
  });
});

describe('infer (the schema drafter)', () => {
  it('requires keys present in every document, closes objects, unions types and merges array items', () => {
    const schema = infer([{ x: 1, y: 'a', z: [{ k: 1 }] }, { x: null, z: [{ k: 2, j: true }] }], 'test');
    expect(schema).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['x', 'z'],
      properties: {
        x: { type: ['null', 'number'] },
        y: { type: 'string' },
        z: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['k'], properties: { k: { type: 'number' }, j: { type: 'boolean' } } } },
      },
    } satisfies Schema);
  });
});
