/**
 * The calls of the public contract pages (no login): the signing page, reached by the customer's
 * link, and the verify page. Errors are shown by the pages themselves (silent), in Chinese.
 */
import type { ContractDraftBody, ContractVerify, SignSubmitBody, SignView } from '@crm/contracts';
import { useQuery } from '@tanstack/react-query';
import { ApiError, http } from '../../api/http';

const BASE = '/api/contract';

export const useSignView = (token: string) =>
  useQuery({
    queryKey: ['contract-sign', token],
    queryFn: () => http.get<SignView>(`${BASE}/sign/view`, { token }, { silent: true }),
    retry: false,
  });

/** SPEC §7 contract draft {price, name, phone} (no credentials): confirms what the customer read, then sends the one-time code. */
export const requestSignCode = (body: ContractDraftBody) =>
  http.post<{ phone_masked: string; expires_in: number; resend_in: number }>(`${BASE}/draft`, body, { silent: true });

export const submitSignature = (body: SignSubmitBody) =>
  http.post<{ status: number; status_name: string; signed_at: string }>(`${BASE}/sign/submit`, body, { silent: true });

export const verifyContractPdf = (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return http.upload<ContractVerify>(`${BASE}/verify`, form, { silent: true });
};

/** SPEC §8: a contract draft failure shows the server's msg, or 操作失败. */
export const failureText = (err: unknown) => (err instanceof ApiError && err.message ? err.message : '操作失败');

/** The link itself is unusable (invalid, expired): the page shows only this. */
export const LINK_DEAD_CODES = new Set([118020, 118021]);
