import { Migration } from '@mikro-orm/migrations';

/**
 * A transaction hash is linked to at most one route per partner, no longer to one route in all: a
 * partner's claim (`routeId` on a status call) must not stop another partner from linking the same hash
 * to its own route. Existing links all satisfy the new index, which the old one implied.
 */
export class Migration0016BridgeLinkPerPartner extends Migration {
  override name = '0016-bridge-link-per-partner';

  override up(): void {
    this.addSql('drop index bridge_route_tx_hash_unique');
    this.addSql('create unique index bridge_route_tx_hash_partner_unique on bridge_route (tx_hash, partner_id)');
  }
}
