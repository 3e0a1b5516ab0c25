#!/usr/bin/env bash
# db-up.sh: a local PostgreSQL with pgvector for graphrag's tests, CI and development.
#
# On Debian or Ubuntu, run as root. It
#   1. installs PostgreSQL from apt if it is missing;
#   2. installs pgvector: the binary package postgresql-<ver>-pgvector when apt has one,
#      otherwise it builds Debian's own pgvector source package (suite "trixie", fetched from
#      the mirror this machine already uses, through a private apt list that leaves the
#      system's apt state alone) against postgresql-server-dev-<ver>;
#   3. creates and starts the cluster <ver>/main (and installs pgbouncer for the pooler test);
#   4. creates a login role and a database for the tests, and CREATE EXTENSION vector in it
#      as the postgres superuser (the test role is not a superuser);
#   5. prints the connection URL as the last line of stdout. Everything else goes to stderr.
#
# It is idempotent: when everything is already in place it only checks and prints the URL.
#
# Settings (environment):
#   GRAPHRAG_DB_USER      role name             (default graphrag)
#   GRAPHRAG_DB_PASSWORD  role password         (default graphrag)
#   GRAPHRAG_DB_NAME      database name         (default graphrag_test)
#   PG_VERSION            PostgreSQL major version to use (default: the installed one, else apt's)
#   PGVECTOR_SRC_SUITE    Debian suite for the pgvector source package (default trixie)
#
# Where Docker runs, `docker compose up -d db` is the other way to get the same database.
set -euo pipefail

DB_USER=${GRAPHRAG_DB_USER:-graphrag}
DB_PASSWORD=${GRAPHRAG_DB_PASSWORD:-graphrag}
DB_NAME=${GRAPHRAG_DB_NAME:-graphrag_test}
SRC_SUITE=${PGVECTOR_SRC_SUITE:-trixie}

log() { printf 'db-up: %s\n' "$*" >&2; }
die() {
	printf 'db-up: error: %s\n' "$*" >&2
	exit 1
}

# Names are interpolated into SQL identifiers and literals below; allow only safe ones.
for v in DB_USER DB_NAME; do
	[[ ${!v} =~ ^[a-z_][a-z0-9_]*$ ]] || die "$v=${!v}: use lower-case letters, digits and _ only"
done
[[ $DB_PASSWORD =~ ^[A-Za-z0-9_.~-]+$ ]] || die "GRAPHRAG_DB_PASSWORD: use letters, digits and _.~- only (it goes into a URL)"

[[ $(id -u) -eq 0 ]] || die "run as root (e.g. sudo $0): it installs packages and manages the cluster. Where Docker runs, 'docker compose up -d db' is the alternative."
command -v apt-get >/dev/null || die "apt-get not found: this script supports Debian and Ubuntu only. Elsewhere, use 'docker compose up -d db'."

export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_update_once() {
	if [[ $apt_updated -eq 0 ]]; then
		log "apt-get update"
		apt-get update -qq >&2 || die "apt-get update failed"
		apt_updated=1
	fi
}
apt_install() {
	apt_update_once
	log "apt-get install $*"
	apt-get install -y -qq --no-install-recommends "$@" >&2 || die "apt-get install $* failed"
}

# apt_has PKG: apt knows a candidate version of PKG (after one apt-get update: a fresh machine's
# package lists may be empty or old).
apt_has() {
	apt_update_once
	local cand
	cand=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')
	[[ -n $cand && $cand != "(none)" ]]
}

# ---- 1. PostgreSQL ---------------------------------------------------------------------------
installed_version() {
	local d best=""
	for d in /usr/lib/postgresql/*/bin/postgres; do
		[[ -x $d ]] || continue
		d=${d#/usr/lib/postgresql/}
		d=${d%%/*}
		if [[ -z $best ]] || ((d > best)); then best=$d; fi
	done
	printf '%s' "$best"
}

PGV=${PG_VERSION:-$(installed_version)}
if [[ -z $PGV || ! -x /usr/lib/postgresql/$PGV/bin/postgres ]]; then
	if [[ -n $PGV ]]; then
		apt_install "postgresql-$PGV" postgresql-common
	else
		apt_install postgresql postgresql-common
	fi
	PGV=${PG_VERSION:-$(installed_version)}
	[[ -n $PGV && -x /usr/lib/postgresql/$PGV/bin/postgres ]] || die "PostgreSQL installed but no server found under /usr/lib/postgresql"
fi
log "PostgreSQL $PGV"
command -v pg_ctlcluster >/dev/null || apt_install postgresql-common

# ---- 2. pgvector -----------------------------------------------------------------------------
EXTDIR=/usr/share/postgresql/$PGV/extension

# mirror_uri prints the URI of the machine's main Debian/Ubuntu archive (not security, not
# third-party), read from the deb822 .sources files or the one-line sources.list format.
mirror_uri() {
	local id=$1 f
	local pat='/debian/?$'
	[[ $id == ubuntu ]] && pat='/ubuntu/?$'
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		awk -v pat="$pat" '
			BEGIN { RS=""; FS="\n" }
			{
				uris=""; types=""; enabled="yes"
				for (i = 1; i <= NF; i++) {
					line = $i
					if (line ~ /^[ \t]*#/) continue
					if (line ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", line); uris = line }
					if (line ~ /^Types:/) types = line
					if (line ~ /^Enabled:[ \t]*no/) enabled = "no"
				}
				if (enabled == "no" || types !~ /deb/) next
				n = split(uris, u, /[ \t]+/)
				for (j = 1; j <= n; j++) if (u[j] ~ pat) { print u[j]; exit }
			}' "$f"
	done
	if [[ -f /etc/apt/sources.list ]]; then
		# deb [options] URI suite components...
		awk -v pat="$pat" '$1 == "deb" || $1 == "deb-src" {
			i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
			if ($i ~ pat) print $i
		}' /etc/apt/sources.list
	fi
}

build_pgvector_from_source() {
	local id codename suite components uri work lists srclist keyring
	# shellcheck disable=SC1091
	id=$(. /etc/os-release && printf '%s' "${ID:-}")
	codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
	uri=$(mirror_uri "$id" | head -n1)
	[[ -n $uri ]] || die "could not find this machine's Debian/Ubuntu mirror in /etc/apt/sources.list or /etc/apt/sources.list.d/*.sources"
	if [[ $id == ubuntu ]]; then
		# Ubuntu's archive has no Debian suites; its own release carries pgvector in universe.
		suite=$codename
		components="main universe"
		keyring=/usr/share/keyrings/ubuntu-archive-keyring.gpg
	else
		suite=$SRC_SUITE
		components=main
		keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	fi

	log "no binary package postgresql-$PGV-pgvector: building pgvector from the $suite source package ($uri)"
	local need=()
	apt_has "postgresql-server-dev-$PGV" || die "apt has no postgresql-server-dev-$PGV to build pgvector against"
	dpkg -s "postgresql-server-dev-$PGV" >/dev/null 2>&1 || need+=("postgresql-server-dev-$PGV")
	command -v make >/dev/null || need+=(make)
	command -v gcc >/dev/null || need+=(gcc)
	command -v xz >/dev/null || need+=(xz-utils)
	((${#need[@]} == 0)) || apt_install "${need[@]}"

	work=$(mktemp -d /tmp/graphrag-pgvector.XXXXXX)
	# shellcheck disable=SC2064
	trap "rm -rf '$work'" EXIT
	lists=$work/lists
	mkdir -p "$lists/partial" "$work/src"
	# apt downloads as the unprivileged _apt user when it can; let it write here.
	chmod 755 "$work"
	if id _apt >/dev/null 2>&1; then chown -R _apt "$lists" "$work/src"; fi
	srclist=$work/sources.list
	if [[ -r $keyring ]]; then
		printf 'deb-src [signed-by=%s] %s %s %s\n' "$keyring" "$uri" "$suite" "$components" >"$srclist"
	else
		printf 'deb-src %s %s %s\n' "$uri" "$suite" "$components" >"$srclist"
	fi
	local aptopts=(
		-o "Dir::Etc::SourceList=$srclist"
		-o "Dir::Etc::SourceParts=-"
		-o "Dir::State::Lists=$lists"
		-o "Dir::Cache::pkgcache="
		-o "Dir::Cache::srcpkgcache="
	)
	log "fetching the $suite source index (private apt list $srclist)"
	apt-get "${aptopts[@]}" update -qq >&2 || die "apt-get update of the private deb-src list failed ($(cat "$srclist"))"
	(cd "$work/src" && apt-get "${aptopts[@]}" source --download-only pgvector >&2) ||
		die "apt-get source --download-only pgvector failed"
	local orig
	orig=$(find "$work/src" -maxdepth 1 -name 'pgvector_*.orig.tar.*' | head -n1)
	[[ -n $orig ]] || die "no pgvector orig tarball in $work/src"
	log "building $(basename "$orig")"
	mkdir -p "$work/build"
	tar -xf "$orig" -C "$work/build" --strip-components=1
	make -s -C "$work/build" PG_CONFIG="/usr/lib/postgresql/$PGV/bin/pg_config" >&2 ||
		die "building pgvector failed (see the compiler output above)"
	make -s -C "$work/build" PG_CONFIG="/usr/lib/postgresql/$PGV/bin/pg_config" install >&2 ||
		die "installing pgvector failed"
	rm -rf "$work"
	trap - EXIT
}

if [[ ! -f $EXTDIR/vector.control ]]; then
	if apt_has "postgresql-$PGV-pgvector"; then
		apt_install "postgresql-$PGV-pgvector"
	else
		build_pgvector_from_source
	fi
	[[ -f $EXTDIR/vector.control ]] || die "pgvector is not installed in $EXTDIR after the install step"
fi
log "pgvector $(awk -F"'" '/default_version/ {print $2}' "$EXTDIR/vector.control") available"

# PgBouncer, for the PostgreSQL checkpointer's transaction-mode pooler test (graph/checkpoint/postgres
# starts its own instance; the package's service is not used).
command -v pgbouncer >/dev/null || [[ -x /usr/sbin/pgbouncer ]] || apt_install pgbouncer

# ---- 3. cluster ------------------------------------------------------------------------------
cluster_line() { pg_lsclusters --no-header 2>/dev/null | awk -v v="$PGV" '$1 == v && $2 == "main"'; }
if [[ -z $(cluster_line) ]]; then
	log "creating cluster $PGV/main"
	pg_createcluster "$PGV" main >&2 || die "pg_createcluster $PGV main failed"
fi
PORT=$(cluster_line | awk '{print $3}')
if [[ $(cluster_line | awk '{print $4}') != online* ]]; then
	log "starting cluster $PGV/main on port $PORT"
	pg_ctlcluster --skip-systemctl-redirect "$PGV" main start >&2 ||
		die "could not start cluster $PGV/main; see /var/log/postgresql/postgresql-$PGV-main.log"
fi
for _ in $(seq 1 60); do
	pg_isready -q -p "$PORT" && break
	sleep 0.5
done
pg_isready -q -p "$PORT" || die "PostgreSQL on port $PORT is not accepting connections; see /var/log/postgresql/postgresql-$PGV-main.log"

# ---- 4. role, database, extension ------------------------------------------------------------
psql_su() { runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$PORT" "$@"; }

psql_su -d postgres >&2 <<SQL || die "creating role $DB_USER and database $DB_NAME failed"
SELECT format('CREATE ROLE %I LOGIN PASSWORD %L CREATEDB', '$DB_USER', '$DB_PASSWORD')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$DB_USER') \gexec
ALTER ROLE "$DB_USER" LOGIN PASSWORD '$DB_PASSWORD' CREATEDB;
SELECT format('CREATE DATABASE %I OWNER %I', '$DB_NAME', '$DB_USER')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$DB_NAME') \gexec
SQL
psql_su -d "$DB_NAME" >&2 <<SQL || die "CREATE EXTENSION vector in $DB_NAME failed"
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS vector;
ALTER EXTENSION vector UPDATE;
SQL
ext=$(psql_su -d "$DB_NAME" -At -c "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
log "database $DB_NAME ready (role $DB_USER, vector $ext)"

printf 'postgres://%s:%s@localhost:%s/%s?sslmode=disable\n' "$DB_USER" "$DB_PASSWORD" "$PORT" "$DB_NAME"
