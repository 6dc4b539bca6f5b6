#!/usr/bin/env bash
# Restores a dump made by scripts/backup.sh into a NEW database and audits every game in it
# (each deal replayed from its moves: snapshots, hash chains and seed commitments).
#   DATABASE_URL=postgres://user@host:5432/pusoy_restored scripts/restore.sh FILE
# The database named by DATABASE_URL must not exist yet: a restore never overwrites one.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL to the new database to restore into}"
dump=${1:?usage: scripts/restore.sh FILE}
name=${DATABASE_URL##*/}
name=${name%%\?*}
server=${DATABASE_URL%/*}/postgres
createdb --maintenance-db="$server" "$name"
pg_restore --no-owner --no-privileges --exit-on-error --dbname="$DATABASE_URL" "$dump"
echo "==> restored into $name; auditing every game"
python manage.py verify_game --all
