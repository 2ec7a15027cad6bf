# frozen_string_literal: true

require "json"
require_relative "../support/python_clients"

# Issue 36 part 4: a broadcast to many WebSockets, most of which never read. Each slow one is
# closed once its queue passes --max-push-queue and counted once in /stats push.slow_closed; the
# readers get every message. (bench/push's slow-consumer run does the same with 10,000 sockets;
# docs/benchmarks.md.) The client is spec/support/clients/broadcast_load.py.
RSpec.describe "A broadcast to many clients, most of them not reading" do
  let(:children) { [] }

  after { children.each(&:kill) }

  it "closes and counts each slow client once, and the readers get every message" do
    child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "--control-url", "tcp://127.0.0.1:0", "-t", "2:4",
                                 "--max-push-queue", "64k", "spec/fixtures/pubsub.ru")
    children << child
    port = child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)\n})[1].to_i
    control, token = child.stdout_match(%r{^nettyrack: control endpoint on tcp://(127\.0\.0\.1:\d+) \(token (\h{32})\)\n}).captures

    report = PythonClients.run("clients/broadcast_load.py",
                               { port: port, path: "/ws?channel=all", readers: 200, slow: 800, messages: 40, size: 16_384,
                                 publish: "/publish?channel=all", stats: "http://#{control}/stats", token: token, timeout: 120 },
                               timeout: 180)

    expect(report["error"]).to be_nil
    expect(report["opened"]).to eq(1000)
    expect(report["slow_closed"]).to eq(800)
    expect([report["readers_complete"], report["reader_min"], report["reader_bad"]]).to eq([200, 40, 0])
    child.signal("TERM")
    expect(child.wait.exitstatus).to eq(0)
  end
end
