/** Analytic standard errors of a mean, naive and cluster-robust (stub). */
export interface ClusteredStandardErrorResult {
  naiveStandardError: number;
  clusteredStandardError: number;
  designEffect: number;
  n: number;
  nClusters: number;
}

/** Miller 2024 Appendix A clustered SE (stub). */
export function clusteredStandardError(x: ArrayLike<number>, cluster: Int32Array): ClusteredStandardErrorResult {
  void x;
  void cluster;
  throw new Error('clusteredStandardError: not implemented yet');
}
