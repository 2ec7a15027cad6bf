# frozen_string_literal: true

require "net/http"
require "rack"
require "rack/lint"

# Server-Sent Events end to end: an EventSource-style reader on aiohttp
# (spec/support/clients/sse_client.py) against a Nettyrack::Server whose Rack app upgrades through
# env['rack.upgrade'] (docs: notes/push-api.md). Apps are wrapped in Rack::Lint: Rack 2.2's Lint
# accepts the rack.upgrade? / rack.upgrade keys.
RSpec.describe "Server-Sent Events with a real client (aiohttp)" do
  # An app that upgrades EventSource requests to a Recorder running +on_open+ and answers plain
  # GETs with "plain"; +seen+ collects each env's rack.upgrade? (or :absent) and Last-Event-ID.
  def sse_app(seen, status: 200, &on_open)
    recorder = PushServerHelpers::Recorder.new(&on_open)
    app = Rack::Lint.new(lambda do |env|
      seen << [env.fetch("rack.upgrade?", :absent), env["HTTP_LAST_EVENT_ID"]]
      return [200, { "content-type" => "text/plain" }, ["plain"]] unless env["rack.upgrade?"] == :sse

      env["rack.upgrade"] = recorder
      [status, { "content-type" => "text/plain" }, ["not for an event stream"]]
    end)
    [app, recorder]
  end

  def read_events(port, events, headers: {}, timeout: 10)
    PythonClients.run("clients/sse_client.py",
                      { url: "http://127.0.0.1:#{port}/events", events: events, headers: headers, timeout: timeout },
                      timeout: timeout + 20)
  end

  let(:seen) { [] }

  it "sends each write as a data event, a multi-line one as several data: lines, and ends on close" do
    app, recorder = sse_app(seen) do |client|
      client.write("one")
      client.write("two\nlines\r\nthree")
      client.close
    end
    report = with_push_server(app) do |port|
      read_events(port, 3).tap { recorder.wait_closed }
    end

    expect(report["error"]).to be_nil
    expect(report["status"]).to eq(200)
    expect(report["headers"]["content-type"]).to start_with("text/event-stream")
    expect(report["events"].map { |e| [e["type"], e["data"]] }).to eq([%w[message one], ["message", "two\nlines\nthree"]])
    expect(report["eof"]).to be(true)
    expect(recorder.names).to eq(%i[on_open on_close])
  end

  it "sends id, event and retry fields" do
    app, = sse_app(seen) do |client|
      client.write("tick 1", id: "7", event: "tick", retry: 3000)
      client.write("plain")
      client.close
    end
    report = with_push_server(app) { |port| read_events(port, 2) }

    expect(report["events"]).to eq([
                                     { "type" => "tick", "data" => "tick 1", "last_event_id" => "7", "retry" => 3000 },
                                     { "type" => "message", "data" => "plain", "last_event_id" => "7", "retry" => 3000 }
                                   ])
  end

  it "hands the client's Last-Event-ID to the app as env['HTTP_LAST_EVENT_ID']" do
    app, = sse_app(seen) do |client|
      client.write("resuming after #{client.env['HTTP_LAST_EVENT_ID']}")
      client.close
    end
    report = with_push_server(app) { |port| read_events(port, 1, headers: { "Last-Event-ID" => "41" }) }

    expect(seen).to eq([[:sse, "41"]])
    expect(report["events"].map { |e| e["data"] }).to eq(["resuming after 41"])
  end

  it "sets rack.upgrade? to :sse for an EventSource request and leaves it out of a plain GET" do
    app, recorder = sse_app(seen, &:close)
    plain = with_push_server(app) do |port|
      read_events(port, 1)
      recorder.wait_closed
      Net::HTTP.start("127.0.0.1", port, open_timeout: 5, read_timeout: 10) { |http| http.get("/plain") }
    end

    expect(seen).to eq([[:sse, nil], [:absent, nil]])
    expect([plain.code, plain.body]).to eq(%w[200 plain])
    expect(recorder.events).to eq([%i[on_open sse], [:on_close]])
  end

  it "answers an ordinary HTTP response, and never opens, when the app's status is 300 or more" do
    app, recorder = sse_app(seen, status: 403) { |client| client.write("never") }
    report = with_push_server(app) { |port| read_events(port, 1) }

    expect(report["status"]).to eq(403)
    expect(report["headers"]["content-type"]).to eq("text/plain")
    expect(report["events"]).to eq([])
    expect(recorder.names).to eq([])
  end

  it "calls on_close exactly once when the client goes away" do
    app, recorder = sse_app(seen) { |client| client.write("hello") }
    with_push_server(app) do |port|
      expect(read_events(port, 1)["events"].map { |e| e["data"] }).to eq(["hello"])
      recorder.wait_closed
    end

    expect(recorder.names).to eq(%i[on_open on_close])
  end
end
