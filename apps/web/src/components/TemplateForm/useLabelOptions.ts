import type { ListData } from '@crm/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/http';

/** A customer tag (SPEC §3 Label): groups have pid 0, tags their group's id; the list may come as a tree. */
export type LabelItem = { cmClid: number; pid: number; name: string; children?: LabelItem[] };

/**
 * Enabled tag groups and tags, flattened, for the tag control (kind 19) and the tag filters. A failing
 * call quietly gives no options rather than an error on every customer form. The key sits under
 * ['labels'], the root the tag settings (features/labels/api.ts) invalidate, so edits there show here.
 */
export const useLabelOptions = () =>
  useQuery({
    queryKey: ['labels', 'options'],
    queryFn: async () => {
      try {
        const data = await http.get<ListData<LabelItem> | LabelItem[]>(
          '/api/frontend/customerset/labellist',
          { actionState: 0, page: 1, limit: 500 },
          { silent: true },
        );
        const list = Array.isArray(data) ? data : (data?.list ?? []);
        return list.flatMap((l) => [l, ...(l.children ?? [])]);
      } catch {
        return [];
      }
    },
    staleTime: 60_000,
  });
