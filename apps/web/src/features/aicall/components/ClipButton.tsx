import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { claimAudio, releaseAudio } from './audioFocus';

/**
 * A small play/pause button for one turn's clip (the bot's prompt or the customer's utterance).
 * The file is fetched only when played; the token cookie authorises it as for call recordings.
 */
export const ClipButton = ({ src, label }: { src: string; label: string }) => {
  const audio = useRef<HTMLAudioElement>(null);
  const [isPlaying, setPlaying] = useState(false);
  useEffect(() => {
    const el = audio.current;
    return () => {
      if (!el) return;
      el.pause();
      releaseAudio(el);
    };
  }, []);
  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => setPlaying(false));
    else el.pause();
  };
  return (
    <>
      {/* biome-ignore lint/a11y/useMediaCaption: the turn's text is shown beside it */}
      <audio
        ref={audio}
        preload="none"
        src={src}
        aria-label={label}
        data-testid="turn-audio"
        onPlay={(e) => {
          claimAudio(e.currentTarget);
          setPlaying(true);
        }}
        onPause={() => setPlaying(false)}
        onEnded={(e) => {
          releaseAudio(e.currentTarget);
          setPlaying(false);
        }}
      />
      <Button
        type="text"
        size="small"
        icon={isPlaying ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
        aria-label={isPlaying ? `暂停${label}` : `播放${label}`}
        aria-pressed={isPlaying}
        onClick={toggle}
      />
    </>
  );
};
