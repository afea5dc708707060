import type { Contact, ContactBody, ContactEditBody, ListData, PhoneReveal } from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/customer';

/** sourceType 1: a phone control of the customer's template, edited on the customer itself; 2: added on the tab. */
export const isTemplateNumber = (c: Contact) => c.sourceType === 1;

/** The phone tab's filters plus page and size (GET other/phone). */
export type ContactListQuery = {
  contactNo?: string;
  kpType?: number;
  recommend?: number;
  page: number;
  limit: number;
};

/**
 * Keys sit under the customer's own key (['customer', cmCtid], customers/templates-api.ts):
 * the list starts with the customer's template phone numbers, so saving the customer
 * refreshes this tab as well.
 */
export const contactKeys = {
  all: (cmCtid: number) => ['customer', cmCtid, 'contacts'] as const,
  list: (cmCtid: number, query: ContactListQuery) => [...contactKeys.all(cmCtid), query] as const,
};

/** The customer's numbers, template phones first, then the ones added on the tab (SPEC §9: 20 a page). */
export const useContacts = (cmCtid: number, query: ContactListQuery) =>
  useQuery({
    queryKey: contactKeys.list(cmCtid, query),
    queryFn: () => http.get<ListData<Contact>>(`${BASE}/other/phone`, { cmCtid, ...query }),
    placeholderData: keepPreviousData,
  });

const useInvalidateContacts = (cmCtid: number) => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: contactKeys.all(cmCtid) });
};

export const useCreateContact = (cmCtid: number) => {
  const onSuccess = useInvalidateContacts(cmCtid);
  return useMutation({
    mutationFn: (body: ContactBody) => http.post<{ ccId: number }>(`${BASE}/other/phonecreate`, body),
    onSuccess,
  });
};

/** A masked number sent back unchanged keeps the stored one (server rule). */
export const useEditContact = (cmCtid: number) => {
  const onSuccess = useInvalidateContacts(cmCtid);
  return useMutation({
    mutationFn: (body: ContactEditBody) => http.post<null>(`${BASE}/other/phoneedit`, body),
    onSuccess,
  });
};

export const useDeleteContact = (cmCtid: number) => {
  const onSuccess = useInvalidateContacts(cmCtid);
  return useMutation({
    mutationFn: (ccId: number) => http.post<null>(`${BASE}/other/phonedel`, { ccId }),
    onSuccess,
  });
};

/**
 * SPEC §6: the full number behind a mask. A mutation, never a query: every call counts
 * against the daily limit, so nothing may refetch it. At the limit the server answers a
 * non-zero code and the http client shows its message.
 */
export const useRevealPhone = () =>
  useMutation({
    mutationFn: (contact: Contact) =>
      http.get<PhoneReveal>(
        `${BASE}/phone`,
        isTemplateNumber(contact)
          ? { cmCtid: contact.cmCtid, cbTacid: contact.cbTacid }
          : { cmCtid: contact.cmCtid, sourceId: contact.ccId, sourceType: contact.sourceType },
      ),
  });
