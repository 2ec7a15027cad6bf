# frozen_string_literal: true


# Headless Chromium against an ssl:// listener with a certificate made for the test: the page
# and the Server-Sent Events stream it opens with EventSource come over HTTP/2 (ALPN h2), as a
# browser user's would. The app records each request's SERVER_PROTOCOL; the page writes the
# events it gets and its own protocol (nextHopProtocol) into the DOM.
RSpec.describe "HTTP/2 in a browser" do
  include PushServerHelpers

  let(:page_html) do
    <<~HTML
      <!doctype html>
      <title>h2</title>
      <pre id="proto"></pre>
      <pre id="log"></pre>
      <script>
        document.getElementById("proto").textContent = performance.getEntriesByType("navigation")[0].nextHopProtocol;
        const source = new EventSource("/events");
        let count = 0;
        source.onmessage = (event) => {
          document.getElementById("log").textContent += event.data + "\\n";
          if (++count === 3) source.close();
        };
      </script>
    HTML
  end

  before { skip Browser::MISSING unless Browser.executable }

  it "loads a page and its SSE stream over h2 with TLS" do
    seen = Queue.new
    events = PushServerHelpers::Recorder.new do |client|
      %w[one two three].each { |data| client.write(data) }
    end
    app = lambda do |env|
      seen << [env["PATH_INFO"], env["SERVER_PROTOCOL"], env["rack.url_scheme"]]
      if env["rack.upgrade?"] == :sse
        env["rack.upgrade"] = events
        [200, {}, []]
      elsif env["PATH_INFO"] == "/"
        [200, { "content-type" => "text/html; charset=utf-8" }, [page_html]]
      else
        [404, { "content-type" => "text/plain" }, ["not here"]]
      end
    end
    Browser.with_tls_server(app) do |server, browser|
      page = browser.open("https://localhost:#{server.port}/")
      expect(page.text("#log", including: "three")).to eq("one\ntwo\nthree\n")
      expect(page.text("#proto", including: "h2")).to eq("h2")
      requests = Array.new(seen.size) { seen.pop }
      expect(requests).to include(["/", "HTTP/2", "https"], ["/events", "HTTP/2", "https"])
      expect(requests.map { |_, protocol, _| protocol }.uniq).to eq(["HTTP/2"])
    end
  end
end
