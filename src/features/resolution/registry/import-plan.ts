import type { ImportRow } from './import-parse.js';
import type { MnsNetwork } from './networks.js';

// Planning `names:import`'s writes: what a batch's lines leave in the registry, in which order, and (on
// SQLite) cut into which transactions. Nothing here knows a database.

/** A parsed line, with its 1-based number in the file. */
export interface Pending {
  line: number;
  row: ImportRow;
}

/**
 * Owners whose stored primary name is cleared before a batch's rows are written, on one network. `keep`
 * (beside each owner): the name the batch leaves as that owner's primary, or null. A stored primary of
 * that very name is rewritten as primary by the batch's own row, so clearing it first would only write
 * it twice (a re-import of an unchanged file: every row).
 */
export interface Demotion {
  owners: string[];
  keep: (string | null)[];
}

export interface PlannedRow {
  row: ImportRow;
  /** The lines this row stands for: its name's last line and those it replaced. */
  lines: number;
}

export interface Plan {
  /** In owner order. */
  rows: PlannedRow[];
  demote: Map<MnsNetwork, Demotion>;
}

/**
 * The outcome of applying a batch's lines in file order: a later line for the same name replaces an
 * earlier one, and a primary line demotes every other primary name of its owner on its network,
 * whether stored before (`demote`) or earlier in the batch.
 */
export function applyInOrder(batch: readonly Pending[]): Plan {
  // Names and owners are keys within a network: each network's maps, found once a line. `primaryOf` holds
  // every owner a primary line named, with the name its last primary line left primary, or null once
  // that name's later line was not primary: each of its owners is demoted, keeping that name.
  // `replaced` counts the lines a name had before its last, so that a row stands for all of its lines.
  const networks = new Map<
    MnsNetwork,
    { rows: Map<string, ImportRow>; primaryOf: Map<string, string | null>; replaced: Map<string, number> }
  >();
  for (const { row } of batch) {
    let network = networks.get(row.network);
    if (network === undefined) {
      network = { rows: new Map(), primaryOf: new Map(), replaced: new Map() };
      networks.set(row.network, network);
    }
    const { rows, primaryOf, replaced } = network;
    const previous = rows.get(row.name);
    if (previous !== undefined) {
      if (previous.primary && primaryOf.get(previous.ownerKey) === row.name) primaryOf.set(previous.ownerKey, null);
      rows.delete(row.name);
      replaced.set(row.name, (replaced.get(row.name) ?? 0) + 1);
    }
    rows.set(row.name, row);
    if (row.primary) {
      const holder = primaryOf.get(row.ownerKey);
      // A copy: the parsed row is the caller's, and stays as its line said.
      if (holder != null && holder !== row.name)
        rows.set(holder, { ...(rows.get(holder) as ImportRow), primary: false });
      primaryOf.set(row.ownerKey, row.name);
    }
  }
  // The rows' order is free: each name is one row a network, and every stored primary name a row could
  // collide with is demoted before they are written. They go in owner order: real addresses are hashes,
  // so in file order each row lands on a random page of the owner indexes; sorted, neighbouring rows
  // share pages, which the database then finds in the CPU's caches and a statement journals fewer of.
  const rows: PlannedRow[] = [];
  const demote = new Map<MnsNetwork, Demotion>();
  for (const [name, network] of networks) {
    for (const row of network.rows.values()) rows.push({ row, lines: 1 + (network.replaced.get(row.name) ?? 0) });
    if (network.primaryOf.size)
      demote.set(name, { owners: [...network.primaryOf.keys()], keep: [...network.primaryOf.values()] });
  }
  return { rows: inOwnerOrder(rows), demote };
}

// Code-unit order, which is the indexes' byte order for the ASCII hex a stored owner key is.
const byOwnerKey = (a: PlannedRow, b: PlannedRow): number =>
  a.row.ownerKey < b.row.ownerKey ? -1 : a.row.ownerKey > b.row.ownerKey ? 1 : 0;

// Rows a number-keyed sort can order: its keys are a row's index below this beside 32 bits of its owner.
const ORDERED_BY_NUMBER = 2 ** 21;

/** The first 32 bits of a stored owner key (`0x` and 64 lower-case hex digits). */
function ownerPrefix(key: string): number {
  let value = 0;
  for (let i = 2; i < 10; i++) {
    const c = key.charCodeAt(i);
    value = value * 16 + (c <= 57 ? c - 48 : c - 87);
  }
  return value;
}

/**
 * The rows sorted by owner key. Sorting the row objects compares strings reached through two objects
 * each, scattered in memory; numbers sort far faster: each row's first 32 bits of owner key above its
 * index, in one float64 (exact below 2^53), then the rows whose keys share those bits (one owner's
 * names, or two owners in four billion) ordered by their whole keys.
 */
function inOwnerOrder(rows: PlannedRow[]): PlannedRow[] {
  const n = rows.length;
  if (n >= ORDERED_BY_NUMBER) return rows.sort(byOwnerKey);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = ownerPrefix((rows[i] as PlannedRow).row.ownerKey) * ORDERED_BY_NUMBER + i;
  keys.sort();
  const sorted = new Array<PlannedRow>(n);
  for (let i = 0; i < n; i++) sorted[i] = rows[(keys[i] as number) % ORDERED_BY_NUMBER] as PlannedRow;
  const prefix = (i: number) => Math.floor((keys[i] as number) / ORDERED_BY_NUMBER);
  for (let i = 1; i < n; i++) {
    if (prefix(i) !== prefix(i - 1)) continue;
    // Insertion into the run of equal prefixes before it, which is in order.
    const row = sorted[i] as PlannedRow;
    let j = i;
    while (j > 0 && prefix(j - 1) === prefix(i) && byOwnerKey(sorted[j - 1] as PlannedRow, row) > 0) {
      sorted[j] = sorted[j - 1] as PlannedRow;
      j--;
    }
    sorted[j] = row;
  }
  return sorted;
}

/** One transaction of a window (windowSlices): an owner range's rows and demotions. */
export interface Slice {
  rows: ImportRow[];
  demote: Map<MnsNetwork, Demotion>;
  /** The window's lines its rows stand for. */
  lines: number;
}

/**
 * A window's lines applied in file order (applyInOrder), cut by owner into slices of about `rowsPerSlice`
 * rows, each written as a transaction of its own. A slice holds every row and every demotion of the
 * owners in its range, so each transaction leaves each owner the primary name the window gives it: an
 * owner's stored primary is demoted in the transaction that writes its new one.
 */
export function windowSlices(window: readonly Pending[], rowsPerSlice: number): Slice[] {
  const { rows, demote } = applyInOrder(window);
  const slices: Slice[] = [];
  // The first owner of every slice but the first: a demoted owner goes to the last slice starting at or
  // before it (demoted owners need not have a row: a line may have moved their name to another owner).
  const firstOwners: string[] = [];
  let start = 0;
  do {
    let end = Math.min(start + rowsPerSlice, rows.length);
    const ownerAt = (i: number) => (rows[i] as PlannedRow).row.ownerKey;
    while (end < rows.length && ownerAt(end) === ownerAt(end - 1)) end++;
    if (start > 0) firstOwners.push(ownerAt(start));
    const slice: Slice = { rows: new Array(end - start), demote: new Map(), lines: 0 };
    for (let i = start; i < end; i++) {
      const planned = rows[i] as PlannedRow;
      slice.rows[i - start] = planned.row;
      slice.lines += planned.lines;
    }
    slices.push(slice);
    start = end;
  } while (start < rows.length);
  for (const [network, { owners, keep }] of demote) {
    for (let i = 0; i < owners.length; i++) {
      const owner = owners[i] as string;
      let lo = 0;
      let hi = firstOwners.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((firstOwners[mid] as string) <= owner) lo = mid + 1;
        else hi = mid;
      }
      const slice = slices[lo] as Slice;
      let demotion = slice.demote.get(network);
      if (demotion === undefined) {
        demotion = { owners: [], keep: [] };
        slice.demote.set(network, demotion);
      }
      demotion.owners.push(owner);
      demotion.keep.push(keep[i] as string | null);
    }
  }
  return slices;
}
