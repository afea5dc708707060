import type { AicallTranscript } from '@crm/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { usePushedTranscripts } from './transcript';

const pushed = (callUuid: string, turns = 1): AicallTranscript => ({
  callUuid,
  flowName: '话术',
  grade: 'C',
  score: 50,
  isLive: 1,
  turns: Array.from({ length: turns }, (_, i) => ({
    isAi: i % 2 === 0 ? 1 : 0,
    text: `第${i}句`,
    node: '开场',
    match: '',
    at: i,
  })),
});

describe('the transcripts the bot pushes (转人工)', () => {
  beforeEach(() => usePushedTranscripts.setState({ byUuid: {} }));

  it('keeps the latest per call: a later push of the same call replaces the earlier one', () => {
    usePushedTranscripts.getState().put(pushed('a', 1));
    usePushedTranscripts.getState().put(pushed('a', 3));
    expect(Object.keys(usePushedTranscripts.getState().byUuid)).toEqual(['a']);
    expect(usePushedTranscripts.getState().byUuid.a.turns).toHaveLength(3);
  });

  it('keeps the five latest calls, dropping the oldest', () => {
    for (const uuid of ['a', 'b', 'c', 'd', 'e']) usePushedTranscripts.getState().put(pushed(uuid));
    expect(Object.keys(usePushedTranscripts.getState().byUuid)).toEqual(['a', 'b', 'c', 'd', 'e']);
    usePushedTranscripts.getState().put(pushed('f'));
    expect(Object.keys(usePushedTranscripts.getState().byUuid)).toEqual(['b', 'c', 'd', 'e', 'f']);
    // a call pushed again moves to the newest end
    usePushedTranscripts.getState().put(pushed('b', 2));
    usePushedTranscripts.getState().put(pushed('g'));
    expect(Object.keys(usePushedTranscripts.getState().byUuid)).toEqual(['d', 'e', 'f', 'b', 'g']);
  });
});
