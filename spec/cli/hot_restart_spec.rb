# frozen_string_literal: true

require "fileutils"
require "json"
require "net/http"
require "socket"
require "tmpdir"

# Hot restarts as an operator does them, with real processes and real signals: bin/nettyrack
# under keep-alive load (RestartLoad) gets SIGUSR2 (or `nettyrack ctl restart`); a new process
# reads the code again, takes the listening sockets over, warms up and serves, and the old one
# drains and exits 0. Each example boots two or three JVMs, so there are few, and the fixture app
# (spec/fixtures/pid.ru) says which process and which code answered.
RSpec.describe "Hot restart (bin/nettyrack)" do
  let(:root) { File.expand_path("../..", __dir__) }

  # The fixture app in a directory of its own, with a VERSION file the spec can change.
  def app_dir(dir, version: "1")
    FileUtils.cp(File.join(root, "spec/fixtures/pid.ru"), File.join(dir, "config.ru"))
    File.write(File.join(dir, "VERSION"), "#{version}\n")
    dir
  end

  # Runs bin/nettyrack in +dir+; kills what is left of it and of every process it started.
  def nettyrack(dir, *args, **options)
    child = NettyrackProcess.new(*args, chdir: dir, **options)
    yield child
  ensure
    child&.kill
    NettyrackProcess.kill_all(child ? child.stdout.scan(/pid (\d+) is booting/).flatten.map(&:to_i) : [])
  end

  def get(url)
    Net::HTTP.get_response(URI(url)).body
  end

  def pid_file_names(path, pid)
    Deadline.wait_until(timeout: 30) { File.read(path).to_i == pid }
  end

  it "under load on TCP, TLS and a unix socket: USR2 brings a new process and new code, no request fails" do
    Dir.mktmpdir("nettyrack-hot") do |dir|
      dir = File.realpath(app_dir(dir))
      cert, key = TestCertificates.new(dir).server("server")
      sock = File.join(dir, "app.sock")
      args = ["-b", "tcp://127.0.0.1:0", "-b", "ssl://127.0.0.1:0?cert=#{cert}&key=#{key}", "-b", "unix://#{sock}",
              "-t", "2:4", "--pidfile", "server.pid", "--warmup-time", "3s", "config.ru"]
      nettyrack(dir, *args) do |old|
        urls = old.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+), https://127\.0\.0\.1:(\d+), unix://})
        http, https = urls[1].to_i, urls[2].to_i
        pid_file_names(File.join(dir, "server.pid"), old.pid)
        loads = [RestartLoad.new(clients: 8) { TCPSocket.new("127.0.0.1", http) },
                 RestartLoad.new(clients: 4) { RestartLoad.tls(https) },
                 RestartLoad.new(clients: 4) { UNIXSocket.new(sock) }].each(&:start)
        loads.each { |load| load.wait_for(200) }

        File.write(File.join(dir, "VERSION"), "2\n")
        old.signal("USR2")
        successor = old.stdout_match(/hot restart \(SIGUSR2\): pid (\d+) is booting/)[1]
        loads.each { |load| load.wait_for_server(successor) }
        expect(old.wait(timeout: 60).exitstatus).to eq(0), "the old process drains and exits 0"
        results = loads.map { |load| load.stop(timeout: 30) }

        expect(results.map(&:failed)).to eq([0, 0, 0]), results.map(&:errors).inspect
        expect(results.map { |r| r.by_server.keys.sort }).to all(eq([old.pid.to_s, successor].sort))
        expect(get("http://127.0.0.1:#{http}/")).to eq("pid #{successor} version 2\n")
        expect(File.read(File.join(dir, "server.pid")).to_i).to eq(successor.to_i)
        expect(old.stdout).to include("nettyrack: pid #{successor} serves now; pid #{old.pid} drains")
        expect(old.stdout).to match(/nettyrack: warmed up in \d+\.\d s: [\d,]+ requests/)
        expect(old.stderr).to eq("")
      end
    end
  end

  it "keeps the old process serving when the new one cannot boot, says why, and restarts once fixed (nettyrack ctl)" do
    Dir.mktmpdir("nettyrack-hot") do |dir|
      dir = File.realpath(app_dir(dir))
      args = ["-b", "tcp://127.0.0.1:0", "--control-url", "tcp://127.0.0.1:0", "--control-token", "s3cret",
              "--warmup-time", "2s", "config.ru"]
      nettyrack(dir, *args) do |old|
        port = old.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)})[1]
        control = old.stdout_match(%r{control endpoint on (tcp://127\.0\.0\.1:\d+)})[1]
        File.write(File.join(dir, "config.ru"), "run ->(env) { [200, {}, [\"broken\"]] \n")
        old.signal("USR2")
        failure = old.stderr_match(/nettyrack: hot restart failed: (.*); pid #{old.pid} still serving\n/)[1]
        expect(failure).to match(/syntax error in .*config\.ru/)
        expect(get("http://127.0.0.1:#{port}/")).to eq("pid #{old.pid} version 1\n")

        app_dir(dir, version: "3")
        ctl = NettyrackProcess.new("ctl", "--control-url", control, "--control-token", "s3cret", "restart", chdir: dir)
        ctl_status = ctl.wait(timeout: 120)
        successor = ctl.stdout[/restarted: pid #{old.pid} replaced by pid (\d+)/, 1]
        expect([ctl_status.exitstatus, successor]).to match([0, /\A\d+\z/]), ctl.stdout + ctl.stderr
        expect(get("http://127.0.0.1:#{port}/")).to eq("pid #{successor} version 3\n")
        expect(old.wait(timeout: 60).exitstatus).to eq(0)
      end
    end
  end

  # The deploy that raced a restart: USR1, then a new release touched in while the new process
  # still boots (it read VERSION 2 already). The touch is queued, not refused, and passed on.
  it "queues a restart asked for during one, and passes it to the new process once that serves" do
    Dir.mktmpdir("nettyrack-hot") do |dir|
      dir = File.realpath(app_dir(dir))
      FileUtils.mkdir_p(File.join(dir, "tmp"))
      nettyrack(dir, "-b", "tcp://127.0.0.1:0", "--tmp-restart", "--warmup-time", "3s", "config.ru") do |old|
        port = old.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)})[1]
        File.write(File.join(dir, "VERSION"), "2\n")
        old.signal("USR1")
        second = old.stdout_match(/hot restart \(SIGUSR1\): pid (\d+) is booting/)[1]
        File.write(File.join(dir, "VERSION"), "3\n")
        FileUtils.touch(File.join(dir, "tmp/restart.txt"), mtime: Time.now + 2) # past the watcher's last look whatever the clock's grain
        old.stdout_match(%r{tmp/restart\.txt touched during the hot restart to pid #{second}: one more hot restart follows once that one serves})
        old.stdout_match(%r{the hot restart asked for meanwhile \(tmp/restart\.txt touched\) passes to pid #{second} \(SIGUSR2\)})
        third = old.stdout_match(/hot restart \(SIGUSR2\): pid (\d+) is booting/, timeout: 120)[1]
        old.stdout_match(/pid #{third} serves now; pid #{second} drains/, timeout: 120)
        expect(get("http://127.0.0.1:#{port}/")).to eq("pid #{third} version 3\n")
        expect(old.wait(timeout: 60).exitstatus).to eq(0)
        expect(Deadline.wait_until(timeout: 60) { !NettyrackProcess.alive?(second.to_i) }).to be_truthy, "pid #{second} drains and exits"
        expect(old.stderr).to eq("")
      end
    end
  end

  it "keeps a restart asked for while warming up, and starts it once serving" do
    Dir.mktmpdir("nettyrack-hot") do |dir|
      dir = File.realpath(app_dir(dir))
      File.write(File.join(dir, "warmup.txt"), "GET /warm\n")
      # the first warm-up request leaves a mark, so the signal comes while warming up (5 s at least)
      File.write(File.join(dir, "config.ru"), <<~RUBY)
        mark = File.join(__dir__, "warming")
        run ->(env) { File.write(mark, "") if env["PATH_INFO"] == "/warm"; [200, {}, ["pid \#{Process.pid}\n"]] }
      RUBY
      nettyrack(dir, "-b", "tcp://127.0.0.1:0", "--warmup", "warmup.txt", "--warmup-time", "6s", "config.ru") do |old|
        Deadline.wait_until(timeout: 60) { File.exist?(File.join(dir, "warming")) }
        old.signal("USR2")
        old.stdout_match(/nettyrack: SIGUSR2 while warming up: one more hot restart follows once this process serves\n/)
        old.stdout_match(%r{listening on http://127\.0\.0\.1:\d+})
        successor = old.stdout_match(/hot restart \(SIGUSR2\): pid (\d+) is booting/)[1]
        old.stdout_match(/pid #{successor} serves now; pid #{old.pid} drains/, timeout: 120)
        expect(old.wait(timeout: 60).exitstatus).to eq(0)
        expect(old.stderr).to eq("")
      end
    end
  end

  it "warms a new process up on the GET requests the old one answered last (--warmup recent), none on a plain start" do
    Dir.mktmpdir("nettyrack-hot") do |dir|
      dir = File.realpath(app_dir(dir))
      File.write(File.join(dir, "config.ru"), <<~'RUBY')
        hits = File.join(__dir__, "hits.log")
        run lambda { |env|
          target = env["PATH_INFO"] + (env["QUERY_STRING"].to_s.empty? ? "" : "?#{env['QUERY_STRING']}")
          File.open(hits, "a") { |f| f.write("#{Process.pid} #{env['REQUEST_METHOD']} #{target}\n") }
          [target == "/missing" ? 404 : 200, {}, ["pid #{Process.pid}\n"]]
        }
      RUBY
      left_before = Dir.glob(File.join(Dir.tmpdir, "nettyrack-warmup-recent*")).size
      nettyrack(dir, "-b", "tcp://127.0.0.1:0", "--warmup", "recent", "--warmup-sample", "5", "--warmup-time", "2s",
                "config.ru") do |old|
        port = old.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)})[1]
        http = Net::HTTP.new("127.0.0.1", port)
        %w[/products/7?color=red /missing /products/7?color=red /about /products/7?color=red /about].each { |path| http.get(path) }
        http.post("/orders", "id=1")
        expect(File.readlines(File.join(dir, "hits.log")).grep(/\A#{old.pid} /).size).to eq(7)

        old.signal("USR2")
        successor = old.stdout_match(/hot restart \(SIGUSR2\): pid (\d+) is booting/)[1]
        old.stdout_match(/nettyrack: warming up on the 5 GET requests last answered before the restart \(2 targets\)\n/)
        old.stdout_match(/pid #{successor} serves now; pid #{old.pid} drains/, timeout: 120)
        warmed = File.readlines(File.join(dir, "hits.log")).grep(/\A#{successor} /).map { |line| line.split(" ", 2).last.chomp }
        expect(warmed.uniq.sort).to eq(["GET /about", "GET /products/7?color=red"])
        expect(old.wait(timeout: 60).exitstatus).to eq(0)
        expect(old.stdout.lines.grep(/warming up/).size).to eq(1), "no warm-up on the plain start"
        expect(Dir.glob(File.join(Dir.tmpdir, "nettyrack-warmup-recent*")).size).to eq(left_before), "the hand-over's file is gone"
        expect(old.stderr).to eq("")
      end
    end
  end

  it "stops on SIGINT though it started with SIGINT ignored (a background job, nohup)" do
    Dir.mktmpdir("nettyrack-hot") do |dir|
      dir = File.realpath(app_dir(dir))
      command = ["bash", "-c", 'trap "" INT; exec "$@"', "bash", RbConfig.ruby, NettyrackProcess::BIN]
      nettyrack(dir, "-b", "tcp://127.0.0.1:0", "config.ru", command: command) do |child|
        child.stdout_match(/listening on/)
        ignored = File.read("/proc/#{child.pid}/status")[/^SigIgn:\s*(\h+)/, 1].to_i(16)[1]
        expect(ignored).to eq(0), "SIGINT taken over"
        child.signal("INT")
        expect([child.wait(timeout: 60).exitstatus, child.stdout.lines.last]).to eq([0, "nettyrack: shutting down (SIGINT)\n"])
      end
    end
  end

  describe "systemd" do
    # systemd-socket-activate binds, starts the command on the first connection (as a socket
    # unit does) and hands it only the variables named with -E.
    def socket_activated(port, env)
      names = ENV.to_h.merge(NettyrackProcess::CLEAN_ENV).merge(env).compact.keys
      ["systemd-socket-activate", "-l", "127.0.0.1:#{port}", *names.flat_map { |name| ["-E", name] },
       RbConfig.ruby, NettyrackProcess::BIN]
    end

    it "serves the sockets systemd hands in, and tells it READY, RELOADING, the new MAINPID, and STOPPING" do
      skip "no systemd-socket-activate here" unless system("command -v systemd-socket-activate >/dev/null")
      Dir.mktmpdir("nettyrack-systemd") do |dir|
        dir = File.realpath(app_dir(dir))
        port = TCPServer.open("127.0.0.1", 0) { |free| free.addr[1] }
        listener = NotifyListener.new(File.join(dir, "notify"))
        env = { "NOTIFY_SOCKET" => listener.path }
        command = socket_activated(port, env)
        nettyrack(dir, "-b", "tcp://127.0.0.1:#{port}", "--warmup-time", "2s", "config.ru", command: command, env: env) do |old|
          old.stderr_match(/Listening on 127\.0\.0\.1:#{port}/)
          first = Thread.new { get("http://127.0.0.1:#{port}/") } # the connection that starts the service
          ready = listener.wait_for { |message| message.include?("READY=1") }
          expect(ready).to include("MAINPID=#{old.pid}")
          expect(Deadline.value(first, 30, "the first request's answer")).to eq("pid #{old.pid} version 1\n")
          old.stdout_match(%r{listening on http://127\.0\.0\.1:#{port}\n})

          old.signal("USR2")
          reloading = listener.wait_for { |message| message.include?("RELOADING=1") }
          expect(reloading.grep(/\AMONOTONIC_USEC=\d+\z/).size).to eq(1)
          successor = listener.wait_for { |message| message.include?("READY=1") }
          new_pid = successor.grep(/\AMAINPID=/).first.split("=").last.to_i
          expect(new_pid).not_to eq(old.pid)
          expect(old.wait(timeout: 60).exitstatus).to eq(0)
          expect(get("http://127.0.0.1:#{port}/")).to eq("pid #{new_pid} version 1\n")
          expect(listener.messages.flatten).not_to include("STOPPING=1"), "a hand-over is no stop"

          Process.kill("TERM", new_pid)
          listener.wait_for { |message| message.include?("STOPPING=1") }
        end
      ensure
        listener&.close
      end
    end
  end

  describe "warm-up input, as a user gets it wrong" do
    it "says in one line that the file is missing, or which line is not a request" do
      Dir.mktmpdir("nettyrack-warm") do |dir|
        dir = File.realpath(app_dir(dir))
        nettyrack(dir, "--warmup", "missing.txt", "config.ru") do |child|
          expect([child.wait.exitstatus, child.stderr])
            .to eq([1, "nettyrack: invalid --warmup: cannot read warm-up file missing.txt: No such file or directory\n"])
        end
        File.write(File.join(dir, "warmup.txt"), "# paths\nGET /\n\nGOT\n")
        nettyrack(dir, "--warmup", "warmup.txt", "config.ru") do |child|
          expect([child.wait.exitstatus, child.stderr])
            .to eq([1, "nettyrack: invalid --warmup: warmup.txt:4: not a request: \"GOT\" (write METHOD /path [body], such as GET /)\n"])
        end
      end
    end

    it "logs a warm-up request that fails, and serves" do
      Dir.mktmpdir("nettyrack-warm") do |dir|
        dir = File.realpath(app_dir(dir))
        File.write(File.join(dir, "warmup.txt"), "GET /\nGET /boom\n")
        # One thread, so one warm-up connection: /boom is sent once, then leaves the rotation.
        nettyrack(dir, "-b", "tcp://127.0.0.1:0", "-t", "1:1", "--warmup", "warmup.txt", "--warmup-requests", "300",
                  "config.ru") do |child|
          port = child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)})[1]
          warmed = child.stdout_match(/nettyrack: warmed up in .*\n/)[0]
          expect(warmed).to match(/: [\d,]+ requests.*\(count reached\); failed: GET \/boom: 500\n\z/)
          expect(get("http://127.0.0.1:#{port}/")).to eq("pid #{child.pid} version 1\n")
          child.signal("TERM")
          expect(child.wait.exitstatus).to eq(0)
          expect(child.stderr.scan("Error handling GET /boom").size).to eq(1), "the failing request left the rotation"
        end
      end
    end
  end
end
