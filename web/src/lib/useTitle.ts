import { useEffect } from 'react';

/** Sets the document title ("Vendors · DORA Vendor Service"), which screen readers announce on navigation. */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · DORA Vendor Service` : 'DORA Vendor Service';
  }, [title]);
}
