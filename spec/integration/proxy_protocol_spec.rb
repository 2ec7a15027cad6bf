# frozen_string_literal: true

require_relative "../jruby/bridge_helper"
require "open3"

# --proxy-protocol over real sockets: the header that opens a connection (v1 or v2) names the
# client the Rack app sees as REMOTE_ADDR, on every request of that connection and in the push
# env; anything else in its place closes the connection unanswered; a header later on is a bad
# request (Puma's CVE-2026-47737). Connections come from 127.0.0.3, so that "the socket's
# address" is told apart from the server's own 127.0.0.1.
RSpec.describe "PROXY protocol" do
  let(:calls) { Queue.new }
  let(:app) do
    lambda do |env|
      calls << env["REMOTE_ADDR"]
      if env["rack.upgrade?"] == :sse
        env["rack.upgrade"] = Class.new { def on_open(client) = client.write("REMOTE_ADDR=#{client.env['REMOTE_ADDR']}") }.new
      end
      [200, { "content-type" => "text/plain" }, [env["REMOTE_ADDR"]]]
    end
  end
  let(:get) { "GET / HTTP/1.1\r\nHost: x\r\n\r\n" }

  def v2(command, family, addresses)
    "\r\n\r\n\0\r\nQUIT\n".b + [0x20 | command, family, addresses.bytesize].pack("CCn") + addresses
  end

  def tcp4(source, port)
    [*source.split(".").map(&:to_i), 127, 0, 0, 1, port, 9292].pack("C8nn")
  end

  # Opens a connection from 127.0.0.3, sends +data+ and yields the socket.
  def connect(port, data)
    socket = TCPSocket.new("127.0.0.1", port, "127.0.0.3")
    socket.write(data.b)
    yield socket
  ensure
    socket&.close
  end

  # Reads one response, up to a body that ends in +ending+ (bounded: whatever came after 10 s).
  def read_response(socket, ending)
    buffer = +""
    Deadline.read_until(socket, buffer, /\r\n\r\n.*#{Regexp.escape(ending)}\z/m, 10)
    buffer
  end

  {
    "v1 TCP4" => ["PROXY TCP4 192.0.2.7 127.0.0.1 51234 9292\r\n", "192.0.2.7"],
    "v1 TCP6" => ["PROXY TCP6 2001:db8::7 ::1 51234 9292\r\n", "2001:db8:0:0:0:0:0:7"],
    "v1 UNKNOWN (the socket's address)" => ["PROXY UNKNOWN\r\n", "127.0.0.3"],
    "v2 PROXY TCP4" => [:v2_proxy, "198.51.100.9"],
    "v2 LOCAL, a health check (the socket's address)" => [:v2_local, "127.0.0.3"]
  }.each do |what, (header, remote_addr)|
    it "takes REMOTE_ADDR from a #{what} header, for every request of the connection" do
      header = { v2_proxy: v2(1, 0x11, tcp4("198.51.100.9", 40_000)), v2_local: v2(0, 0, "") }.fetch(header, header)
      with_app(app, proxyProtocol: true) do |port|
        connect(port, header + get) do |socket|
          expect(read_response(socket, remote_addr)).to start_with("HTTP/1.1 200 OK")
          socket.write(get)
          expect(read_response(socket, remote_addr)).to start_with("HTTP/1.1 200 OK")
        end
        expect(Array.new(2) { BridgeHelper.take(calls) }).to eq([remote_addr, remote_addr])
      end
    end
  end

  it "gives the push env the same REMOTE_ADDR (SSE)" do
    with_app(app, proxyProtocol: true) do |port|
      connect(port, "PROXY TCP4 192.0.2.7 127.0.0.1 5000 9292\r\nGET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n") do |socket|
        buffer = +""
        expect(Deadline.read_until(socket, buffer, /data: REMOTE_ADDR=\S+\n/, 10)&.[](0)).to eq("data: REMOTE_ADDR=192.0.2.7\n")
      end
    end
  end

  it "answers a second PROXY header on a keep-alive connection with 400, REMOTE_ADDR unchanged (CVE-2026-47737)" do
    with_app(app, proxyProtocol: true) do |port|
      connect(port, "PROXY TCP4 192.0.2.7 127.0.0.1 5000 9292\r\n#{get}") do |socket|
        expect(read_response(socket, "192.0.2.7")).to start_with("HTTP/1.1 200 OK")
        socket.write("PROXY TCP4 203.0.113.66 127.0.0.1 6666 9292\r\n#{get}")
        expect(read_all(socket, 10)).to start_with("HTTP/1.1 400 Bad Request").and include("connection: close")
      end
      expect(calls.size).to eq(1)
    end
  end

  it "closes a connection without a header unanswered, and logs it; the app never sees it" do
    with_app(app, proxyProtocol: true) do |port, errors|
      out, status = Open3.capture2e("curl", "-sS", "--max-time", "10", "--interface", "127.0.0.3", "http://127.0.0.1:#{port}/")
      expect([status.exitstatus, out]).to eq([52, "curl: (52) Empty reply from server\n"])
      # Netty's decoder closes the connection before the handler behind it logs why: wait for the line.
      Deadline.wait_until(timeout: 5) { errors.string.end_with?("\n") }
      expect(errors.string).to match(/\Anettyrack: closed a connection from 127\.0\.0\.3:\d+ that did not open with a valid PROXY protocol header \(unknown identifier: GET\)\n\z/)
      expect(calls).to be_empty
    end
  end

  it "gives a client that stalls inside its header the header timeout's 408" do
    with_app(app, proxyProtocol: true, headerTimeoutMillis: 300) do |port|
      connect(port, "PROXY TCP4 192.0.2.7 12") do |socket|
        expect(read_all(socket, 10)).to start_with("HTTP/1.1 408 Request Timeout")
      end
      expect(calls).to be_empty
    end
  end

  it "serves curl --haproxy-protocol, which sends v1 with the address it connects from" do
    with_app(app, proxyProtocol: true) do |port|
      out, status = Open3.capture2e("curl", "-sS", "--max-time", "10", "--haproxy-protocol", "--interface", "127.0.0.2",
                                    "http://127.0.0.1:#{port}/")
      expect([status.exitstatus, out]).to eq([0, "127.0.0.2"])
    end
  end

  it "refuses a PROXY header with 400 when the option is off" do
    with_app(app) do |port|
      out, status = Open3.capture2e("curl", "-sS", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}",
                                    "--haproxy-protocol", "http://127.0.0.1:#{port}/")
      expect([status.exitstatus, out]).to eq([0, "400"])
      expect(calls).to be_empty
    end
  end
end
