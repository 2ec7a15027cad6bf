# frozen_string_literal: true

# bench/restart: restarts under load, scenario by scenario (see bench/restart for what and how).
require "fileutils"
require "json"
require "socket"
require "tmpdir"
require_relative "scenarios"
require_relative "report"

module RestartBench
  ROOT = File.expand_path("../..", __dir__)
  RESULTS = ENV.fetch("BENCH_RESULTS", File.join(ROOT, "bench/results"))
  CLIENT = File.join(ROOT, ".toolchain/restart-client")
  ALL = %w[nettyrack-tcp nettyrack-tls nettyrack-unix nettyrack-reload nettyrack-stopstart puma-phased websocket].freeze
  ONLY = ENV.fetch("BENCH_ONLY", ALL.join(",")).split(/[ ,]+/)
  DURATION = Integer(ENV.fetch("BENCH_DURATION", "420"))
  EVERY = Integer(ENV.fetch("BENCH_EVERY", "45"))
  RESTARTS = Integer(ENV.fetch("BENCH_RESTARTS", "3"))
  # The longest a restart may take to bring the new code, and the least load measured after it.
  SWITCH_TIMEOUT = 300
  TAIL = 20
  CLIENTS = Integer(ENV.fetch("BENCH_CLIENTS", "100"))
  WS_CLIENTS = Integer(ENV.fetch("BENCH_WS_CLIENTS", "1000"))
  # Load before the first restart, so that it finds a warm server, as a deploy does.
  WARM = 20

  module_function

  def run
    dir = File.join(RESULTS, "runs", "restart-#{Time.now.strftime('%Y%m%d-%H%M%S')}")
    FileUtils.mkdir_p(dir)
    rows = (ONLY & ALL).map do |name|
      log "#{name}: starting"
      measure(name, dir)
    rescue StandardError => e
      log "#{name}: failed: #{e.message}"
      { "scenario" => name, "failed" => e.message }
    end
    File.write(File.join(dir, "results.json"), JSON.pretty_generate(rows))
    report = RestartReport.render(rows, duration: DURATION, every: EVERY, restarts: RESTARTS, clients: CLIENTS,
                                        ws_clients: WS_CLIENTS,
                                        load: File.read("/proc/loadavg").split.first(3).join(" "))
    puts report
    File.write(File.join(RESULTS, "restart-latest.md"), report)
    File.write(File.join(dir, "report.md"), report)
  end

  # One scenario: its server, warm load, then DURATION s of measured load with RESTARTS restarts
  # (each after a new VERSION), EVERY s after the start and after each new version first
  # answered, then what the client and the RSS samples say.
  def measure(name, dir)
    Dir.mktmpdir("restart-bench-") do |app|
      FileUtils.cp(File.join(__dir__, "app", "config.ru"), app)
      version = 1
      File.write(File.join(app, "VERSION"), "#{version}\n")
      scenario = RestartScenarios.build(name, app, log: File.join(dir, "#{name}.log"))
      scenario.start
      warm(scenario)
      events = File.join(dir, "#{name}.csv")
      client = spawn_client(scenario, events, File.join(dir, "#{name}.client.txt"))
      started = now_ms
      rss = RssSampler.new { scenario.process_ids }.start
      restarts = []
      next_at = started + EVERY * 1000
      RESTARTS.times do
        sleep_until(next_at)
        break if now_ms > started + (DURATION - TAIL) * 1000

        version += 1
        File.write(File.join(app, "VERSION"), "#{version}\n")
        restarts << { "version" => version, "signal_ms" => now_ms }
        scenario.restart
        scenario.wait_for_version(version, timeout: SWITCH_TIMEOUT)
        next_at = now_ms + EVERY * 1000
      end
      Process.wait(client)
      rss.stop
      scenario.stop
      summarize(name, scenario, events, restarts, rss, dir)
    end
  end

  def warm(scenario)
    return if scenario.websocket?

    system(CLIENT, "http", "-url", scenario.url, *scenario.client_args, "-c", CLIENTS.to_s, "-d", "#{WARM}s",
           "-timeout", "2s", "-out", File::NULL, out: File::NULL, err: File::NULL)
  end

  def spawn_client(scenario, events, summary)
    args = if scenario.websocket?
             ["ws", "-url", scenario.url, "-n", WS_CLIENTS.to_s, "-d", "#{DURATION}s", "-out", events]
           else
             ["http", "-url", scenario.url, *scenario.client_args, "-c", CLIENTS.to_s, "-d", "#{DURATION}s",
              "-timeout", "2s", "-out", events]
           end
    Process.spawn(CLIENT, *args, out: summary, err: "#{summary}.err")
  end

  def summarize(name, scenario, events, restarts, rss, dir)
    summary = last_json(File.read(File.join(dir, "#{name}.client.txt")))
    row = { "scenario" => name, "client" => summary, "restarts" => restarts, "rss_overlap_mb" => rss.peak_mb(min_processes: 2),
            "rss_steady_mb" => rss.first_mb, "server_log" => File.basename(scenario.log) }
    return row if scenario.websocket?

    switches = RestartEvents.switches(events, restarts.map { |r| r["version"] })
    restarts.zip(switches).each { |restart, switch| restart["switch_ms"] = switch }
    marks = File.join(dir, "#{name}.marks.csv")
    File.write(marks, restarts.flat_map { |r| ["#{r['signal_ms']},signal", (r["switch_ms"] && "#{r['switch_ms']},switch")] }.compact.join("\n") + "\n")
    report = IO.popen([CLIENT, "report", events, "-marks", marks, "-window", "10s"], &:read)
    row.merge("marks" => last_json(report))
  end

  def last_json(text)
    JSON.parse(text.lines.reverse.find { |line| line.start_with?("{") } || "{}")
  end

  def now_ms = Process.clock_gettime(Process::CLOCK_REALTIME, :millisecond)

  def sleep_until(ms)
    left = ms - now_ms
    sleep(left / 1000.0) if left.positive?
  end

  def log(line)
    warn "bench/restart: #{line}"
  end

  # The resident memory of a scenario's processes, sampled twice a second.
  class RssSampler
    def initialize(&pids)
      @pids = pids
      @samples = []
    end

    def start
      @thread = Thread.new do
        until @stop
          pids = @pids.call
          @samples << [pids.size, pids.sum { |pid| rss_kb(pid) } / 1024]
          sleep 0.5
        end
      end
      self
    end

    def stop
      @stop = true
      @thread.join
    end

    def first_mb = @samples.first&.last

    # The highest total while at least +min_processes+ processes ran (old and new together).
    def peak_mb(min_processes:)
      @samples.select { |count, _| count >= min_processes }.map(&:last).max
    end

    def rss_kb(pid)
      File.read("/proc/#{pid}/status")[/^VmRSS:\s+(\d+)/, 1].to_i
    rescue SystemCallError
      0
    end
  end

  # When each new version first answered, from the client's events file
  # (start_ms,latency_us,client,outcome,served_by; served_by is PID/VERSION).
  module RestartEvents
    module_function

    def switches(path, versions)
      first = {}
      start = nil
      File.foreach(path) do |line|
        if line.start_with?("#start_unix_ms=")
          start = line.split("=").last.to_i
          next
        end
        ms, _latency, _client, outcome, served_by = line.chomp.split(",", 5)
        next unless outcome == "ok"

        version = served_by.to_s[%r{/(\d+)}, 1]&.to_i
        first[version] = ms.to_i if version && (!first[version] || ms.to_i < first[version])
      end
      versions.map { |v| first[v] && start + first[v] }
    end
  end
end

RestartBench.run if $PROGRAM_NAME == __FILE__
