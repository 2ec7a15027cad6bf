# frozen_string_literal: true

require "base64"
require "rack"
require "rack/lint"

# WebSocket end to end: Python's `websockets` client (spec/support/clients/ws_client.py) against a
# Nettyrack::Server whose Rack app upgrades through env['rack.upgrade'] (docs: notes/push-api.md).
# Apps are wrapped in Rack::Lint: Rack 2.2's Lint accepts the rack.upgrade? / rack.upgrade keys.
RSpec.describe "WebSocket with a real client (Python websockets)" do
  # An app that upgrades every WebSocket request to +handler+, answering +status+ and +headers+
  # (a Hash, or a lambda of the env); +seen+ collects what each env said about the upgrade.
  def upgrading_app(handler, status: 200, headers: {}, seen: [])
    response_headers = headers.respond_to?(:call) ? headers : ->(_env) { headers }
    Rack::Lint.new(lambda do |env|
      seen << env.slice("rack.upgrade?", "HTTP_SEC_WEBSOCKET_PROTOCOL")
      env["rack.upgrade"] = handler
      [status, response_headers.call(env), ["not for an upgraded connection"]]
    end)
  end

  def client(port, steps, timeout: 10, **options)
    PythonClients.run("clients/ws_client.py",
                      { url: "ws://127.0.0.1:#{port}/chat", steps: steps, timeout: timeout, **options },
                      timeout: timeout + 20)
  end

  def text(str)
    { text: str }
  end

  def binary(bytes)
    { binary: Base64.strict_encode64(bytes) }
  end

  # Raw bytes in a text frame: how a client sends invalid UTF-8.
  def text_bytes(bytes)
    { text_bytes: Base64.strict_encode64(bytes) }
  end

  def decoded(message)
    message["type"] == "binary" ? Base64.decode64(message["data"]) : message["data"]
  end

  let(:recorder) { PushServerHelpers::Recorder.new(echo: true) }
  let(:seen) { [] }
  let(:app) { upgrading_app(recorder, seen: seen) }

  it "echoes text as text and binary as binary, handing the app UTF-8 and ASCII-8BIT Strings" do
    bytes = "\x00\xFF\x80 binary".b
    report = with_push_server(app) do |port|
      client(port, [{ send: text("héllo ✓") }, { send: binary(bytes) }, { recv: 2 }, { close: { code: 1000 } }])
    end

    expect(report["error"]).to be_nil
    expect(report["handshake"]["status"]).to eq(101)
    expect(report["received"].map { |m| [m["type"], decoded(m)] }).to eq([["text", "héllo ✓"], ["binary", bytes]])
    messages = recorder.events.select { |name, _| name == :on_message }.map(&:last)
    expect(messages.map(&:encoding)).to eq([Encoding::UTF_8, Encoding::ASCII_8BIT])
    expect(messages).to eq(["héllo ✓", bytes])
    expect(seen.first["rack.upgrade?"]).to eq(:websocket)
  end

  it "joins fragments into one message, also when a UTF-8 character spans two frames" do
    e_acute = "é".b # C3 A9
    report = with_push_server(app) do |port|
      client(port, [
               { send: { fragments: [text_bytes("a#{e_acute[0]}"), text_bytes("#{e_acute[1]}b"), text_bytes("c")] } },
               { send: { fragments: [binary("\x01\x02"), binary("\x03")] } },
               { recv: 2 }, { close: { code: 1000 } }
             ])
    end

    expect(report["received"].map { |m| [m["type"], decoded(m)] }).to eq([["text", "aébc"], ["binary", "\x01\x02\x03".b]])
    expect(recorder.events.count { |name, _| name == :on_message }).to eq(2)
  end

  it "selects the subprotocol the app names in its sec-websocket-protocol header" do
    app = upgrading_app(recorder, seen: seen, headers: ->(env) {
      offered = env["HTTP_SEC_WEBSOCKET_PROTOCOL"].to_s.split(/,\s*/)
      offered.include?("v2.chat") ? { "sec-websocket-protocol" => "v2.chat" } : {}
    })
    report = with_push_server(app) do |port|
      client(port, [{ close: { code: 1000 } }], subprotocols: %w[v1.chat v2.chat])
    end

    expect(seen.first["HTTP_SEC_WEBSOCKET_PROTOCOL"]).to eq("v1.chat, v2.chat")
    expect(report["handshake"]["subprotocol"]).to eq("v2.chat")
    expect(report["handshake"]["headers"]["sec-websocket-protocol"]).to eq("v2.chat")
  end

  it "closes with 1009 when a message, even a fragmented one, is over --max-message-size" do
    reports = with_push_server(app, max_message_size: 1024) do |port|
      [client(port, [{ send: text("x" * 1025) }, { wait_close: true }]),
       client(port, [{ send: { fragments: [text("y" * 600), text("y" * 600)] } }, { wait_close: true }]),
       client(port, [{ send: text("z" * 1024) }, { recv: 1 }, { close: { code: 1000 } }])]
    end

    expect(reports[0..1].map { |r| r.dig("close", "rcvd", "code") }).to eq([1009, 1009])
    expect(reports[2]["received"].map { |m| m["data"].size }).to eq([1024])
    expect(recorder.events.count { |name, _| name == :on_message }).to eq(1)
  end

  it "closes with 1007 on a text message that is not UTF-8, whole or split over frames" do
    reports = with_push_server(app) do |port|
      [client(port, [{ send: text_bytes("ok \xFF".b) }, { wait_close: true }]),
       client(port, [{ send: { fragments: [text_bytes("ok"), text_bytes("\xC3".b)] } }, { wait_close: true }])]
    end

    expect(reports.map { |r| r.dig("close", "rcvd", "code") }).to eq([1007, 1007])
    expect(recorder.names).not_to include(:on_message)
  end

  it "answers an ordinary HTTP response, and never opens, when the app's status is 300 or more" do
    app = upgrading_app(recorder, status: 403, headers: { "content-type" => "text/plain" })
    report = with_push_server(app) { |port| client(port, []) }

    expect(report["handshake"]["status"]).to eq(403)
    expect(report["handshake"]["body"]).to eq("not for an upgraded connection")
    expect(recorder.names).to eq([])
  end

  it "answers an ordinary HTTP response when the app sets no rack.upgrade" do
    app = Rack::Lint.new(->(_env) { [200, { "content-type" => "text/plain" }, ["plain"]] })
    report = with_push_server(app) { |port| client(port, []) }

    expect(report["handshake"]["status"]).to eq(200)
    expect(report["handshake"]["body"]).to eq("plain")
  end

  it "closes with 1000 when the app calls client.close, after the data it wrote" do
    closing = PushServerHelpers::Recorder.new { |c| c.write("last words") && c.close }
    report = with_push_server(upgrading_app(closing)) { |port| client(port, [{ wait_close: true }]) }

    expect(report["received"].map { |m| m["data"] }).to eq(["last words"])
    expect(report.dig("close", "rcvd", "code")).to eq(1000)
    expect(closing.wait_closed.map(&:first)).to eq(%i[on_open on_close])
  end

  it "calls on_open, then on_message in order, then on_close exactly once" do
    report = with_push_server(app) do |port|
      client(port, [{ send: text("1") }, { send: text("2") }, { send: text("3") }, { recv: 3 },
                    { close: { code: 1000, reason: "done" } }]).tap { recorder.wait_closed }
    end

    expect(report.dig("close", "rcvd", "code")).to eq(1000)
    # Read after the server stopped: no callback can come later.
    expect(recorder.events).to eq([[:on_open, :websocket], [:on_message, "1"], [:on_message, "2"],
                                   [:on_message, "3"], [:on_close]])
  end
end
