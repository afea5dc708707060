import { Select, Spin } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SearchOption } from './types';

/** SPEC §9: the remote search waits 2500 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 2500;

type Props = {
  value?: string | number;
  onChange?: (value: string | number | undefined) => void;
  fetchOptions: (keyword: string) => Promise<SearchOption[]>;
  placeholder?: string;
  width?: number;
};

/** A select whose options come from the server: all on first open, then per typed keyword. */
export const RemoteSelect = ({ value, onChange, fetchOptions, placeholder, width = 200 }: Props) => {
  const [options, setOptions] = useState<SearchOption[]>([]);
  const [isLoading, setLoading] = useState(false);
  // The chosen option stays listed when a later keyword no longer returns it, so its label shows.
  const [chosen, setChosen] = useState<SearchOption | null>(null);
  const hasLoaded = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(0);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const load = useCallback(
    async (keyword: string) => {
      const id = ++latest.current;
      setLoading(true);
      const result = await fetchOptions(keyword).catch(() => [] as SearchOption[]);
      if (id !== latest.current) return;
      setOptions(result);
      setLoading(false);
    },
    [fetchOptions],
  );

  const search = (keyword: string) => {
    window.clearTimeout(timer.current);
    // Options of the previous keyword would mislead while the new search waits.
    latest.current++;
    setOptions([]);
    setLoading(true);
    timer.current = window.setTimeout(() => load(keyword.trim()), SEARCH_DEBOUNCE_MS);
  };

  const shown =
    chosen && chosen.value === value && !options.some((o) => o.value === chosen.value) ? [chosen, ...options] : options;
  return (
    <Select<string | number, SearchOption>
      value={value}
      placeholder={placeholder}
      allowClear
      style={{ width }}
      options={shown}
      showSearch={{ filterOption: false, onSearch: search }}
      notFoundContent={isLoading ? <Spin size="small" /> : undefined}
      onOpenChange={(isOpen) => {
        if (isOpen && !hasLoaded.current) {
          hasLoaded.current = true;
          void load('');
        }
      }}
      onChange={(v, option) => {
        setChosen(option && !Array.isArray(option) ? option : null);
        onChange?.(v);
      }}
    />
  );
};
