/**
 * Permalink notices (an ignored value, a refused payload): shown in the page, never blocking.
 * A tiny vanilla store of its own, because they are messages about a link, not user choices
 * (the app store holds only what the user chose, style.md §4.3).
 */
import { createStore, type StoreApi } from 'zustand';
import type { PermalinkNotice } from '../../model/permalink/codec.ts';

export interface NoticeState {
  notices: PermalinkNotice[];
  /** Replace the notices (each decoded link replaces those of the previous one). */
  show: (notices: PermalinkNotice[]) => void;
  dismiss: () => void;
}

/** Build a notice store (one per app, one per test). */
export function createNoticeStore(): StoreApi<NoticeState> {
  return createStore<NoticeState>()((set) => ({
    notices: [],
    show: (notices) => set({ notices }),
    dismiss: () => set({ notices: [] }),
  }));
}

/** The app's notice store. */
export const noticeStore = createNoticeStore();
