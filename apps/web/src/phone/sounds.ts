/**
 * Call sounds synthesised with Web Audio (DATA-NOTES: no npm package ships phone tones):
 * ring-in loops (450 Hz, 1 s on / 4 s off), answered is one 0.1 s 1 kHz beep, a put-through two
 * 0.12 s 880 Hz beeps, the end tone is
 * 450 Hz 0.35 s on/off three times. Browsers may keep the context suspended until the first
 * click; a tone that cannot play is skipped, never an error.
 */
let ctx: AudioContext | null = null;
let ringTimer: number | undefined;

const audio = (): AudioContext | null => {
  if (typeof window.AudioContext !== 'function') return null;
  ctx ??= new AudioContext();
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
  return ctx;
};

/** Plays `bursts` of a sine tone: [start offset s, length s]. */
const tone = (freq: number, bursts: [number, number][], volume = 0.2) => {
  const ac = audio();
  if (!ac) return;
  const t0 = ac.currentTime + 0.02;
  for (const [at, len] of bursts) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0, t0 + at);
    gain.gain.linearRampToValueAtTime(volume, t0 + at + 0.01);
    gain.gain.setValueAtTime(volume, t0 + at + len - 0.01);
    gain.gain.linearRampToValueAtTime(0, t0 + at + len);
    osc.connect(gain).connect(ac.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + len + 0.02);
  }
};

const RING_PERIOD_MS = 5000;

export const sounds = {
  /** the incoming call rings until stopRing() */
  startRing() {
    if (ringTimer !== undefined) return;
    const ring = () => tone(450, [[0, 1]]);
    ring();
    ringTimer = window.setInterval(ring, RING_PERIOD_MS);
  },
  stopRing() {
    window.clearInterval(ringTimer);
    ringTimer = undefined;
  },
  answered() {
    tone(1000, [[0, 0.1]]);
  },
  /** a group dialer's put-through answered by itself (issue 23): two short high beeps, no ring */
  putThrough() {
    tone(880, [
      [0, 0.12],
      [0.2, 0.12],
    ]);
  },
  ended() {
    tone(450, [
      [0, 0.35],
      [0.7, 0.35],
      [1.4, 0.35],
    ]);
  },
};
