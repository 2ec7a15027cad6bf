# frozen_string_literal: true

require "rack"
require "rack/lint"

# Messages around the default --max-message-size (1 MiB, counted after decompression, fragments
# joined) from real clients, with and without permessage-deflate: Python's websockets
# (spec/support/clients/ws_client.py) and Node's ws (spec/support/clients/ws_node_client.js)
# against an echo app. Up to the limit every message comes back; one byte more is closed with
# 1009, never dropped without a close frame. The send queue is 4 MiB here: the echo of an L-byte
# message counts in the queue until the write completes on the event loop, which under a busy
# machine's load may come after the client already sent the next one (with the default 1 MiB, two
# echoes of 1 MiB in a row then closed the client as slow: 1008).
RSpec.describe "WebSocket messages at the size limit, with real clients" do
  let(:limit) { 1024 * 1024 }

  let(:recorder) { PushServerHelpers::Recorder.new(echo: true) }
  let(:app) do
    handler = recorder
    Rack::Lint.new(lambda do |env|
      env["rack.upgrade"] = handler
      [200, {}, []]
    end)
  end

  # One connection: L-1 and L bytes, each echoed, then L+1, which the server must refuse.
  def python_connection(port, compression:, random:, fragments:)
    message = ->(size) { { send: { generate: { size: size, random: random, fragments: fragments } } } }
    { url: "ws://127.0.0.1:#{port}/", compression: compression, digests: true, timeout: 20,
      steps: [message[limit - 1], { recv: 1 }, message[limit], { recv: 1 }, message[limit + 1], { wait_close: true }] }
  end

  def sizes_and_hashes(digests)
    digests.map { |d| d.slice("size", "sha256") }
  end

  it "echoes up to the limit and closes with 1009 beyond it: Python websockets, compressed or not" do
    cases = [nil, "deflate"].product([false, true], [1, 3])
    reports = with_push_server(app, max_push_queue: 4 * 1024 * 1024) do |port|
      connections = cases.map do |compression, random, fragments|
        python_connection(port, compression: compression, random: random, fragments: fragments)
      end
      PythonClients.run("clients/ws_client.py", connections, timeout: 90)
    end

    cases.zip(reports).each do |(compression, random, fragments), report|
      label = "compression #{compression.inspect}, random #{random}, #{fragments} frame(s): #{report}"
      extensions = report.dig("handshake", "headers", "sec-websocket-extensions")
      expect(extensions).to(compression ? eq("permessage-deflate") : be_nil, label)
      expect(report["sent"].map { |d| d["size"] }).to eq([limit - 1, limit, limit + 1]), label
      expect(sizes_and_hashes(report["received"])).to eq(report["sent"].first(2)), label
      expect(report["received"].map { |m| m["type"] }).to eq([random ? "binary" : "text"] * 2), label
      expect(report.dig("close", "rcvd", "code")).to eq(1009), label
    end
    expect(recorder.events.count { |name, _| name == :on_message }).to eq(2 * cases.size)
  end

  def node_client(port, compression:, messages:)
    NodeClients.run("clients/ws_node_client.js",
                    { url: "ws://127.0.0.1:#{port}/", compression: compression, timeout: 20, messages: messages },
                    timeout: 40)
  end

  it "echoes up to the limit and closes with 1009 beyond it: Node's ws, compressed" do
    messages = [{ size: limit - 1 }, { size: limit }, { size: limit, random: true },
                { size: limit, random: true, fragments: 3 }, { size: limit + 1, random: true }]
    report = with_push_server(app, max_push_queue: 4 * 1024 * 1024) { |port| node_client(port, compression: true, messages: messages) }

    expect(report["extensions"]).to eq("permessage-deflate")
    expect(report["echoes"].first(4).map { |e| e["received"] }).to eq(report["echoes"].first(4).map { |e| e["sent"] }), report.inspect
    expect(report["echoes"].last["received"]).to be_nil
    expect(report["close"]).to eq("code" => 1009, "reason" => "message over the size limit")
  end

  # The frame decoder refuses such a frame from its header, while the client is still sending
  # the rest: closing the socket then would reset the connection and lose the close frame.
  it "tells a client still sending a much larger message 1009 too: Node's ws, compressed or not" do
    message = { size: 4 * limit, random: true }
    reports = with_push_server(app, max_push_queue: 4 * 1024 * 1024) do |port|
      [false, true].map { |compression| node_client(port, compression: compression, messages: [message]) }
    end

    expect(reports.map { |r| r["close"]&.fetch("code") }).to eq([1009, 1009]), reports.inspect
    expect(recorder.events.count { |name, _| name == :on_message }).to eq(0)
  end
end
