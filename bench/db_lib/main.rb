# frozen_string_literal: true

# bench/db: the four classic database tests on each server, side by side (see bench/db for what
# and how). Starts one PostgreSQL cluster and every server, checks each server's answers, warms
# each up, then loads them in turn, test after test, round after round, so that a shared
# machine's noise falls on all alike; stops everything it started, by pid, whatever happens.
require "fileutils"
require "json"
require_relative "../lib/parse"
require_relative "../lib/pin"
require_relative "../lib/jvm_probe"
require_relative "postgres"
require_relative "servers"
require_relative "checks"
require_relative "profile"
require_relative "report"

module DbBench
  ROOT = DbServers::ROOT
  RESULTS = ENV.fetch("BENCH_RESULTS", File.join(ROOT, "bench/results"))
  ONLY = ENV.fetch("BENCH_ONLY", "nettyrack,nettyrack-tuned,puma,puma-tuned").split(/[ ,]+/)
  WARMUP = Integer(ENV.fetch("BENCH_WARMUP", "90"))
  DURATION = Integer(ENV.fetch("BENCH_DURATION", "10"))
  ROUNDS = Integer(ENV.fetch("BENCH_ROUNDS", "2"))
  CONNECTIONS = Integer(ENV.fetch("BENCH_CONNECTIONS", "64"))
  QUERIES = Integer(ENV.fetch("BENCH_QUERIES", "20"))
  TESTS = { "db" => "/db", "queries" => "/queries?queries=#{QUERIES}", "fortunes" => "/fortunes",
            "updates" => "/updates?queries=#{QUERIES}" }.freeze
  ONLY_TESTS = ENV.fetch("BENCH_TESTS", TESTS.keys.join(",")).split(/[ ,]+/)
  PROFILE = ENV.fetch("BENCH_PROFILE", "0") == "1"
  LAYER = ENV.fetch("BENCH_LAYER", "0") == "1"
  MIXED = File.join(__dir__, "mixed.lua")
  # BENCH_PIN=SERVER_CPUS:LOAD_CPUS (as bench/run): servers and PostgreSQL on SERVER_CPUS, wrk on LOAD_CPUS.
  PIN = ENV.fetch("BENCH_PIN", "")
  PIN_SERVER, PIN_LOAD = BenchPin.prefixes(PIN, "bench/db")

  module_function

  def run
    dir = File.join(RESULTS, "runs", "db-#{Time.now.strftime('%Y%m%d-%H%M%S')}")
    FileUtils.mkdir_p(dir)
    meta = { "at" => Time.now.utc.strftime("%Y-%m-%d %H:%M"), "load_before" => loadavg, "machine" => BenchJvm.machine, "warmup" => WARMUP,
             "duration" => DURATION, "rounds" => ROUNDS, "connections" => CONNECTIONS, "queries" => QUERIES, "pin" => PIN }
    pg = BenchPostgres.new(log: File.join(dir, "postgres.log"), pin: PIN_SERVER)
    servers = {}
    jvms = {}
    rows = []
    begin
      log "PostgreSQL: initdb and start in #{pg.dir}, port #{pg.port}"
      pg.start
      meta["postgres"] = pg.psql("SHOW server_version").strip
      meta["layer"] = layer(pg, dir) if LAYER
      specs = DbServers.all(pg, jar: jar, jruby_opts: ENV.fetch("JRUBY_OPTS", ""), pin: PIN_SERVER,
                                sr_signum: PROFILE ? DbProfile::SR_SIGNUM : nil)
      specs.each do |name, spec|
        next unless ONLY.include?(name)

        log "#{name}: starting"
        servers[name] = RailsServers::Server.new(name, spec, log: File.join(dir, "#{name}.log"))
        log "#{name}: answering after #{servers[name].boot_seconds.round(1)} s"
        DbChecks.verify(servers[name].port, pg)
        jvms[name] = BenchJvm::Watch.attach(servers[name].pid, dir, name)
      end
      servers.each do |name, server|
        log "#{name}: warm-up, #{WARMUP} s of the four tests mixed at #{CONNECTIONS} connections"
        wrk(server.port, "/", WARMUP, script: MIXED) if WARMUP.positive?
        jvms[name]&.mark("warm-up")
      end
      rows = servers.map { |name, server| { "server" => name, "label" => DbServers.label(name), "boot_s" => server.boot_seconds.round(1), "runs" => Hash.new { |h, k| h[k] = [] } } }
      ROUNDS.times do |round|
        TESTS.each do |test, path|
          next unless ONLY_TESTS.include?(test)

          servers.each_with_index do |(name, server), i|
            profiling = PROFILE && round == ROUNDS - 1 && test == "queries" && name.start_with?("nettyrack")
            recording = DbProfile.start(server.pid, File.join(dir, "#{name}-queries.jfr"), DURATION) if profiling
            threads_before = DbProfile.thread_cpu(server.pid) if profiling
            result = measured(server, pg, path)
            if profiling
              rows[i]["profile"] = DbProfile.summary(recording, DbProfile.thread_cpu(server.pid), threads_before, result["requests"])
            end
            rows[i]["runs"][test] << result
            log "round #{round + 1} #{test} #{name}: #{result['rps'].round} req/s, #{result['server_us']} µs server, " \
                "#{result['db_us']} µs PostgreSQL per request, #{result['errors']} errors"
          end
        end
      end
      servers.each_with_index do |(name, server), i|
        rows[i]["rss_mb"] = server.rss_mb
        jvms[name]&.mark("runs")
        rows[i]["jvm"] = jvms[name].to_h if jvms[name]
      end
    ensure
      servers.each_value { |server| server.stop(timeout: 30) }
      pg.stop
    end
    meta["load_after"] = loadavg
    File.write(File.join(dir, "results.json"), JSON.pretty_generate("meta" => meta, "rows" => rows))
    report = DbReport.render(rows, meta)
    puts report
    File.write(File.join(RESULTS, "db-latest.md"), report)
    File.write(File.join(dir, "report.md"), report)
    log "logs, profiles and JSON: #{dir}"
  end

  # One load run with the CPU time the server and PostgreSQL spent in it, per request.
  def measured(server, pg, path)
    server_cpu = ProcessGroup.cpu_seconds(server.pid)
    db_cpu = pg.cpu_seconds
    result = wrk(server.port, path, DURATION)
    requests = result["requests"].to_i
    per = ->(seconds) { requests.positive? ? (seconds * 1_000_000 / requests).round : nil }
    result.merge("server_us" => per.call(ProcessGroup.cpu_seconds(server.pid) - server_cpu),
                 "db_us" => per.call(pg.cpu_seconds - db_cpu), "load" => loadavg.split.first.to_f)
  end

  def wrk(port, path, seconds, script: nil)
    out = IO.popen(["timeout", "-k", "5", (seconds + 30).to_s, *PIN_LOAD, "wrk", "-t2", "-c#{CONNECTIONS}", "-d#{seconds}s",
                    "--latency", *(script ? ["-s", script] : []), "http://127.0.0.1:#{port}#{path}"], err: %i[child out], &:read)
    r = BenchParse.wrk(out)
    { "rps" => r["rps"].round(1), "requests" => r["requests"], "p99_ms" => r["p99_ms"]&.round(1), "errors" => r["errors"],
      "timeouts" => r.dig("socket_errors", "timeout"), "non2xx" => r["non2xx"] }
  rescue ArgumentError => e
    { "rps" => 0, "requests" => 0, "p99_ms" => nil, "errors" => -1, "failed" => e.message }
  end

  # layer.rb on CRuby, then on JRuby: one JSON Hash per way and Ruby.
  def layer(pg, dir)
    script = File.join(__dir__, "layer.rb")
    seconds = [DURATION / 2, 2].max.to_s
    runs = [[RailsServers::CLEAN, [RailsServers::CRUBY, script, pg.url, seconds], true],
            [{ "DB_JDBC_JAR" => jar }, ["jruby", script, pg.url(jdbc: true), seconds], false]]
    runs.flat_map do |env, argv, clean|
      log "database layer alone: #{File.basename(argv.first)} layer.rb, #{seconds} s per way after a warm-up"
      out = IO.popen(env, [*PIN_SERVER, *argv], unsetenv_others: clean, err: [File.join(dir, "layer.log"), "a"], &:read)
      out.lines.filter_map { |line| JSON.parse(line) if line.start_with?("{") }
    end
  end

  def jar
    found = Dir[File.join(ROOT, "target/bench-db/lib/postgresql-*.jar")].max
    found or abort "bench/db: no PostgreSQL JDBC driver in target/bench-db/lib (bench/db fetches it)"
  end

  def loadavg = File.read("/proc/loadavg").split.first(3).join(" ")

  def log(line)
    warn "[bench db #{Time.now.strftime('%H:%M:%S')}] #{line}"
  end
end

DbBench.run
