# frozen_string_literal: true

require "open3"

# Hostile and broken input over a real socket, with ContractDoors::LIMITS: each gets its status
# and a closed connection, the app never sees it, and the door serves on.
# Where a container's own parser answers first, and differently (both ways RFC 9112 allows):
#   Jetty answers a request line of garbage 400 and closes without a Connection: close header;
#   Tomcat reads Transfer-Encoding over Content-Length (RFC 9112 6.3: the server MAY process the
#   chunked body), runs the request, and closes the connection after it.
CONTAINER_ANSWERS = {
  [:jetty, "a request line of garbage"] => { close_header: false },
  [:tomcat, "Content-Length with Transfer-Encoding (smuggling)"] => { status: 200, app_calls: 1 },
}.freeze

RSpec.shared_examples "the bad input contract" do
  {
    "Content-Length with Transfer-Encoding (smuggling)" =>
      ["POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400],
    "two Content-Length headers" => ["POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nab", 400],
    "an invalid Content-Length" => ["POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n", 400],
    "a Host that is not a host and port" => ["GET %s HTTP/1.1\r\nHost: u@x:8o\r\n\r\n", 400],
    "a request line of garbage" => ["\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400],
    "a URI over the limit" => ["GET %s#{'a' * 2000} HTTP/1.1\r\nHost: x\r\n\r\n", 414],
    "a header block over the limit" => ["GET %s HTTP/1.1\r\nHost: x\r\nX-Big: #{'b' * 3000}\r\n\r\n", 431],
    "too many headers" => ["GET %s HTTP/1.1\r\nHost: x\r\n#{(1..30).map { |i| "X-H#{i}: v\r\n" }.join}\r\n", 431],
    # Sent whole, as a client does: a servlet door reads the rest of a refused body before its
    # 413 (max-discard-size), and Tomcat answers a body cut short by the client 400 instead.
    "a body over the limit" => ["POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n#{'y' * 20_000}", 413],
    "a chunked body growing over the limit" =>
      ["POST %s HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n#{"2710\r\n#{'z' * 10_000}\r\n" * 2}0\r\n\r\n", 413],
    "bad chunk framing" => ["POST %s HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", 400],
  }.each do |what, (request, status)|
    it "answers #{what} with #{status} (or as its container does)" do
      answer = CONTAINER_ANSWERS.fetch([@door.kind, what], {})
      before = calls
      reply = raw(request.b.sub("%s", target("/")))
      expect(reply).to start_with("HTTP/1.1 #{answer.fetch(:status, status)} ")
      expect(reply.downcase).to include("connection: close") if answer.fetch(:close_header, true)
      expect(calls).to eq(before + answer.fetch(:app_calls, 0))
      expect(get("/").body).to eq("fine")
    end
  end

  # LIMITS less a little each: a 1,000-byte request line (1,024), 20 fields (20), a header
  # block of about 1.8 KB (2,048) and a 9,999-byte body of random bytes (10,000).
  it "serves a request just under every head and body limit" do
    before = calls
    line_rest = "POST  HTTP/1.1".bytesize + target("/").bytesize + 1
    path = "#{target('/')}?#{'q' * (1000 - line_rest)}"
    fields = (1..18).map { |i| "X-H#{i}: #{'v' * 90}\r\n" }.join # with Host and Content-Length: 20
    body = Random.new(5).bytes(9_999)
    reply = raw("POST #{path} HTTP/1.1\r\nHost: x\r\n#{fields}Content-Length: #{body.bytesize}\r\n\r\n".b + body)
    expect(reply).to start_with("HTTP/1.1 200 ").and end_with("fine")
    expect(calls).to eq(before + 1)
  end

  # curl sending its body whole and at once (no Expect), as most clients do: the body limit
  # itself is served, one byte more is 413, which curl reads rather than a reset (a servlet
  # door first reads and drops the rest, up to max-discard-size). Repetitive and random bytes
  # alike: the limit counts bytes, whatever they are.
  it "serves curl's upload at the body limit and answers 413 one byte over, repetitive or random" do
    url = "http://127.0.0.1:#{@door.port}#{target('/')}"
    curl = ["curl", "-sS", "--max-time", "30", "-H", "Expect:", "-H", "Content-Type: application/octet-stream",
            "--data-binary", "@-", "-o", "/dev/null", "-w", "%{http_code}", url]
    { "repetitive" => ->(size) { "x" * size }, "random" => ->(size) { Random.new(size).bytes(size) } }.each do |kind, body|
      [[10_000, "200"], [10_001, "413"]].each do |size, status|
        out, err, = Open3.capture3(*curl, stdin_data: body.call(size), binmode: true)
        expect([kind, size, out, err]).to eq([kind, size, status, ""])
      end
    end
  end
end
