# frozen_string_literal: true

# Issue 3's acceptance test for --pubsub redis: two nettyrack processes sharing a test-started
# redis-server; a message published with Nettyrack.publish on one reaches a WebSocket
# subscribed on the other, and still does after Redis restarts.
RSpec.describe "Redis pub/sub across nettyrack processes", if: RedisServer.available? do
  let(:redis) { RedisServer.start }
  let(:children) { [] }

  after do
    children.each(&:kill)
    redis.stop
  end

  # A child serving spec/fixtures/pubsub.ru on 127.0.0.1 through the test's Redis, which its
  # boot line names; returns [child, port].
  def nettyrack(*args, env: {})
    child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-t", "2:4", *args, "spec/fixtures/pubsub.ru", env: env)
    children << child
    boot = %r{threads, pub/sub #{Regexp.escape(redis.url)}\) listening on http://127\.0\.0\.1:(\d+)}
    [child, child.stdout_match(boot)[1].to_i]
  end

  # A WebSocket on +port+ subscribed to +channel+ in its process and, through it, in Redis.
  def subscriber(port, channel, in_redis:)
    ws = WsClient.open(port, "/ws?channel=#{channel}")
    expect(ws.read_message).to eq([:text, "subscribed"])
    wait_for("#{in_redis} Redis subscriptions to #{channel}") { redis.subscribers(channel) == in_redis }
    ws
  end

  def publish(port, channel, message)
    expect(post("http://127.0.0.1:#{port}/publish?channel=#{channel}", message).code).to eq("204")
  end

  def wait_for(what, timeout: 30)
    limit = Deadline.now + timeout
    until yield
      raise "timed out waiting for #{what}" if Deadline.now > limit

      IO.select(nil, nil, nil, 0.05)
    end
  end

  def stop(child)
    child.signal("TERM")
    expect(child.wait.exitstatus).to eq(0)
    child.stderr
  end

  it "delivers a message published on one process to WebSocket subscribers on both" do
    a, port_a = nettyrack("--pubsub", redis.url)
    b, port_b = nettyrack("--pubsub", "redis", env: { "REDIS_URL" => redis.url })
    on_b = subscriber(port_b, "news", in_redis: 1)
    on_a = subscriber(port_a, "news", in_redis: 2)

    publish(port_a, "news", "héllo from A")
    expect([on_b.read_message, on_a.read_message]).to eq([[:text, "héllo from A"]] * 2)
    publish(port_b, "news", "and from B")
    expect([on_b.read_message, on_a.read_message]).to eq([[:text, "and from B"]] * 2)

    [on_a, on_b].each(&:close)
    expect([stop(a), stop(b)]).to eq(["", ""]) # no Redis trouble, no SLF4J noise
  end

  it "reconnects when Redis restarts, logging the loss and the return, and delivers again" do
    a, port_a = nettyrack("--pubsub", redis.url)
    b, port_b = nettyrack("--pubsub", redis.url)
    ws = subscriber(port_b, "jobs", in_redis: 1)

    redis.kill
    publish(port_a, "jobs", "while Redis is down") # answered at once, nothing waits for Redis
    redis.restart
    wait_for("B to subscribe again") { redis.subscribers("jobs") == 1 }
    publish(port_a, "jobs", "after the restart")
    message = ws.read_message
    message = ws.read_message if message == [:text, "while Redis is down"] # sent late, if A held it
    expect(message).to eq([:text, "after the restart"])

    ws.close
    lost = %r{^nettyrack: pubsub: lost Redis at #{Regexp.escape(redis.url)} \(.+\); reconnecting$}
    back = "nettyrack: pubsub: reconnected to #{redis.url}"
    stderr_b = stop(b)
    expect(stderr_b).to match(lost)
    expect(stderr_b.lines.map(&:chomp)).to include(back)
    stop(a)
  end

  it "boots without Redis, says it cannot reach it, and stops promptly" do
    port = redis.port
    redis.stop
    child, = nettyrack("--pubsub", "redis://127.0.0.1:#{port}")
    started = Deadline.now
    expect(stop(child)).to match(%r{\Anettyrack: pubsub: cannot reach Redis at redis://127\.0\.0\.1:#{port} \(.+\); retrying\n\z})
    expect(Deadline.now - started).to be < 20
  end
end
