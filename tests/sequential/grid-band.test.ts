import { describe, expect, it } from 'vitest';
import { gridBand } from '../../src/sequential/grid-band.js';

describe('gridBand', () => {
  const grid = Float64Array.from([0.125, 0.375, 0.625, 0.875]); // G = 4: (j + 1/2)/4

  it('gives the grid points just outside the standing candidates, mapped to [low, high]', () => {
    expect(gridBand(grid, 1, 2, 0, 1)).toEqual({ lower: 0.125, upper: 0.875 });
    // On [−1, 1]: −1 + 2x.
    expect(gridBand(grid, 1, 2, -1, 1)).toEqual({ lower: -0.75, upper: 0.75 });
  });

  it('uses the ends of the range when the first or last grid point still stands', () => {
    expect(gridBand(grid, 0, 3, 0, 1)).toEqual({ lower: 0, upper: 1 });
    expect(gridBand(Float64Array.from([0.25, 0.75]), 0, 0, 0, 1)).toEqual({ lower: 0, upper: 0.75 });
  });

  it('is empty (lower = high, upper = low) when no candidate stands', () => {
    expect(gridBand(grid, 4, 3, -1, 1)).toEqual({ lower: 1, upper: -1 });
  });
});
