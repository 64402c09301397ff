import type { Executor as Handle, Transaction } from '../../domain/ports.js';
import type { Repositories } from '../../domain/repositories.js';
import type { Db, Store, Tx } from '../db.js';
import { createReportQueries } from '../queries/reports.js';
import { writeAudit } from './audit.js';
import {
  findReport,
  findReportCampaign,
  insertReport,
  lockCallOfCampaign,
  setCallDisposition,
} from './buyer-reports.js';
import { recordInboundCall } from './calls.js';
import {
  analyzeNumbers,
  campaignNumbers,
  findCampaign,
  insertCampaign,
  insertNumbers,
  numbersInUse,
  removeNumbers,
  updateCampaign,
} from './campaigns.js';
import { findCarrierCall, lockCarrierCall, setCarrierCallStatus } from './carrier-calls.js';
import { appendConsentEvents, contactHistory } from './consents.js';
import * as consoleRepo from './console.js';
import { claimJobs, recordOutcome } from './dispatch.js';
import { conversionRows, countConversions, findExportCampaign } from './exports.js';
import { releaseKey, reserveKey } from './idempotency.js';
import { clarificationsSent, ownersOfNumber, touchForKeypress } from './opt-outs.js';
import { findKey, findOrg, insertKey, insertOrg, updateKey, updateOrg } from './orgs.js';
import { campaignsWithPool, observePool } from './pool-health.js';
import { recordSimulatedMessage } from './simulated-messages.js';
import {
  deleteBatch,
  dueRndChecks,
  nationalListDates,
  recordImport,
  removeUntouched,
  saveRndAnswer,
  suppressionFacts,
  upsertBatch,
} from './suppression.js';
import {
  contactState,
  findCampaign as findTouchCampaign,
  lockContact,
  recordDecision,
} from './touches.js';
import { claimDeliveries, recordAttempt } from './webhook-deliveries.js';
import {
  emitBuyerReport,
  emitCallCompleted,
  emitCallReceived,
  emitConsentRevoked,
  emitPoolExhausted,
  emitTouchFinal,
  emitTouchQueued,
} from './webhook-emitters.js';
import {
  deleteEndpoint,
  getEndpoint,
  insertEndpoint,
  listEndpoints,
  poolSizeOf,
  updateEndpoint,
} from './webhooks.js';

/**
 * A repository function as the domain sees it: the store's executor becomes the domain's opaque
 * handle (a transaction where the function needs one). Only the type changes: the domain hands
 * back the very object the store gave it (`db`, or `tx` in `transaction`).
 */
type Ported<F> = F extends (ex: infer E, ...args: infer A) => infer R
  ? (ex: [Db] extends [E] ? Handle : Transaction, ...args: A) => R
  : never;

function port<F extends (ex: Tx, ...args: never[]) => unknown>(f: F): Ported<F> {
  return f as unknown as Ported<F>;
}

/**
 * The domain's repositories over one store, built once at start-up: no allocation per request.
 * `satisfies` checks every function against the interface the domain declared for it.
 */
export function createRepositories(store: Store): Repositories {
  const repos = {
    db: store.db as unknown as Handle,
    // Looked up per call: the store's transaction wrapper retries deadlocks (src/store/db.ts).
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) =>
      store.db.transaction(fn as unknown as (tx: Tx) => Promise<T>),
    writeAudit: port(writeAudit),

    findReportCampaign: port(findReportCampaign),
    lockCallOfCampaign: port(lockCallOfCampaign),
    findReport: port(findReport),
    insertReport: port(insertReport),
    setCallDisposition: port(setCallDisposition),

    emitCallReceived: port(emitCallReceived),
    emitCallCompleted: port(emitCallCompleted),
    emitBuyerReport: port(emitBuyerReport),
    emitTouchQueued: port(emitTouchQueued),
    emitTouchFinal: port(emitTouchFinal),
    emitConsentRevoked: port(emitConsentRevoked),
    emitPoolExhausted: port(emitPoolExhausted),
    poolSizeOf: port(poolSizeOf),
    claimDeliveries: (c: Parameters<typeof claimDeliveries>[1]) => claimDeliveries(store, c),
    recordAttempt: (...a: DropFirst<Parameters<typeof recordAttempt>>) =>
      recordAttempt(store, ...a),

    findExportCampaign: port(findExportCampaign),
    countConversions: port(countConversions),
    conversionRows: port(conversionRows),

    nationalListDates: port(nationalListDates),
    upsertBatch: port(upsertBatch),
    deleteBatch: port(deleteBatch),
    removeUntouched: port(removeUntouched),
    recordImport: port(recordImport),
    saveRndAnswer: port(saveRndAnswer),
    dueRndChecks: (before: Date, limit: number) => dueRndChecks(store, before, limit),

    campaignsWithPool: () => campaignsWithPool(store),
    observePool: (campaignId: string, since: Date, now: Date) =>
      observePool(store, campaignId, since, now),

    appendConsentEvents: port(appendConsentEvents),
    contactHistory: port(contactHistory),

    findTouchCampaign: port(findTouchCampaign),
    contactState: port(contactState),
    suppressionFacts: port(suppressionFacts),
    lockContact: port(lockContact),
    recordDecision: port(recordDecision),
    reserveKey: (...a: DropFirst<Parameters<typeof reserveKey>>) => reserveKey(store, ...a),
    releaseKey: (...a: DropFirst<Parameters<typeof releaseKey>>) => releaseKey(store, ...a),

    lockCarrierCall: port(lockCarrierCall),
    findCarrierCall: port(findCarrierCall),
    setCarrierCallStatus: port(setCarrierCallStatus),
    recordInboundCall: port(recordInboundCall),
    ownersOfNumber: port(ownersOfNumber),
    touchForKeypress: port(touchForKeypress),
    clarificationsSent: port(clarificationsSent),

    claimJobs: (c: Parameters<typeof claimJobs>[1]) => claimJobs(store, c),
    recordOutcome: (...a: DropFirst<Parameters<typeof recordOutcome>>) =>
      recordOutcome(store, ...a),
    recordSimulatedMessage: port(recordSimulatedMessage),

    findOrg: port(findOrg),
    insertOrg: port(insertOrg),
    updateOrg: port(updateOrg),
    findKey: port(findKey),
    insertKey: port(insertKey),
    updateKey: port(updateKey),
    findCampaign: port(findCampaign),
    insertCampaign: port(insertCampaign),
    updateCampaign: port(updateCampaign),
    campaignNumbers: port(campaignNumbers),
    numbersInUse: port(numbersInUse),
    insertNumbers: port(insertNumbers),
    removeNumbers: port(removeNumbers),
    analyzeNumbers: port(analyzeNumbers),
    getEndpoint: port(getEndpoint),
    listEndpoints: port(listEndpoints),
    insertEndpoint: port(insertEndpoint),
    updateEndpoint: port(updateEndpoint),
    deleteEndpoint: port(deleteEndpoint),

    findUserByEmail: port(consoleRepo.findUserByEmail),
    findUser: port(consoleRepo.findUser),
    insertUser: port(consoleRepo.insertUser),
    setPassword: port(consoleRepo.setPassword),
    listUsers: port(consoleRepo.listUsers),
    memberships: port(consoleRepo.memberships),
    putMembership: port(consoleRepo.putMembership),
    removeMembership: port(consoleRepo.removeMembership),
    insertSession: port(consoleRepo.insertSession),
    findSession: port(consoleRepo.findSession),
    touchSession: port(consoleRepo.touchSession),
    endSession: port(consoleRepo.endSession),
    endUserSessions: port(consoleRepo.endUserSessions),
    insertLink: port(consoleRepo.insertLink),
    findLink: port(consoleRepo.findLink),
    useLink: port(consoleRepo.useLink),
    listLinks: port(consoleRepo.listLinks),
    ...createReportQueries(store),
  } satisfies Repositories;
  return repos;
}

type DropFirst<T extends unknown[]> = T extends [unknown, ...infer R] ? R : never;
