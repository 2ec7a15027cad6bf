# frozen_string_literal: true

require "socket"

# One nettyrack process for a bench scenario: bin/nettyrack on 127.0.0.1 and a free port, in
# production, its output in a log file. #rss_kb and #peak_rss_kb read /proc for the JVM.
class BenchServer
  ROOT = File.expand_path("../..", __dir__)
  attr_reader :port, :pid

  def initialize(rackup, *args, heap: nil, log:)
    @port = free_port
    opts = [ENV.fetch("JRUBY_OPTS", ""), ("-J-Xmx#{heap}" if heap)].compact.join(" ")
    env = { "JRUBY_OPTS" => opts, "RACK_ENV" => "production", "PORT" => nil }
    @pid = Process.spawn(env, RbConfig.ruby, "#{ROOT}/bin/nettyrack", "-b", "tcp://127.0.0.1:#{@port}",
                         *args, File.join(ROOT, rackup), out: log, err: log, in: File::NULL)
    wait_until_up
  end

  def rss_kb = status_kb("VmRSS")
  def peak_rss_kb = status_kb("VmHWM")

  def term
    Process.kill("TERM", @pid)
  end

  # Seconds until the process exited, and its status.
  def wait(timeout: 60)
    started = now
    loop do
      done = Process.waitpid2(@pid, Process::WNOHANG)
      return [now - started, done[1]] if done
      raise "nettyrack did not exit within #{timeout} s" if now - started > timeout

      sleep 0.02
    end
  end

  def stop
    term
    wait
  rescue Errno::ESRCH, Errno::ECHILD
    nil
  end

  private

  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  def status_kb(field)
    File.read("/proc/#{@pid}/status")[/^#{field}:\s+(\d+)/, 1].to_i
  end

  def free_port
    server = TCPServer.new("127.0.0.1", 0)
    server.addr[1]
  ensure
    server&.close
  end

  def wait_until_up(timeout: 120)
    limit = now + timeout
    begin
      TCPSocket.new("127.0.0.1", @port).close
    rescue Errno::ECONNREFUSED
      raise "nettyrack did not come up within #{timeout} s" if now > limit

      sleep 0.1
      retry
    end
  end
end
