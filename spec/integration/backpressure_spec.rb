# frozen_string_literal: true

require_relative "../jruby/bridge_helper"
require "digest"

# A streamed body waits for the client instead of piling up in server memory: writes block
# while the socket is not writable, and give up after --write-timeout.
RSpec.describe "streaming backpressure" do
  let(:chunk) { Random.new(1).bytes(64 * 1024) }
  let(:closed) { Queue.new }

  def body_of(chunks, &on_close)
    body = Object.new
    piece = chunk
    body.define_singleton_method(:each) { |&blk| chunks.times { blk.call(piece) } }
    body.define_singleton_method(:close) { on_close.call }
    body
  end

  it "delivers a large streamed body intact to a client that reads slowly" do
    app = ->(_env) { [200, { "content-type" => "application/octet-stream" }, body_of(256) { closed << :closed }] }
    with_app(app) do |port|
      socket = TCPSocket.new("127.0.0.1", port)
      socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      received = +"".b
      limit = Deadline.now + 30
      nil while received.bytesize < 1024 * 1024 && Deadline.read_some(socket, received, limit)
      raise "only #{received.bytesize} bytes of the first MiB within 30 s" if received.bytesize < 1024 * 1024
      received << read_all(socket, 30) # the rest, once the server has been made to wait
      head, payload = received.split("\r\n\r\n", 2)
      expect(head).to include("transfer-encoding: chunked")
      data = +"".b
      until payload.empty?
        size_line, rest = payload.split("\r\n", 2)
        size = size_line.to_i(16)
        break if size.zero?
        data << rest.byteslice(0, size)
        payload = rest.byteslice(size + 2..)
      end
      expect(data.bytesize).to eq(256 * chunk.bytesize)
      expect(Digest::SHA256.hexdigest(data)).to eq(Digest::SHA256.hexdigest(chunk * 256))
      expect(BridgeHelper.take(closed)).to eq(:closed)
    ensure
      socket&.close
    end
  end

  it "abandons the response when the client stops reading for the write timeout" do
    errors = StringIO.new
    app = ->(_env) { [200, {}, body_of(100_000) { closed << :closed }] } # 6 GB if it never stopped
    with_app(app, errors: errors, writeTimeoutMillis: 500) do |port|
      socket = TCPSocket.new("127.0.0.1", port)
      socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      expect(BridgeHelper.take(closed, 20)).to eq(:closed) # the body was given up and closed
      expect(errors.string).to eq(""), "a client gone is not an application error"
    ensure
      socket&.close
    end
  end
end
