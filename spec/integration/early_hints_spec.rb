# frozen_string_literal: true

require_relative "../support/files_helper"


# env["rack.early_hints"], as Puma provides it: a 103 before the final response on HTTP/1.1,
# seen with a raw socket and curl -v, and on HTTP/2 (a HEADERS frame with :status 103 before the
# final one), seen with nghttp and used by headless Chromium, which acts on 103 only over h2;
# none with earlyHints off (--no-early-hints) or HTTP/1.0.
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

  it "sends the 103 as a HEADERS frame of its own before the final response on an h2 stream" do
    with_app(app) do |port|
      out, status = Open3.capture2e("timeout", "30", "nghttp", "-v", "http://127.0.0.1:#{port}/")
      expect(status).to be_success, out
      heads = out.scan(/recv \(stream_id=13\) :status: (\d+)/).flatten
      expect(heads).to eq(%w[103 200])
      hint = out[/:status: 103\n(.*?)recv HEADERS frame <length=\d+, flags=(0x\h+)/m]
      expect(hint).to include("link: </style.css>; rel=preload; as=style", "link: </app.js>; rel=preload; as=script")
      expect(Regexp.last_match(2).hex & 0x1).to eq(0) # no END_STREAM on the 103
      expect(out).to include("hints on")
    end
  end

  it "preloads a stylesheet named in a 103 over h2 in Chromium (initiatorType early-hints)" do
    skip Browser::MISSING unless Browser.executable
    page_html = <<~HTML
      <!doctype html>
      <link rel="stylesheet" href="/style.css">
      <p id="initiator"></p>
      <script>
        const entry = performance.getEntriesByName(new URL("/style.css", location).href)[0];
        document.getElementById("initiator").textContent = (entry ? entry.initiatorType : "none") + " " +
          performance.getEntriesByType("navigation")[0].nextHopProtocol;
      </script>
    HTML
    paths = Queue.new
    page_app = lambda do |env|
      paths << env["PATH_INFO"]
      if env["PATH_INFO"] == "/"
        env["rack.early_hints"]&.call("link" => "</style.css>; rel=preload; as=style")
        sleep 0.3 # the app at work (a query, a template) while the browser fetches the stylesheet
        [200, { "content-type" => "text/html; charset=utf-8" }, [page_html]]
      else
        # Cacheable: Chromium hands an early-hints preload to the page through its HTTP cache.
        [200, { "content-type" => "text/css", "cache-control" => "max-age=60" }, ["p { color: green }"]]
      end
    end
    Browser.with_tls_server(page_app) do |server, browser|
      page = browser.open("https://localhost:#{server.port}/")
      expect(page.text("#initiator", including: "h2")).to eq("early-hints h2")
      fetched = Array.new(paths.size) { paths.pop }
      expect(fetched.count("/style.css")).to eq(1) # the preload, which the page then used
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
