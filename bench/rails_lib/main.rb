# frozen_string_literal: true

# bench/rails: the one-file Rails app on each server in turn (see bench/rails for what and how).
require "fileutils"
require "json"
require_relative "../lib/parse"
require_relative "../lib/jvm_probe"
require_relative "servers"
require_relative "report"
require_relative "dyno"

module RailsBench
  ROOT = RailsServers::ROOT
  RESULTS = ENV.fetch("BENCH_RESULTS", File.join(ROOT, "bench/results"))
  ONLY = ENV.fetch("BENCH_ONLY", "nettyrack,puma-cluster,puma-single,jruby-rack,nettyrack-heroku,puma-heroku").split(/[ ,]+/)
  CURVE = Integer(ENV.fetch("BENCH_CURVE", "300"))
  DURATION = Integer(ENV.fetch("BENCH_DURATION", "10"))
  PATHS = { "hello" => "/", "json" => "/json/21" }.freeze
  # The warm-up curve alternates both actions, so both are compiled before they are measured.
  MIXED = File.join(__dir__, "mixed.lua")

  module_function

  def run
    dir = File.join(RESULTS, "runs", "rails-#{Time.now.strftime('%Y%m%d-%H%M%S')}")
    FileUtils.mkdir_p(dir)
    rows = RailsServers.all(ENV.fetch("JRUBY_OPTS", "")).filter_map do |name, spec|
      next unless ONLY.include?(name)

      log "#{name}: starting"
      measure(name, spec, dir)
    end
    File.write(File.join(dir, "results.json"), JSON.pretty_generate(rows))
    report = RailsReport.render(rows, curve: CURVE, duration: DURATION, machine: BenchJvm.machine)
    puts report
    File.write(File.join(RESULTS, "rails-latest.md"), report)
    File.write(File.join(dir, "report.md"), report)
  end

  # The Heroku rows run in a 512 MB memory cgroup when the machine allows one (Dyno).
  DYNO_MB = 512
  DYNO_SERVERS = %w[nettyrack-heroku puma-heroku].freeze

  def measure(name, spec, dir)
    dyno = Dyno.create("nettyrack-bench-#{Process.pid}", DYNO_MB) if DYNO_SERVERS.include?(name)
    log "#{name}: #{dyno ? "in a #{DYNO_MB} MB memory cgroup" : 'no memory cgroup here: settings only'}" if DYNO_SERVERS.include?(name)
    server = RailsServers::Server.new(name, spec, log: File.join(dir, "#{name}.log"), dyno: dyno)
    row = { "server" => name, "boot_s" => server.boot_seconds.round(1), "curve" => [], "runs" => {} }
    jvm = BenchJvm::Watch.attach(server.pid, dir, name)
    (CURVE / 10).times { row["curve"] << wrk(server.port, "/", 100, 10, script: MIXED) }
    jvm&.mark("warm-up")
    PATHS.each do |action, path|
      [10, 100].each { |c| row["runs"]["#{action}-c#{c}"] = wrk(server.port, path, c, DURATION) }
    end
    jvm&.mark("runs")
    row["jvm"] = jvm.to_h if jvm
    row["rss_mb"] = server.rss_mb
    row["stop_s"] = stop_under_load(server)
    row["dyno"] = { "limit_mb" => DYNO_MB, "peak_mb" => dyno.peak_mb, "oom_kills" => dyno.oom_kills } if dyno
    if dyno&.oom_kills&.positive?
      served = row["curve"].take_while { |r| r["rps"].positive? }.size * 10
      return { "server" => name, "failed" => "killed by the kernel for going past #{DYNO_MB} MB after about #{served} s " \
                                           "of load (warm-up req/s: #{row['curve'].map { |r| r['rps'].round }.join(' ')})" }
    end
    log "#{name}: #{row['runs'].transform_values { |r| r['rps'].round }.inspect}, RSS #{row['rss_mb']} MB"
    row
  rescue StandardError => e
    log "#{name}: failed: #{e.message}"
    server&.stop(timeout: 10)
    failure = e.message
    failure += " (#{dyno.oom_kills} killed for going past #{DYNO_MB} MB)" if dyno&.oom_kills&.positive?
    { "server" => name, "failed" => failure }
  ensure
    dyno&.remove
  end

  # SIGTERM while wrk keeps 100 connections busy: seconds until the server exited.
  def stop_under_load(server)
    load = Process.spawn("wrk", "-t2", "-c100", "-d15s", "http://127.0.0.1:#{server.port}/", out: File::NULL, err: File::NULL)
    sleep 3
    seconds = server.stop(timeout: 60)
    Process.kill("TERM", load) rescue nil
    Process.wait(load)
    seconds&.round(1)
  end

  def wrk(port, path, connections, seconds, script: nil)
    args = ["wrk", "-t2", "-c#{connections}", "-d#{seconds}s", "--latency", *(script ? ["-s", script] : []),
            "http://127.0.0.1:#{port}#{path}"]
    out = IO.popen(args, err: %i[child out], &:read)
    result = BenchParse.wrk(out)
    { "rps" => result["rps"].round(1), "p99_ms" => result["p99_ms"]&.round(1), "errors" => result["errors"] }
  rescue ArgumentError => e
    { "rps" => 0, "p99_ms" => nil, "errors" => -1, "failed" => e.message }
  end

  def log(line)
    warn "[bench rails #{Time.now.strftime('%H:%M:%S')}] #{line}"
  end
end

RailsBench.run
