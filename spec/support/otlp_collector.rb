# frozen_string_literal: true

require "socket"
require_relative "deadline"

# A stand-in for an OpenTelemetry collector's OTLP/HTTP receiver on 127.0.0.1: answers every
# request 200 with an empty protobuf body (a valid ExportTraceServiceResponse) and keeps the
# body of each POST /v1/traces. It decodes nothing: the spans' strings (names, attribute keys and
# values) and trace ids appear as they are in the protobuf bytes, which is what specs look for.
class OtlpCollector
  attr_reader :port, :bodies

  def initialize
    @server = TCPServer.new("127.0.0.1", 0)
    @port = @server.addr[1]
    @bodies = Queue.new
    @thread = Thread.new { accept_all }
    @thread.report_on_exception = false
  end

  def endpoint = "http://127.0.0.1:#{port}"

  # The bodies received, together, once they match +pattern+; what came by the deadline otherwise.
  # (Polls the queue: Queue#pop(timeout:) is Ruby 3.2's, and JRuby 9.4 is Ruby 3.1.)
  def until_seen(pattern, timeout:)
    seen = +"".b
    Deadline.wait_until(timeout: timeout) do
      seen << @bodies.pop until @bodies.empty?
      pattern.match?(seen)
    end
    seen
  rescue RuntimeError
    seen # the deadline passed: what came
  end

  def close
    @server.close
    @thread.join(5)
  end

  private

  def accept_all
    loop { Thread.new(@server.accept) { |socket| serve(socket) } }
  rescue IOError, SystemCallError
    nil # closed
  end

  def serve(socket)
    while (line = socket.gets)
      length = 0
      while (header = socket.gets) && header != "\r\n"
        name, value = header.split(":", 2)
        length = value.to_i if name.casecmp?("content-length")
      end
      body = socket.read(length)
      @bodies << body if line.start_with?("POST /v1/traces ")
      socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n")
    end
  rescue IOError, SystemCallError
    nil
  ensure
    socket.close
  end
end
