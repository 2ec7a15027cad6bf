# frozen_string_literal: true

# examples/cable (ActionCable from Rails 6.1, unchanged, over rack.hijack) served by bin/nettyrack
# once for this file, and used by two third-party clients: Python's `websockets` speaking
# ActionCable's protocol (spec/support/clients/cable_client.py), and Rails' own JavaScript client
# in headless Chromium tabs.
RSpec.describe "ActionCable over rack.hijack (examples/cable)" do
  before(:context) do
    root = File.expand_path("../..", __dir__)
    @server = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-e", "production", "examples/cable/config.ru",
                                   chdir: root)
    @port = @server.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)}, timeout: 120)[1]
  end

  after(:context) do
    @server&.signal("TERM")
    @server&.wait
  ensure
    @server&.kill
  end

  let(:base) { "http://127.0.0.1:#{@port}" }

  # The report of cable_client.py: +clients+ connections to /cable from this server's origin,
  # subscribed to ChatChannel, then each of +lines+ ([client index, text]) spoken and awaited.
  def cable_clients(clients, lines, origin: base)
    PythonClients.run("clients/cable_client.py", {
      url: "ws://127.0.0.1:#{@port}/cable", origin: origin, clients: clients, channel: { channel: "ChatChannel" },
      speak: lines.map { |from, text| { from: from, action: "speak", data: { text: text }, expect: { text: text } } },
      timeout: 30
    }, timeout: 60)
  end

  it "welcomes a websockets client, confirms its subscription and broadcasts its line to every subscriber" do
    report = cable_clients(2, [[0, "hello from websockets"], [1, "h\u00e9llo back"]])
    expect(report["error"]).to be_nil
    ident = { "channel" => "ChatChannel" }
    report["clients"].each do |client|
      expect(client["subprotocol"]).to eq("actioncable-v1-json")
      expect(client["welcome"]).to eq("type" => "welcome")
      expect(client["confirm"]).to include("type" => "confirm_subscription")
      expect(JSON.parse(client["confirm"]["identifier"])).to eq(ident)
      expect(client["received"].map { |message| message["text"] }).to eq(["hello from websockets", "h\u00e9llo back"])
      expect(client["received"].map { |message| message["via"] }).to all(match(/\ARails 6\.1\.[\d.]+ on jruby\z/))
    end
  end

  it "refuses a WebSocket from another origin before hijacking it" do
    report = cable_clients(1, [], origin: "http://elsewhere.example")
    expect(report["error"]).to match(/HTTP 404/)
    expect(fetch("#{base}/").code).to eq("200") # and serves on
  end

  it "round-trips a line between two Chromium tabs through Rails' ActionCable client" do
    skip Browser::MISSING unless Browser.executable
    browser = Browser.launch
    ann = browser.open("#{base}/")
    bob = browser.open("#{base}/")
    [ann, bob].each { |page| expect(page.text("#status", including: "subscribed")).to eq("subscribed") }

    ann.type("#text", "hello from Chromium")
    ann.click("#send")
    echoed = /hello from Chromium \(Rails 6\.1\.[\d.]+ on jruby\)/ # the broadcast, as the page shows it
    [ann, bob].each { |page| expect(page.text("#log", including: "hello from Chromium")).to match(echoed) }
  ensure
    browser&.close
  end
end

# The fix examples/cable carries for nio4r's pure-Ruby selector (loaded here, in the spec's JRuby).
RSpec.describe "examples/cable/nio_wakeup_drain.rb" do
  before(:context) do
    pure = ENV.fetch("NIO4R_PURE", nil)
    ENV["NIO4R_PURE"] = "true"
    require_relative "../../examples/cable/nio_wakeup_drain"
  ensure
    ENV["NIO4R_PURE"] = pure
  end

  it "lets the selector sleep again after a wake-up, and still see a readable IO" do
    selector = NIO::Selector.new
    reader, writer = IO.pipe
    selector.register(reader, :r)
    selector.wakeup
    expect(selector.select(0)).to eq([]) # the wake-up
    expect(selector.select(0)).to be_nil # a timeout: nothing left (without the fix, [] again and forever)
    writer.write("x")
    expect(selector.select(0).map(&:io)).to eq([reader])
  ensure
    selector&.close
    [reader, writer].each { |io| io&.close }
  end
end
