# frozen_string_literal: true

require_relative "../support/files_helper"

# env["rack.early_hints"], as Puma provides it: a 103 before the final response on HTTP/1.1,
# seen with a raw socket and curl -v; none with earlyHints off (--no-early-hints) or HTTP/1.0.
RSpec.describe "early hints (rack.early_hints)" do
  let(:app) do
    lambda do |env|
      hints = env["rack.early_hints"]
      hints&.call("link" => ["</style.css>; rel=preload; as=style", "</app.js>; rel=preload; as=script"])
      [200, { "content-type" => "text/plain" }, ["hints #{hints ? 'on' : 'off'}\n"]]
    end
  end

  it "sends a 103 with the links, then the 200" do
    with_app(app) do |port|
      reply = raw_request(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      expect(reply).to start_with("HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload; as=style\r\n" \
                                  "link: </app.js>; rel=preload; as=script\r\n\r\nHTTP/1.1 200 OK\r\n")
      expect(reply).to end_with("hints on\n")
      _out, verbose, = Open3.capture3("curl", "-sv", "--max-time", "10", "http://127.0.0.1:#{port}/")
      expect(verbose.scan(/^< HTTP\/1.1 \d+/)).to eq(["< HTTP/1.1 103", "< HTTP/1.1 200"])
    end
  end

  it "is not offered when turned off, nor to HTTP/1.0 clients" do
    with_app(app, earlyHints: false) do |port|
      reply = raw_request(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      expect(reply).to start_with("HTTP/1.1 200 OK").and end_with("hints off\n")
    end
    with_app(app) do |port|
      expect(raw_request(port, "GET / HTTP/1.0\r\n\r\n")).to start_with("HTTP/1.1 200 OK").and end_with("hints off\n")
    end
  end

  it "raises ArgumentError in the app for a header the response could not carry" do
    bad = lambda do |env|
      env["rack.early_hints"].call("bad name" => "x")
      [200, {}, ["not reached"]]
    rescue ArgumentError => e
      [200, {}, [e.message]]
    end
    with_app(bad) { |port| expect(http_get(port, "/").body).to include("invalid header name") }
  end
end
