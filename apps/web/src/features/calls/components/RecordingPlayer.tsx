import { DownloadOutlined, PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip, Typography } from 'antd';
import { useRef, useState } from 'react';
import { formatTalkTime } from '../../../phone/dialRules';

/** SPEC §2: one recording plays at a time; starting another pauses the first (one per page, by design). */
const current: { audio: HTMLAudioElement | null } = { audio: null };

/**
 * A call recording in a table cell: play/pause with the time played, and a download link (the
 * token cookie authorises both). Compact, so the 录音 column never covers the others (issue 11).
 */
export const RecordingPlayer = ({ src, name }: { src: string; name: string }) => {
  const audio = useRef<HTMLAudioElement>(null);
  const [isPlaying, setPlaying] = useState(false);
  const [played, setPlayed] = useState(0);
  if (!src) return <Typography.Text type="secondary">无录音</Typography.Text>;
  const toggle = () => {
    const a = audio.current;
    if (!a) return;
    if (a.paused) void a.play().catch(() => setPlaying(false));
    else a.pause();
  };
  return (
    <Space size={2}>
      {/* biome-ignore lint/a11y/useMediaCaption: a phone recording has no captions */}
      <audio
        ref={audio}
        preload="none"
        src={src}
        aria-label="通话录音"
        onPlay={(e) => {
          if (current.audio && current.audio !== e.currentTarget) current.audio.pause();
          current.audio = e.currentTarget;
          setPlaying(true);
        }}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(e) => setPlayed(e.currentTarget.currentTime)}
        onEnded={(e) => {
          if (current.audio === e.currentTarget) current.audio = null;
          setPlaying(false);
          setPlayed(0);
        }}
      />
      <Button
        type="text"
        size="small"
        icon={isPlaying ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
        aria-label={isPlaying ? '暂停录音' : '播放录音'}
        onClick={toggle}
      />
      <Typography.Text type="secondary" style={{ fontVariantNumeric: 'tabular-nums', fontSize: 12 }}>
        {formatTalkTime(played)}
      </Typography.Text>
      <Tooltip title="下载录音">
        <Button type="text" size="small" icon={<DownloadOutlined />} href={src} download={`${name}.wav`} aria-label="下载录音" />
      </Tooltip>
    </Space>
  );
};
