import type { Server } from 'node:http';
import type { TrackingRouteOptions } from '@call-tracking/site';

export function createStaticSite(options: TrackingRouteOptions): Server;
