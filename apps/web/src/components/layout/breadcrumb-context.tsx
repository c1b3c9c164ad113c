import { createContext, use, useEffect, useState, type ReactNode } from 'react';

/** One step of the header breadcrumb; `to` makes it a link. */
export interface Crumb {
  label: string;
  to?: string;
}

interface BreadcrumbState {
  crumbs: Crumb[];
  setCrumbs: (crumbs: Crumb[]) => void;
}

const BreadcrumbContext = createContext<BreadcrumbState>({ crumbs: [], setCrumbs: () => {} });

/** The header shows the breadcrumb but pages know it, so pages publish it here. */
export function BreadcrumbProvider({ children }: { children: ReactNode }) {
  const [crumbs, setCrumbs] = useState<Crumb[]>([]);
  return <BreadcrumbContext value={{ crumbs, setCrumbs }}>{children}</BreadcrumbContext>;
}

export function useBreadcrumbs(): Crumb[] {
  return use(BreadcrumbContext).crumbs;
}

/** Publishes the page's breadcrumb while it is mounted (compared by value, so inline arrays are fine). */
export function useSetBreadcrumbs(crumbs: Crumb[]) {
  const { setCrumbs } = use(BreadcrumbContext);
  const key = JSON.stringify(crumbs);
  useEffect(() => {
    setCrumbs(JSON.parse(key) as Crumb[]);
  }, [key, setCrumbs]);
  useEffect(() => () => setCrumbs([]), [setCrumbs]);
}
