import { type AdminCommand, intFlag, UsageError } from '../../cli/command.js';
import { loadConfig } from '../../config.js';
import { retentionCutoff, rollUpLedger } from '../rollup.js';

export const ledgerRollup: AdminCommand = {
  name: 'ledger:rollup',
  usage: 'ledger:rollup [--days <n>] [--json]',
  summary: 'Rolls raw ledger rows older than --days (default LEDGER_RETENTION_DAYS) into daily totals and deletes them',
  options: { days: { type: 'string' } },
  async run(args, io) {
    const days = intFlag(args, 'days', { min: 1 }) ?? loadConfig().credits.ledgerRetentionDays;
    if (!days) throw new UsageError('--days is required when LEDGER_RETENTION_DAYS is 0 (raw rows kept)');
    const cutoff = retentionCutoff(days);
    const rows = await rollUpLedger(io.db, cutoff);
    if (io.json) io.out(JSON.stringify({ cutoff: cutoff.toISOString(), rolledUp: rows }));
    else io.out(`${rows} ledger rows before ${cutoff.toISOString()} rolled up into daily totals`);
  },
};
