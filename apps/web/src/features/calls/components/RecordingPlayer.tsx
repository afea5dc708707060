import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';

/** SPEC §2: one recording plays at a time; starting another pauses the first. */
let playing: HTMLAudioElement | null = null;
const onPlay = (audio: HTMLAudioElement) => {
  if (playing && playing !== audio) playing.pause();
  playing = audio;
};

/** A call recording: the browser's player plus a download link (the token cookie authorises both). */
export const RecordingPlayer = ({ src, name }: { src: string; name: string }) => {
  if (!src) return <span style={{ color: 'var(--ant-color-text-quaternary)' }}>无录音</span>;
  return (
    <Space size={4}>
      {/* biome-ignore lint/a11y/useMediaCaption: a phone recording has no captions */}
      <audio
        controls
        preload="none"
        src={src}
        aria-label="通话录音"
        style={{ height: 32, width: 240 }}
        onPlay={(e) => onPlay(e.currentTarget)}
        onEnded={(e) => {
          if (playing === e.currentTarget) playing = null;
        }}
      />
      <Tooltip title="下载录音">
        <Button type="text" size="small" icon={<DownloadOutlined />} href={src} download={`${name}.wav`} aria-label="下载录音" />
      </Tooltip>
    </Space>
  );
};
