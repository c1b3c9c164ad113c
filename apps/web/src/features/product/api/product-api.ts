import { useQuery } from '@tanstack/react-query';
import type { DownloadFile, ProductInfo } from '@pagewatch/contracts/config';
import { api } from '../../../lib/api.ts';

export const productKeys = {
  info: ['product'] as const,
  downloads: ['downloads'] as const,
};

export const useProductInfo = () => useQuery({ queryKey: productKeys.info, queryFn: () => api<ProductInfo>('/options/product/'), staleTime: Infinity });
export const useDownloads = () => useQuery({ queryKey: productKeys.downloads, queryFn: () => api<DownloadFile[]>('/options/downloads/') });
