# frozen_string_literal: true

require_relative "../jruby/bridge_helper"
require_relative "../support/ws_client"

# On SIGTERM (NettyServer#stop) every push connection hears on_shutdown, then a WebSocket gets
# a close frame with 1001 and an SSE stream ends; stop waits for them within the shutdown timeout.
RSpec.describe "push connections on a graceful stop" do
  let(:events) { Queue.new }
  let(:app) do
    results = events
    handler = Object.new
    handler.define_singleton_method(:on_open) { |client| results << [:open, client.protocol] }
    handler.define_singleton_method(:on_shutdown) { |client| results << [:shutdown, client.protocol] }
    handler.define_singleton_method(:on_close) { |client| results << [:close, client.protocol] }
    lambda do |env|
      env["rack.upgrade"] = handler
      [200, {}, []]
    end
  end

  it "runs on_shutdown, closes WebSockets with 1001 and ends SSE streams" do
    with_app(app, shutdownTimeoutMillis: 10_000) do |port, _errors, server|
      ws = WsClient.open(port, "/")
      sse = TCPSocket.new("127.0.0.1", port)
      sse.write("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
      opened = [BridgeHelper.take(events), BridgeHelper.take(events)]
      expect(opened).to contain_exactly([:open, :websocket], [:open, :sse])

      stopping = Thread.new { server.stop }
      expect { ws.read_message(timeout: 10) }.to raise_error(/closed the WebSocket \(1001\)/)
      ws.close # the client's half of the close handshake
      stream = read_all(sse, 10)
      expect(stream).to include("text/event-stream").and end_with("0\r\n\r\n")
      expect(Deadline.value(stopping, 30, "server.stop")).to be(true)
      seen = Array.new(4) { BridgeHelper.take(events) }
      expect(seen).to contain_exactly([:shutdown, :websocket], [:shutdown, :sse], [:close, :websocket], [:close, :sse])
      expect(seen.index([:shutdown, :websocket])).to be < seen.index([:close, :websocket])
    ensure
      sse&.close
    end
  end

  it "answers 503 to an upgrade the app accepts after the stop began, and still calls on_close" do
    results = events
    started = Queue.new
    release = Queue.new
    handler = Object.new
    handler.define_singleton_method(:on_open) { |_client| results << :open }
    handler.define_singleton_method(:on_close) { |_client| results << :close }
    slow = lambda do |env|
      started << true
      BridgeHelper.take(release, 10)
      env["rack.upgrade"] = handler
      [200, {}, []]
    end
    with_app(slow, shutdownTimeoutMillis: 10_000) do |port, _errors, server|
      socket = TCPSocket.new("127.0.0.1", port)
      socket.write("GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" \
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
      BridgeHelper.take(started)
      stopping = Thread.new { server.stop }
      Timeout.timeout(5) { Thread.pass while server.running? }
      release << true
      expect(read_all(socket, 10)).to start_with("HTTP/1.1 503")
      expect(Timeout.timeout(8) { stopping.value }).to be(true), "stop waited for a connection nobody would close"
      expect(BridgeHelper.take(events)).to eq(:close)
      expect(events).to be_empty
    ensure
      socket&.close
    end
  end
end
