# frozen_string_literal: true

# Checks bench/lib/parse.rb and report.rb against captured wrk 4.1 / h2load 1.52 output, and
# jvm_probe.rb's words and deoptimization count against captured HotSpot 25 output.
#   /usr/bin/ruby bench/lib/selftest.rb     (prints "N passed, N failed"; exit 1 on a failure)
require "json"
require "tmpdir"
require_relative "parse"
require_relative "report"
require_relative "jvm_probe"

WRK = <<~OUT
  Running 3s test @ http://127.0.0.1:18081/
    2 threads and 10 connections
    Thread Stats   Avg      Stdev     Max   +/- Stdev
      Latency   616.14us    1.33ms  16.04ms   90.04%
      Req/Sec    27.87k    11.91k   63.43k    73.77%
    Latency Distribution
       50%  130.00us
       75%  370.00us
       90%    1.93ms
       99%    1.06s
    169094 requests in 3.10s, 12.58MB read
    Socket errors: connect 0, read 3, write 1, timeout 2
    Non-2xx or 3xx responses: 5
  Requests/sec:  54549.14
  Transfer/sec:      4.06MB
OUT

H2LOAD = <<~OUT
  starting benchmark...
  Application protocol: http/1.1

  finished in 3.00s, 57634.67 req/s, 4.29MB/s
  requests: 172904 total, 172914 started, 172904 done, 172890 succeeded, 14 failed, 4 errored, 1 timeout
  status codes: 172880 2xx, 10 3xx, 10 4xx, 0 5xx
  traffic: 12.86MB (13486512) total, 6.27MB (6570618) headers (space savings 0.00%), 2.14MB (2247843) data
                       min         max         mean         sd        +/- sd
  time for request:       12us     79.17ms       173us       772us    98.42%
  time for connect:        4us        28us        17us         7us    70.00%
  time to 1st byte:     2.66ms     16.51ms      8.93ms      5.13ms    50.00%
  req/s           :    4825.31     6418.96     5762.35      630.94    60.00%
OUT

$passed = 0
$failed = 0
def check(name, actual, expected)
  ok = expected.is_a?(Float) ? actual.is_a?(Numeric) && (actual - expected).abs < 1e-6 : actual == expected
  if ok
    $passed += 1
  else
    $failed += 1
    puts "FAIL #{name}: expected #{expected.inspect}, got #{actual.inspect}"
  end
end

w = BenchParse.wrk(WRK)
check "wrk rps", w["rps"], 54_549.14
check "wrk p50", w["p50_ms"], 0.13
check "wrk p90", w["p90_ms"], 1.93
check "wrk p99 in seconds", w["p99_ms"], 1060.0
check "wrk requests", w["requests"], 169_094
check "wrk errors", w["errors"], 5 + 3 + 1 + 2
begin
  BenchParse.wrk("unable to connect to 127.0.0.1:1 Connection refused")
  check "wrk garbage raises", false, true
rescue ArgumentError
  check "wrk garbage raises", true, true
end

Dir.mktmpdir do |dir|
  log = File.join(dir, "h2.log")
  File.write(log, (1..200).map { |i| "17953033781#{i}\t200\t#{i * 10}\n" }.join)
  h = BenchParse.h2load(H2LOAD, log)
  check "h2load rps", h["rps"], 57_634.67
  check "h2load errors (failed + 3xx)", h["errors"], 24
  check "h2load client min", h["client_rps_min"], 4825.31
  check "h2load client max", h["client_rps_max"], 6418.96
  check "h2load fairness", h["fairness"], 4825.31 / 6418.96
  check "h2load mean latency", h["latency_mean_ms"], 0.173
  check "h2load p50 from log", h["p50_ms"], 1.0
  check "h2load p99 from log", h["p99_ms"], 1.98
  check "h2load logged", h["logged"], 200

  File.write(File.join(dir, "meta.txt"), "cpus=2\nduration=2\n")
  rows = [
    { "server" => "nettyrack", "group" => "hello", "tool" => "wrk", "conns" => 10, "status" => "ok", "rps" => 40_000.0 },
    { "server" => "raw-netty", "group" => "hello", "tool" => "wrk", "conns" => 10, "status" => "ok", "rps" => 60_000.0 },
    { "server" => "puma-cluster", "group" => "hello", "tool" => "wrk", "conns" => 10, "status" => "ok", "rps" => 15_000.0 },
    { "server" => "puma-single", "group" => "hello", "tool" => "wrk", "conns" => 10, "status" => "ok", "rps" => 25_000.0 },
    { "server" => "nettyrack", "group" => "hello", "tool" => "h2load", "conns" => 10, "status" => "ok", "rps" => 1.0,
      "fairness" => 0.79 },
    { "server" => "nettyrack", "group" => "cpu", "tool" => "wrk", "conns" => 16, "threads" => "-t 1:1", "status" => "ok",
      "rps" => 100.0 },
    { "server" => "nettyrack", "group" => "cpu", "tool" => "wrk", "conns" => 16, "threads" => "-t 2:2", "status" => "ok",
      "rps" => 190.0 },
    { "server" => "puma-single", "group" => "hello", "status" => "skipped", "reason" => "did not boot" },
  ]
  File.write(File.join(dir, "runs.jsonl"), rows.map { |r| JSON.generate(r) }.join("\n"))
  md = BenchReport.build(dir)
  line = md.lines.find { |l| l.include?("best Puma") }
  check "best Puma is the faster one", line.include?("(Puma -t 16:16)"), true
  check "best Puma ratio value", line[/\|\s+([\d.]+)\s+\|/, 1], "1.600"
  check "best Puma verdict", line.strip.end_with?("| not met |"), true
  line = md.lines.find { |l| l.include?("raw Netty, wrk c10") }
  check "raw ratio", line[/\|\s+([\d.]+)\s+\|/, 1], "0.667"
  check "raw verdict", line.strip.end_with?("| met     |"), true
  line = md.lines.find { |l| l.include?("fairness") }
  check "fairness verdict", line.include?("not met"), true
  check "cpu speedup", md.include?("1.90x"), true
  check "skipped row shown", md.include?("skipped [1]") && md.include?("[1] Puma -t 16:16 -: skipped: did not boot"), true
end

marks = { "warm-up" => { "compiles" => 18_609, "bailouts" => 47, "invalidates" => 0, "deopts" => 1_204, "jit_s" => 60.2,
                         "code_cache_mb" => 47 },
          "runs" => { "compiles" => 18_616, "bailouts" => 47, "invalidates" => 0, "deopts" => 1_206, "jit_s" => 60.3,
                      "code_cache_mb" => 48 } }
check "jit line", BenchJvm.jit_line(marks),
      "18,616 compilations (47 bailouts, 0 invalidated), 1,206 deoptimizations, JIT 60.3 s, code cache 48 MB; " \
      "after warm-up: 7 compilations, 2 deoptimizations"
check "jit line, not read", BenchJvm.jit_line({}), "JIT: not read (no jcmd, or not a JVM)"
rows = [{ "server" => "nettyrack", "jvm" => { "flags" => "-Xmx512m", "marks" => marks } }, { "server" => "puma" }]
check "report lines: the machine, then each JVM's JIT line and flags",
      BenchJvm.report_lines(nil, rows),
      ["Machine: machine: unknown.", "", "- nettyrack: #{BenchJvm.jit_line(marks)}", "  flags: `-Xmx512m`"]
check "machine line", BenchJvm.machine_line("cpu" => "AMD EPYC", "cores" => 2, "memory_gb" => 24, "kernel" => "6.1",
                                              "features" => %w[avx2 avx512f]),
      "AMD EPYC, 2 cores, 24 GB, kernel 6.1; extensions: avx2 avx512f"
Dir.mktmpdir do |dir|
  trap = "[4.755s] cid=1438     level=4 D.f(Ljava/lang/Object;)I trap_bci=51 class_check maybe_recompile pc=0x1\n"
  File.write(File.join(dir, "x-deopt.log"), trap * 4 + trap.sub("cid=1438", "cid=1450") + "[4.8s] something else\n")
  check "deoptimizations: a trap written four times counts once", BenchJvm.deopts(File.join(dir, "x-deopt.log")), 2
end

puts "#{$passed} passed, #{$failed} failed"
exit($failed.zero? ? 0 : 1)
