import { Input } from 'antd';
import type { CSSProperties } from 'react';

type Props = {
  /** also the box's accessible name */
  placeholder: string;
  maxLength?: number;
  width?: number;
  style?: CSSProperties;
  /** the trimmed text ('' when cleared) */
  onSearch: (value: string) => void;
};

/** A list toolbar's search box: searches on Enter or the icon, trims, and clears with the ✕. */
export const ListSearch = ({ placeholder, maxLength = 30, width = 220, style, onSearch }: Props) => (
  <Input.Search
    placeholder={placeholder}
    aria-label={placeholder}
    allowClear
    maxLength={maxLength}
    style={{ width, ...style }}
    onSearch={(v) => onSearch(v.trim())}
  />
);
