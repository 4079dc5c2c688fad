/** One row of a benchmark report. */
export interface BenchRow {
  name: string;
  unit: string;
  value: number;
  baseline?: number;
  ratio?: number;
  target?: string;
}
