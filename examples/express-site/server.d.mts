import type { TrackingRouteOptions } from '@call-tracking/site';
import type { Express } from 'express';

export function createExpressSite(options: TrackingRouteOptions): Express;
