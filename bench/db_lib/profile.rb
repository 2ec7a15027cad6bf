# frozen_string_literal: true

require "json"
require "open3"
require_relative "postgres"

# BENCH_PROFILE=1: where a JRuby server's CPU goes during one N-queries run. Two views:
#   - the CPU time of the JVM's threads by kind, from /proc/PID/task (workers running the app,
#     Netty's event loops, the JIT's compilers, the garbage collector, the rest), per request;
#   - a JFR recording (settings=profile) of the same run: each execution sample of a worker
#     thread is charged to the Java library it is in (the PostgreSQL JDBC driver, JSON, Netty and
#     nettyrack), else to the innermost Ruby method on its stack, by part (Sequel's row
#     building, its connection pool, its SQL building, the rest of Sequel, the app, Rack):
#     the JRuby runtime's time (dispatch, core classes) goes to the Ruby code it ran for.
# The JVM's thread suspension signal, which JFR's sampler sends, is SIGUSR2 unless
# _JAVA_SR_SIGNUM says otherwise, and nettyrack traps SIGUSR2 for its hot restart: the bench
# starts the JRuby servers with _JAVA_SR_SIGNUM=30 when it profiles (see docs/benchmarks.md).
module DbProfile
  # Thread names (comm, at most 15 characters) by kind.
  KINDS = [
    ["app workers (Ruby: Sequel, JDBC, the app)", /\Anettyrack-work/],
    ["Netty event loops (nettyrack's I/O)", /\A(nettyrack-io|epoll|nio|io_uring|kqueue|.*EventLoop)/i],
    ["JIT compilers", /\A(C1|C2) Compiler/],
    ["garbage collector", /\A(GC |G1 |VM Periodic|Parallel|PS |Conc)/],
  ].freeze

  # Java libraries a worker's sample may be inside (its innermost frames, before any Ruby frame).
  LIBRARIES = [
    ["JDBC driver (org.postgresql)", %r{\Aorg/postgresql/}],
    ["JSON generation (json/ext)", %r{\Ajson/ext/}],
    ["nettyrack and Netty (Java)", %r{\A(org/nettyrack/|io/netty/)}],
  ].freeze
  # Ruby code, by the innermost Ruby frame (JRuby names a compiled method's class after its
  # file); the JRuby runtime's own frames above it are charged to it.
  RUBY = [
    ["Sequel: rows to Hashes (process_result_set, type conversion)", /(process_result_set|type_convertor|output_identifier|fetch_rows)/],
    ["Sequel: connection pool", %r{sequel/(connection_pool|core\.)}],
    ["Sequel: datasets and SQL building", %r{sequel/(dataset|sql\.|adapters/shared|adapters/utils)}],
    ["Sequel: running statements (JDBC glue, prepared statements)", %r{sequel/}],
    ["the app (config.ru)", /config_dot_ru/],
    ["Rack and nettyrack (Ruby)", %r{(/rack/|/nettyrack/)}],
  ].freeze
  RUNTIME = %r{\A(org/jruby/|java/|jdk/|sun/|java\.lang)}

  # A signal nettyrack does not trap (SIGPWR on Linux), for the JVM's thread suspension.
  SR_SIGNUM = 30

  module_function

  def start(pid, file, duration)
    out, status = Open3.capture2e("jcmd", pid.to_s, "JFR.start", "name=benchdb", "settings=profile",
                                  "duration=#{duration + 20}s", "filename=#{file}")
    raise "jcmd JFR.start: #{out}" unless status.success?

    [pid, file]
  end

  # CPU seconds of the JVM's threads, by kind.
  def thread_cpu(pid)
    Dir["/proc/#{pid}/task/*"].each_with_object(Hash.new(0.0)) do |task, sums|
      name = File.read("#{task}/comm").strip
      fields = File.read("#{task}/stat").sub(/\A.*\) /m, "").split
      kind = KINDS.find { |_, pattern| pattern.match?(name) }&.first || "other JVM and JRuby threads"
      sums[kind] += (fields[11].to_i + fields[12].to_i) / ProcessGroup::TICK
    rescue Errno::ENOENT, Errno::ESRCH
      next
    end
  end

  # Markdown lines: µs per request by thread kind, then the share of the workers' samples by part.
  def summary(recording, after, before, requests)
    pid, file = recording
    Open3.capture2e("jcmd", pid.to_s, "JFR.stop", "name=benchdb", "filename=#{file}")
    per = ->(seconds) { requests.to_i.positive? ? (seconds * 1_000_000 / requests).round : 0 }
    threads = after.keys.map { |kind| [kind, per.call(after[kind] - before.fetch(kind, 0.0))] }.sort_by { |_, us| -us }
    lines = ["| JVM threads | CPU µs per request |", "| --- | ---: |", *threads.map { |kind, us| "| #{kind} | #{us} |" }, ""]
    parts = samples(file)
    total = parts.values.sum
    return lines + ["(no JFR samples of the workers: #{file})"] if total.zero?

    lines + ["| where the workers' samples are (JFR, #{total} samples) | share |", "| --- | ---: |",
             *parts.sort_by { |_, n| -n }.map { |part, n| "| #{part} | #{(100.0 * n / total).round(1)} % |" }]
  end

  # Worker threads' execution samples, counted by part.
  def samples(file)
    json, status = Open3.capture2("jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", file)
    return {} unless status.success?

    counts = Hash.new(0)
    JSON.parse(json).dig("recording", "events").to_a.each do |event|
      values = event["values"]
      next unless values.dig("sampledThread", "javaName").to_s.start_with?("nettyrack-work")

      frames = values.dig("stackTrace", "frames").to_a.map { |f| "#{f.dig('method', 'type', 'name')}.#{f.dig('method', 'name')}" }
      counts[part(frames)] += 1
    end
    counts
  end

  def part(frames)
    frames.each do |frame|
      library = LIBRARIES.find { |_, pattern| pattern.match?(frame) }
      return library.first if library
      next if RUNTIME.match?(frame)

      return RUBY.find { |_, pattern| pattern.match?(frame) }&.first || "other Ruby code"
    end
    "JRuby runtime, no Ruby frame (interpreter, threads)"
  end
end
