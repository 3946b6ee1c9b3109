import { UnderscoreNamingStrategy } from '@mikro-orm/core';

/**
 * MikroORM's default names (camelCase properties as snake_case columns, `<table>_<columns>_index`, …),
 * except foreign keys: the migrations declare them inline (`references partner (id)`), which PostgreSQL
 * names `<table>_<column>_fkey`, not MikroORM's `_foreign`.
 */
export class SchemaNamingStrategy extends UnderscoreNamingStrategy {
  override indexName(tableName: string, columns: string[], type: Parameters<UnderscoreNamingStrategy['indexName']>[2]) {
    return type === 'foreign'
      ? super.indexName(tableName, columns, 'fkey' as typeof type)
      : super.indexName(tableName, columns, type);
  }
}
