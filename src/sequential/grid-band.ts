/**
 * The reported bounds of a confidence sequence run on a grid of candidate means m_j = (j + ½)/G in
 * [0, 1] (the betting sequences): the candidates still standing are grid[first … last], and the
 * bounds are the grid points just outside them, mapped back to the values' range [low, high]
 * (conservative on the grid). With no candidate standing (first > last) the band is empty:
 * lower = high and upper = low.
 * @example gridBand(Float64Array.from([0.25, 0.75]), 0, 0, 0, 1) // => { lower: 0, upper: 0.75 }
 */
export function gridBand(grid: Float64Array, first: number, last: number, low: number, high: number): { lower: number; upper: number } {
  if (first > last) return { lower: high, upper: low };
  const below = first === 0 ? 0 : grid[first - 1];
  const above = last === grid.length - 1 ? 1 : grid[last + 1];
  return { lower: low + (high - low) * below, upper: low + (high - low) * above };
}
