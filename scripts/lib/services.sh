# Test services for scripts/test.sh: installs the Debian packages the tests need when they
# are missing (as root), and runs a private PostgreSQL and Redis on free loopback ports.
# Source it; call ensure_packages, start_postgres, start_redis; stop_services on exit.

SERVICES_DIR=""

free_port() {
  node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

ensure_packages() {
  local missing=()
  command -v chromium >/dev/null || missing+=(chromium)
  [ -n "$(pg_bin)" ] && [ -x "$(pg_bin)/initdb" ] || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  command -v pdftotext >/dev/null || missing+=(poppler-utils)
  # The real-WireGuard journey: userspace WireGuard in network namespaces (e2e/vpn-wireguard).
  command -v wg >/dev/null || missing+=(wireguard-tools)
  command -v wireguard-go >/dev/null || missing+=(wireguard-go)
  command -v ip >/dev/null || missing+=(iproute2)
  command -v ping >/dev/null || missing+=(iputils-ping)
  # The cluster and its fault suite: two app processes behind HAProxy (scripts/cluster).
  command -v haproxy >/dev/null || missing+=(haproxy)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
    return 1
  fi
  echo "installing ${missing[*]} …"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Runs a command as the postgres user when we are root (initdb refuses to run as root).
as_pg_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  SERVICES_DIR=${SERVICES_DIR:-$(mktemp -d /tmp/vpn-test-services.XXXXXX)}
  chmod 755 "$SERVICES_DIR"
  local dir="$SERVICES_DIR/pg" port bin
  bin=$(pg_bin)
  port=$(free_port)
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
  as_pg_owner "$bin/initdb" -D "$dir" -U postgres --auth=trust --no-sync >/dev/null
  as_pg_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -o \
    "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}

start_redis() {
  SERVICES_DIR=${SERVICES_DIR:-$(mktemp -d /tmp/vpn-test-services.XXXXXX)}
  local port
  port=$(free_port)
  redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
    --pidfile "$SERVICES_DIR/redis.pid" --logfile "$SERVICES_DIR/redis.log" >/dev/null
  export TEST_REDIS_URL="redis://127.0.0.1:$port"
  echo "Redis $(redis-server --version | awk '{print $3}' | tr -d v=) on 127.0.0.1:$port"
}

stop_services() {
  [ -n "$SERVICES_DIR" ] || return 0
  if [ -f "$SERVICES_DIR/pg/postmaster.pid" ]; then
    as_pg_owner "$(pg_bin)/pg_ctl" -D "$SERVICES_DIR/pg" -m immediate stop >/dev/null 2>&1 || true
  fi
  if [ -f "$SERVICES_DIR/redis.pid" ]; then
    kill "$(cat "$SERVICES_DIR/redis.pid")" 2>/dev/null || true
  fi
  rm -rf "$SERVICES_DIR"
}
