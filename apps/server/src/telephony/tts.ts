import { execFile, spawn } from 'node:child_process';
import { SAMPLE_RATE } from './control';

// Speech for prompts (线路测试 and later the bot): Debian's espeak-ng with the cmn-latn-pinyin voice
// (the plain `cmn` voice reads tone digits as English on Debian 12), converted by sox to 8 kHz mono
// 16-bit samples, the line's format. Both binaries are optional: they are looked for once at start
// (`findSpeech`); without them `synthesize` refuses and the caller shows 语音合成不可用.

export type SpeechBins = { espeakBin: string; soxBin: string };

export type Speech = {
  /** both binaries answered at start */
  readonly isAvailable: boolean;
  /** what was missing, for the log ('' when available) */
  readonly missing: string;
  /** 8 kHz mono samples of the text; rejects with SpeechError */
  synthesize: (text: string) => Promise<Int16Array>;
};

export class SpeechError extends Error {
  constructor(
    readonly reason: 'unavailable' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

const VOICE = 'cmn-latn-pinyin';
/** espeak-ng takes ≈ 30 ms for 55 characters here; a hung process is killed after this */
const SYNTH_TIMEOUT_MS = 10_000;
/** a prompt longer than this is cut (100 characters speak for ≈ 25 s) */
const MAX_SECONDS = 60;

/** Whether `bin --version` runs and exits 0 within the timeout. */
const answers = (bin: string, timeoutMs: number) =>
  new Promise<boolean>((resolve) => {
    try {
      execFile(bin, ['--version'], { timeout: timeoutMs }, (err) => resolve(!err));
    } catch {
      resolve(false);
    }
  });

/** Runs espeak-ng (text on stdin, so a text starting with '-' is no option) piped into sox. */
const run = (bins: SpeechBins, text: string) =>
  new Promise<Int16Array>((resolve, reject) => {
    const espeak = spawn(bins.espeakBin, ['-v', VOICE, '--stdin', '--stdout'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const sox = spawn(
      bins.soxBin,
      ['-q', '-t', 'wav', '-', '-t', 'raw', '-r', String(SAMPLE_RATE), '-c', '1', '-b', '16', '-e', 'signed-integer', '-L', '-'],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    let isDone = false;
    const fail = (why: string) => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      espeak.kill('SIGKILL');
      sox.kill('SIGKILL');
      reject(new SpeechError('failed', why));
    };
    const timer = setTimeout(() => fail('speech synthesis timed out'), SYNTH_TIMEOUT_MS);
    espeak.on('error', (err) => fail(`espeak-ng: ${err.message}`));
    sox.on('error', (err) => fail(`sox: ${err.message}`));
    espeak.stdin.on('error', () => undefined);
    sox.stdin.on('error', () => undefined);
    espeak.stdout.pipe(sox.stdin);
    sox.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_SECONDS * SAMPLE_RATE * 2) return fail('prompt too long');
      chunks.push(c);
    });
    espeak.on('close', (code) => {
      if (code !== 0) fail(`espeak-ng exited with ${code}`);
    });
    sox.on('close', (code) => {
      if (isDone) return;
      if (code !== 0) return fail(`sox exited with ${code}`);
      isDone = true;
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      const samples = new Int16Array(Math.floor(bytes.length / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
      if (samples.length === 0) return reject(new SpeechError('failed', 'no audio'));
      resolve(samples);
    });
    espeak.stdin.end(text);
  });

/** Looks for both binaries once (each must answer `--version` within `timeoutMs`). */
export const findSpeech = async (bins: SpeechBins, timeoutMs = 3_000): Promise<Speech> => {
  const [hasEspeak, hasSox] = await Promise.all([answers(bins.espeakBin, timeoutMs), answers(bins.soxBin, timeoutMs)]);
  const missing = [hasEspeak ? '' : bins.espeakBin, hasSox ? '' : bins.soxBin].filter(Boolean).join(', ');
  const isAvailable = hasEspeak && hasSox;
  return {
    isAvailable,
    missing,
    synthesize: (text) =>
      isAvailable ? run(bins, text) : Promise.reject(new SpeechError('unavailable', `speech binaries missing: ${missing}`)),
  };
};
