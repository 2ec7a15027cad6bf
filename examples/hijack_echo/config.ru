# frozen_string_literal: true

# WebSocket echo over a full rack.hijack, with websocket-driver as Puma apps use it:
# `bin/nettyrack examples/hijack_echo/config.ru`. For comparison only: new code should use
# rack.upgrade (examples/echo), which needs no thread per connection.
#
# The app takes the socket (env["rack.hijack"].call), lets websocket-driver answer the
# handshake on it, and reads it on a thread of its own; every message comes back as it came
# (text as text, binary as binary). The app's own return value is ignored by the server.
require "websocket/driver"

# What websocket-driver writes to and reads the handshake from: the env, the URL and the socket.
class HijackedSocket
  attr_reader :env, :url

  def initialize(env, io)
    @env = env
    @io = io
    @url = "ws://#{env['HTTP_HOST']}#{env['REQUEST_URI']}"
  end

  def write(data)
    @io.write(data)
  rescue IOError, SystemCallError
    @io.close unless @io.closed? # the client is gone; the reader sees it and stops
  end
end

# Reads the hijacked socket until EOF and feeds the driver; closes the socket once either side closed.
class EchoConnection
  def initialize(env)
    @io = env["rack.hijack"].call
    @driver = WebSocket::Driver.rack(HijackedSocket.new(env, @io))
    @driver.on(:message) { |event| echo(event.data) }
    @driver.on(:close) { @io.close unless @io.closed? }
    @driver.start
  end

  def run
    loop { @driver.parse(@io.readpartial(16_384)) }
  rescue EOFError, IOError, SystemCallError
    nil
  ensure
    @io.close unless @io.closed?
  end

  private

  def echo(data)
    data.is_a?(Array) ? @driver.binary(data) : @driver.text(data)
  end
end

USAGE = "nettyrack hijack_echo: open a WebSocket to this address and every message comes back\n"

run(lambda do |env|
  unless WebSocket::Driver.websocket?(env) && env["rack.hijack?"]
    next [200, { "content-type" => "text/plain" }, [USAGE]]
  end

  connection = EchoConnection.new(env)
  Thread.new { connection.run }
  [-1, {}, []]
end)
