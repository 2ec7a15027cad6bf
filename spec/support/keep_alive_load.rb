# frozen_string_literal: true

require "socket"

# Keep-alive clients that send GETs back to back, as fast as the server answers, and count
# what happened to every request they sent. Raw sockets on purpose: Net::HTTP quietly retries
# an idempotent request whose connection closed under it, which would hide exactly the
# failures this measures. Used by the shutdown spec and bench/shutdown.
#
#   load = KeepAliveLoad.new(port, clients: 100).start
#   load.wait_for(2000)   # until that many answers arrived
#   ...                   # stop the server
#   load.finish(timeout: 30).failed  # => 0
#
# A client stops when an answer says `connection: close` and a new connection is refused (the
# server stopped listening). A request sent and not answered in full is a failure; a refused
# connection is not (no request was sent on it).
class KeepAliveLoad
  Result = Struct.new(:answered, :failed, :refused, :errors, keyword_init: true)

  def initialize(port, clients:, path: "/")
    @port = port
    @clients = clients
    @request = "GET #{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".b
    @lock = Mutex.new
    @counts = { answered: 0, failed: 0, refused: 0 }
    @errors = []
  end

  def start
    @threads = Array.new(@clients) { Thread.new { run_client } }
    self
  end

  def answered
    @lock.synchronize { @counts[:answered] }
  end

  # Waits until +count+ answers arrived in total; raises after +timeout+ seconds.
  def wait_for(count, timeout: 60)
    limit = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    sleep 0.05 while answered < count && Process.clock_gettime(Process::CLOCK_MONOTONIC) < limit
    raise "only #{answered} of #{count} answers within #{timeout} s" if answered < count
  end

  # Waits for every client to stop; the counts.
  def finish(timeout:)
    limit = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    @threads.each do |thread|
      left = limit - Process.clock_gettime(Process::CLOCK_MONOTONIC)
      raise "a load client did not stop within #{timeout} s" unless thread.join([left, 0].max)
    end
    @lock.synchronize { Result.new(**@counts, errors: @errors.uniq) }
  end

  private

  def run_client
    loop do
      socket = connect or return
      begin
        loop { break if exchange(socket) == :close }
      ensure
        socket.close
      end
    end
  rescue StandardError => e
    count(:failed, e)
  end

  def connect
    TCPSocket.new("127.0.0.1", @port)
  rescue Errno::ECONNREFUSED
    count(:refused)
    nil
  end

  # One request and its answer: :keep or :close; a failure raises.
  def exchange(socket)
    socket.write(@request)
    head = read_head(socket)
    read_body(socket, head)
    raise "status #{head.lines.first.strip}" unless head.start_with?("HTTP/1.1 200 ")

    count(:answered)
    head.match?(/^connection: *close/i) ? :close : :keep
  end

  def read_head(socket)
    head = socket.gets("\r\n\r\n")
    return head if head&.end_with?("\r\n\r\n")

    raise EOFError, "connection closed before an answer (#{head.to_s.bytesize} bytes of head)"
  end

  def read_body(socket, head)
    if (length = head[/^content-length: *(\d+)/i, 1])
      read_exactly(socket, length.to_i)
    elsif head.match?(/^transfer-encoding: *chunked/i)
      loop do
        size = socket.gets("\r\n") or raise EOFError, "connection closed inside a chunked body"
        read_exactly(socket, size.to_i(16) + 2)
        break if size.to_i(16).zero?
      end
    else
      raise "neither content-length nor chunked: #{head.lines.first.inspect}"
    end
  end

  def read_exactly(socket, length)
    body = socket.read(length)
    raise EOFError, "connection closed inside a body" if body.nil? || body.bytesize < length
  end

  def count(what, error = nil)
    @lock.synchronize do
      @counts[what] += 1
      @errors << "#{error.class}: #{error.message}" if error
    end
  end
end
