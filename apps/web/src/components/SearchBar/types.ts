import type { ReactNode } from 'react';

export type SearchOption = { value: string | number; label: string; disabled?: boolean };
/** A select option or a group of options (antd OptGroup shape). */
export type SearchSelectOption = SearchOption | { label: string; title?: string; options: SearchOption[] };
export type SearchCascaderOption = { value: string | number; label: string; children?: SearchCascaderOption[] };

type FieldBase = {
  /** key of the emitted value */
  name: string;
  /** placeholder of inputs and selects; the label in front of pickers and ranges */
  label: string;
  /** SPEC §5: default 200 px */
  width?: number;
  /** shown in the 更多筛选 area instead of the first rows */
  isMore?: boolean;
};

export type SearchField = FieldBase &
  (
    | { kind: 'text' /** SPEC §5: default 20 */; maxLength?: number }
    | {
        kind: 'remoteSelect' /** called 2500 ms after typing stops (SPEC §9), '' on first open */;
        fetchOptions: (keyword: string) => Promise<SearchOption[]>;
      }
    | { kind: 'select'; options: SearchSelectOption[]; isMultiple?: boolean }
    | { kind: 'cascader'; options: SearchCascaderOption[] /** any level may be chosen, not only leaves */; isAnyLevel?: boolean }
    | { kind: 'date' }
    | {
        kind: 'dateRange';
        /** 'datetime' (default) sends start 00:00:00 and end 23:59:59 (SPEC §9); 'date' sends bare days */
        valueFormat?: 'datetime' | 'date';
      }
    | { kind: 'datetimePair' }
    | { kind: 'numberRange'; min?: number; max?: number }
    | { kind: 'custom' /** a form control taking value/onChange; its value is emitted as it is */; render: () => ReactNode }
  );

export type SearchFieldKind = SearchField['kind'];

/** A numeric range as emitted: either end may be missing. */
export type NumberRange = { min?: number; max?: number };

/**
 * Emitted filter values by field name; empty fields are left out. Text is trimmed, dates are
 * 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss' strings, ranges `[start, end]`, number ranges NumberRange.
 */
export type SearchValues = Record<string, unknown>;
