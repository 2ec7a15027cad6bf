# frozen_string_literal: true

require_relative "../jruby/bridge_helper"
require "open3"

RSpec::Matchers.define_negated_matcher :exclude, :include

# Hostile and broken input, sent over real sockets to a running server: each gets its status
# and a closed connection, the app never sees it, and the server goes on serving.
RSpec.describe "bad requests" do
  let(:calls) { java.util.concurrent.atomic.AtomicInteger.new }
  let(:app) { ->(_env) { calls.increment_and_get; [200, { "content-type" => "text/plain" }, ["fine"]] } }
  let(:limits) { { maxUriLength: 1024, maxHeaderSize: 2048, maxHeaders: 20, maxBodySize: 10_000 } }

  {
    "Content-Length with Transfer-Encoding (smuggling)" =>
      ["POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400],
    "two Content-Length headers" => ["POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nab", 400],
    "an invalid Content-Length" => ["POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n", 400],
    "a request line of garbage" => ["\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400],
    "a URI over the limit" => ["GET /#{"a" * 2000} HTTP/1.1\r\nHost: x\r\n\r\n", 414],
    "a header block over the limit" => ["GET / HTTP/1.1\r\nHost: x\r\nX-Big: #{"b" * 3000}\r\n\r\n", 431],
    "too many headers" => ["GET / HTTP/1.1\r\nHost: x\r\n#{(1..30).map { |i| "X-H#{i}: v\r\n" }.join}\r\n", 431],
    "a body over the limit" => ["POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n", 413],
    "a chunked body growing over the limit" =>
      ["POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n#{"2710\r\n#{"z" * 10_000}\r\n" * 2}0\r\n\r\n", 413],
    "bad chunk framing" => ["POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", 400],
  }.each do |what, (request, status)|
    it "answers #{what} with #{status}" do
      with_app(app, **limits) do |port|
        reply = raw_request(port, request.b)
        expect(reply).to start_with("HTTP/1.1 #{status} ")
        expect(reply.downcase).to include("connection: close")
        expect(calls.get).to eq(0)
        expect(http_get(port, "/").body).to eq("fine")
      end
    end
  end

  it "says 100 Continue to curl before an upload, and 413 instead when it is too large" do
    with_app(app, **limits) do |port|
      curl = %W[curl -sS -v -H Expect:\ 100-continue --data-binary @- http://127.0.0.1:#{port}/]
      ok, = Open3.capture2e(*curl, stdin_data: "x" * 5000)
      expect(ok).to include("HTTP/1.1 100 Continue").and include("fine")
      big, = Open3.capture2e(*curl, stdin_data: "x" * 50_000)
      expect(big).to include("HTTP/1.1 413").and exclude("100 Continue")
    end
  end

  it "answers HEAD from curl with headers only and keeps the connection" do
    with_app(app) do |port|
      out = `curl -sS -I http://127.0.0.1:#{port}/ http://127.0.0.1:#{port}/ -w '%{num_connects}\n' 2>&1`
      expect(out.scan("HTTP/1.1 200 OK").size).to eq(2)
      expect(out).to include("content-length: 4").and end_with("0\n") # the second reused the connection
      expect(out).not_to include("fine")
    end
  end
end
