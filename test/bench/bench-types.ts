/** One row of a benchmark report. */
export interface BenchRow {
  name: string;
  unit: string;
  value: number;
  baseline?: number;
  ratio?: number;
  target?: string;
  /**
   * What the row measures, when its name also carries figures of the run (rates, other percentiles): rows with
   * the same key in several --runs are one row. Default: the name.
   */
  key?: string;
}
