# frozen_string_literal: true

require "base64"
require "json"
require "securerandom"

# rack.upgrade, iodine's and Agoo's push contract (docs/push.md), through a door: spec/fixtures/
# contract_app's /push routes (lib/contract_push.rb) journal every callback, read back over
# HTTP (/push/log). Clients: Python's `websockets` and an aiohttp EventSource reader
# (spec/support/clients), and WsClient to hold a WebSocket open from Ruby.
RSpec.shared_examples "the push contract" do
  def fresh(what) = "#{what}-#{SecureRandom.hex(4)}"

  def journal(name) = JSON.parse(get("/push/log?name=#{name}").body)

  # The journal of +name+ once the block holds for it; fails with the journal after +timeout+.
  def journal_until(name, timeout: 10)
    last = nil
    Deadline.wait_until(timeout: timeout) { yield(last = journal(name)) }
    last
  rescue RuntimeError => e
    raise e.exception("#{e.message}; the journal of #{name}: #{last.inspect}")
  end

  def closes(events) = events.count { |event| event == ["on_close"] }

  def websocket(query, steps, timeout: 10)
    url = "ws://127.0.0.1:#{@door.port}#{target("/push/ws?#{query}")}"
    PythonClients.run("clients/ws_client.py", { url: url, steps: steps, timeout: timeout }, timeout: timeout + 20)
  end

  def event_stream(query, count, timeout: 10)
    url = "http://127.0.0.1:#{@door.port}#{target("/push/sse?#{query}")}"
    PythonClients.run("clients/sse_client.py", { url: url, events: count, timeout: timeout }, timeout: timeout + 20)
  end

  def received(report) = report["received"].map { |m| [m["type"], m["type"] == "binary" ? Base64.decode64(m["data"]) : m["data"]] }

  describe "WebSocket" do
    it "opens with rack.upgrade? :websocket, echoes text as text and binary as binary, as UTF-8 and binary Strings" do
      name = fresh("echo")
      bytes = "\x00\xFF\x80 binary".b # not UTF-8: written back as a binary message
      report = websocket("name=#{name}", [{ send: { text: "héllo ✓" } }, { send: { binary: Base64.strict_encode64(bytes) } },
                                          { recv: 3 }, { close: { code: 1000 } }])
      expect(report["error"]).to be_nil
      expect(report["handshake"]["status"]).to eq(101)
      expect(received(report)).to eq([["text", "welcome #{name}"], ["text", "héllo ✓"], ["binary", bytes]])
      expect(journal_until(name) { |events| closes(events).positive? }).to eq(
        [["upgrade?", ":websocket"], %w[on_open websocket], ["on_message", "UTF-8", "héllo ✓".unpack1("H*")],
         ["on_message", "ASCII-8BIT", bytes.unpack1("H*")], ["on_close"]]
      )
    end

    it "leaves rack.upgrade? unset on a plain request to the same path" do
      name = fresh("plain")
      expect(get("/push/ws?name=#{name}").body).to eq("no upgrade")
      expect(journal(name)).to eq([%w[upgrade? nil]])
    end

    it "closes from the server with 1000 when the app calls close: on_close once, writes no longer taken" do
      name = fresh("server-close")
      report = websocket("name=#{name}", [{ recv: 1 }, { send: { text: "close" } }, { wait_close: true }])
      expect(report["error"]).to be_nil
      expect(report["close"]["rcvd"]).to include("code" => 1000)
      events = journal_until(name) { |journal| closes(journal).positive? }
      expect(events).to include(["open? after close", false])
      expect(closes(events)).to eq(1)
    end

    it "calls on_close once when the client closes, and echoes the client's close code" do
      name = fresh("client-close")
      report = websocket("name=#{name}", [{ recv: 1 }, { close: { code: 1000, reason: "bye" } }])
      expect(report["error"]).to be_nil
      expect(report["close"]["rcvd"]).to include("code" => 1000)
      events = journal_until(name) { |journal| closes(journal).positive? }
      expect(events.map(&:first)).to eq(%w[upgrade? on_open on_close])
      expect(get("/whole").body).to eq("abcd") # served on; and still one on_close:
      expect(closes(journal(name))).to eq(1)
    end

    it "publishes between two clients of one server: a subscriber gets what the other publishes" do
      channel = fresh("room")
      listener = fresh("listener")
      ws = WsClient.open(@door.port, target("/push/ws?name=#{listener}&channel=#{channel}"))
      begin
        expect(ws.read_message).to eq([:text, "welcome #{listener}"]) # written after subscribing
        speaker = fresh("speaker")
        report = websocket("name=#{speaker}&channel=#{channel}",
                           [{ recv: 1 }, { send: { text: "hi all" } }, { recv: 1 }, { close: { code: 1000 } }])
        expect(report["error"]).to be_nil
        expect(received(report)).to eq([["text", "welcome #{speaker}"], ["text", "hi all"]]) # its own subscription too
        expect(ws.read_message).to eq([:text, "hi all"])
        expect(get("/push/publish?channel=#{channel}&message=from%20a%20request").code).to eq("200")
        expect(ws.read_message).to eq([:text, "from a request"]) # Nettyrack.publish outside a callback
      ensure
        ws.close
      end
      expect(closes(journal_until(listener) { |events| closes(events).positive? })).to eq(1)
    end
  end

  describe "Server-Sent Events" do
    it "sends the app's events on a text/event-stream and ends it on close, with on_close once" do
      name = fresh("sse")
      report = event_stream("name=#{name}&close=1", 3)
      expect(report["error"]).to be_nil
      expect(report["status"]).to eq(200)
      expect(report["headers"]["content-type"]).to start_with("text/event-stream")
      expect(report["events"].map { |e| e.values_at("type", "data", "last_event_id") }).to eq([
        ["message", "one", ""], %w[tick tick 7]
      ])
      expect(report["eof"]).to be(true)
      expect(journal_until(name) { |events| closes(events).positive? }).to eq(
        [["upgrade?", ":sse"], %w[on_open sse], ["on_close"]]
      )
    end

    # Every door runs with --push-history 3 (the push-history context param in a WAR).
    it "resumes an event stream from its Last-Event-ID through the push history, and resets one not ours" do
      channel = fresh("history")
      expect(get("/push/publish?channel=#{channel}&message=m1").code).to eq("200")
      first = event_stream("name=#{fresh('h')}&channel=#{channel}&close=1&last_event_id=not-ours", 3)
      expect(first["error"]).to be_nil
      reset, *rest = first["events"]
      expect([reset["type"], reset["data"]]).to eq(["reset", channel])
      expect(reset["last_event_id"]).to match(/\A[a-z0-9]+-\d+-\d+\z/) # m1's: the newest
      expect(rest.map { |e| e["data"] }).to eq(%w[one tick])

      %w[m2 m3].each { |m| expect(get("/push/publish?channel=#{channel}&message=#{m}").code).to eq("200") }
      again = event_stream("name=#{fresh('h')}&channel=#{channel}&close=1&last_event_id=#{reset['last_event_id']}", 4)
      expect(again["error"]).to be_nil
      expect(again["events"].map { |e| e["data"] }).to eq(%w[m2 m3 one tick])
      expect(again["events"].first["last_event_id"]).to match(/-\d+-\d+\z/)
    end

    # The Netty door sees the client go; a container only at its next write (docs/war.md:
    # "a client that goes is noticed at the next write"), so there the spec publishes to it.
    it "calls on_close once when the client goes away (a container: at the next write)" do
      name = fresh("sse-gone")
      channel = fresh("ticks")
      report = event_stream("name=#{name}&channel=#{channel}", 2)
      expect(report["error"]).to be_nil
      expect(report["events"].map { |e| e["data"] }).to eq(%w[one tick])
      events = journal_until(name) do |journal|
        get("/push/publish?channel=#{channel}&message=tick") if @door.container?
        closes(journal).positive?
      end
      expect(events).to eq([["upgrade?", ":sse"], %w[on_open sse], ["on_close"]])
    end
  end
end
