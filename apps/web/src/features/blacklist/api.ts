import type {
  BlackCheckBody,
  BlackCheckResult,
  BlackFile,
  BlackFileCreateBody,
  BlackFileEditBody,
  BlackFileListQuery,
  BlackNumber,
  BlackNumberCreateBody,
  BlackNumberListQuery,
  ListData,
  UploadResult,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/black';

export const blacklistKeys = {
  all: ['blacklist'] as const,
  files: (q: Partial<BlackFileListQuery>) => [...blacklistKeys.all, 'files', q] as const,
  numbers: (q: Partial<BlackNumberListQuery>) => [...blacklistKeys.all, 'numbers', q] as const,
};

export const useBlackFiles = (query: Partial<BlackFileListQuery>) =>
  useQuery({
    queryKey: blacklistKeys.files(query),
    queryFn: () => http.get<ListData<BlackFile>>(`${BASE}/file/list`, query),
    placeholderData: keepPreviousData,
  });

/** Numbers of a file (cmBfid) or the manual entries (cmBfid 0). */
export const useBlackNumbers = (query: Partial<BlackNumberListQuery>, enabled = true) =>
  useQuery({
    queryKey: blacklistKeys.numbers(query),
    queryFn: () => http.get<ListData<BlackNumber>>(`${BASE}/number/list`, query),
    placeholderData: keepPreviousData,
    enabled,
  });

const useBlackMutation = <B, R = null>(path: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => http.post<R>(`${BASE}/${path}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: blacklistKeys.all }),
  });
};

export const useCreateBlackFile = () => useBlackMutation<BlackFileCreateBody, { cmBfid: number }>('file/create');
export const useEditBlackFile = () => useBlackMutation<BlackFileEditBody>('file/edit');
export const useDeleteBlackFile = () => useBlackMutation<{ cmBfid: number }>('file/del');
export const useCreateBlackNumber = () => useBlackMutation<BlackNumberCreateBody>('number/create');
export const useDeleteBlackNumbers = () => useBlackMutation<{ ids: number[] }, { count: number }>('number/del');

export const useBlackCheck = () =>
  useMutation({ mutationFn: (body: BlackCheckBody) => http.post<BlackCheckResult>(`${BASE}/check`, body) });

/** Uploads a number file (.xlsx / .txt) through the shared upload call; its id feeds import and check. */
export const uploadNumberFile = (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return http.upload<UploadResult>('/api/frontend/upload/file', form);
};
