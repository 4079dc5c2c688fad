/** The JSON value on each line of `text` (JSON logs, or a flow's JSON output), in order; blank lines at either end are ignored. */
export function jsonLines<T = Record<string, unknown>>(text: string): T[] {
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
}

/** The `message` of each JSON log line of `text`. */
export function logMessages(text: string): unknown[] {
  return jsonLines(text).map((l) => l.message);
}
