# shellcheck shell=bash
# Redis for bench/push-redis (sourced after servers.sh): Debian's redis-server on 127.0.0.1,
# without persistence, each in its own process group through start_server, so that cleanup
# stops it with the rest. A sentinel is the same binary with --sentinel and a config file.

REDIS_SERVER=/usr/bin/redis-server
REDIS_CLI=/usr/bin/redis-cli

# start_redis DIR NAME [ARGS...]: a redis-server on a free port; sets REDIS_PORT and REDIS_PID.
start_redis() {
  local dir=$1/$2
  shift 2
  mkdir -p "$dir"
  REDIS_PORT=$(free_port)
  start_server "$dir/redis.log" "$REDIS_SERVER" --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$dir" \
    --save "" --appendonly no "$@"
  REDIS_PID=$SERVER_PID
  wait_redis "$REDIS_PORT" "$REDIS_PID"
}

# start_sentinel DIR NAME MASTER_PORT: a sentinel watching 127.0.0.1:MASTER_PORT as mymaster
# (quorum 2, down after 1 s: as SentinelFailoverTest); sets REDIS_PORT and REDIS_PID.
start_sentinel() {
  local dir=$1/$2 master=$3
  mkdir -p "$dir"
  REDIS_PORT=$(free_port)
  cat > "$dir/sentinel.conf" <<CONF
sentinel monitor mymaster 127.0.0.1 $master 2
sentinel down-after-milliseconds mymaster 1000
sentinel failover-timeout mymaster 4000
sentinel parallel-syncs mymaster 1
CONF
  start_server "$dir/redis.log" "$REDIS_SERVER" "$dir/sentinel.conf" --sentinel --port "$REDIS_PORT" \
    --bind 127.0.0.1 --dir "$dir"
  REDIS_PID=$SERVER_PID
  wait_redis "$REDIS_PORT" "$REDIS_PID"
}

wait_redis() { # port pid: PONG within 20 s
  local i
  for ((i = 0; i < 200; i++)); do
    [[ $("$REDIS_CLI" -p "$1" ping 2>/dev/null) == PONG ]] && return 0
    alive "$2" || break
    sleep 0.1
  done
  log "redis on port $1 did not answer"
  return 1
}

# sentinels_ready PORT...: every sentinel sees the replica and the other sentinels (60 s at most).
sentinels_ready() {
  local start=$SECONDS port ok
  while ((SECONDS - start < 60)); do
    ok=1
    for port in "$@"; do
      "$REDIS_CLI" -p "$port" info sentinel 2>/dev/null | grep -q "name=mymaster,status=ok,.*slaves=1,sentinels=$#" || ok=0
    done
    ((ok)) && return 0
    sleep 0.5
  done
  log "the sentinels did not find the replica and each other within 60 s"
  return 1
}

master_of() { # sentinel port: HOST:PORT of mymaster as it says
  "$REDIS_CLI" -p "$1" sentinel get-master-addr-by-name mymaster 2>/dev/null | paste -sd:
}
