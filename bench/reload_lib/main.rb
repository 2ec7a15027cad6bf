# frozen_string_literal: true

# bench/reload: memory after each of BENCH_RELOADS reloads (see bench/reload for what and how).
require "fileutils"
require "socket"
require "tmpdir"

module ReloadBench
  ROOT = File.expand_path("../..", __dir__)
  RESULTS = ENV.fetch("BENCH_RESULTS", File.join(ROOT, "bench/results"))
  RELOADS = Integer(ENV.fetch("BENCH_RELOADS", "20"))
  CANARY = ENV.fetch("BENCH_CANARY", "5s")
  TOKEN = "bench"
  JCMD = File.join(ENV.fetch("NR_JAVA_HOME"), "bin", "jcmd")

  module_function

  def run
    Dir.mktmpdir("reload-bench-") do |app|
      FileUtils.cp(File.join(ROOT, "bench/restart_lib/app/config.ru"), app)
      File.write(File.join(app, "VERSION"), "1\n")
      port, control = free_port, free_port
      log = File.join(app, "server.log")
      server = Process.spawn({ "RACK_ENV" => "production" }, "jruby", "#{ROOT}/bin/nettyrack", "-b", "tcp://127.0.0.1:#{port}",
                             "--control-url", "tcp://127.0.0.1:#{control}", "--control-token", TOKEN,
                             "--reload-canary", CANARY, "config.ru", chdir: app, in: File::NULL, out: [log, "a"], err: [log, "a"])
      begin
        wait_for(port, log)
        load = spawn_load(port, app)
        rows = (1..RELOADS).map { |n| reload(n, app, port, control, server, log) }
        report = render(rows)
        puts report
        FileUtils.mkdir_p(RESULTS)
        File.write(File.join(RESULTS, "reload-latest.md"), report)
      ensure
        [load, server].compact.each do |pid|
          Process.kill("TERM", pid)
          Process.wait(pid)
        end
      end
    end
  end

  def reload(n, app, port, control, pid, log)
    File.write(File.join(app, "VERSION"), "#{n + 1}\n")
    started = now
    ok = system("jruby", "#{ROOT}/bin/nettyrack", "ctl", "--control-url", "tcp://127.0.0.1:#{control}",
                "--control-token", TOKEN, "reload-app", out: [log, "a"], err: [log, "a"])
    raise "reload #{n} failed (see #{log})" unless ok

    took = now - started
    served = version_served(port)
    raise "reload #{n}: version #{served} answers, not #{n + 1}" unless served == n + 1

    2.times { jcmd(pid, "GC.run") }
    meta, classes = metaspace(pid)
    { n: n, seconds: took, heap: heap_used(pid), metaspace: meta, classes: classes, runtimes: runtimes(pid) }.tap do |row|
      warn format("reload %<n>d: %<seconds>.1f s, heap %<heap>.1f MB, metaspace %<metaspace>.1f MB " \
                  "(%<classes>d classes), %<runtimes>d runtimes", row)
    end
  end

  def render(rows)
    first = rows.first
    shown = rows.select { |row| row[:n] == 1 || (row[:n] % 5).zero? || row.equal?(rows.last) }
    lines = ["| reload | ctl reload-app (s) | heap in use (MB) | metaspace in use (MB) | classes | live JRuby runtimes |",
             "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    shown.each do |row|
      lines << format("| %<n>d | %<seconds>.1f | %<heap>.1f | %<metaspace>.1f | %<classes>d | %<runtimes>d |", row)
    end
    last = rows.last
    load = File.read("/proc/loadavg").split.first(3).join(" ")
    ["bench/reload: the Rails app of bench/restart_lib/app, #{RELOADS} reloads (`nettyrack ctl reload-app`, " \
     "canary #{CANARY}), 4 keep-alive clients, JAVA_OPTS=#{ENV.fetch('JAVA_OPTS', '(none)')}; after each, two full " \
     "GCs. Load average at the end: #{load}.", "",
     *lines, "",
     format("After reload %<n>d against reload 1: heap %<h>+.1f %%, metaspace %<m>+.1f %%.", n: last[:n],
            h: pct(last[:heap], first[:heap]), m: pct(last[:metaspace], first[:metaspace])), ""].join("\n")
  end

  def pct(now, before) = (now - before) / before * 100

  # The heap's generations (G1: one line; Parallel: "PSYoungGen ... used 33408K" and "ParOldGen ... used 175869K").
  def heap_used(pid)
    text = jcmd(pid, "GC.heap_info")
    kbs = text.lines.grep(/\A\S.*\bused (\d+)K/) { |line| line[/\bused (\d+)K/, 1].to_i }
    raise "no heap figure from jcmd: #{text.lines.first(3).join}" if kbs.empty?

    kbs.sum / 1024.0
  end

  # "Metaspace       used 9276K, committed 9472K, reserved 1114112K" and
  # "Total Usage - 40 loaders, 2815 classes (1194 shared):": [MB, classes]
  def metaspace(pid)
    text = jcmd(pid, "VM.metaspace")
    kb = text[/Metaspace\s+used (\d+)K/, 1] or raise "no metaspace figure from jcmd: #{text.lines.first(3).join}"
    [kb.to_i / 1024.0, text[/Total Usage - \d+ loaders, (\d+) classes/, 1].to_i]
  end

  def runtimes(pid)
    line = jcmd(pid, "GC.class_histogram").lines.find { |l| l.split[3] == "org.jruby.Ruby" }
    line ? line.split[1].to_i : 0
  end

  # jcmd's output; a JVM busy collecting may not answer the attach in time: asked again, 5 times at most.
  def jcmd(pid, *command)
    5.times do
      text = IO.popen([JCMD, pid.to_s, *command], err: %i[child out], &:read)
      return text unless text.include?("AttachNotSupportedException")

      sleep 2
    end
    raise "jcmd #{command.join(' ')}: the server did not answer the attach 5 times"
  end

  def version_served(port)
    head = IO.popen(["curl", "-s", "-m", "5", "-D", "-", "-o", File::NULL, "http://127.0.0.1:#{port}/"], &:read)
    head[%r{^x-served-by: *\d+/(\d+)}i, 1].to_i
  end

  def spawn_load(port, app)
    client = File.join(ROOT, ".toolchain/restart-client")
    unless File.executable?(client)
      system("go", "build", "-o", client, ".", chdir: File.join(ROOT, "bench/restart_lib/client")) or raise "go build failed"
    end
    Process.spawn(client, "http", "-url", "http://127.0.0.1:#{port}/", "-c", "4", "-d", "3600s",
                  "-out", File.join(app, "events.csv"), out: File::NULL, err: File::NULL)
  end

  def wait_for(port, log, timeout: 240)
    limit = now + timeout
    until system("curl", "-s", "-o", File::NULL, "-m", "5", "-f", "http://127.0.0.1:#{port}/")
      raise "the server did not answer within #{timeout} s (see #{log})" if now > limit

      sleep 0.5
    end
  end

  def free_port = TCPServer.open("127.0.0.1", 0) { |server| server.addr[1] }

  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
end

ReloadBench.run
