# frozen_string_literal: true

require "socket"

# The servers bench/restart restarts, each able to start, restart, stop, and name its processes.
module RestartScenarios
  ROOT = File.expand_path("../..", __dir__)
  CRUBY_ENV = { "PATH" => "/usr/local/bin:/usr/bin:/bin", "HOME" => ENV.fetch("HOME", "/root"), "LANG" => "C.UTF-8",
                "RACK_ENV" => "production", "RAILS_ENV" => "production" }.freeze

  module_function

  def build(name, app, log:)
    case name
    when "nettyrack-tcp" then HotRestart.new(app, log, :tcp)
    when "nettyrack-tls" then HotRestart.new(app, log, :tls)
    when "nettyrack-unix" then HotRestart.new(app, log, :unix)
    when "nettyrack-reload" then Reload.new(app, log, :tcp)
    when "nettyrack-stopstart" then StopStart.new(app, log, :tcp)
    when "puma-phased" then PumaPhased.new(app, log)
    when "websocket" then WebSockets.new(app, log)
    else raise ArgumentError, "no scenario #{name}"
    end
  end

  def free_port
    TCPServer.open("127.0.0.1", 0) { |server| server.addr[1] }
  end

  # A server process (and what it starts, in its process group) answering on one listener.
  class Base
    attr_reader :log, :url

    def initialize(app, log)
      @app = app
      @log = log
      @groups = []
    end

    def websocket? = false
    def client_args = []

    # The pids of every process of the server's process groups (a hot restart's new process
    # stays in the old one's group; a stop and start makes a new group).
    def process_ids
      Dir.children("/proc").grep(/\A\d+\z/).map(&:to_i).select do |pid|
        @groups.include?(File.read("/proc/#{pid}/stat")[/\) \S (\d+) (\d+)/, 2].to_i)
      rescue SystemCallError
        false
      end
    end

    # Waits until an answer carries code +version+ (x-served-by: PID/VERSION), asking a few times
    # a second; raises after +timeout+ seconds.
    def wait_for_version(version, timeout:)
      limit = now + timeout
      until served_version == version
        raise "#{self.class.name}: version #{version} did not answer within #{timeout} s (see #{@log})" if now > limit

        sleep 0.2
      end
    end

    def stop
      @groups.each do |group|
        Process.kill("TERM", -group)
      rescue Errno::ESRCH
        nil
      end
      deadline = now + 60
      sleep 0.2 while process_ids.any? && now < deadline
      @groups.each do |group|
        Process.kill("KILL", -group)
      rescue Errno::ESRCH
        nil
      end
    end

    private

    def spawn(env, argv, clean: false)
      pid = Process.spawn(env, *argv, chdir: @app, pgroup: true, unsetenv_others: clean, in: File::NULL,
                                      out: [@log, "a"], err: [@log, "a"])
      Process.detach(pid)
      @groups << pid
      pid
    end

    def wait_until_answering(timeout: 240)
      limit = now + timeout
      until system("curl", "-s", "-o", "/dev/null", "-m", "5", "-f", "-k", *curl_args, @check)
        raise "#{self.class.name} did not answer within #{timeout} s (see #{@log})" if now > limit

        sleep 0.2
      end
    end

    def curl_args = []

    def served_version
      head = IO.popen(["curl", "-s", "-k", "-m", "5", "-D", "-", "-o", File::NULL, *curl_args, @check], &:read)
      head[%r{^x-served-by: *\d+/(\d+)}i, 1]&.to_i
    end

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

    def pidfile = File.join(@app, "server.pid")

    def serving_pid = File.read(pidfile).to_i
  end

  # nettyrack with its defaults, restarted with kill -USR2 (the pid file names the serving process).
  class HotRestart < Base
    def initialize(app, log, transport)
      super(app, log)
      @transport = transport
      port = RestartScenarios.free_port
      case transport
      when :tcp
        @bind = "tcp://127.0.0.1:#{port}"
        @url = @check = "http://127.0.0.1:#{port}/"
      when :tls
        certificate
        @bind = "ssl://127.0.0.1:#{port}?cert=#{@app}/server.pem&key=#{@app}/server.key"
        @url = @check = "https://127.0.0.1:#{port}/"
      when :unix
        @bind = "unix://#{@app}/app.sock"
        @url = "http://localhost/"
        @check = "http://localhost/"
      end
    end

    def client_args
      { tls: ["-insecure"], unix: ["-unix", "#{@app}/app.sock"], tcp: [] }.fetch(@transport)
    end

    def start
      spawn({}, command)
      wait_until_answering
    end

    def restart
      Process.kill("USR2", serving_pid)
    end

    private

    def command
      ["jruby", "#{ROOT}/bin/nettyrack", "-e", "production", "-b", @bind, "--pidfile", pidfile, "config.ru"]
    end

    def curl_args = @transport == :unix ? ["--unix-socket", "#{@app}/app.sock"] : []

    def certificate
      system("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", "#{@app}/server.key", "-out", "#{@app}/server.pem", "-days", "2", "-subj", "/CN=localhost",
             "-addext", "subjectAltName=IP:127.0.0.1", out: File::NULL, err: File::NULL) or raise "openssl failed"
    end
  end

  # The app reloaded inside the running JVM (--restart-with reload: kill -USR2 reloads): one
  # process all along, a new JRuby runtime for each version.
  class Reload < HotRestart
    private

    def command
      super.insert(-2, "--restart-with", "reload")
    end
  end

  # The baseline: what a deploy was before hot restarts, SIGTERM then the same command again.
  class StopStart < HotRestart
    def restart
      old = serving_pid
      Process.kill("TERM", old)
      sleep 0.05 while File.exist?("/proc/#{old}") && !File.read("/proc/#{old}/stat").split[2].eql?("Z")
      spawn({}, command)
    end
  end

  # The anchor: Puma on CRuby in cluster mode, restarted by phase (SIGUSR1 to the master: one
  # worker at a time is replaced by one running the new code).
  class PumaPhased < Base
    def initialize(app, log)
      super
      port = RestartScenarios.free_port
      @url = @check = "http://127.0.0.1:#{port}/"
      @port = port
    end

    def start
      spawn(CRUBY_ENV, ["/usr/bin/ruby", "/usr/bin/puma", "-q", "-w", "2", "-t", "2:2", "-e", "production",
                        "-b", "tcp://127.0.0.1:#{@port}", "--pidfile", pidfile, "config.ru"], clean: true)
      wait_until_answering
    end

    def restart
      Process.kill("USR1", serving_pid)
    end
  end

  # 1,000 WebSocket clients of nettyrack with pub/sub through Redis: a publisher outside the
  # servers sends a tick every 100 ms; a hot restart moves every client to the new process.
  class WebSockets < HotRestart
    def initialize(app, log)
      super(app, log, :tcp)
      @redis_port = RestartScenarios.free_port
      @url = @url.sub("http://", "ws://") + "ws"
    end

    def websocket? = true

    def start
      @redis = Process.spawn("redis-server", "--port", @redis_port.to_s, "--save", "", "--appendonly", "no",
                             out: File::NULL, err: File::NULL)
      sleep 0.05 until system("redis-cli", "-p", @redis_port.to_s, "ping", out: File::NULL, err: File::NULL)
      @publisher = Thread.new { publish_ticks }
      super
    end

    def stop
      @stopping = true
      @publisher&.join(5)
      super
      Process.kill("TERM", @redis) if @redis
      Process.wait(@redis) if @redis
    end

    private

    def command
      super.insert(-2, "--pubsub", "redis://127.0.0.1:#{@redis_port}")
    end

    # PUBLISH ticks SEQ:UNIX_MS every 100 ms, in Redis's protocol on one connection.
    def publish_ticks
      redis = TCPSocket.new("127.0.0.1", @redis_port)
      seq = 0
      next_at = now
      until @stopping
        seq += 1
        payload = "#{seq}:#{Process.clock_gettime(Process::CLOCK_REALTIME, :millisecond)}"
        redis.write("*3\r\n$7\r\nPUBLISH\r\n$5\r\nticks\r\n$#{payload.bytesize}\r\n#{payload}\r\n")
        redis.gets
        next_at += 0.1
        sleep(next_at - now) if next_at > now
      end
    ensure
      redis&.close
    end
  end
end
