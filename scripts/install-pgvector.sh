#!/usr/bin/env bash
# Make sure the local PostgreSQL server (127.0.0.1:5432, trust auth, user
# postgres) is running and has the pgvector extension available.
#
# Idempotent; run as root. When vector.control is already installed for the
# running server's major version the build is skipped. Otherwise pgvector is
# built from Debian's trixie source package (bookworm's own pgvector is too
# old: no HNSW) against the local server's pg_config.
#
# No host name is written anywhere: the deb-src entry copies its URIs from the
# machine's existing Debian apt source at run time, is a source-only entry (so
# apt never sees trixie binary packages), and is removed again on exit.
set -euo pipefail

PGHOST_ADDR=127.0.0.1
PGPORT_NUM=5432
SRC_SUITE=trixie
SRC_LIST=/etc/apt/sources.list.d/zz-ci-pgvector-${SRC_SUITE}-src.sources

export DEBIAN_FRONTEND=noninteractive
APT_OPTS=(-y -q -o DPkg::Lock::Timeout=300)

log() { printf '[install-pgvector] %s\n' "$*"; }
die() { printf '[install-pgvector] ERROR: %s\n' "$*" >&2; exit 1; }

WORKDIR=""
cleanup() {
  local rc=$?
  if [[ -f "$SRC_LIST" ]]; then
    log "removing temporary deb-src entry $SRC_LIST"
    rm -f "$SRC_LIST"
  fi
  if [[ -n "$WORKDIR" && -d "$WORKDIR" ]]; then
    rm -rf "$WORKDIR"
  fi
  exit "$rc"
}
trap cleanup EXIT

[[ $(id -u) -eq 0 ]] || die "must run as root"

psql_pg() { psql -h "$PGHOST_ADDR" -p "$PGPORT_NUM" -U postgres -v ON_ERROR_STOP=1 -X "$@" postgres; }

# --- 1. PostgreSQL server running -------------------------------------------
if pg_isready -q -h "$PGHOST_ADDR" -p "$PGPORT_NUM"; then
  log "PostgreSQL is accepting connections on $PGHOST_ADDR:$PGPORT_NUM"
else
  [[ -d /etc/postgresql ]] || die "no /etc/postgresql: is the PostgreSQL server installed?"
  # Highest installed major that has a 'main' cluster.
  START_MAJOR=$(ls /etc/postgresql | sort -V | while read -r v; do
    [[ -d /etc/postgresql/$v/main ]] && echo "$v"; done | tail -n1)
  [[ -n "$START_MAJOR" ]] || die "no PostgreSQL cluster named 'main' under /etc/postgresql"
  log "PostgreSQL not ready; starting cluster $START_MAJOR/main"
  pg_ctlcluster --skip-systemctl-redirect "$START_MAJOR" main start || true
  for _ in $(seq 1 60); do
    pg_isready -q -h "$PGHOST_ADDR" -p "$PGPORT_NUM" && break
    sleep 1
  done
  pg_isready -h "$PGHOST_ADDR" -p "$PGPORT_NUM" || die "PostgreSQL did not become ready within 60 s"
fi

VERSION_NUM=$(psql_pg -Atc 'SHOW server_version_num') || die "cannot query the server with psql"
MAJOR=$(( VERSION_NUM / 10000 ))
PG_CONFIG=/usr/lib/postgresql/$MAJOR/bin/pg_config
log "running server: PostgreSQL $MAJOR (server_version_num $VERSION_NUM)"

ext_dir() {
  if [[ -x "$PG_CONFIG" ]]; then
    echo "$("$PG_CONFIG" --sharedir)/extension"
  else
    echo "/usr/share/postgresql/$MAJOR/extension"
  fi
}

# --- 2. pgvector installed? ---------------------------------------------------
if [[ -f "$(ext_dir)/vector.control" ]]; then
  log "pgvector already installed ($(ext_dir)/vector.control); skipping build"
else
  START_TS=$(date +%s)
  log "pgvector not installed for PostgreSQL $MAJOR; building it from Debian's $SRC_SUITE source"

  log "apt-get update"
  apt-get "${APT_OPTS[@]}" update
  # Install only what is missing, so already-installed tools are not upgraded
  # as a side effect.
  MISSING=()
  for p in "postgresql-server-dev-$MAJOR" make gcc libc6-dev dpkg-dev; do
    if [[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != installed ]]; then
      MISSING+=("$p")
    fi
  done
  if (( ${#MISSING[@]} )); then
    log "installing ${MISSING[*]}"
    apt-get "${APT_OPTS[@]}" install "${MISSING[@]}"
  else
    log "postgresql-server-dev-$MAJOR and build tools already installed"
  fi
  [[ -x "$PG_CONFIG" ]] || die "$PG_CONFIG not found after installing postgresql-server-dev-$MAJOR"

  # Find the machine's Debian apt source (the stanza/line for the release's
  # own suite, e.g. bookworm, not -updates/-security) and copy its URIs.
  CODENAME=""
  if [[ -r /etc/os-release ]]; then
    CODENAME=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  fi
  [[ -n "$CODENAME" ]] || CODENAME=$(lsb_release -cs 2>/dev/null || true)
  [[ -n "$CODENAME" ]] || die "cannot determine the Debian codename"

  URIS=""
  SIGNED_BY=""
  shopt -s nullglob
  # deb822 files first (debian.sources first of them).
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/*.sources; do
    [[ "$f" == "$SRC_LIST" ]] && continue
    [[ -r "$f" ]] || continue
    out=$(awk -v want="$CODENAME" '
      function flush() {
        if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ") && uris != "" && enabled != "no") {
          print uris "\t" signed; found = 1; exit
        }
        types = ""; suites = ""; uris = ""; signed = ""; enabled = ""
      }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      /^[ \t]/ { next }   # continuation line (e.g. an inline key): not needed
      {
        line = $0
        key = line; sub(/:.*/, "", key); gsub(/[ \t]/, "", key); key = tolower(key)
        val = line; sub(/^[^:]*:[ \t]*/, "", val); gsub(/[ \t]+$/, "", val); gsub(/[ \t]+/, " ", val)
        if (key == "types") types = val
        else if (key == "suites") suites = val
        else if (key == "uris") uris = val
        else if (key == "signed-by") { if (val ~ /^\//) signed = val }
        else if (key == "enabled") enabled = tolower(val)
      }
      END { if (!found) flush() }
    ' "$f")
    if [[ -n "$out" ]]; then
      URIS=${out%%$'\t'*}
      SIGNED_BY=${out#*$'\t'}
      log "using URIs of the Debian '$CODENAME' source in $f"
      break
    fi
  done
  # One-line format: "deb [options] URI suite component...".
  if [[ -z "$URIS" ]]; then
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [[ -r "$f" ]] || continue
      uri=$(awk -v want="$CODENAME" '
        $1 == "deb" {
          i = 2
          if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
          if ($(i + 1) == want) { print $i; exit }
        }' "$f")
      if [[ -n "$uri" ]]; then
        URIS=$uri
        log "using URI of the Debian '$CODENAME' source in $f"
        break
      fi
    done
  fi
  shopt -u nullglob
  [[ -n "$URIS" ]] || die "no Debian apt source for suite '$CODENAME' found in /etc/apt"

  # A source-only entry: apt gets no trixie binary indexes from it, so no
  # install or upgrade can pick a trixie binary. Removed again by the trap.
  log "adding temporary deb-src entry for suite $SRC_SUITE ($SRC_LIST)"
  {
    echo "Types: deb-src"
    echo "URIs: $URIS"
    echo "Suites: $SRC_SUITE"
    echo "Components: main"
    if [[ -n "$SIGNED_BY" ]]; then echo "Signed-By: $SIGNED_BY"; fi
  } > "$SRC_LIST"

  log "apt-get update (with the $SRC_SUITE deb-src entry)"
  apt-get "${APT_OPTS[@]}" update

  WORKDIR=$(mktemp -d /tmp/pgvector-build.XXXXXX)
  chmod 755 "$WORKDIR"
  # Let apt's sandbox user write the download (avoids the "unsandboxed" note).
  chown _apt "$WORKDIR" 2>/dev/null || true
  log "downloading the pgvector source package into $WORKDIR"
  (cd "$WORKDIR" && apt-get -q source --download-only pgvector)
  chown -R root "$WORKDIR"

  # The entry is only needed for the download: remove it right away.
  rm -f "$SRC_LIST"
  log "removed temporary deb-src entry $SRC_LIST"

  DSC=$(ls "$WORKDIR"/pgvector_*.dsc 2>/dev/null | head -n1)
  [[ -n "$DSC" ]] || die "apt-get source did not download a pgvector .dsc"
  log "unpacking $(basename "$DSC")"
  (cd "$WORKDIR" && dpkg-source -x "$(basename "$DSC")" src)

  # OPTFLAGS="" drops pgvector's default -march=native so the library does not
  # depend on this particular CPU.
  log "building pgvector with $PG_CONFIG"
  make -C "$WORKDIR/src" -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS=""
  log "installing pgvector"
  make -C "$WORKDIR/src" install PG_CONFIG="$PG_CONFIG" OPTFLAGS=""

  [[ -f "$(ext_dir)/vector.control" ]] || die "vector.control missing after make install"
  log "pgvector built and installed in $(( $(date +%s) - START_TS )) s"
fi

# --- 3. verify ----------------------------------------------------------------
log "verifying: CREATE EXTENSION IF NOT EXISTS vector (database postgres)"
psql_pg -c 'CREATE EXTENSION IF NOT EXISTS vector'
EXT_VERSION=$(psql_pg -Atc "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
[[ -n "$EXT_VERSION" ]] || die "extension vector is not present after CREATE EXTENSION"
log "OK: pgvector $EXT_VERSION available on PostgreSQL $MAJOR at $PGHOST_ADDR:$PGPORT_NUM"
