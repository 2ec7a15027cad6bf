# frozen_string_literal: true

require_relative "../jruby/bridge_helper"

# Puma's security advisories, replayed against nettyrack over real sockets: one row per trigger,
# with the outcome nettyrack gives and why. A refused request gets its status and a closed
# connection, and never reaches the app; an accepted one reaches the app exactly as described.
# (Puma's own tests: test/test_request_invalid.rb and test/test_puma_server.rb.)
module PumaAdvisories
  G = "GET / HTTP/1.1\r\nHost: x\r\n"
  P = "POST / HTTP/1.1\r\nHost: x\r\n"
  TE = "#{P}Transfer-Encoding: chunked\r\n\r\n".freeze
  HELLO = "1\r\nH\r\n4\r\nello\r\n0\r\n\r\n"

  # [advisory, trigger, request bytes, expected status, why]
  REFUSED = [
    ["CVE-2022-24790", "bare LF ending a header line", "GET / HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n", 400,
     "RFC 9112 2.2 lets a server accept a bare LF; a proxy that splits differently smuggles requests"],
    ["CVE-2022-24790", "bare LF ending every line", "GET / HTTP/1.1\nHost: x\n\n", 400, "as above"],
    ["CVE-2022-24790", "bare CR inside a header value", "#{G}X-A: b\rc\r\n\r\n", 400, "RFC 9112 2.2: CR only in CRLF"],
    ["CVE-2022-24790", "NUL inside a header value", "#{G}X-A: b\0c\r\n\r\n", 400, "RFC 9110 5.5: NUL is never valid"],
    ["CVE-2020-11076", "Transfer-Encoding: gzip, chunked", "#{P}Transfer-Encoding: gzip, chunked\r\n\r\n#{HELLO}", 501,
     "framing is sound but gzip transfer coding is not implemented (RFC 9112 6.1: SHOULD 501)"],
    ["CVE-2020-11076", "Transfer-Encoding: chunked, chunked", "#{P}Transfer-Encoding: chunked, chunked\r\n\r\n#{HELLO}", 400,
     "chunked may be applied once (RFC 9112 7)"],
    ["CVE-2020-11076", "two Transfer-Encoding: chunked fields", "#{P}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n#{HELLO}", 400,
     "the same list spread over two fields"],
    ["CVE-2020-11076", "Transfer-Encoding: chunked, gzip", "#{P}Transfer-Encoding: chunked, gzip\r\n\r\n#{HELLO}", 400,
     "chunked not last: the length cannot be determined (RFC 9112 6.3: MUST 400)"],
    ["CVE-2020-11076", "Transfer-Encoding: xchunked", "#{P}Transfer-Encoding: xchunked\r\n\r\n#{HELLO}", 400,
     "not chunked at all, so no length (Puma answers 501; RFC 9112 6.3 requires 400)"],
    ["CVE-2020-11076", "Transfer-Encoding: gzip", "#{P}Transfer-Encoding: gzip\r\n\r\n#{HELLO}", 400, "as above"],
    ["CVE-2020-11077", "Content-Length with Transfer-Encoding (CL.TE)",
     "#{P}Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n", 400,
     "RFC 9112 6.1 lets a server reject the pair; behind a proxy rejecting is the only safe choice"],
    ["CVE-2023-40175", "Content-Length: +5", "#{P}Content-Length: +5\r\n\r\nHello", 400, "digits only"],
    ["CVE-2023-40175", "Content-Length: 5.01", "#{P}Content-Length: 5.01\r\n\r\nHello", 400, "digits only"],
    ["CVE-2023-40175", "Content-Length: (empty)", "#{P}Content-Length: \r\n\r\nHello", 400, "digits only"],
    ["CVE-2023-40175", "Content-Length: 5 test", "#{P}Content-Length: 5 test\r\n\r\nHello", 400, "digits only"],
    ["CVE-2023-40175", "Content-Length: 5, 5", "#{P}Content-Length: 5, 5\r\n\r\nHello", 400, "one value only"],
    ["CVE-2023-40175", "chunk size 0xA", "#{TE}1\r\nh\r\n0xA\r\nHelloHello\r\n0\r\n\r\n", 400, "hex digits only"],
    ["CVE-2023-40175", "chunk size +5", "#{TE}1\r\nh\r\n+5\r\nHello\r\n0\r\n\r\n", 400, "hex digits only"],
    ["CVE-2023-40175", "chunk size '5 bad'", "#{TE}1\r\nh\r\n5 bad\r\nHello\r\n0\r\n\r\n", 400, "hex digits, then ';' extensions"],
    ["CVE-2023-40175", "chunk shorter than its size", "#{TE}5\r\nHello\r\n6\r\nWorld\r\n0\r\n\r\n", 400,
     "the chunk must end with CRLF right after its size"],
    ["CVE-2023-40175", "chunk longer than its size", "#{TE}5\r\nHello\r\n4\r\nWorld\r\n0\r\n\r\n", 400, "as above"],
    ["CVE-2021-41136", "bare LF after a chunk extension", "#{TE}5;a=b\nHello\r\n0\r\n\r\n", 400, "CRLF only"],
    ["CVE-2021-41136", "bare LF after a chunk size", "#{TE}5\nHello\r\n0\r\n\r\n", 400, "CRLF only"],
    ["CVE-2024-21647", "one chunk extension over 4 KiB", "#{TE}5;a=#{'x' * 4200}\r\nHello\r\n0\r\n\r\n", 400,
     "--max-chunk-extensions (16k) / 4 per chunk header"],
    ["CVE-2024-21647", "chunk extensions over 16 KiB in total",
     "#{TE}#{"1;a=#{'x' * 3000}\r\nH\r\n" * 7}0\r\n\r\n", 400,
     "--max-chunk-extensions: extension bytes beyond the body's data"],
    ["HTTP version", "HTTP/9.9", "GET / HTTP/9.9\r\nHost: x\r\n\r\n", 505, "this door speaks HTTP/1.0 and 1.1 only"],
    ["HTTP version", "HTTP/1.2", "GET / HTTP/1.2\r\nHost: x\r\n\r\n", 505, "as above"],
    ["HTTP version", "HTTP/2.0 in an HTTP/1 request line", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, "as above"],
    ["HTTP version", "a protocol other than HTTP", "GET / FOO/1.1\r\nHost: x\r\n\r\n", 400, "not HTTP at all"],
    ["CVE-2026-47737", "a PROXY protocol header as a request (PROXY support off)",
     "PROXY TCP4 1.2.3.4 5.6.7.8 1111 80\r\n#{G}\r\n", 400, "only a --proxy-protocol listener reads it"],
  ].freeze
end

RSpec.describe "Puma's advisory history" do

  let(:calls) { java.util.concurrent.atomic.AtomicInteger.new }
  let(:seen) { Queue.new }
  let(:app) do
    lambda do |env|
      calls.increment_and_get
      seen << env.select { |key, _| key.start_with?("HTTP_") || %w[PATH_INFO QUERY_STRING CONTENT_LENGTH].include?(key) }
                 .merge("body" => env["rack.input"].read)
      [200, { "content-type" => "text/plain" }, ["fine"]]
    end
  end

  PumaAdvisories::REFUSED.each do |advisory, trigger, request, status, why|
    it "#{advisory}: answers #{trigger} with #{status} and closes (#{why})" do
      with_app(app) do |port|
        reply = raw_request(port, request.b)
        expect(reply).to start_with("HTTP/1.1 #{status} ")
        expect(reply.downcase).to include("connection: close")
        expect(reply.scan(%r{^HTTP/1\.1 }).size).to eq(1) # nothing after the refusal is answered
        expect(calls.get).to eq(0)
        expect(http_get(port, "/").body).to eq("fine")
      end
    end
  end

  it "CVE-2024-21647: lets chunk extensions through while the data outweighs them" do
    # 1 KiB of data under 3 KB of extensions per chunk: about 2 KB over budget each, refused by the 9th
    body = "#{"400;a=#{'x' * 3000}\r\n#{'d' * 1024}\r\n" * 20}0\r\n\r\n"
    with_app(app) do |port|
      expect(raw_request(port, "#{PumaAdvisories::TE}#{"1;a=b\r\nH\r\n" * 3000}0\r\n\r\n".b)).to start_with("HTTP/1.1 200 ")
      expect(BridgeHelper.take(seen)["body"]).to eq("H" * 3000) # 3,000 one-byte chunks: no extension budget spent
      expect(raw_request(port, "#{PumaAdvisories::TE}#{"2000;a=#{'x' * 3000}\r\n#{'d' * 8192}\r\n" * 8}0\r\n\r\n".b)).to start_with("HTTP/1.1 200 ")
      expect(BridgeHelper.take(seen)["body"].bytesize).to eq(8 * 8192)
      expect(raw_request(port, "#{PumaAdvisories::TE}#{body}".b)).to start_with("HTTP/1.1 400 ") # data no longer pays for them
    end
  end

  it "trailer smuggling: trailer fields never reach the env, and what follows the body is its own request" do
    request = "#{PumaAdvisories::TE}5\r\nHello\r\n0\r\nContent-Length: 50\r\nX-Admin: 1\r\nHost: evil\r\n\r\n" \
              "GET /next HTTP/1.1\r\nHost: x\r\n\r\n"
    with_app(app) do |port|
      reply = raw_request(port, request.b)
      expect(reply.scan("HTTP/1.1 200 OK").size).to eq(2)
      first = BridgeHelper.take(seen)
      expect(first).to include("body" => "Hello", "CONTENT_LENGTH" => "5", "HTTP_HOST" => "x", "PATH_INFO" => "/")
      expect(first).not_to include("HTTP_X_ADMIN")
      expect(BridgeHelper.take(seen)["PATH_INFO"]).to eq("/next")
    end
  end

  it "obs-fold: a folded header value reaches the app joined with a space (RFC 9112 5.2)" do
    with_app(app) do |port|
      expect(raw_request(port, "#{PumaAdvisories::G}X-A: b\r\n c\r\n\r\n")).to start_with("HTTP/1.1 200 ")
      expect(BridgeHelper.take(seen)["HTTP_X_A"]).to eq("b c")
    end
  end

  it "URI characters {}|\\^[] and backtick reach the app unchanged (browsers send []|^ raw in queries)" do
    with_app(app) do |port|
      target = "/a{b}|c\\d^e`f?ids[]=1&filter[name]=x^y|z"
      expect(raw_request(port, "GET #{target} HTTP/1.1\r\nHost: x\r\n\r\n")).to start_with("HTTP/1.1 200 ")
      env = BridgeHelper.take(seen)
      expect([env["PATH_INFO"], env["QUERY_STRING"]]).to eq(["/a{b}|c\\d^e`f", "ids[]=1&filter[name]=x^y|z"])
      expect(raw_request(port, "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n")).to start_with("HTTP/1.1 400 ") # a space ends the target
    end
  end

  it "CVE-2024-45614: X_Forwarded_For never overrides or joins X-Forwarded-For" do
    with_app(app) do |port|
      raw_request(port, "#{PumaAdvisories::G}X-Forwarded-For: 1.1.1.1\r\nX_Forwarded_For: 3.3.3.3\r\nX-Forwarded-For: 2.2.2.2\r\n\r\n")
      expect(BridgeHelper.take(seen)["HTTP_X_FORWARDED_FOR"]).to eq("1.1.1.1, 2.2.2.2")
    end
  end

  context "responses" do
    let(:errors) { StringIO.new }

    it "CVE-2020-5247: CR or LF in a header value the app returns is never sent: 500, and logged" do
      ["a\r\nSet-Cookie: evil=1", "a\rb", "x\0y"].each do |value|
        app = ->(_env) { [200, { "x-injected" => value }, ["never sent"]] }
        with_app(app, errors: errors) do |port|
          reply = raw_request(port, "#{PumaAdvisories::G}\r\n")
          expect(reply).to start_with("HTTP/1.1 500 ")
          expect(reply).not_to include("evil=1", "never sent")
        end
      end
      expect(errors.string.scan("Error handling GET /: header x-injected has a value with CR or NUL").size).to eq(3)
    end

    it "CVE-2022-23634: the body is closed whatever failed (its each, the headers, or the app's status)" do
      closed = Queue.new
      body = Class.new do
        define_method(:initialize) { |fail_each| @fail_each = fail_each }
        define_method(:each) { |&_block| raise "each failed" if @fail_each }
        define_method(:close) { closed << true }
      end
      apps = [
        ->(_env) { [200, { "content-type" => "text/plain" }, body.new(true)] },
        ->(_env) { [200, { "bad header" => "x" }, body.new(false)] },
        ->(_env) { [99, {}, body.new(false)] },
      ]
      apps.each do |app|
        with_app(app, errors: errors) do |port|
          expect(raw_request(port, "#{PumaAdvisories::G}\r\n")).to start_with("HTTP/1.1 500 ")
          expect(BridgeHelper.take(closed)).to be(true)
        end
      end
    end
  end

  it "CVE-2019-16770 / CVE-2021-29509: idle and pipelining keep-alive clients cannot take every thread" do
    with_app(app, threads: [2, 2]) do |port|
      idle = Array.new(20) { TCPSocket.new("127.0.0.1", port).tap { |s| s.write("#{PumaAdvisories::G}\r\n") } }
      idle.each { |socket| expect(read_response(socket)).to start_with("HTTP/1.1 200 ") } # now idle, kept alive
      greedy = TCPSocket.new("127.0.0.1", port)
      greedy.write("#{PumaAdvisories::G}\r\n" * 200) # pipelined, never read
      expect(http_get(port, "/").body).to eq("fine") # the two threads are not stuck with either
    ensure
      [*idle, greedy].compact.each(&:close)
    end
  end

  def read_response(socket)
    out = +""
    out << socket.readpartial(4096) while !out.include?("fine") && IO.select([socket], nil, nil, 5)
    out
  end
end
