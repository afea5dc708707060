#!/bin/bash
# Backs up the CRM: the PostgreSQL database (pg_dump custom format, includes the job queue) and the
# stored files (DATA_DIR/files with STORAGE_DRIVER=local; with s3 the bucket is mirrored when
# S3_MIRROR_CMD is set, e.g. "mc mirror local/crm"). Usage (issue 25):
#   deploy/production/backup.sh <backup dir>          settings from /etc/crm/crm.env or the environment
# Writes <dir>/crm-<UTC time>/{db.dump,files.tar.gz,MANIFEST}; keeps the last KEEP (default 14).
set -euo pipefail
OUT_ROOT=${1:?usage: backup.sh <backup dir>}
ENV_FILE=${CRM_ENV_FILE:-/etc/crm/crm.env}
if [ -z "${DATABASE_URL:-}" ] && [ -r "$ENV_FILE" ]; then set -a; . "$ENV_FILE"; set +a; fi
: "${DATABASE_URL:?DATABASE_URL is required (PGlite: stop the app and copy DATA_DIR instead)}"
DATA_DIR=${DATA_DIR:-./data}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT="$OUT_ROOT/crm-$STAMP"
mkdir -p "$OUT"
# one consistent snapshot of the database while the app runs
pg_dump --format=custom --no-owner --dbname="$DATABASE_URL" --file="$OUT/db.dump"
if [ "${STORAGE_DRIVER:-local}" = local ]; then
  if [ -d "$DATA_DIR/files" ]; then tar czf "$OUT/files.tar.gz" -C "$DATA_DIR" files; else tar czf "$OUT/files.tar.gz" -T /dev/null; fi
elif [ -n "${S3_MIRROR_CMD:-}" ]; then
  $S3_MIRROR_CMD "$OUT/files"
else
  echo "files live in the S3 bucket ${S3_BUCKET:-?}: back it up with the store's own tools (versioning or a mirror)" >&2
fi
{
  echo "created $STAMP"
  echo "database $(pg_restore --list "$OUT/db.dump" | grep -c ' TABLE DATA ') tables with data"
  [ -f "$OUT/files.tar.gz" ] && echo "files $(tar tzf "$OUT/files.tar.gz" | grep -vc '/$') files"
  (cd "$OUT" && sha256sum db.dump $( [ -f files.tar.gz ] && echo files.tar.gz ))
} > "$OUT/MANIFEST"
# keep the newest KEEP backups
ls -1d "$OUT_ROOT"/crm-* | sort | head -n -"${KEEP:-14}" | xargs -r rm -rf
echo "$OUT"
