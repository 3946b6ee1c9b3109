import { defineEntity, p } from '@mikro-orm/core';
import { Partner } from './partner.js';

/** An API key, stored only as a SHA-256 hash; the public prefix finds the row, the hash proves the key. */
export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.uuid().primary(),
    partner: () => p.manyToOne(Partner).index(),
    prefix: p.string().unique(),
    hash: p.string(),
    label: p.string().nullable(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
});

export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);
