// npm run test:unit: the unit and API tests (vitest.config.ts) in two steps.
// 1. Everything that does not hang on wall-clock timing: pglite, postgres (when DATABASE_URL is set)
//    and web, two files at a time.
// 2. The files that drive the sim line faster than real time, one file at a time per database, the
//    two databases side by side. They are two vitest runs on purpose: projects that share a
//    sequence.groupOrder share one pool of maxWorkers, so inside one run the two timed projects took
//    turns on a single worker (about 430 s each, one after the other, with a core idle).
// Extra arguments are passed to every vitest run. The exit code is 1 if any step failed.
import { spawn } from 'node:child_process';

const hasPostgres = Boolean(process.env.DATABASE_URL);
const extra = process.argv.slice(2);

const vitest = (projects) =>
  new Promise((resolve) => {
    const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), ...extra];
    const child = spawn('npx', args, { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });

const untimed = await vitest(['pglite', ...(hasPostgres ? ['postgres'] : []), 'web']);
const timed = await Promise.all([vitest(['pglite-timed']), ...(hasPostgres ? [vitest(['postgres-timed'])] : [])]);
process.exit([untimed, ...timed].every((code) => code === 0) ? 0 : 1);
