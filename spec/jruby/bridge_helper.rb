# frozen_string_literal: true

# Starts the Java server in this JRuby process around a Rack app, on 127.0.0.1 and port 0,
# wiring ServerConfig, RackBridge and NettyServer directly: these specs exercise the JRuby
# bridge (org.nettyrack.jruby) through real sockets, without the Ruby launcher in between.
require "java"
require "jruby"
require "net/http"
require "socket"
require "timeout"
require "uri"
require "rack"
require "rack/lint"

Dir[File.expand_path("../../lib/nettyrack/jars/*.jar", __dir__)].sort.each { |jar| require jar }
Java::OrgNettyrackJruby::NettyrackLibrary.new.load(JRuby.runtime, false)

module BridgeHelper
  # Queue#pop with a deadline (Queue#pop(timeout:) needs Ruby 3.2; JRuby 9.4 is Ruby 3.1).
  def self.take(queue, seconds = 5)
    Timeout.timeout(seconds) { queue.pop }
  end

  # Yields the port of a server running +app+; stops it afterwards. Each server gets its own
  # in-process pub/sub unless +pubsub+ is given.
  def with_app(app, development: false, threads: [2, 4], errors: StringIO.new,
               pubsub: Java::OrgNettyrackCorePush::LocalPubSub.new, **limits)
    builder = Java::OrgNettyrackCoreConfig::ServerConfig.builder.bind("127.0.0.1", 0).threads(*threads)
                                                 .errorLog(errors.to_outputstream)
    limits.each { |name, value| builder.public_send(name, value) }
    bridge = Java::OrgNettyrackJruby::RackBridge.new(app, errors, development, pubsub)
    server = Java::OrgNettyrackNetty::NettyServer.new(builder.build, bridge)
    server.start
    yield server.port, errors, server
  ensure
    server&.stop
  end

  def http_get(port, path, headers = {})
    Net::HTTP.start("127.0.0.1", port, open_timeout: 5, read_timeout: 10) { |http| http.get(path, headers) }
  end

  def http_post(port, path, body, headers = {})
    Net::HTTP.start("127.0.0.1", port, open_timeout: 5, read_timeout: 10) { |http| http.post(path, body, headers) }
  end

  # Sends raw bytes, half-closes, and returns all the server wrote back (bounded by +timeout+).
  def raw_request(port, data, timeout: 5)
    socket = TCPSocket.new("127.0.0.1", port)
    socket.write(data)
    socket.close_write
    read_all(socket, timeout)
  ensure
    socket&.close
  end

  def read_all(socket, timeout)
    out = +""
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    loop do
      left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
      break if left <= 0 || !IO.select([socket], nil, nil, left)
      chunk = socket.read_nonblock(16_384, exception: false)
      break if chunk.nil?
      out << chunk unless chunk == :wait_readable
    end
    out
  end
end

RSpec.configure { |c| c.include BridgeHelper }
