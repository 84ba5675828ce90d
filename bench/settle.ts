// A bulk load is not a settled history: every insert block of a seed spans the whole year, so each
// one leaves rows in every bucket of the rollups, and the benchmarks would time the engine merging
// them at read. A running server's background merges keep past months merged; the seeds merge the
// tables they filled (OPTIMIZE … FINAL) so the figures are those of that state.
import type { Container } from '../src/container.js';

export async function settle(container: Container, tables: readonly string[]): Promise<void> {
  for (const table of tables) await container.clickhouse.client.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
}
