# frozen_string_literal: true

require "fileutils"
require "socket"
require "tmpdir"

# Every signal nettyrack takes (the README's table), sent again and again to a server under
# keep-alive load, is honoured: HUP reloads the certificates and reopens the log files, USR2
# and USR1 hand over to a new process, INT and TERM stop cleanly (exit 0). Load clients count
# every request; none may fail across restarts.
RSpec.describe "Signals under load (bin/nettyrack)" do
  let(:root) { File.expand_path("../..", __dir__) }

  def app_dir(dir)
    FileUtils.cp(File.join(root, "spec/fixtures/pid.ru"), File.join(dir, "config.ru"))
    File.realpath(dir)
  end

  it "honours five HUPs, three USR2/USR1s in a row and a TERM, with no request failing" do
    Dir.mktmpdir("nettyrack-signals") do |dir|
      dir = app_dir(dir)
      cert, key = TestCertificates.new(dir).server("server")
      args = ["-b", "tcp://127.0.0.1:0", "-b", "ssl://127.0.0.1:0?cert=#{cert}&key=#{key}", "-t", "2:4",
              "--warmup-time", "2s", "config.ru"]
      child = NettyrackProcess.new(*args, chdir: dir)
      pids = [child.pid]
      begin
        ports = child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+), https://127\.0\.0\.1:(\d+)})
        loads = [RestartLoad.new(clients: 6) { TCPSocket.new("127.0.0.1", ports[1].to_i) },
                 RestartLoad.new(clients: 2) { RestartLoad.tls(ports[2].to_i) }].each(&:start)
        loads.each { |load| load.wait_for(100) }

        5.times do |i|
          child.signal("HUP")
          reloads = /(?:SIGHUP: TLS certificates reloaded \(1 listener\)\n.*){#{i + 1}}/m
          child.stdout_match(reloads, timeout: 30)
        end
        %w[USR2 USR1 USR2].each_with_index do |signal, i| # USR1, Puma's phased restart, is a hot restart too
          Process.kill(signal, pids.last)
          successor = child.stdout_match(/(?:hot restart \(SIGUSR[12]\): pid (\d+) is booting.*){#{i + 1}}/m, timeout: 60)[1].to_i
          child.stdout_match(/pid #{successor} serves now; pid #{pids.last} drains/, timeout: 120)
          loads.each { |load| load.wait_for_server(successor, count: 20) }
          Deadline.wait_until(timeout: 60) { !NettyrackProcess.alive?(pids.last) }
          pids << successor
        end
        expect(child.wait(timeout: 10).exitstatus).to eq(0), "the first process drained and exited"
        results = loads.map { |load| load.stop(timeout: 30) } # before the last stop: no one would answer them
        expect(results.map(&:failed)).to eq([0, 0]), results.map(&:errors).inspect
        expect(results.first.by_server.keys.sort).to eq(pids.map(&:to_s).sort)

        Process.kill("TERM", pids.last)
        child.stdout_match(/nettyrack: shutting down \(SIGTERM\)\n/, timeout: 30)
        Deadline.wait_until(timeout: 60) { !NettyrackProcess.alive?(pids.last) }
        expect(child.stderr).to eq("")
      ensure
        NettyrackProcess.kill_all(pids)
        child.kill
      end
    end
  end

  it "reopens the log files on HUP without TLS, under load, and keeps serving" do
    Dir.mktmpdir("nettyrack-signals") do |dir|
      dir = app_dir(dir)
      child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-t", "2:4", "--access-log=access.log",
                                   "--redirect-stderr", "err.log", "config.ru", chdir: dir)
      begin
        port = child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)})[1].to_i
        load = KeepAliveLoad.new(port, clients: 10).start
        load.wait_for(200)
        3.times do |i|
          File.rename(File.join(dir, "access.log"), File.join(dir, "access.log.#{i}"))
          child.signal("HUP")
          child.stdout_match(/(?:nettyrack: SIGHUP: reopened #{dir}\/err\.log, #{dir}\/access\.log\n.*){#{i + 1}}/m, timeout: 30)
          Deadline.wait_until(timeout: 30) { File.size?(File.join(dir, "access.log")) }
        end
        child.signal("TERM")
        expect(child.wait(timeout: 60).exitstatus).to eq(0)
        result = load.finish(timeout: 30)
        expect(result.failed).to eq(0), result.errors.inspect
        logged = (0..2).sum { |i| File.read(File.join(dir, "access.log.#{i}")).lines.size } +
                 File.read(File.join(dir, "access.log")).lines.size
        expect(logged).to eq(result.answered), "every answer logged once, across the rotations"
        expect(File.read(File.join(dir, "err.log")).lines.grep_v(NettyrackProcess::JVM_NOISE)).to eq([])
      ensure
        child.kill
      end
    end
  end

  it "stops cleanly on INT and on TERM, each time, under load" do
    Dir.mktmpdir("nettyrack-signals") do |dir|
      dir = app_dir(dir)
      %w[INT TERM INT].each do |signal|
        child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-t", "2:4", "config.ru", chdir: dir)
        begin
          port = child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)})[1].to_i
          load = KeepAliveLoad.new(port, clients: 20).start
          load.wait_for(200)
          child.signal(signal)
          expect(child.wait(timeout: 60).exitstatus).to eq(0), "#{signal}: #{child.stderr}"
          expect(child.stdout.lines.last).to eq("nettyrack: shutting down (SIG#{signal})\n")
          result = load.finish(timeout: 30)
          expect(result.failed).to eq(0), "#{signal}: #{result.errors.inspect}"
        ensure
          child.kill
        end
      end
    end
  end
end
