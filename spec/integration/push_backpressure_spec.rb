# frozen_string_literal: true

require_relative "../jruby/bridge_helper"
require_relative "../support/ws_client"

# A push client that stops reading must not make the server hold more than --max-push-queue
# for it: client.write says false past the limit, the connection is closed (1008), and the
# heap stays flat however much the app tries to send. A client that catches up gets on_drained.
RSpec.describe "push backpressure" do
  let(:events) { Queue.new }
  let(:chunk) { ("x" * 64 * 1024).b }

  def used_heap
    runtime = java.lang.Runtime.getRuntime
    3.times { java.lang.System.gc }
    runtime.totalMemory - runtime.freeMemory
  end

  def upgrade_app(handler)
    lambda do |env|
      env["rack.upgrade"] = handler
      [200, {}, []]
    end
  end

  # Sends the opening handshake and reads the 101 head, then leaves the socket unread.
  def silent_websocket(port)
    socket = TCPSocket.new("127.0.0.1", port)
    socket.write("GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" \
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    head = +""
    limit = Deadline.now + 10
    until head.end_with?("\r\n\r\n") # a byte at a time: what follows the head is the spec's to read
      left = limit - Deadline.now
      raise "no 101 head within 10 s: #{head.inspect}" unless left.positive? && IO.select([socket], nil, nil, left)

      head << socket.readpartial(1)
    end
    expect(head).to start_with("HTTP/1.1 101")
    socket
  end

  it "refuses writes past the queue limit, closes the connection, and keeps the heap flat" do
    queue_limit = 1024 * 1024
    attempt = 512 * 1024 * 1024 # what an unbounded queue would have to hold
    handler = Object.new
    piece = chunk
    results = events
    handler.define_singleton_method(:on_open) do |client|
      written = 0
      written += piece.bytesize while written < attempt && client.write(piece)
      results << [:stopped, written, client.open?, client.pending]
    end
    handler.define_singleton_method(:on_close) { |_client| results << [:closed] }

    with_app(upgrade_app(handler), maxPushQueue: queue_limit) do |port|
      before = used_heap
      socket = silent_websocket(port)
      _, written, open, pending = BridgeHelper.take(events, 30)
      grown = used_heap - before
      expect(written).to be < 64 * 1024 * 1024, "the limit plus the kernel's socket buffers, not #{written} bytes"
      expect([open, pending]).to eq([false, -1])
      expect(grown).to be < 128 * 1024 * 1024, "heap grew by #{grown} bytes of the #{attempt} attempted"
      expect(BridgeHelper.take(events, 15)).to eq([:closed]) # dropped after the close wait
    ensure
      socket&.close
    end
  end

  it "calls on_drained once a client that fell behind has read everything" do
    handler = Object.new
    piece = chunk
    results = events
    handler.define_singleton_method(:on_open) do |client|
      64.times { client.write(piece) } # 4 MB: far past the socket buffers, within the limit
      results << [:wrote, client.pending]
    end
    handler.define_singleton_method(:on_drained) { |client| results << [:drained, client.pending] }

    with_app(upgrade_app(handler), maxPushQueue: 16 * 1024 * 1024) do |port|
      socket = silent_websocket(port)
      _, pending = BridgeHelper.take(events, 10)
      expect(pending).to be > 0
      received = 0
      limit = Deadline.now + 30
      while received < 64 * chunk.bytesize
        left = limit - Deadline.now
        raise "only #{received} bytes of the 4 MB within 30 s" unless left.positive? && IO.select([socket], nil, nil, left)

        received += socket.readpartial(256 * 1024).bytesize
      end
      # The queue may also have emptied for a moment while on_open was still writing (the
      # kernel's socket buffers took a burst): that on_drained comes first, with writes
      # pending again. The one after the client caught up finds nothing pending.
      seen = [BridgeHelper.take(events, 10)]
      seen << BridgeHelper.take(events, 10) until seen.last == [:drained, 0]
      expect(seen).to all(match([:drained, Integer]))
    ensure
      socket&.close
    end
  end
end
