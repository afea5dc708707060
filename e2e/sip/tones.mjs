// Test tones (8 kHz mono 16-bit WAV): the browser's fake microphone (440 Hz, 0.5 s on / 0.5 s off)
// and the callee's answer (1 kHz). Usage: node e2e/sip/tones.mjs OUTDIR
import fs from 'node:fs';
import path from 'node:path';

const wav = (file, seconds, sample) => {
  const n = seconds * 8000;
  const b = Buffer.alloc(44 + n * 2);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + n * 2, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(sample(i / 8000)), 44 + i * 2);
  fs.writeFileSync(file, b);
};
const dir = process.argv[2];
wav(path.join(dir, 'browser-mic.wav'), 10, (t) => (t % 1 < 0.5 ? 8000 * Math.sin(2 * Math.PI * 440 * t) : 0));
wav(path.join(dir, 'callee-tone.wav'), 30, (t) => 8000 * Math.sin(2 * Math.PI * 1000 * t));
