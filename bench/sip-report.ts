// What the sip benches (sip-capacity, bot-media) share to time and report a run.
import fs from 'node:fs';
import os from 'node:os';

export type Row = Record<string, string | number>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

/** /proc/pressure/cpu "some avg10": the share of time a runnable task waited for a core */
export const cpuPressure = () => {
  try {
    return `${/some avg10=([\d.]+)/.exec(fs.readFileSync('/proc/pressure/cpu', 'utf8'))?.[1] ?? '?'} %`;
  } catch {
    return 'n/a';
  }
};

/** the load averages now, two decimals */
export const loadNow = () =>
  os
    .loadavg()
    .map((x) => round(x, 2))
    .join(' ');

/** rows as a Markdown table, every column any row has */
export const markdownTable = (rows: Row[]) => {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [
    `| ${cols.join(' | ')} |`,
    `| ${cols.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${cols.map((c) => String(r[c] ?? '')).join(' | ')} |`),
  ].join('\n');
};
