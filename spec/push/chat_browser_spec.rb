# frozen_string_literal: true

# examples/chat served by bin/nettyrack and used from two headless Chromium tabs: a line typed
# into one page travels over its WebSocket, through the server's pub/sub, to the other page;
# POST /say reaches both; closing a tab is announced to the other, and so is a server shutdown.
RSpec.describe "examples/chat in a browser" do
  let(:root) { File.expand_path("../..", __dir__) }

  before { skip Browser::MISSING unless Browser.executable }

  it "carries lines between two browsers through the server" do
    server = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-e", "production", "examples/chat/config.ru",
                                  chdir: root)
    base = "http://127.0.0.1:#{server.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)}, timeout: 120)[1]}"
    browser = Browser.launch
    # Each member subscribes before announcing itself, so its own "joined" line proves its
    # subscription is in place.
    ann = browser.open("#{base}/?nick=ann")
    expect(ann.text("#status", including: "connected")).to eq("connected as ann")
    expect(ann.text("#log", including: "* ann joined")).to include("* ann joined")
    bob = browser.open("#{base}/?nick=bob")
    expect(bob.text("#log", including: "* bob joined")).to include("* bob joined")
    expect(ann.text("#log", including: "* bob joined")).to include("* bob joined")

    ann.type("#text", "hello from ann")
    ann.click("#send")
    expect(bob.text("#log", including: "ann: hello from ann")).to include("ann: hello from ann")
    expect(ann.text("#log", including: "ann: hello from ann")).to include("ann: hello from ann")

    expect(post("#{base}/say?nick=ops", "hello from curl").code).to eq("204")
    [ann, bob].each { |page| expect(page.text("#log", including: "ops: hello")).to include("ops: hello from curl") }

    bob.close
    expect(ann.text("#log", including: "* bob left")).to include("* bob left")

    server.signal("TERM")
    expect(ann.text("#log", including: "going away")).to include("* the server is going away")
    expect(ann.text("#status", including: "disconnected")).to start_with("disconnected")
    expect(server.wait.exitstatus).to eq(0)
  ensure
    browser&.close
    server&.kill
  end
end
