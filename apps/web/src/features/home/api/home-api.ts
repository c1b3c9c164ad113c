import type { Home } from '@pagewatch/contracts/home';
import { api } from '../../../lib/api.ts';

export const homeKey = ['home'] as const;
export const fetchHome = () => api<Home>('/home');
