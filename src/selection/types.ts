/** Agreeing or disagreeing candidates: the two kinds of cell a selection design samples. */
export type CellKind = 'disagree' | 'agree';

/** One item of an unlabelled pool, as the selection designs see it. */
export interface PoolItem {
  item: string;
  /** Stratum name; '' when the pool has none. */
  stratum: string;
  /** The compared candidates' outputs match (see outputsMatch). */
  agree: boolean;
  /**
   * For the active design: how uncertain the item's paired difference is, ≥ 0 (e.g. the judge's
   * standard deviation of A − B); undefined means 1 (every disagreement alike).
   */
  uncertainty?: number;
  /** For estimation with a judge: the judge's predicted paired difference A − B; undefined without one. */
  prediction?: number;
  /** The item's cluster (document), when the pool has them: the estimators' pool-level variance is by cluster. */
  cluster?: string;
}

/** One cell (stratum × agree/disagree) of a design. */
export interface DesignCell {
  /** `${stratum}/${kind}`, or just kind without strata. */
  cell: string;
  stratum: string;
  kind: CellKind;
  /** Items of the pool in the cell (N_h) and items chosen (n_h). */
  size: number;
  sampled: number;
  /** n_h / N_h for the stratified design; the mean π over the cell for the active one. */
  inclusionProbability: number;
  /** Cluster sampling: size and sampled count clusters, and this is the items in the cell's clusters. */
  items?: number;
  /** Cluster sampling: the items in the chosen clusters. */
  chosenItems?: number;
}

/** One pool item's place in a design. */
export interface DesignRow {
  item: string;
  /** The item's own stratum ('' without strata). */
  stratum: string;
  /** Whether this item's outputs agree (under cluster sampling the cell's kind is its cluster's). */
  kind: CellKind;
  cell: string;
  inclusionProbability: number;
  selected: boolean;
  /** The judge's predicted difference, when the pool had judge scores (active design estimation). */
  prediction?: number;
  /** The item's cluster, when the pool had them. */
  cluster?: string;
}

/** An annotation design: which items to label, and with what probability each was chosen. */
export interface SelectionDesign {
  method: 'disagreement' | 'active';
  /** stratified: simple random samples of items within cells; poisson: independent draws with probability π_i; cluster: simple random samples of whole clusters within cells, every item of a chosen cluster labelled. */
  sampling: 'stratified' | 'poisson' | 'cluster';
  budget: number;
  auditShare: number;
  seed: string;
  poolSize: number;
  /** Items chosen (for poisson sampling, random with expectation = budget). */
  selected: number;
  /** Budget not needed: every disagreement plus the audit took fewer labels (stratified design). */
  unspent: number;
  cells: DesignCell[];
  rows: DesignRow[];
  warnings: string[];
}
