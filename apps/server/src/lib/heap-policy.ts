import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection left alive before it
 * collects again: 1.25× here instead of V8's own 1.1–4× (issue 25, exports under 300 MB). An export
 * of 100,000 customers allocates about 2 GB of short-lived objects; in about half the runs enough of
 * them outlived the young generation that the heap grew from 60 to 110–220 MB of garbage before a
 * full collection, and the process's peak RSS from about 280 to 320–425 MB. With 1.25× the heap
 * stays under 72 MB and the peak RSS under 290 MB, and the API's throughput is unchanged (both
 * measured in bench/README.md). Imported first by main.ts (every process and cluster worker); a
 * `node --heap-growing-percent=N` given by the operator wins.
 */
export const HEAP_GROWING_PERCENT = 25;

if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent') || a.startsWith('--heap_growing_percent'))) {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
