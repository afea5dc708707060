import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

// espeak-ng compiled to WASM (npm `espeak-ng`, the default synthesizer: speech needs no Debian
// package). It runs in one worker thread of its own, so a synthesis (≈ 0.1–0.2 s of CPU) never
// stalls the event loop that paces the calls' audio; the WASM is compiled once per worker and each
// text gets a fresh instance (espeak's main runs once per instance). Texts go through a file in
// the instance's in-memory file system (`-f`), never the argument list, so a text starting with
// '-' is no option. One text at a time; a synthesis past its timeout ends the worker (the next
// text starts a new one). The output is espeak's WAV (22.05 kHz mono 16 bit).

export class EspeakWasmError extends Error {}

/** The worker, as plain JS (it runs outside the TypeScript loader, also under the test runner). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { pathToFileURL } = require('node:url');
const ready = (async () => {
  const { default: ESpeakNg } = await import(pathToFileURL(workerData.js).href);
  const wasm = await WebAssembly.compile(fs.readFileSync(workerData.wasm));
  return { ESpeakNg, wasm };
})();
parentPort.on('message', async ({ id, text, voice }) => {
  try {
    const { ESpeakNg, wasm } = await ready;
    let stderr = '';
    const m = await ESpeakNg({
      arguments: ['-v', voice, '-w', '/out.wav', '-f', '/in.txt'],
      print: () => {},
      printErr: (s) => { if (stderr.length < 500) stderr += s + '\\n'; },
      // espeak's exit must not set the server's exit code
      quit: (status, toThrow) => { throw toThrow; },
      instantiateWasm: (imports, receive) => {
        WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance));
        return {};
      },
      preRun: [(M) => M.FS.writeFile('/in.txt', text)],
    });
    const wav = m.FS.readFile('/out.wav');
    parentPort.postMessage({ id, wav, stderr });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

type Files = { js: string; wasm: string };

/** Where the package's JS and WASM are; undefined when it is not installed. */
export const espeakWasmFiles = (): Files | undefined => {
  try {
    const js = createRequire(import.meta.url).resolve('espeak-ng');
    const wasm = path.join(path.dirname(js), 'espeak-ng.wasm');
    return fs.existsSync(wasm) ? { js, wasm } : undefined;
  } catch {
    return undefined;
  }
};

type Job = { id: number; resolve: (wav: Buffer) => void; reject: (err: Error) => void };

/** One worker running espeak-ng WASM, one text at a time. */
export class EspeakWasm {
  private worker: Worker | undefined;
  private job: Job | undefined;
  private nextId = 1;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly files: Files) {}

  private start() {
    // no inherited node flags: the source is plain CommonJS (an inherited --input-type=module would break it)
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.files, execArgv: [] });
    worker.on('message', (m: { id: number; wav?: Uint8Array; error?: string }) => {
      const job = this.job;
      if (!job || job.id !== m.id) return;
      this.job = undefined;
      if (m.wav) job.resolve(Buffer.from(m.wav.buffer, m.wav.byteOffset, m.wav.byteLength));
      else job.reject(new EspeakWasmError(m.error ?? 'espeak-ng failed'));
    });
    const gone = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      const job = this.job;
      this.job = undefined;
      job?.reject(new EspeakWasmError(why));
    };
    worker.on('error', (err) => gone(`espeak-ng worker failed: ${err.message}`));
    worker.on('exit', (code) => gone(`espeak-ng worker exited with ${code}`));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private run(text: string, voice: string, timeoutMs: number): Promise<Buffer> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.job?.id !== id) return;
        this.job = undefined;
        this.worker = undefined;
        void worker.terminate();
        reject(new EspeakWasmError('speech synthesis timed out'));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        worker.unref();
      };
      this.job = {
        id,
        resolve: (wav) => {
          done();
          resolve(wav);
        },
        reject: (err) => {
          done();
          reject(err);
        },
      };
      // held while a text is being spoken, let go when idle
      worker.ref();
      worker.postMessage({ id, text, voice });
    });
  }

  /** espeak's WAV of the text (texts queue: one at a time). */
  synthesize(text: string, voice: string, timeoutMs: number): Promise<Buffer> {
    const result = this.tail.then(() => this.run(text, voice, timeoutMs));
    this.tail = result.catch(() => undefined);
    return result;
  }

  close() {
    const w = this.worker;
    this.worker = undefined;
    return w?.terminate();
  }
}

let shared: EspeakWasm | undefined;

/** The process's one espeak-ng WASM worker (undefined when the package is not installed). */
export const sharedEspeakWasm = (): EspeakWasm | undefined => {
  if (shared) return shared;
  const files = espeakWasmFiles();
  if (files) shared = new EspeakWasm(files);
  return shared;
};
