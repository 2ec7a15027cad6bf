# frozen_string_literal: true

require "socket"
require_relative "deadline"

# A Server-Sent Events stream read off a plain socket, every wait bounded: what came so far,
# up to a text, or to the end of the stream.
class SseSocket
  def self.open(port, path)
    socket = Socket.tcp("127.0.0.1", port, connect_timeout: 10)
    socket.write("GET #{path} HTTP/1.1\r\nHost: 127.0.0.1:#{port}\r\nAccept: text/event-stream\r\n\r\n")
    new(socket)
  end

  def initialize(socket)
    @socket = socket
    @seen = +""
  end

  # Everything read up to and including +text+; raises when it has not come within the timeout.
  def read_until(text, timeout: 30)
    limit = Deadline.now + timeout
    nil until @seen.include?(text) || !Deadline.read_some(@socket, @seen, limit)
    raise "no #{text.inspect} on the event stream within #{timeout} s; got:\n#{@seen}" unless @seen.include?(text)

    @seen
  end

  # Everything read until the server ends the stream.
  def read_to_end(timeout: 30)
    limit = Deadline.now + timeout
    nil while Deadline.read_some(@socket, @seen, limit)
    raise "the event stream did not end within #{timeout} s; got:\n#{@seen}" if Deadline.now >= limit

    @seen
  end

  def close
    @socket.close unless @socket.closed?
  end
end
