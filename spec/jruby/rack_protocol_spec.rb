# frozen_string_literal: true

require "base64"
require "digest/sha1"
require "socket"

# Rack 3.1's protocol switch: env["rack.protocol"] lists what the client's Upgrade header offers
# (HTTP/1.1) or an extended CONNECT's :protocol (HTTP/2, RFC 8441); an app that answers with a
# rack.protocol response header (one of those) and a streaming body gets 101 with upgrade: that
# protocol (a 200 on HTTP/2), and its body is called with the connection (the stream) as a
# full-duplex stream (read and write), which it may keep after call returns.
# rack.upgrade (iodine's push API) is untouched beside it: spec/integration/*push*.
RSpec.describe "rack.protocol (Rack 3.1)" do
  include BridgeHelper

  let(:offered) { Queue.new }

  def upgrade_request(protocols, connection: "Upgrade", version: "1.1")
    "GET / HTTP/#{version}\r\nHost: x\r\nConnection: #{connection}\r\nUpgrade: #{protocols}\r\n\r\n"
  end

  # Reads from +socket+ until +pattern+ matched, bounded; the text read.
  def read_until(socket, pattern, seconds = 10)
    out = +""
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    until out.match?(pattern)
      left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
      raise "no #{pattern.inspect} in #{seconds} s; got #{out.inspect}" if left <= 0 || !socket.wait_readable(left)

      chunk = socket.read_nonblock(4096, exception: false)
      raise "closed before #{pattern.inspect}; got #{out.inspect}" if chunk.nil?

      out << chunk unless chunk == :wait_readable
    end
    out
  end

  it "lists the protocols of the Upgrade header, only when Connection names upgrade, only on HTTP/1.1" do
    app = lambda do |env|
      offered << env["rack.protocol"].inspect
      [200, {}, ["ok"]]
    end
    with_app(app) do |port|
      raw_request(port, upgrade_request("foo, bar/2", connection: "keep-alive, Upgrade"))
      raw_request(port, upgrade_request("foo", connection: "keep-alive"))
      raw_request(port, upgrade_request("foo", version: "1.0"))
      http_get(port, "/")
      expect(Array.new(4) { BridgeHelper.take(offered) }).to eq(['["foo", "bar/2"]', "nil", "nil", "nil"])
    end
  end

  it "switches with 101 and upgrade: the protocol, then the body streams both ways, also from another thread" do
    closes = java.util.concurrent.atomic.AtomicInteger.new
    body = lambda do |stream|
      Thread.new do
        while (line = stream.gets)
          stream.write(line.upcase)
        end
        stream.close
      end
    end
    body.define_singleton_method(:close) { closes.increment_and_get }
    app = lambda do |env|
      offered << env["rack.protocol"]
      [101, { "rack.protocol" => "echo", "x-extra" => "kept" }, body]
    end
    with_app(app) do |port|
      socket = TCPSocket.new("127.0.0.1", port)
      socket.write(upgrade_request("echo"))
      head = read_until(socket, /\r\n\r\n/)
      expect(head).to start_with("HTTP/1.1 101 Switching Protocols\r\n")
      expect(head.downcase).to include("upgrade: echo\r\n", "connection: upgrade\r\n", "x-extra: kept\r\n")
      expect(head.downcase).not_to include("rack.protocol", "content-length", "transfer-encoding")
      socket.write("hello\n")
      expect(read_until(socket, /\n/)).to eq("HELLO\n")
      socket.write("again\n")
      expect(read_until(socket, /\n/)).to eq("AGAIN\n")
      socket.close_write
      expect(socket.wait_readable(10) && socket.read).to eq("")
      expect(BridgeHelper.take(offered)).to eq(["echo"])
      # The worker closes the body once call returns, which races the echo thread's answers
      # on a busy machine: wait for it (bounded), then count.
      Deadline.wait_until(timeout: 10) { closes.get.positive? }
      expect(closes.get).to eq(1)
    ensure
      socket&.close
    end
  end

  it "answers 500 when the app picks a protocol the client did not offer, or a body that cannot stream" do
    app = lambda do |env|
      env["PATH_INFO"] == "/each" ? [101, { "rack.protocol" => "echo" }, ["no"]] : [101, { "rack.protocol" => "other" }, ->(s) { s.close }]
    end
    with_app(app) do |port, errors|
      expect(raw_request(port, upgrade_request("echo"))).to start_with("HTTP/1.1 500 ")
      expect(raw_request(port, upgrade_request("echo").sub("GET / ", "GET /each "))).to start_with("HTTP/1.1 500 ")
      expect(raw_request(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")).to start_with("HTTP/1.1 500 ")
      expect(errors.string).to include('rack.protocol "other" is not one the client offered (env[\'rack.protocol\'] is ["echo"])')
      expect(errors.string).to include("a rack.protocol response needs a streaming body")
      expect(errors.string).to include("(env['rack.protocol'] is absent)")
    end
  end

  # What a Rack 3 WebSocket library does with rack.protocol (async-websocket's Rack adapter, for
  # one): the handshake answer in the headers, then RFC 6455 frames over the stream.
  let(:websocket_app) do
    lambda do |env|
      echo = lambda do |stream|
        loop do
          first, second = stream.read(2).bytes
          length = second & 0x7f
          length = stream.read(2).unpack1("n") if length == 126
          mask = stream.read(4).bytes
          payload = stream.read(length).bytes.each_with_index.map { |byte, i| byte ^ mask[i % 4] }.pack("C*")
          opcode = first & 0x0f
          reply = opcode == 1 ? "echo: #{payload}" : payload
          head = reply.bytesize < 126 ? [0x80 | opcode, reply.bytesize].pack("CC") : [0x80 | opcode, 126, reply.bytesize].pack("CCn")
          stream.write(head + reply)
          break if opcode == 8
        end
      ensure
        stream.close
      end
      if env["SERVER_PROTOCOL"] == "HTTP/2" # RFC 8441: a 200, no key to answer
        [200, { "rack.protocol" => "websocket" }, echo]
      else
        accept = Base64.strict_encode64(Digest::SHA1.digest("#{env['HTTP_SEC_WEBSOCKET_KEY']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
        [101, { "rack.protocol" => "websocket", "sec-websocket-accept" => accept }, echo]
      end
    end
  end

  it "carries a WebSocket a library drives over the stream, with Python's websockets as the client" do
    with_app(websocket_app) do |port|
      report = PythonClients.run("clients/ws_client.py",
                                 { url: "ws://127.0.0.1:#{port}/", steps: [{ send: { text: "hi" } }, { recv: 1 },
                                                                           { send: { text: "x" * 300 } }, { recv: 1 },
                                                                           { close: { code: 1000, reason: "bye" } }] })
      expect(report["error"]).to be_nil
      expect(report["handshake"]["status"]).to eq(101)
      expect(report["received"]).to eq([{ "type" => "text", "data" => "echo: hi" }, { "type" => "text", "data" => "echo: #{'x' * 300}" }])
      expect(report["close"]["rcvd"]).to eq("code" => 1000, "reason" => "bye")
    end
  end

  it "does the same on an HTTP/2 stream by extended CONNECT (RFC 8441): 200, then the stream's DATA both ways" do
    with_app(websocket_app) do |port|
      report = PythonClients.run("clients/h2_websocket.py",
                                 { port: port, timeout: 20, steps: [{ send: { text: "hi" } }, { recv: 1 }, { send: { size: 60_000 } },
                                                                    { recv: 1 }, { close: { code: 1000, reason: "bye" } }] },
                                 timeout: 40)
      expect(report["error"]).to be_nil
      stream = report["streams"].first
      expect(stream["status"]).to eq(200)
      expect(stream["headers"].keys).not_to include("rack.protocol", "upgrade", "connection")
      expect(stream["received"]).to eq([{ "type" => "text", "data" => "echo: hi" }, { "type" => "text", "size" => 60_006 }])
      expect(stream["close"]).to eq("code" => 1000, "reason" => "bye")
    end
  end
end
