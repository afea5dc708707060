/** 搜索号码 above a number list (黑名单, 禁拨名单): a search goes back to the list's first page. */
import type { CSSProperties } from 'react';
import { ListSearch } from './ListSearch';

type Props = {
  /** the trimmed number typed ('' when cleared) */
  onSearch: (phone: string) => void;
  paging: { resetPage: () => void };
  style?: CSSProperties;
};

export const PhoneSearch = ({ onSearch, paging, style }: Props) => (
  <ListSearch
    placeholder="搜索号码"
    maxLength={20}
    width={240}
    style={style}
    onSearch={(v) => {
      onSearch(v);
      paging.resetPage();
    }}
  />
);
