import type { Reader } from './values.js';

/**
 * `ledgerRetentionDays`: raw ledger rows older than this are rolled up into `ledger_daily` (0 = kept).
 * `lease`: how a busy partner's credits are leased in blocks and its charges written in batches
 * (src/platform/credits/ledger.ts); `maxCredits` 0 charges every call in its own transactions.
 */
export interface CreditSettings {
  reservationTtlMs: number;
  ledgerRetentionDays: number;
  lease: { maxCredits: number; flushMs: number };
}

export function creditsSection(read: Reader): CreditSettings {
  return {
    reservationTtlMs: read.int('CREDIT_RESERVATION_TTL_MS', 120_000, 1000, 3_600_000),
    ledgerRetentionDays: read.int('LEDGER_RETENTION_DAYS', 0, 0, 36_500),
    lease: {
      maxCredits: read.int('CREDIT_LEASE_MAX_CREDITS', 1000, 0, 1_000_000),
      // How soon other processes see a charge, and what a crash may leave uncharged: kept within a second.
      flushMs: read.int('CREDIT_LEASE_FLUSH_MS', 500, 10, 1000),
    },
  };
}
