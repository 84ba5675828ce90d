#!/bin/bash
# Runs once, when the ClickHouse container starts on an empty volume (docker-entrypoint-initdb.d):
# a read-only user for analysts and BI tools, with query limits. The app's own user (signpost)
# writes; this one can only read the signpost database. docs/clickhouse.md shows how to give
# someone one organization's rows only (a row policy).
set -euo pipefail
if [ -z "${CLICKHOUSE_ANALYST_PASSWORD:-}" ]; then
  echo "CLICKHOUSE_ANALYST_PASSWORD is not set: no analyst user made" >&2
  exit 0
fi
clickhouse client --user "$CLICKHOUSE_USER" --password "$CLICKHOUSE_PASSWORD" --multiquery <<SQL
CREATE SETTINGS PROFILE IF NOT EXISTS analyst_limits SETTINGS
  readonly = 1,
  max_execution_time = 60,
  max_memory_usage = 4000000000,
  max_result_rows = 10000000,
  result_overflow_mode = 'throw';
CREATE USER IF NOT EXISTS analyst IDENTIFIED WITH sha256_password BY '${CLICKHOUSE_ANALYST_PASSWORD}'
  SETTINGS PROFILE 'analyst_limits';
GRANT SELECT ON signpost.* TO analyst;
SQL
