# frozen_string_literal: true


# WebSockets over HTTP/2 (RFC 8441): the server advertises SETTINGS_ENABLE_CONNECT_PROTOCOL, a
# CONNECT with :protocol websocket reaches the app as a rack.upgrade? :websocket request
# (REQUEST_METHOD CONNECT, SERVER_PROTOCOL HTTP/2), and the same handler API runs on the stream.
# Clients: spec/support/clients/h2_websocket.py (the h2 library plus RFC 6455 framing: no
# published Python or Node client speaks RFC 8441, and neither does Autobahn's fuzzing client),
# and headless Chromium, which opens its WebSockets on the page's own h2 connection.
RSpec.describe "WebSockets over HTTP/2 (RFC 8441)" do
  let(:requests) { Queue.new }

  def app_with(handler)
    lambda do |env|
      requests << env.values_at("REQUEST_METHOD", "PATH_INFO", "QUERY_STRING", "SERVER_PROTOCOL", "rack.protocol")
      if env["rack.upgrade?"] == :websocket && env["PATH_INFO"] != "/refuse"
        env["rack.upgrade"] = handler
        [200, env["HTTP_SEC_WEBSOCKET_PROTOCOL"] ? { "sec-websocket-protocol" => "chat" } : {}, []]
      else
        [403, { "content-type" => "text/plain" }, ["not here\n"]]
      end
    end
  end

  def h2_websocket(port, steps, **spec)
    PythonClients.run("clients/h2_websocket.py", { port: port, steps: steps, timeout: 20, **spec }, timeout: 40)
  end

  it "runs three WebSockets as streams of one h2c connection, the handler API unchanged, large messages flow-controlled" do
    handler = PushServerHelpers::Recorder.new(echo: true) { |client| client.write("welcome") }
    with_push_server(app_with(handler)) do |port|
      big = 300_000 # more than the 65,535-byte windows each way
      steps = [{ recv: 1 }, { send: { text: "hi" } }, { recv: 1 }, { send: { size: big } }, { recv: 1 },
               { close: { code: 1000, reason: "bye" } }]
      report = h2_websocket(port, steps, path: "/chat?room=1", streams: 3, subprotocols: %w[chat other])
      expect(report["error"]).to be_nil
      expect(report["settings"]["enable_connect_protocol"]).to eq(1)
      expect(report["streams"].size).to eq(3)
      report["streams"].each do |stream|
        expect(stream["status"]).to eq(200)
        expect(stream["headers"]).to include("sec-websocket-protocol" => "chat")
        expect(stream["received"]).to eq([{ "type" => "text", "data" => "welcome" }, { "type" => "text", "data" => "hi" },
                                          { "type" => "text", "size" => big }])
        expect(stream["close"]).to include("code" => 1000)
        expect(stream["ended"]).to be(true)
      end
      events = handler.wait_for { |all| all.count { |name, _| name == :on_close } == 3 }
      expect(events.count { |name, _| name == :on_open }).to eq(3)
      expect(events.count { |name, data| name == :on_message && data.bytesize == big }).to eq(3)
      seen = Array.new(requests.size) { requests.pop }
      expect(seen.uniq).to eq([["CONNECT", "/chat", "room=1", "HTTP/2", ["websocket"]]])
    end
  end

  it "keeps --max-message-size: the limit passes, one byte more is closed 1009 and never reaches the app" do
    handler = PushServerHelpers::Recorder.new(echo: true)
    with_push_server(app_with(handler), max_message_size: 70_000) do |port|
      at_limit = h2_websocket(port, [{ send: { size: 70_000 } }, { recv: 1 }, { close: { code: 1000 } }])
      expect(at_limit["streams"].first["received"]).to eq([{ "type" => "text", "size" => 70_000 }])
      over = h2_websocket(port, [{ send: { size: 70_001 } }, { wait_close: true }])
      expect(over["streams"].first["close"]).to include("code" => 1009)
      events = handler.wait_for { |all| all.count { |name, _| name == :on_close } == 2 }
      expect(events.select { |name, _| name == :on_message }.map { |_, data| data.bytesize }).to eq([70_000])
    end
  end

  it "answers an extended CONNECT the app does not take like any request, on its stream" do
    with_push_server(app_with(PushServerHelpers::Recorder.new)) do |port|
      report = h2_websocket(port, [], path: "/refuse")
      expect(report["error"]).to be_nil
      expect(report["streams"].first).to include("status" => 403, "ended" => true)
    end
  end

  it "opens a WebSocket in Chromium on the page's own h2 connection over TLS, no second connection" do
    skip Browser::MISSING unless Browser.executable
    page_html = <<~HTML
      <!doctype html>
      <pre id="log"></pre>
      <script>
        const log = (text) => document.getElementById("log").textContent += text + "\\n";
        function openSocket() {
          const ws = new WebSocket("wss://" + location.host + "/ws");
          ws.onopen = () => ws.send("from the page");
          ws.onmessage = (event) => log(event.data);
        }
      </script>
    HTML
    handler = PushServerHelpers::Recorder.new(echo: true) { |client| client.write("welcome") }
    app = lambda do |env|
      next app_with(handler).call(env) if env["PATH_INFO"] == "/ws"

      requests << env.values_at("REQUEST_METHOD", "PATH_INFO", "QUERY_STRING", "SERVER_PROTOCOL", "rack.protocol")
      [200, { "content-type" => "text/html; charset=utf-8" }, [page_html]]
    end
    Browser.with_tls_server(app) do |server, browser|
      page = browser.open("https://localhost:#{server.port}/")
      before = server.stats.open_connections # the page's (Chromium may keep a spare beside it)
      page.eval("openSocket()")
      expect(page.text("#log", including: "from the page")).to eq("welcome\nfrom the page\n")
      stats = server.stats
      expect([stats.websocket_sessions, stats.open_connections]).to eq([1, before]), "no connection of its own"
      seen = Array.new(requests.size) { requests.pop }
      expect(seen).to include(["GET", "/", "", "HTTP/2", nil], ["CONNECT", "/ws", "", "HTTP/2", ["websocket"]])
    end
  end
end
