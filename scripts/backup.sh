#!/usr/bin/env bash
# Dumps the service's PostgreSQL database to one file (pg_dump's custom format: compressed,
# restorable table by table, consistent as of one snapshot while the service keeps running).
#   DATABASE_URL=postgres://user@host:5432/pusoy scripts/backup.sh pusoy-$(date +%F).dump
set -euo pipefail
: "${DATABASE_URL:?set DATABASE_URL to the database to back up}"
out=${1:?usage: scripts/backup.sh FILE}
pg_dump --format=custom --no-owner --no-privileges --file="$out" "$DATABASE_URL"
echo "==> $out: $(du -h "$out" | cut -f1)"
