/**
 * SPEC §2 (AI call detail): one recording plays at a time; starting another pauses the first.
 * Every player of the AI screens claims the focus in its `play` handler, the turn clips and the
 * whole recording alike; the element that ends or unmounts lets it go.
 */
type Playable = Pick<HTMLMediaElement, 'pause' | 'paused'>;

let playing: Playable | null = null;

/** `el` starts playing: the one playing before it pauses. */
export const claimAudio = (el: Playable) => {
  if (playing && playing !== el && !playing.paused) playing.pause();
  playing = el;
};

/** `el` ended or left the screen: nothing holds the focus unless another claimed it since. */
export const releaseAudio = (el: Playable) => {
  if (playing === el) playing = null;
};

/** The element playing now (null when none): for the players' own state. */
export const playingAudio = () => playing;
