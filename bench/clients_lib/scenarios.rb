# frozen_string_literal: true

require "net/http"
require "tmpdir"
require_relative "../../spec/support/keep_alive_load"

# The bench/clients scenarios: each starts its own server, measures, stops it, and returns one
# report row [scenario, setup, result, target].
module Scenarios
  module_function

  def setting(name, default) = Integer(ENV.fetch(name, default.to_s))
  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  # Milliseconds of +count+ GETs, each on a new connection: [p50, p99, max].
  def latencies(port, count)
    times = Array.new(count) do
      started = now
      Net::HTTP.start("127.0.0.1", port, open_timeout: 10, read_timeout: 10) { |http| http.get("/") }
      (now - started) * 1000
    end.sort
    [times[count / 2], times[(count * 0.99).ceil - 1], times.last].map { |ms| ms.round(1) }
  end

  def slowloris(log)
    lorises = setting("BENCH_LORIS", 1000)
    requests = setting("BENCH_REQUESTS", 200)
    server = BenchServer.new("bench/hello.ru", "-t", "4:16", log: log)
    latencies(server.port, requests) # warm-up
    alone = latencies(server.port, requests)
    sockets = Array.new(lorises) { TCPSocket.new("127.0.0.1", server.port).tap { |s| s.write("GET / HTTP/1.1\r\nX-Slow: ") } }
    trickler = Thread.new { loop { sockets.each { |s| s.write("a") }; sleep 1 } }
    loaded = latencies(server.port, requests)
    ["slowloris", "#{lorises} connections trickling headers, #{requests} ordinary GETs",
     "p50/p99/max #{alone.join('/')} ms alone, #{loaded.join('/')} ms with them",
     loaded[1] < 1000 ? "p99 < 1 s: met" : "p99 < 1 s: **not met**"]
  ensure
    trickler&.kill
    sockets&.each(&:close)
    server&.stop
  end

  def uploads(log)
    count = setting("BENCH_UPLOADS", 1000)
    wanted = setting("BENCH_UPLOAD_MB", 100)
    size_mb = [wanted, free_disk_mb / 2 / count].min
    heap = ENV.fetch("BENCH_HEAP", "256m")
    server = BenchServer.new("spec/fixtures/upload_size.ru", "-t", "8:8", "--max-body-size", "#{size_mb + 1}m",
                             "--body-timeout", "600", heap: heap, log: log)
    chunk = Random.new(1).bytes(1 << 20)
    started = now
    results = Array.new(count) { Thread.new { upload(server.port, chunk, size_mb) } }.map(&:value)
    seconds = now - started
    ok = results.count { |reply| reply.end_with?("#{size_mb << 20} File\n") }
    scaled = size_mb < wanted ? " (scaled from #{wanted} MB to fit half the free disk)" : ""
    ["uploads", "#{count} concurrent x #{size_mb} MB#{scaled}, -Xmx#{heap}",
     "#{seconds.round(1)} s, #{(count * size_mb / seconds).round} MB/s, #{count - ok} errors, " \
     "peak RSS #{server.peak_rss_kb / 1024} MB",
     ok == count ? "all on disk within the heap: met" : "**not met**"]
  ensure
    server&.stop
  end

  def upload(port, chunk, size_mb)
    socket = TCPSocket.new("127.0.0.1", port)
    socket.write("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: #{size_mb << 20}\r\nConnection: close\r\n\r\n")
    size_mb.times { socket.write(chunk) }
    socket.read
  rescue IOError, SystemCallError => e
    e.message
  ensure
    socket&.close
  end

  def free_disk_mb
    `df -Pm #{Dir.tmpdir}`.lines.last.split[3].to_i
  end

  def pipelining(log)
    count = setting("BENCH_PIPELINED", 100_000)
    server = BenchServer.new("bench/hello.ru", "-t", "4:4", log: log)
    before = server.rss_kb
    socket = TCPSocket.new("127.0.0.1", server.port)
    writer = Thread.new do
      request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
      count.times { socket.write(request) }
    rescue IOError, SystemCallError
      nil
    end
    sleep 5
    growth = server.rss_kb - before
    answers = read_answers(socket, count)
    ["pipelining", "#{count} requests pipelined, answers unread for 5 s",
     "RSS +#{growth / 1024} MB meanwhile; #{answers} answers once read",
     answers == count ? "bounded, none lost: met" : "**not met**"]
  ensure
    writer&.kill
    socket&.close
    server&.stop
  end

  def read_answers(socket, expected)
    answers = 0
    tail = +""
    while answers < expected && IO.select([socket], nil, nil, 10)
      data = tail + socket.read_nonblock(1 << 20)
      answers += data.scan("HTTP/1.1 200").size
      tail = data[-12..] || ""
      answers -= tail.scan("HTTP/1.1 200").size
    end
    answers + tail.scan("HTTP/1.1 200").size
  end

  def sigterm(log)
    clients = setting("BENCH_CLIENTS", 100)
    duration = setting("BENCH_DURATION", 10)
    server = BenchServer.new("bench/hello.ru", "-t", "4:16", log: log)
    load = KeepAliveLoad.new(server.port, clients: clients).start
    sleep duration
    server.term
    seconds, status = server.wait(timeout: 60)
    result = load.finish(timeout: 60)
    ["sigterm", "#{clients} keep-alive clients, SIGTERM after #{duration} s",
     "#{result.failed} failed, #{result.answered} answered, exit #{status.exitstatus} after #{seconds.round(2)} s",
     result.failed.zero? && status.exitstatus.zero? ? "0 failed, exit 0: met" : "**not met**"]
  ensure
    server&.stop if status.nil?
  end

  ALL = {
    "slowloris" => method(:slowloris), "uploads" => method(:uploads),
    "pipelining" => method(:pipelining), "sigterm" => method(:sigterm)
  }.freeze

  def report(rows)
    lines = ["# bench/clients (#{Time.now.utc.strftime('%Y-%m-%d %H:%M')} UTC, #{RUBY_ENGINE} #{JRUBY_VERSION}, " \
             "Java #{java.lang.System.getProperty('java.version')})", "",
             "| scenario | setup | result | target |", "| --- | --- | --- | --- |"]
    lines.concat(rows.map { |row| "| #{row.join(' | ')} |" })
    "#{lines.join("\n")}\n"
  end
end
