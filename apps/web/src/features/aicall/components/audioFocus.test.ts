import { afterEach, describe, expect, it } from 'vitest';
import { claimAudio, playingAudio, releaseAudio } from './audioFocus';

const player = () => {
  const el = { paused: true, pauses: 0, pause: () => undefined };
  el.pause = () => {
    el.paused = true;
    el.pauses += 1;
  };
  const play = () => {
    el.paused = false;
    claimAudio(el);
  };
  return { el, play };
};

describe('one recording plays at a time (SPEC §2)', () => {
  afterEach(() => {
    const p = playingAudio();
    if (p) releaseAudio(p);
  });

  it('starting a second clip pauses the first, and a third pauses the second only', () => {
    const a = player();
    const b = player();
    const c = player();
    a.play();
    b.play();
    expect(a.el.paused).toBe(true);
    expect(a.el.pauses).toBe(1);
    expect(b.el.paused).toBe(false);
    c.play();
    expect(b.el.paused).toBe(true);
    expect(a.el.pauses).toBe(1);
    expect(playingAudio()).toBe(c.el);
  });

  it('playing the same clip again does not pause it; an ended clip leaves nothing to pause', () => {
    const a = player();
    const b = player();
    a.play();
    a.play();
    expect(a.el.pauses).toBe(0);
    a.el.paused = true;
    releaseAudio(a.el);
    expect(playingAudio()).toBeNull();
    b.play();
    expect(a.el.pauses).toBe(0);
  });

  it('a released clip that another replaced keeps the other as the playing one', () => {
    const a = player();
    const b = player();
    a.play();
    b.play();
    releaseAudio(a.el);
    expect(playingAudio()).toBe(b.el);
  });
});
