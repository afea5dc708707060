#!/bin/bash
# Restores a backup made by backup.sh into an EMPTY database and DATA_DIR (issue 25). Stop every app
# instance first. Usage:
#   deploy/production/restore.sh <backup dir>/crm-<time>      settings from /etc/crm/crm.env or the environment
# Refuses a database that already holds the app's tables (restore into a new one: createdb crm_restored).
set -euo pipefail
SRC=${1:?usage: restore.sh <backup dir>/crm-<time>}
ENV_FILE=${CRM_ENV_FILE:-/etc/crm/crm.env}
if [ -z "${DATABASE_URL:-}" ] && [ -r "$ENV_FILE" ]; then set -a; . "$ENV_FILE"; set +a; fi
: "${DATABASE_URL:?DATABASE_URL is required}"
DATA_DIR=${DATA_DIR:-./data}
[ -f "$SRC/db.dump" ] || { echo "no db.dump in $SRC" >&2; exit 2; }
(cd "$SRC" && sha256sum --quiet -c <(grep -E '^[0-9a-f]{64} ' MANIFEST)) || { echo "checksums do not match MANIFEST" >&2; exit 2; }
if [ "$(psql "$DATABASE_URL" -Atc "select count(*) from information_schema.tables where table_schema='public' and table_name='tenants'")" != 0 ]; then
  echo "目标数据库已有数据：请恢复到一个新建的空数据库" >&2
  exit 2
fi
pg_restore --no-owner --exit-on-error --single-transaction --dbname="$DATABASE_URL" "$SRC/db.dump"
if [ -f "$SRC/files.tar.gz" ]; then
  mkdir -p "$DATA_DIR"
  tar xzf "$SRC/files.tar.gz" -C "$DATA_DIR"
fi
echo "restored $SRC into $(psql "$DATABASE_URL" -Atc 'select current_database()') and $DATA_DIR"
