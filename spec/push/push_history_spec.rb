# frozen_string_literal: true

require "rack"
require_relative "../support/python_clients"
require_relative "../support/ws_client"

# Issue 36 part 3: a push client that reconnects gets what it missed from the channel's history
# (--push-history), in order and once: an EventSource (aiohttp's reader, as a browser) through
# Last-Event-ID or ?last_event_id=, a WebSocket through client.subscribe(channel, from: id); a
# position the history no longer covers, or not ours, is a reset the client can act on.
RSpec.describe "Push history and resumption" do
  include PushServerHelpers

  let(:engine) do
    Nettyrack::PubSubSetting.engine(nil, history: { messages: 3, ttl: 60, channels: 100 }, errors: StringIO.new)
  end
  let(:outcomes) { Queue.new }

  # SSE: a plain subscription to "chat" (resuming from the request's Last-Event-ID). WebSocket:
  # a block subscription from ?from=, writing "ID MESSAGE", after a line with the outcome.
  let(:app) do
    outcomes = self.outcomes
    lambda do |env|
      params = Rack::Utils.parse_query(env["QUERY_STRING"])
      handler = Object.new
      if env["rack.upgrade?"] == :sse
        handler.define_singleton_method(:on_open) { |client| outcomes << client.subscribe("chat") }
      else
        handler.define_singleton_method(:on_open) do |client|
          outcome = client.subscribe("chat", from: params["from"]) { |_channel, message, id| client.write("#{id} #{message}") }
          client.write("subscribed #{outcome}")
          outcomes << outcome
        end
      end
      env["rack.upgrade"] = handler
      [200, {}, []]
    end
  end

  def serve(&block)
    with_push_server(app, pubsub: engine) { |port, _errors| block.call(port) }
  end

  # Publishes in-process; returns the message's id.
  def publish(message)
    ids = Queue.new
    spy = ->(m) { ids << m.id.to_s }
    engine.subscribe("chat", spy)
    engine.publish("chat", message.to_java_bytes)
    engine.unsubscribe("chat", spy)
    Deadline.wait_until(timeout: 10) { !ids.empty? }
    ids.pop
  end

  def read_events(port, count, query: "", headers: {})
    PythonClients.run("clients/sse_client.py",
                      { url: "http://127.0.0.1:#{port}/events#{query}", events: count, headers: headers, timeout: 20 },
                      timeout: 40)
  end

  def next_outcome
    Deadline.wait_until(timeout: 20) { !outcomes.empty? } # Queue#pop(timeout:) is Ruby 3.2's, not JRuby 9.4's
    outcomes.pop
  end

  it "replays to an EventSource what came after its Last-Event-ID, with ids, then live messages" do
    seen = publish("one")
    two = publish("two")
    three = publish("three")
    serve do |port|
      reader = Thread.new { read_events(port, 3, headers: { "Last-Event-ID" => seen }) }
      expect(next_outcome).to eq(:resumed)
      four = publish("four")
      events = reader.value["events"]
      expect(events.map { |e| [e["data"], e["last_event_id"]] }).to eq([["two", two], ["three", three], ["four", four]])
    end
  end

  it "takes the position from ?last_event_id= for clients that cannot set headers" do
    seen = publish("one")
    publish("two")
    serve do |port|
      report = read_events(port, 1, query: "?last_event_id=#{seen}")
      expect(report["events"].map { |e| e["data"] }).to eq(["two"])
    end
  end

  it "sends a reset event with the newest id when the position is older than the history" do
    seen = publish("one")
    4.times { |i| publish("later #{i}") } # 3 kept: "later 0" is gone, so is what came after "one"
    newest = publish("newest")
    serve do |port|
      reader = Thread.new { read_events(port, 2, headers: { "Last-Event-ID" => seen }) }
      expect(next_outcome).to eq(:reset)
      live = publish("live")
      events = reader.value["events"]
      expect(events.map { |e| [e["type"], e["data"], e["last_event_id"]] })
        .to eq([["reset", "chat", newest], ["message", "live", live]])
    end
  end

  it "replays to a WebSocket subscribed from an id, and tells the app when it cannot" do
    seen = publish("one")
    two = publish("two")
    serve do |port|
      ws = WsClient.open(port, "/ws?from=#{seen}")
      expect(ws.read_message).to eq([:text, "subscribed resumed"]) # the block runs once on_open returned
      expect(ws.read_message).to eq([:text, "#{two} two"])
      three = publish("three")
      expect(ws.read_message).to eq([:text, "#{three} three"])
      ws.close

      [["not-an-id", "subscribed reset"], ["", "subscribed reset"]].each do |from, said|
        other = WsClient.open(port, "/ws?from=#{from}")
        expect(other.read_message).to eq([:text, said])
        other.close
      end
      live = WsClient.open(port, "/ws")
      expect(live.read_message).to eq([:text, "subscribed live"])
      live.close
    end
  end
end
