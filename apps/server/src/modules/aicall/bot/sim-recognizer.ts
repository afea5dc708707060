import type { SimControlLine } from '../../../telephony/sim/sim-control';
import type { Recognizer, RecognizerSession } from '../../speech/recognizer';

/**
 * A TEST DOUBLE of a speech recognition service, for the sim line only: no audio is recognized.
 * The bot's voice-activity detector still finds each utterance in the leg's audio; the bot opens a
 * session named `<legId>@<startMs>-<endMs>` (where the utterance is on the call's clock) and this
 * double answers with the text the sim line's scripted customer said in that stretch
 * (sim-script.ts), or '' when he said nothing there (noise the detector took for speech).
 */
export const simRecognizer = (line: SimControlLine): Recognizer => ({
  provider: 'sim-test-double',
  open: async (o): Promise<RecognizerSession> => {
    const m = /^(.+)@(\d+)-(\d+)$/.exec(o.name ?? '');
    let isClosed = false;
    return {
      push: () => undefined,
      finish: async () => {
        if (isClosed || !m) return '';
        const [, legId, from, to] = m;
        const text = line
          .simHeard(legId)
          .filter((s) => !s.digit && s.fromMs < Number(to) && s.toMs > Number(from))
          .map((s) => s.text)
          .join('');
        if (text) o.onEvent({ type: 'final', text });
        return text;
      },
      close: () => {
        isClosed = true;
      },
    };
  },
});
