# frozen_string_literal: true

require "json"
require_relative "../support/ws_client"

# The control endpoint and nettyrack ctl as an operator uses them: bin/nettyrack as a child
# with --control-url on port 0, curl and `nettyrack ctl` (children too) against it, and the
# JSON access log read back from the server's stdout.
RSpec.describe "bin/nettyrack --control-url, and nettyrack ctl" do
  let(:root) { File.expand_path("../..", __dir__) }

  def curl(url, *args)
    IO.popen(["curl", "-s", "--max-time", "20", "-w", "\n%{http_code}", *args, url], &:read).split("\n").then do |lines|
      [lines.last, lines[0...-1].join("\n")]
    end
  end

  # [exit status, stdout, stderr] of `nettyrack ctl ARGS`.
  def ctl(*args)
    child = NettyrackProcess.new("ctl", *args, chdir: root)
    status = child.wait
    [status.exitstatus, child.stdout, child.stderr]
  ensure
    child&.kill
  end

  # The stats the predicate accepts, asking again for at most 10 s: counts move once the last
  # byte is written, which a client may see a moment before the server does.
  def stats_until(control, token)
    limit = Deadline.now + 10
    loop do
      code, body = curl("#{control}/stats", "-H", "Authorization: Bearer #{token}")
      raise "GET /stats: #{code}" unless code == "200"

      stats = JSON.parse(body)
      return stats if yield(stats) || Deadline.now > limit
    end
  end

  it "reports stats and thread backtraces, refuses wrong tokens, and stops on ctl stop" do
    child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "--control-url", "tcp://127.0.0.1:0", "-t", "2:4",
                                 "--access-log", "--access-log-format", "json", "spec/fixtures/ops.ru", chdir: root)
    port = child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)\n})[1]
    control_url, token = child.stdout_match(/^nettyrack: control endpoint on (tcp:\/\/127\.0\.0\.1:\d+) \(token (\h{32})\)\n/)
                              .captures
    control = control_url.sub("tcp://", "http://")

    expect(curl("#{control}/stats")).to eq(["403", ""])
    expect(curl("#{control}/stats?token=#{'0' * 32}")).to eq(["403", ""])
    before = stats_until(control, token) { true }
    expect(before["requests"]["total"]).to eq(0)
    expect(before["pubsub"]).to eq("engine" => "local")

    expect(curl("http://127.0.0.1:#{port}/hello", "-A", "spec-agent")).to eq(%w[200 ok])
    expect(stats_until(control, token) { |stats| stats["requests"]["total"] == 1 }["requests"]["total"]).to eq(1)

    socket = WsClient.open(port, "/ws")
    expect(stats_until(control, token) { |stats| stats["push"]["websocket"] == 1 }["push"]).to eq("websocket" => 1, "sse" => 0, "slow_closed" => 0)
    socket.close
    expect(stats_until(control, token) { |stats| stats["push"]["websocket"].zero? }["push"]["websocket"]).to eq(0)

    held = Thread.new { curl("http://127.0.0.1:#{port}/hold") }
    # in_flight counts from the dispatch on the event loop; a worker (at nice 10) takes it a moment later
    busy = stats_until(control, token) { |stats| stats["requests"]["in_flight"] == 1 && stats["workers"]["busy"] >= 1 }
    expect([busy["requests"]["in_flight"], busy["workers"]["busy"] >= 1]).to eq([1, true])
    code, body = curl("#{control}/thread-backtraces?token=#{token}")
    expect(code).to eq("200")
    dump = JSON.parse(body)
    expect(dump["ruby_backtraces"]).to eq("included")
    holder = dump["threads"].find { |thread| thread["ruby"]&.any? { |line| line.include?("spec/fixtures/ops.ru") } }
    expect(holder&.fetch("name")).to match(/\Anettyrack-worker-\d+\z/), "a worker inside ops.ru"
    expect(holder["java"]).not_to be_empty
    expect(curl("http://127.0.0.1:#{port}/release")).to eq(%w[200 ok])
    expect(Deadline.value(held, 30, "the held request")).to eq(%w[200 ok])

    good = Thread.new { ctl("--control-url", control_url, "--control-token", token, "stats") }
    wrong = Thread.new { ctl("--control-url", control_url, "--control-token", "guess", "stats") }
    status, printed, = Deadline.value(good, 60, "nettyrack ctl stats")
    expect(status).to eq(0)
    expect(JSON.parse(printed)["requests"]["total"]).to be >= 4
    expect(Deadline.value(wrong, 60, "nettyrack ctl with a wrong token"))
      .to eq([1, "", "nettyrack ctl: the control endpoint at #{control_url} refused the token (403); pass the token " \
                     "the server printed at boot with --control-token or $NETTYRACK_CONTROL_TOKEN\n"])

    expect(ctl("stop", "--control-url", control_url, "--control-token", token)).to eq([0, "stop requested\n", ""])
    expect(child.wait.exitstatus).to eq(0)
    expect(child.stdout).to end_with("nettyrack: shutting down (control /stop)\n")
    expect(child.stderr).to eq("")

    hello = child.stdout.lines.grep(/\A\{/).map { |line| JSON.parse(line) }.find { |line| line["target"] == "/hello" }
    expect(hello.slice("remote", "method", "protocol", "status", "bytes", "user_agent", "referer"))
      .to eq("remote" => "127.0.0.1", "method" => "GET", "protocol" => "HTTP/1.1", "status" => 200, "bytes" => 2,
             "user_agent" => "spec-agent", "referer" => nil)
    expect(hello["duration"]).to be_a(Float)
  ensure
    child&.kill
  end
end
