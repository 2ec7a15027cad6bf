# frozen_string_literal: true

# bench/war: bench/hello.ru through our servlet filter in Jetty, through jruby-rack in the same
# Jetty, and on our Netty door, one after another (see bench/war for what and how).
require "fileutils"
require "json"
require_relative "../lib/parse"
require_relative "../lib/pin"
require_relative "servers"
require_relative "report"

module WarBench
  ROOT = WarServers::ROOT
  RESULTS = ENV.fetch("BENCH_RESULTS", File.join(ROOT, "bench/results"))
  ONLY = ENV.fetch("BENCH_ONLY", "nettyrack-filter,nettyrack-filter-unbounded,jruby-rack,nettyrack,nettyrack-war").split(/[ ,]+/)
  WARMUP = Integer(ENV.fetch("BENCH_WARMUP", "20"))
  DURATION = Integer(ENV.fetch("BENCH_DURATION", "10"))
  THREADS = Integer(ENV.fetch("BENCH_JETTY_THREADS", "16"))
  CONNECTIONS = [10, 100].freeze
  # BENCH_PIN=SERVER_CPUS:LOAD_CPUS (as bench/run): each server on SERVER_CPUS, wrk and h2load on LOAD_CPUS.
  PIN = ENV.fetch("BENCH_PIN", "")
  PIN_SERVER, PIN_LOAD = BenchPin.prefixes(PIN, "bench/war")

  module_function

  def run
    dir = File.join(RESULTS, "runs", "war-#{Time.now.strftime('%Y%m%d-%H%M%S')}")
    FileUtils.mkdir_p(dir)
    servers = WarServers.all(jruby_opts: ENV.fetch("JRUBY_OPTS", ""), threads: THREADS, tmpdir: File.join(dir, "tmp"))
    rows = servers.filter_map do |name, spec|
      next unless ONLY.include?(name)

      log "#{name}: starting"
      measure(name, pinned(spec), dir)
    end
    meta = { "warmup" => WARMUP, "duration" => DURATION, "threads" => THREADS,
             "load" => File.read("/proc/loadavg").split.first(3).join(" "), "pin" => PIN, "at" => Time.now.utc.strftime("%Y-%m-%d %H:%M") }
    File.write(File.join(dir, "results.json"), JSON.pretty_generate("meta" => meta, "rows" => rows))
    report = WarReport.render(rows, meta)
    puts report
    File.write(File.join(RESULTS, "war-latest.md"), report)
    File.write(File.join(dir, "report.md"), report)
    exit(rows.any? { |row| row["failed"] } ? 1 : 0)
  end

  def pinned(spec)
    lambda do |port|
      env, argv, *rest = spec.call(port)
      [env, [*PIN_SERVER, *argv], *rest]
    end
  end

  def measure(name, spec, dir)
    server = RailsServers::Server.new(name, spec, log: File.join(dir, "#{name}.log"))
    row = { "server" => name, "boot_s" => server.boot_seconds.round(1), "runs" => {} }
    log "#{name}: answering after #{row['boot_s']} s, warming up for #{WARMUP} s"
    row["warmup"] = wrk(server.port, 100, WARMUP) if WARMUP.positive?
    CONNECTIONS.each { |c| row["runs"]["wrk-c#{c}"] = wrk(server.port, c, DURATION) }
    CONNECTIONS.each { |c| row["runs"]["h2load-c#{c}"] = h2load(server.port, c, DURATION, File.join(dir, "#{name}-h2load-c#{c}.txt")) }
    row["rss_mb"] = server.rss_mb
    log "#{name}: #{row['runs'].transform_values { |r| r['rps'].round }.inspect}"
    row
  rescue StandardError => e
    log "#{name}: failed: #{e.message}"
    { "server" => name, "failed" => e.message }
  ensure
    server&.stop(timeout: 30)
  end

  def wrk(port, connections, seconds)
    out = IO.popen(["timeout", "-k", "5", (seconds + 30).to_s, *PIN_LOAD, "wrk", "-t2", "-c#{connections}", "-d#{seconds}s",
                    "--latency", "http://127.0.0.1:#{port}/"], err: %i[child out], &:read)
    result = BenchParse.wrk(out)
    { "rps" => result["rps"].round(1), "p99_ms" => result["p99_ms"]&.round(2), "errors" => result["errors"] }
  rescue ArgumentError => e
    { "rps" => 0, "p99_ms" => nil, "errors" => -1, "failed" => e.message }
  end

  # One h2load client thread (as bench/run: a skewed share of the cores between load-generator
  # threads must not show up as server unfairness); rerun once if h2load 1.52 hangs at the end.
  def h2load(port, connections, seconds, raw)
    out = ""
    2.times do
      out = IO.popen(["timeout", "--foreground", "-k", "5", (seconds + 20).to_s, *PIN_LOAD, "h2load", "--h1", "-t1",
                      "-c#{connections}", "-D", seconds.to_s, "-N", "10", "http://127.0.0.1:#{port}/"],
                     err: %i[child out], &:read)
      break unless [124, 137].include?($?.exitstatus)

      log "h2load -c#{connections} hung at the end of its run (nghttp2 #2250): once more"
    end
    File.write(raw, out)
    r = BenchParse.h2load(out)
    { "rps" => r["rps"].round(1), "errors" => r["errors"], "fairness" => r["fairness"]&.round(2),
      "client_rps_min" => r["client_rps_min"], "client_rps_max" => r["client_rps_max"] }
  rescue ArgumentError => e
    { "rps" => 0, "errors" => -1, "fairness" => nil, "failed" => e.message }
  end

  def log(line)
    warn "[bench war #{Time.now.strftime('%H:%M:%S')}] #{line}"
  end
end

WarBench.run
