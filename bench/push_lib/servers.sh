# shellcheck shell=bash
# Server processes for bench/push (sourced): each is started with setsid in its own process group,
# so that its RSS can be summed over the group (the JRuby launcher and its JVM; Puma) and the whole
# group stopped. cleanup (trap EXIT) stops every server still running, the last started first.

SERVER_PIDS=()

log() { printf '[push %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# alive PID: a child that exited stays a zombie until waited for: not alive. But bin/nettyrack's
# JVM execs itself once with the JVM settings it lacks (same pid), and while exec ends the JVM's
# other threads the pid shows as a zombie for a moment: only one that stays a zombie is dead.
alive() {
  local i
  for i in 1 2 3 4 5; do
    kill -0 "$1" 2>/dev/null || return 1
    [[ $(ps -o stat= -p "$1" 2>/dev/null) == Z* ]] || return 0
    sleep 0.2
  done
  return 1
}

stop_server() {
  local pid=$1 i
  alive "$pid" && kill -TERM -- "-$pid" 2>/dev/null
  for ((i = 0; i < 100; i++)); do
    alive "$pid" || break
    sleep 0.1
  done
  alive "$pid" && kill -KILL -- "-$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  kill -KILL -- "-$pid" 2>/dev/null # nothing of the group outlives its leader
  return 0
}

cleanup() { # the last started first: servers before the Redis they use
  local i
  for ((i = ${#SERVER_PIDS[@]} - 1; i >= 0; i--)); do stop_server "${SERVER_PIDS[i]}"; done
  SERVER_PIDS=()
}

finish_server() {
  local pid=$1 p keep=()
  stop_server "$pid"
  for p in "${SERVER_PIDS[@]}"; do [[ $p == "$pid" ]] || keep+=("$p"); done
  SERVER_PIDS=("${keep[@]}")
}

free_port() {
  /usr/bin/ruby -rsocket -e 's = TCPServer.new("127.0.0.1", 0); puts s.addr[1]; s.close'
}

# start_server LOGFILE CMD... : sets SERVER_PID (also the process group id)
start_server() {
  local logfile=$1
  shift
  setsid "$@" > "$logfile" 2>&1 < /dev/null &
  SERVER_PID=$!
  SERVER_PIDS+=("$SERVER_PID")
}

# wait_ready PORT PID TIMEOUT: polls GET / until it answers 2xx, the server dies, or time runs out.
wait_ready() {
  local port=$1 pid=$2 timeout=$3 start=$SECONDS
  while ((SECONDS - start < timeout)); do
    alive "$pid" || { log "server (pid $pid) exited before answering on port $port"; return 1; }
    if curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:$port/" 2>/dev/null; then
      log "up on port $port after $((SECONDS - start)) s"
      return 0
    fi
    sleep 0.5
  done
  log "server (pid $pid) did not answer on port $port within $timeout s"
  return 1
}
