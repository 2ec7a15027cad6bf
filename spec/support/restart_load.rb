# frozen_string_literal: true

require "openssl"
require "socket"

# Keep-alive clients that send GETs back to back across a hot restart, and say what happened
# to every request: answered (and by whom: the body's first word after "pid"), or failed. A
# connection answered with `connection: close` (the old process draining) is replaced by a new
# one, which the new process accepts. Raw sockets, as KeepAliveLoad's: Net::HTTP would quietly
# resend a request whose kept connection closed, hiding exactly what this counts.
#
#   load = RestartLoad.new(clients: 20) { TCPSocket.new("127.0.0.1", port) }.start
#   load.wait_for(500)                 # answers, in total, within a bound
#   load.wait_for_server("4321")       # until that pid has answered
#   load.wait_for_version("2")         # until the code of VERSION 2 has answered (a reload)
#   result = load.stop(timeout: 30)    # => answered, failed, by_server {"4242" => 900, "4321" => 700},
#                                      #    by_version {"1" => 900, "2" => 700}, errors
class RestartLoad
  Result = Struct.new(:answered, :failed, :by_server, :by_version, :errors, keyword_init: true)
  REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

  # The block opens one connection (TCP, TLS or unix).
  def initialize(clients:, &connect)
    @clients = clients
    @connect = connect
    @lock = Mutex.new
    @answered = 0
    @failed = 0
    @by_server = Hash.new(0)
    @by_version = Hash.new(0)
    @errors = []
    @stopping = false
  end

  def start
    @threads = Array.new(@clients) { Thread.new { run_client } }
    self
  end

  def answered = @lock.synchronize { @answered }

  # Until +count+ answers arrived in total; raises after +timeout+ seconds.
  def wait_for(count, timeout: 60)
    until_true(timeout, -> { "only #{answered} of #{count} answers" }) { answered >= count }
  end

  # Until +pid+ has answered +count+ requests; raises after +timeout+ seconds.
  def wait_for_server(pid, count: 50, timeout: 120)
    until_true(timeout, -> { "pid #{pid} answered #{served_by(pid)} of #{count} requests" }) { served_by(pid) >= count }
  end

  def served_by(pid) = @lock.synchronize { @by_server[pid.to_s] }

  # Until the code of +version+ (the body's word after "version") has answered +count+ requests.
  def wait_for_version(version, count: 50, timeout: 120)
    until_true(timeout, -> { "version #{version} answered #{by_version(version)} of #{count} requests" }) do
      by_version(version) >= count
    end
  end

  def by_version(version) = @lock.synchronize { @by_version[version.to_s] }

  # Clients finish the request they are in; the counts.
  def stop(timeout: 30)
    @stopping = true
    limit = Deadline.now + timeout
    @threads.each do |thread|
      raise "a load client did not stop within #{timeout} s" unless thread.join([limit - Deadline.now, 0].max)
    end
    @lock.synchronize { Result.new(answered: @answered, failed: @failed, by_server: @by_server.dup,
                                   by_version: @by_version.dup, errors: @errors.uniq) }
  end

  private

  def until_true(timeout, message)
    limit = Deadline.now + timeout
    until yield
      raise "#{message.call} within #{timeout} s (failed so far: #{@failed}, #{@errors.uniq.first(3)})" if Deadline.now > limit

      sleep 0.02 # polling counters the client threads update; nothing to wait on
    end
  end

  def run_client
    until @stopping
      socket = @connect.call
      begin
        loop { break if @stopping || exchange(socket) == :close }
      ensure
        socket.close
      end
    end
  rescue StandardError => e
    record_failure(e)
    retry unless @stopping
  end

  def exchange(socket)
    socket.write(REQUEST)
    head = socket.gets("\r\n\r\n")
    raise EOFError, "connection closed before an answer" unless head&.end_with?("\r\n\r\n")

    length = head[/^content-length: *(\d+)/i, 1] or raise "no content-length: #{head.lines.first.inspect}"
    body = socket.read(length.to_i)
    raise EOFError, "connection closed inside a body" if body.nil? || body.bytesize < length.to_i
    raise "status #{head.lines.first.strip}" unless head.start_with?("HTTP/1.1 200 ")

    @lock.synchronize do
      @answered += 1
      @by_server[body[/pid (\d+)/, 1].to_s] += 1
      @by_version[body[/version (\S+)/, 1].to_s] += 1
    end
    head.match?(/^connection: *close/i) ? :close : :keep
  end

  def record_failure(error)
    @lock.synchronize do
      @failed += 1
      @errors << "#{error.class}: #{error.message}"
    end
  end

  # A TLS connection that trusts anything: the spec's certificate is self-signed.
  def self.tls(port)
    context = OpenSSL::SSL::SSLContext.new
    context.verify_mode = OpenSSL::SSL::VERIFY_NONE
    socket = OpenSSL::SSL::SSLSocket.new(TCPSocket.new("127.0.0.1", port), context)
    socket.sync_close = true
    socket.connect
    socket
  end
end
