import { spawn } from 'node:child_process';

// sox as the converter of any audio it reads (WAV of any rate/width/channels, AIFF, FLAC, OGG…;
// MP3 and M4A only where sox has those formats) to the line's format: 8 kHz mono 16-bit samples.

export class AudioConvertError extends Error {}

const CONVERT_TIMEOUT_MS = 15_000;
/** a prompt longer than this is refused (the flow's prompts speak for seconds) */
const MAX_SECONDS = 120;

/** `type`: sox's name of the input format (the file's extension: wav, mp3, flac…). */
export const convertTo8k = (soxBin: string, input: Buffer, type: string): Promise<Int16Array> =>
  new Promise((resolve, reject) => {
    const sox = spawn(
      soxBin,
      ['-q', '-t', type, '-', '-t', 'raw', '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-L', '-'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let isDone = false;
    const fail = (why: string) => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      sox.kill('SIGKILL');
      reject(new AudioConvertError(why));
    };
    const timer = setTimeout(() => fail('audio conversion timed out'), CONVERT_TIMEOUT_MS);
    sox.on('error', (err) => fail(`sox: ${err.message}`));
    sox.stdin.on('error', () => undefined);
    sox.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 500) stderr += c.toString();
    });
    sox.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_SECONDS * 8000 * 2) return fail('audio too long');
      chunks.push(c);
    });
    sox.on('close', (code) => {
      if (isDone) return;
      if (code !== 0) return fail(`sox exited with ${code}: ${stderr.trim().slice(0, 200)}`);
      isDone = true;
      clearTimeout(timer);
      const bytes = Buffer.concat(chunks);
      const samples = new Int16Array(Math.floor(bytes.length / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
      if (samples.length === 0) return reject(new AudioConvertError('no audio'));
      resolve(samples);
    });
    sox.stdin.end(input);
  });
