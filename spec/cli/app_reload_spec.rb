# frozen_string_literal: true

require "fileutils"
require "net/http"
require "socket"
require "tmpdir"

# Reloads of the app inside the running JVM, as an operator does them, with real processes:
# bin/nettyrack under keep-alive load (RestartLoad) is asked for `nettyrack ctl reload-app` (or
# SIGUSR2 with --restart-with reload); a new JRuby runtime in the same process loads the code
# again, takes over new requests through a canary, and the old runtime drains and goes. The
# fixture app (spec/fixtures/reload.ru) says which process and which code answered, and keeps
# a push connection that says goodbye with its version.
RSpec.describe "Reloading the app inside the JVM (bin/nettyrack)" do
  let(:root) { File.expand_path("../..", __dir__) }
  let(:token) { "s3cret" }

  def app_dir(dir, version: "1")
    FileUtils.cp(File.join(root, "spec/fixtures/reload.ru"), File.join(dir, "config.ru"))
    File.write(File.join(dir, "VERSION"), "#{version}\n")
    dir
  end

  def nettyrack(dir, *args)
    child = NettyrackProcess.new(*args, chdir: dir)
    yield child
  ensure
    child&.kill
    NettyrackProcess.kill_all(child ? child.stdout.scan(/pid (\d+) is booting/).flatten.map(&:to_i) : [])
  end

  def ctl(dir, control, *command)
    process = NettyrackProcess.new("ctl", "--control-url", control, "--control-token", token, *command, chdir: dir)
    status = process.wait(timeout: 120)
    [status.exitstatus, process.stdout, process.stderr]
  end

  def get(port, path = "/")
    Net::HTTP.get_response(URI("http://127.0.0.1:#{port}#{path}")).body
  end

  # The live JRuby runtimes of process +pid+, counted by the JDK's class histogram (a full GC first).
  def live_runtimes(pid)
    jcmd = File.join(ENV.fetch("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "jcmd")
    histogram = IO.popen([jcmd, pid.to_s, "GC.class_histogram"], err: %i[child out], &:read)
    line = histogram.lines.find { |l| l.split[3] == "org.jruby.Ruby" }
    raise "no org.jruby.Ruby in the histogram of #{pid}: #{histogram.lines.first(3).join}" unless line

    line.split[1].to_i
  end

  def server_args(*extra)
    ["-b", "tcp://127.0.0.1:0", "--control-url", "tcp://127.0.0.1:0", "--control-token", token, "-t", "2:4",
     "--reload-canary", "2s", *extra, "config.ru"]
  end

  it "under load on TCP, TLS and a unix socket: reload-app brings new code in the same process, no request fails" do
    Dir.mktmpdir("nettyrack-reload") do |dir|
      dir = File.realpath(app_dir(dir))
      cert, key = TestCertificates.new(dir).server("server")
      sock = File.join(dir, "app.sock")
      args = server_args("-b", "ssl://127.0.0.1:0?cert=#{cert}&key=#{key}", "-b", "unix://#{sock}")
      nettyrack(dir, *args) do |server|
        urls = server.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+), https://127\.0\.0\.1:(\d+), unix://})
        http, https = urls[1].to_i, urls[2].to_i
        control = server.stdout_match(%r{control endpoint on (tcp://127\.0\.0\.1:\d+)})[1]
        push = WsClient.open(http, "/push")
        expect(push.read_message).to eq([:text, "hello from version 1"])
        loads = [RestartLoad.new(clients: 4) { TCPSocket.new("127.0.0.1", http) },
                 RestartLoad.new(clients: 2) { RestartLoad.tls(https) },
                 RestartLoad.new(clients: 2) { UNIXSocket.new(sock) }].each(&:start)
        loads.each { |load| load.wait_for(100) }

        File.write(File.join(dir, "VERSION"), "2\n")
        status, out, err = ctl(dir, control, "reload-app")
        expect([status, err]).to eq([0, ""]), out
        expect(out).to match(/\Areloaded: generation 2 serves \(new code answering [\d.]+ s after the order, all of it after [\d.]+ s\)\n\z/)
        loads.each { |load| load.wait_for_version("2") }
        expect(push.read_message).to eq([:text, "bye from version 1"])
        expect { push.read_message }.to raise_error(/closed the WebSocket \(1001\)/)
        push.close

        File.write(File.join(dir, "VERSION"), "3\n")
        expect(ctl(dir, control, "reload-app").first).to eq(0)
        loads.each { |load| load.wait_for_version("3") }
        results = loads.map { |load| load.stop(timeout: 30) }

        expect(results.map(&:failed)).to eq([0, 0, 0]), results.map(&:errors).inspect
        expect(results.map { |r| r.by_server.keys }).to all(eq([server.pid.to_s]))
        expect(results.map { |r| r.by_version.keys.sort }).to all(eq(%w[1 2 3]))
        expect(get(http)).to eq("pid #{server.pid} version 3\n")
        server.stdout_match(/nettyrack: reload \(control \/reload-app\): booting the new code in a new runtime/)
        server.stdout_match(/nettyrack: reload done: generation 3 serves every request/)
        # A retired runtime's objects with finalizers take a GC and the finalizer thread before they go.
        gone = Deadline.wait_until(timeout: 60, interval: 1) { live_runtimes(server.pid) == 2 }
        expect(gone).to be_truthy, "the server's runtime and generation 3's live; generation 2's is gone " \
                                   "(#{live_runtimes(server.pid)} runtimes)"
        expect(server.stderr).to eq("")
      end
    end
  end

  it "keeps the old code when the new one cannot boot or fails its canary, says why in one line, and refuses a new Gemfile" do
    Dir.mktmpdir("nettyrack-reload") do |dir|
      dir = File.realpath(app_dir(dir))
      nettyrack(dir, *server_args) do |server|
        port = server.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)})[1].to_i
        control = server.stdout_match(%r{control endpoint on (tcp://127\.0\.0\.1:\d+)})[1]
        good = File.read(File.join(dir, "config.ru"))

        File.write(File.join(dir, "config.ru"), "run ->(env) { [200, {}, [\"broken\"]] \n")
        status, _out, err = ctl(dir, control, "reload-app")
        expect([status, err]).to match([1, /\Anettyrack ctl: reload failed: syntax error in .*config\.ru:\d+/])
        server.stderr_match(/nettyrack: reload failed: syntax error in .*config\.ru:\d+.*; the current code serves on\n/)
        expect(get(port)).to eq("pid #{server.pid} version 1\n")

        File.write(File.join(dir, "config.ru"), good)
        File.write(File.join(dir, "VERSION"), "broken\n")
        load = RestartLoad.new(clients: 4) { TCPSocket.new("127.0.0.1", port) }.start
        status, _out, err = ctl(dir, control, "reload-app")
        expect([status, err]).to match([1, /\Anettyrack ctl: reload rolled back: new code (\d+) of \1 answers 5xx, old code 0 of \d+ answers 5xx\n\z/])
        server.stderr_match(/nettyrack: reload rolled back: .*; the current code serves on\n/)
        load.wait_for_version("1", count: load.by_version("1") + 50)
        result = load.stop(timeout: 30)
        expect(result.by_version.keys).to eq(["1"])
        expect(get(port)).to eq("pid #{server.pid} version 1\n")

        File.write(File.join(dir, "VERSION"), "2\n")
        File.write(File.join(dir, "Gemfile.lock"), "GEM\n  specs:\n")
        status, _out, err = ctl(dir, control, "reload-app")
        expect([status, err]).to eq([1, "nettyrack ctl: reload refused: Gemfile.lock changed since boot, which needs a hot " \
                                        "restart (nettyrack ctl restart)\n"])
        expect(get(port)).to eq("pid #{server.pid} version 1\n")
      end
    end
  end

  it "reloads on SIGUSR2 with --restart-with reload, and says no to a second reload while one is under way" do
    Dir.mktmpdir("nettyrack-reload") do |dir|
      dir = File.realpath(app_dir(dir))
      nettyrack(dir, *server_args("--restart-with", "reload", "--reload-canary", "10s")) do |server|
        port = server.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)})[1].to_i
        control = server.stdout_match(%r{control endpoint on (tcp://127\.0\.0\.1:\d+)})[1]
        load = RestartLoad.new(clients: 1) { TCPSocket.new("127.0.0.1", port) }.start # enough answers to judge
        File.write(File.join(dir, "VERSION"), "2\n")
        server.signal("USR2")
        server.stdout_match(/nettyrack: reload \(SIGUSR2\): booting the new code in a new runtime/)
        status, _out, err = ctl(dir, control, "reload-app")
        expect([status, err]).to match([1, /\Anettyrack ctl: a reload is under way already \((booting|canary)[^)]*\)+ \(409\)\n\z/])
        server.signal("USR2")
        server.stdout_match(/nettyrack: SIGUSR2 during a reload: one more reload follows once it ends/)
        server.stdout_match(/nettyrack: reload done: generation 2 serves every request/, timeout: 120)
        server.stdout_match(/nettyrack: reload done: generation 3 serves every request/, timeout: 120)
        expect(load.stop(timeout: 30).failed).to eq(0)
        expect(get(port)).to eq("pid #{server.pid} version 2\n")
        expect(server.stderr).to eq("")
      end
    end
  end
end
