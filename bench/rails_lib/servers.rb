# frozen_string_literal: true

require "socket"

# The servers bench/rails runs the one-file Rails app (examples/rails/config.ru) on, each a
# command line and an environment; Server starts one, waits for its first answer, reads its
# memory (the whole process tree: Puma's cluster is a master and workers) and stops it.
module RailsServers
  ROOT = File.expand_path("../..", __dir__)
  APP = File.join(ROOT, "examples/rails")
  CRUBY = "/usr/bin/ruby"
  # CRuby without the JRuby toolchain's GEM_PATH, RUBYLIB, JAVA_HOME...
  CLEAN = { "PATH" => "/usr/local/bin:/usr/bin:/bin", "HOME" => ENV.fetch("HOME", "/root"), "LANG" => "C.UTF-8",
            "RACK_ENV" => "production", "RAILS_ENV" => "production" }.freeze
  # Heroku's JVM settings for a 512 MB dyno (the JRuby buildpack's JAVA_OPTS).
  HEROKU_JAVA_OPTS = "-Xmx300m -Xss512k -XX:CICompilerCount=2 -Dfile.encoding=UTF-8"

  module_function

  # name => lambda(port) { [env, argv, clean_env?] }
  def all(jruby_opts)
    {
      "nettyrack" => ->(port) { [{ "JRUBY_OPTS" => jruby_opts }, nettyrack(port)] },
      # Rails exactly as loaded (NETTYRACK_RAILS_TUNING=off): what lib/nettyrack/rails_tuning.rb saves.
      "nettyrack-untuned" => lambda do |port|
        [{ "JRUBY_OPTS" => jruby_opts, "NETTYRACK_RAILS_TUNING" => "off" }, nettyrack(port)]
      end,
      "nettyrack-heroku" => lambda do |port|
        [{ "JRUBY_OPTS" => jruby_opts, "JAVA_OPTS" => HEROKU_JAVA_OPTS, "PORT" => port.to_s },
         ["jruby", "#{ROOT}/bin/nettyrack", "-e", "production", "#{APP}/config.ru"]]
      end,
      "puma-cluster" => ->(port) { [CLEAN, puma(port, "-w", "2", "-t", "2:2"), true] },
      # The same Puma in the same kind of 512 MB dyno as nettyrack-heroku, started as a Procfile would.
      "puma-heroku" => lambda do |port|
        [CLEAN.merge("PORT" => port.to_s),
         [CRUBY, "/usr/bin/puma", "-q", "-e", "production", "-w", "2", "-t", "2:2", "-p", port.to_s, "#{APP}/config.ru"], true]
      end,
      "puma-single" => ->(port) { [CLEAN, puma(port, "-t", "16:16"), true] },
      "jruby-rack" => ->(port) { [{ "RACK_ENV" => "production" }, jruby_rack(port)] }
    }
  end

  def nettyrack(port)
    ["jruby", "#{ROOT}/bin/nettyrack", "-q", "-b", "tcp://127.0.0.1:#{port}", "-e", "production", "#{APP}/config.ru"]
  end

  def puma(port, *args)
    [CRUBY, "/usr/bin/puma", "-q", "-b", "tcp://127.0.0.1:#{port}", "-e", "production", *args, "#{APP}/config.ru"]
  end

  def jruby_rack(port)
    home = File.dirname(File.dirname(File.realpath(`which jruby`.strip)))
    ["java", "--enable-native-access=ALL-UNNAMED", "-Djruby.home=#{home}",
     "-cp", "#{ROOT}/target/bench-rails/lib/*:#{home}/lib/jruby.jar",
     "#{ROOT}/bench/rails_lib/JrubyRackJetty.java", port.to_s, APP, "16"]
  end

  def free_port
    server = TCPServer.new("127.0.0.1", 0)
    server.addr[1]
  ensure
    server&.close
  end

  # One running server.
  class Server
    attr_reader :port, :pid, :boot_seconds

    # dyno: a Dyno (memory cgroup) to run the server in, or nil.
    def initialize(name, spec, log:, dyno: nil)
      @port = RailsServers.free_port
      env, argv, clean = spec.call(@port)
      argv = dyno.wrap(argv) if dyno
      started = now
      @pid = Process.spawn(env, *argv, unsetenv_others: clean ? true : false, pgroup: true,
                                       out: log, err: log, in: File::NULL, chdir: ROOT)
      begin
        wait_until_answering(name)
      rescue StandardError
        stop(timeout: 10) # the caller never gets this object, so nobody else could stop it
        raise
      end
      @boot_seconds = now - started
    end

    # Resident memory of the server's process group, in MB (ps -g would select by session).
    def rss_mb
      pids = `ps -e -o pid=,pgid=`.lines.map { |line| line.split.map(&:to_i) }.select { |_, pgid| pgid == @pid }.map(&:first)
      pids.sum { |pid| File.read("/proc/#{pid}/status")[/^VmRSS:\s+(\d+)/, 1].to_i rescue 0 } / 1024
    end

    def term
      Process.kill("TERM", -@pid)
    end

    # Seconds from TERM to exit (nil if it had to be killed after +timeout+).
    def stop(timeout: 60)
      started = now
      term
      loop do
        return now - started if Process.waitpid(@pid, Process::WNOHANG)
        break if now - started > timeout

        sleep 0.05
      end
      Process.kill("KILL", -@pid)
      Process.waitpid(@pid)
      nil
    rescue Errno::ESRCH, Errno::ECHILD
      now - started
    end

    private

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

    def wait_until_answering(name, timeout: Integer(ENV.fetch("BENCH_BOOT_TIMEOUT", "180")))
      limit = now + timeout
      until system("curl", "-s", "-o", "/dev/null", "-m", "5", "-f", "http://127.0.0.1:#{@port}/")
        raise "#{name} did not answer within #{timeout} s" if now > limit || Process.waitpid(@pid, Process::WNOHANG)

        sleep 0.2
      end
    end
  end
end
