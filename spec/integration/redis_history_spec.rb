# frozen_string_literal: true

require_relative "../support/python_clients"

# Issue 36 part 3 across processes: two nettyrack processes keep the history in the test's Redis
# (--pubsub redis://... --push-history N); an EventSource (aiohttp's reader) that read events on
# one reconnects to the other with its Last-Event-ID and gets what it missed, then live messages.
RSpec.describe "Push history in Redis across nettyrack processes", if: RedisServer.available? do
  let(:redis) { RedisServer.start }
  let(:children) { [] }

  after do
    children.each(&:kill)
    redis.stop
  end

  def nettyrack
    child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-t", "2:4", "--pubsub", redis.url, "--push-history", "10",
                                 "--push-history-ttl", "2m", "spec/fixtures/pubsub.ru")
    children << child
    boot = %r{pub/sub #{Regexp.escape(redis.url)}, push history 10 messages/120\.0 s\) listening on http://127\.0\.0\.1:(\d+)}
    child.stdout_match(boot)[1].to_i
  end

  def publish(port, message)
    expect(post("http://127.0.0.1:#{port}/publish?channel=chat", message).code).to eq("204")
  end

  def read_events(port, count, headers: {})
    PythonClients.run("clients/sse_client.py",
                      { url: "http://127.0.0.1:#{port}/events?channel=chat", events: count, headers: headers, timeout: 30 },
                      timeout: 50)
  end

  def wait_for(what, timeout: 30)
    limit = Deadline.now + timeout
    until yield
      raise "timed out waiting for #{what}" if Deadline.now > limit

      IO.select(nil, nil, nil, 0.05)
    end
  end

  it "resumes an event stream on another process from the id it last saw, in order, then live" do
    port_a = nettyrack
    port_b = nettyrack
    first = Thread.new { read_events(port_a, 2) }
    wait_for("A subscribed in Redis") { redis.subscribers("chat") == 1 }
    publish(port_b, "one")
    publish(port_a, "two")
    events = first.value["events"]
    expect(events.map { |e| e["data"] }).to eq(%w[one two])
    seen = events.last["last_event_id"]
    expect(seen).to match(/\A[a-z0-9]+-\d+-\d+\z/)

    wait_for("A's stream gone from Redis") { redis.subscribers("chat").zero? }
    publish(port_a, "three") # nobody listening: kept in Redis
    publish(port_b, "four")
    again = Thread.new { read_events(port_b, 3, headers: { "Last-Event-ID" => seen }) }
    wait_for("B subscribed in Redis") { redis.subscribers("chat") == 1 }
    publish(port_a, "five") # live (or, if B is still reading the history, in it: once either way)
    expect(again.value["events"].map { |e| e["data"] }).to eq(%w[three four five])
  end
end
