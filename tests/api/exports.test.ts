import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

// The public API is what the docs describe: at most 250 runtime names, and no internals (locks,
// temporary files, byte readers, CSV cell guards, root finders, bet sizes, format constants).
// Tests reach internals by path.
describe('the public API', () => {
  const names = Object.keys(api);
  it('has at most 250 runtime exports', () => {
    expect(names.length).toBeGreaterThan(100);
    expect(names.length).toBeLessThanOrEqual(250);
  });
  it('exports none of the internals', () => {
    const internals = ['tryLock', 'processIsAlive', 'writeTempFile', 'readInputBytes', 'neutraliseCell', 'brentRoot', 'psiE', 'betSize', 'reasonNumber', 'HASH_CHUNK_BYTES', 'VERSION_RECORD_FORMAT', 'ARCHIVE_HEAD_FORMAT', 'SIGNOFF_RECORD_FORMAT', 'REPORT_CSS'];
    for (const name of internals) expect(names, name).not.toContain(name);
  });
  it('exports the functions the docs call', () => {
    for (const name of ['loadScores', 'pairScores', 'autoPairedInterval', 'compareModels', 'nonInferiorityGate', 'sizeFromPilot', 'stratifiedHeadlines', 'costSweep', 'cohenKappa', 'freezeVersion', 'verifyArchive', 'importResults', 'shortlist', 'signoff', 'monitorComparison', 'expectNoRegression']) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
    }
  });
});
