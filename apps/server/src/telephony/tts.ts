import { execFile, spawn } from 'node:child_process';
import { type EspeakWasm, sharedEspeakWasm } from '../lib/audio/espeak-wasm';
import { toLine8k } from '../lib/audio/resample';
import { decodeWavAudio, WavDecodeError } from '../lib/audio/wav-decode';
import { SAMPLE_RATE } from './control';

// Offline speech for prompts (线路测试, the group dialer's busy message and the bot's espeak
// providers), as 8 kHz mono 16-bit samples, the line's format. Two engines:
// - `wasm` (the default): the npm package espeak-ng compiled to WASM (lib/audio/espeak-wasm.ts),
//   voice `cmn`, which reads Mandarin correctly; installed by `npm install`, nothing else needed.
// - `binary`: Debian's espeak-ng (TTS_ESPEAK_BIN), voice cmn-latn-pinyin (its plain `cmn` voice
//   reads tone digits as English on Debian 12).
// Either writes 22.05 kHz WAV, resampled to 8 kHz in JS (lib/audio/resample.ts). The engine is
// tried once at start (`findSpeech`: a short text must come out as audio); when it fails
// `synthesize` refuses and the callers refuse what needs speech (语音合成不可用).

export type SpeechBins = { engine: 'wasm' | 'binary'; espeakBin: string };

export type Speech = {
  /** the engine spoke a test text at start */
  readonly isAvailable: boolean;
  /** what was missing, for the log ('' when available) */
  readonly missing: string;
  /** 'espeak-wasm' or 'espeak' */
  readonly engine: string;
  readonly voice: string;
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

const WASM_VOICE = 'cmn';
const BINARY_VOICE = 'cmn-latn-pinyin';
/** a synthesis takes 0.1–0.5 s here; a hung one is ended after this */
const SYNTH_TIMEOUT_MS = 10_000;
/** a prompt longer than this is refused (100 characters speak for ≈ 25 s) */
const MAX_SECONDS = 60;
/** espeak's WAV: 22.05 kHz 16-bit mono, this many bytes of it at most */
const MAX_WAV_BYTES = 44 + MAX_SECONDS * 22_050 * 2 + 64 * 1024;

/** espeak's WAV to the line's samples. */
const toLine = (wav: Buffer): Int16Array => {
  let audio: ReturnType<typeof decodeWavAudio>;
  try {
    audio = decodeWavAudio(wav);
  } catch (err) {
    throw new SpeechError('failed', err instanceof WavDecodeError ? err.message : String(err));
  }
  if (audio.samples.length > MAX_SECONDS * audio.sampleRate) throw new SpeechError('failed', 'prompt too long');
  const samples = toLine8k(audio.samples, audio.sampleRate);
  if (samples.length === 0) throw new SpeechError('failed', 'no audio');
  return samples;
};

/** Debian's espeak-ng, text on stdin (so a text starting with '-' is no option), WAV on stdout. */
const runBinary = (bin: string, text: string) =>
  new Promise<Buffer>((resolve, reject) => {
    const espeak = spawn(bin, ['-v', BINARY_VOICE, '--stdin', '--stdout'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let isDone = false;
    const fail = (why: string) => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      espeak.kill('SIGKILL');
      reject(new SpeechError('failed', why));
    };
    const timer = setTimeout(() => fail('speech synthesis timed out'), SYNTH_TIMEOUT_MS);
    espeak.on('error', (err) => fail(`espeak-ng: ${err.message}`));
    espeak.stdin.on('error', () => undefined);
    espeak.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_WAV_BYTES) return fail('prompt too long');
      chunks.push(c);
    });
    espeak.on('close', (code) => {
      if (isDone) return;
      if (code !== 0) return fail(`espeak-ng exited with ${code}`);
      isDone = true;
      clearTimeout(timer);
      const wav = Buffer.concat(chunks);
      // espeak writes its WAV to a pipe with unknown sizes (0xffffffff): the data runs to the end
      resolve(wav);
    });
    espeak.stdin.end(text);
  });

const runWasm = async (engine: EspeakWasm, text: string) => {
  try {
    return await engine.synthesize(text, WASM_VOICE, SYNTH_TIMEOUT_MS);
  } catch (err) {
    throw new SpeechError('failed', `espeak-ng (wasm): ${err instanceof Error ? err.message : err}`);
  }
};

/** Whether `bin --version` runs and exits 0 within the timeout. */
const answers = (bin: string, timeoutMs: number) =>
  new Promise<boolean>((resolve) => {
    try {
      execFile(bin, ['--version'], { timeout: timeoutMs }, (err) => resolve(!err));
    } catch {
      resolve(false);
    }
  });

const unavailable = (engine: string, voice: string, missing: string): Speech => ({
  isAvailable: false,
  missing,
  engine,
  voice,
  synthesize: () => Promise.reject(new SpeechError('unavailable', `speech synthesis unavailable: ${missing}`)),
});

/** The WASM engine's test at start, once per process (every plugin asks for it). */
let wasmProbe: Promise<string> | undefined;
const probeWasm = (engine: EspeakWasm) => {
  wasmProbe ??= runWasm(engine, '您好')
    .then((wav) => (toLine(wav).length > SAMPLE_RATE / 10 ? '' : 'espeak-ng (wasm) produced no audio'))
    .catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
  return wasmProbe;
};

/** The engine, tried once (`binary`: it must answer `--version` within `timeoutMs`). */
export const findSpeech = async (bins: SpeechBins, timeoutMs = 3_000): Promise<Speech> => {
  if (bins.engine === 'binary') {
    if (!(await answers(bins.espeakBin, timeoutMs))) return unavailable('espeak', BINARY_VOICE, bins.espeakBin);
    return {
      isAvailable: true,
      missing: '',
      engine: 'espeak',
      voice: BINARY_VOICE,
      synthesize: async (text) => toLine(await runBinary(bins.espeakBin, text)),
    };
  }
  const engine = sharedEspeakWasm();
  if (!engine) return unavailable('espeak-wasm', WASM_VOICE, 'the npm package espeak-ng (run npm install)');
  const missing = await probeWasm(engine);
  if (missing) return unavailable('espeak-wasm', WASM_VOICE, missing);
  return {
    isAvailable: true,
    missing: '',
    engine: 'espeak-wasm',
    voice: WASM_VOICE,
    synthesize: async (text) => toLine(await runWasm(engine, text)),
  };
};
