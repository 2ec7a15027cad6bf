# frozen_string_literal: true

# bench/rails_ab's body: starts every variant of bin/nettyrack on the Rails example at once, then
# loads them in turn, ROUNDS times, with wrk -t2 -c100 for SECONDS each, so that each variant
# warms up under the same load pattern and the machine's noise falls on all of them alike. Per
# round and variant: req/s, the server's CPU time per request (user + system, from /proc: less
# noisy than req/s on a shared machine), p99, RSS and errors. At the end, NMT and heap summaries
# (when the variant runs with -XX:NativeMemoryTracking) go to the results folder.
require "fileutils"
require_relative "servers"

ROOT = File.expand_path("../..", __dir__)
OUT = File.join(ENV.fetch("BENCH_RESULTS", File.join(ROOT, "bench/results")), "rails-ab-#{Time.now.strftime('%Y%m%d-%H%M%S')}")
FileUtils.mkdir_p(OUT)

rounds = Integer(ENV.fetch("BENCH_ROUNDS", "13"))
seconds = Integer(ENV.fetch("BENCH_DURATION", "10"))
path = ENV.fetch("BENCH_PATH", "/")
app = ENV.fetch("BENCH_APP", File.join(ROOT, "examples/rails/config.ru"))
abort "usage: bench/rails_ab NAME=VAR:VALUE[;VAR:VALUE...] ..." if ARGV.empty?

# "par=JRUBY_OPTS:-J-XX:+UseParallelGC;NETTYRACK_RAILS_TUNING:off" => ["par", {...}]
variants = ARGV.map do |arg|
  name, spec = arg.split("=", 2)
  [name, (spec || "").split(";").to_h { |pair| pair.split(":", 2).map(&:strip) }]
end

# BENCH_PIN=SERVER_CPUS:LOAD_CPUS (as bench/run's): servers on the first, wrk on the second (taskset).
server_cpus, load_cpus = ENV.fetch("BENCH_PIN", "").split(":", 2)
pin_server = server_cpus.to_s.empty? ? [] : ["taskset", "-c", server_cpus]
pin_load = load_cpus.to_s.empty? ? "" : "taskset -c #{load_cpus} "

servers = variants.map do |name, env|
  port = RailsServers.free_port
  env = { "RACK_ENV" => "production" }.merge(env)
  env["JRUBY_OPTS"] = [ENV.fetch("JRUBY_OPTS", nil), env["JRUBY_OPTS"]].compact.join(" ")
  checkout = env.delete("CHECKOUT") || ROOT # another checkout's bin/nettyrack and jars: an A/B of two commits
  pid = Process.spawn(env, *pin_server, "jruby", File.join(checkout, "bin/nettyrack"), "-q", "-b", "tcp://127.0.0.1:#{port}",
                      "-e", "production", app, out: File.join(OUT, "#{name}.log"), err: %i[child out], pgroup: true)
  { name:, port:, pid:, started: Time.now }
end
at_exit { servers.each { |s| Process.kill("TERM", -s[:pid]) rescue nil } } # rubocop:disable Style/RescueModifier

servers.each do |s|
  240.times { break if system("curl -s -o /dev/null -f -m 5 http://127.0.0.1:#{s[:port]}/"); sleep 0.5 }
  puts "#{s[:name]}: first answer after #{(Time.now - s[:started]).round} s"
end

def cpu_ticks(pid) = File.read("/proc/#{pid}/stat").split[13, 2].sum(&:to_i)
def rss_mb(pid) = File.read("/proc/#{pid}/status")[/VmRSS:\s+(\d+)/, 1].to_i / 1024

tick_us = 1_000_000.0 / Integer(`getconf CLK_TCK`)
rounds.times do |round|
  cells = servers.map do |s|
    before = cpu_ticks(s[:pid])
    out = `#{pin_load}wrk -t2 -c100 -d#{seconds}s --latency http://127.0.0.1:#{s[:port]}#{path} 2>&1`
    ticks = cpu_ticks(s[:pid]) - before
    requests = out[/(\d+) requests in/, 1].to_i
    errors = out[/Non-2xx or 3xx responses: (\d+)/, 1].to_i + out[/Socket errors:.*/].to_s.scan(/\d+/).sum(&:to_i)
    format("%s %5.0f req/s %6.0f µs/req p99 %-8s RSS %4d MB errors %d", s[:name], out[%r{Requests/sec:\s+([\d.]+)}, 1].to_f,
           requests.positive? ? ticks * tick_us / requests : 0, out[/ 99%\s+(\S+)/, 1], rss_mb(s[:pid]), errors)
  end
  puts "round #{round} (load #{File.read('/proc/loadavg').split.first}) | #{cells.join(' | ')}"
  $stdout.flush
end
servers.each do |s|
  system("jcmd #{s[:pid]} VM.native_memory summary > #{OUT}/#{s[:name]}.nmt 2>&1")
  system("jcmd #{s[:pid]} GC.heap_info > #{OUT}/#{s[:name]}.heap 2>&1")
end
puts "logs, NMT and heap summaries: #{OUT}"
