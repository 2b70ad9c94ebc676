import { describe, expect, it } from 'vitest';
import * as hook from '../../promptfoo.js';

// promptfoo.d.ts declares what promptfoo.js exports: the same names, functions where it says so.
describe('promptfoo.d.ts', () => {
  it('names exactly the runtime exports of promptfoo.js', async () => {
    const { readFileSync } = await import('node:fs');
    const declared = [...readFileSync(new URL('../../promptfoo.d.ts', import.meta.url), 'utf8').matchAll(/^export (?:function|const) (\w+)/gm)].map((m) => m[1]).sort();
    const runtime = Object.keys(hook).filter((k) => k !== 'default').sort();
    expect(declared).toEqual(runtime);
    expect(typeof hook.benchplanHook).toBe('function');
    expect(typeof hook.evaluateAgainstBaseline).toBe('function');
  });
});
