# frozen_string_literal: true

require_relative "bridge_helper"

# Requests run on a pool of real Java threads, fairly across connections.
RSpec.describe "concurrency" do
  it "runs requests of different connections at the same time" do
    barrier = java.util.concurrent.CyclicBarrier.new(3)
    app = lambda do |_env|
      barrier.await(5, java.util.concurrent.TimeUnit::SECONDS) # only passes if three run at once
      [200, {}, ["met"]]
    end
    with_app(app, threads: [3, 3]) do |port|
      bodies = Array.new(3) { Thread.new { http_get(port, "/").body } }.map { |t| Deadline.value(t, 30, "a request") }
      expect(bodies).to eq(%w[met met met])
    end
  end

  it "serves ten busy keep-alive clients on two threads in turn, not one client at a time" do
    order = java.util.concurrent.atomic.AtomicInteger.new
    app = lambda do |_env|
      sleep 0.02 # the work a request does
      [200, {}, ["ok"]]
    end
    start = java.util.concurrent.CyclicBarrier.new(10)
    with_app(app, threads: [2, 2]) do |port|
      finished = Array.new(10) do
        Thread.new do
          Net::HTTP.start("127.0.0.1", port, read_timeout: 30) do |http|
            start.await(10, java.util.concurrent.TimeUnit::SECONDS) # all connected, then all ask
            Array.new(5) { http.get("/").then { order.increment_and_get } }
          end
        end
      end.map { |t| Deadline.value(t, 60, "a client's five requests") }
      # With a FIFO pool every client's first answer comes before anyone's fifth;
      # "a client at a time" would finish one client's five before others' first.
      expect(finished.map(&:first).max).to be < finished.map(&:last).min
      expect(finished.flatten.sort).to eq((1..50).to_a)
    end
  end

  it "answers 503 when every thread is busy and the queue is full" do
    release = Queue.new
    started = Queue.new
    app = lambda do |_env|
      started << true
      BridgeHelper.take(release, 10)
      [200, {}, ["done"]]
    end
    with_app(app, threads: [1, 1], queueSize: 1) do |port|
      codes = Queue.new
      first = Thread.new { codes << http_get(port, "/").code }
      BridgeHelper.take(started, 5)
      # One of the next two waits in the queue (capacity 1); the other finds it full.
      others = Array.new(2) { Thread.new { codes << http_get(port, "/").code } }
      expect(BridgeHelper.take(codes, 5)).to eq("503")
      2.times { release << true }
      [first, *others].each { |t| t.join(10) }
      expect(Array.new(2) { BridgeHelper.take(codes, 5) }).to eq(%w[200 200])
    end
  end
end
