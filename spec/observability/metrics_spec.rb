# frozen_string_literal: true

require "json"
require "net/http"
require "open3"
require "socket"
require "tmpdir"

# GET /metrics as an operator's Prometheus reads it: bin/nettyrack with --metrics-url (and a
# control endpoint), driven through spec/fixtures/metrics.ru so that each metric moves; the page
# checked by Debian's promtool and scraped by a real prometheus (both from the prometheus
# package; skipped with a line where absent).
RSpec.describe "GET /metrics (Prometheus)" do
  let(:root) { File.expand_path("../..", __dir__) }
  let(:children) { [] }

  after do
    children.each(&:kill)
    NettyrackProcess.kill_all(children.flat_map { |c| c.stdout.scan(/pid (\d+) is booting/).flatten.map(&:to_i) })
  end

  def start(*args)
    child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "--metrics-url", "tcp://127.0.0.1:0", *args,
                                 "spec/fixtures/metrics.ru", chdir: root)
    children << child
    boot = child.stdout_match(%r{metrics on tcp://(127\.0\.0\.1:\d+)/metrics\b.*listening on http://127\.0\.0\.1:(\d+)\n})
    [child, boot[1], Integer(boot[2])]
  end

  def installed(name)
    ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).map { |dir| File.join(dir, name) }.find { |path| File.executable?(path) }
  end

  def get(port, path, headers = {})
    Net::HTTP.start("127.0.0.1", port, open_timeout: 10, read_timeout: 40) { |http| http.get(path, headers) }
  end

  # The page's samples: {"name{labels}" => value}.
  def samples(text)
    text.lines.reject { |l| l.start_with?("#") || l.strip.empty? }.to_h do |line|
      name, value = line.strip.split(/ (?=\S+\z)/)
      [name, Float(value)]
    end
  end

  def metrics(address)
    response = Net::HTTP.get_response(URI("http://#{address}/metrics"))
    expect(response.code).to eq("200")
    expect(response["content-type"]).to eq("text/plain; version=0.0.4; charset=utf-8")
    response.body
  end

  # The samples once the block accepts them (counts move once the last byte is written, which a
  # client may see a moment before the server counts it); 30 s at most unless said.
  def metrics_until(address, what, timeout: 30)
    page = nil
    Deadline.wait_until(timeout: timeout) { yield(page = samples(metrics(address))) }
    page
  rescue RuntimeError => e
    raise "#{what}: #{e.message}; last page:\n#{page&.select { |k, _| k.start_with?('nettyrack_') }}"
  end

  it "moves each metric as the server works: answers, a 500, a 503 from a full queue, a slow push client, a hot restart" do
    child, metrics_at, port = start("-t", "2:2", "--queue-size", "1", "--max-push-queue", "64k", "--push-send-buffer", "16k",
                                    "--control-url", "tcp://127.0.0.1:0")
    control, token = child.stdout_match(%r{^nettyrack: control endpoint on tcp://(127\.0\.0\.1:\d+) \(token (\h{32})\)\n}).captures
    before = samples(metrics(metrics_at))
    expect(before['nettyrack_requests_total{protocol="http1",code="2xx"}']).to eq(0)
    expect(before["nettyrack_ready"]).to eq(1)
    expect(before.keys.grep(/\Anettyrack_info\{version="[^"]+",door="netty",jruby="\d[^"]*",java="\d/)).not_to be_empty

    3.times { expect(get(port, "/").code).to eq("200") }
    expect(get(port, "/boom").code).to eq("500")
    start_micros = (Process.clock_gettime(Process::CLOCK_REALTIME, :microsecond) - 250_000).to_s
    expect(get(port, "/", "X-Request-Start" => "t=#{start_micros}").code).to eq("200") # queued 250 ms at a proxy
    expect(get(port, "/", "X-Request-Start" => "t=yesterday", "traceparent" => "00-zz-zz-01").code).to eq("200") # ignored
    # each connection's count moves on its own event loop: wait for all six
    page = metrics_until(metrics_at, "six answers") do |m|
      m['nettyrack_requests_total{protocol="http1",code="2xx"}'] == 5 && m['nettyrack_requests_total{protocol="http1",code="5xx"}'] == 1
    end
    expect(page["nettyrack_request_duration_seconds_count"]).to eq(6)
    expect(page["nettyrack_request_app_seconds_count"]).to eq(6)
    expect(page["nettyrack_request_upstream_queue_seconds_count"]).to eq(1)
    expect(page['nettyrack_request_upstream_queue_seconds_bucket{le="0.1"}']).to eq(0)
    expect(page['nettyrack_request_upstream_queue_seconds_bucket{le="0.5"}']).to eq(1)

    Dir.mktmpdir("nettyrack-metrics") do |dir|
      gate = File.join(dir, "release")
      held = Array.new(2) { Thread.new { get(port, "/hold?until=#{gate}").code } }
      metrics_until(metrics_at, "both workers busy") { |m| m["nettyrack_workers_busy"] == 2 }
      queued = Thread.new { get(port, "/").code }
      metrics_until(metrics_at, "one request queued") { |m| m["nettyrack_requests_queued"] == 1 }
      expect(get(port, "/").code).to eq("503")
      File.write(gate, "")
      expect([*held, queued].map { |t| Deadline.value(t, 40, "a held request") }).to eq(%w[200 200 200])
    end
    page = metrics_until(metrics_at, "the 503 counted") do |m|
      m["nettyrack_requests_rejected_total"] == 1 && m['nettyrack_requests_total{protocol="http1",code="5xx"}'] == 2 &&
        m['nettyrack_requests_total{protocol="http1",code="2xx"}'] == 8
    end
    expect(page['nettyrack_request_queue_seconds_bucket{le="0.001"}']).to be < page["nettyrack_request_queue_seconds_count"]

    reader = Socket.new(:INET, :STREAM)
    reader.setsockopt(Socket::SOL_SOCKET, Socket::SO_RCVBUF, 4096) # a client that reads nothing, holding little
    reader.connect(Socket.sockaddr_in(port, "127.0.0.1"))
    reader.write("GET /flood HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    page = metrics_until(metrics_at, "the slow client closed") { |m| m["nettyrack_push_slow_closed_total"] == 1 }
    reader.close
    expect(page['nettyrack_upgrades_total{kind="sse"}']).to eq(1)
    expect(page['nettyrack_push_messages_sent_total{kind="sse"}']).to be > 1
    expect(page['nettyrack_push_messages_dropped_total{kind="sse"}']).to be >= 1
    metrics_until(metrics_at, "the stream gone") { |m| m['nettyrack_push_connections{kind="sse"}'].zero? }

    started = page["process_start_time_seconds"]
    restart = Net::HTTP.post(URI("http://#{control}/restart"), "", "Authorization" => "Bearer #{token}")
    expect(restart.code).to eq("200")
    metrics_until(metrics_at, "the restart counted") { |m| m['nettyrack_restarts_total{outcome="started"}'] == 1 }
    successor = metrics_until(metrics_at, "the new process answering", timeout: 120) do |m| # it boots a JVM
      m["process_start_time_seconds"] != started && m["nettyrack_ready"] == 1
    end
    expect(successor['nettyrack_requests_total{protocol="http1",code="2xx"}']).to eq(0) # its own counts start again
    expect(Deadline.value(Thread.new { child.wait(timeout: 60) }, 70, "the old process").exitstatus).to eq(0)
  end

  it "passes promtool's check and is scraped by a real prometheus, whose query counts the requests sent" do
    promtool, prometheus = %w[promtool prometheus].map { |name| installed(name) }
    skip "promtool and prometheus are not installed (apt install prometheus)" unless promtool && prometheus

    _child, metrics_at, port = start("-t", "2:4")
    sent = 0
    5.times do
      expect(get(port, "/").code).to eq("200")
      sent += 1
    end
    expect(get(port, "/boom").code).to eq("500")
    sent += 1
    lint, status = Open3.capture2e(promtool, "check", "metrics", stdin_data: metrics(metrics_at))
    expect([status.exitstatus, lint]).to eq([0, ""])

    Dir.mktmpdir("nettyrack-prometheus") do |dir|
      web = TCPServer.new("127.0.0.1", 0).then { |s| s.addr[1].tap { s.close } }
      File.write(File.join(dir, "prometheus.yml"), <<~YAML)
        global: { scrape_interval: 1s, evaluation_interval: 1s }
        scrape_configs:
          - job_name: nettyrack
            static_configs: [{ targets: ["#{metrics_at}"] }]
      YAML
      server = Process.spawn(prometheus, "--config.file=#{dir}/prometheus.yml", "--storage.tsdb.path=#{dir}/data",
                             "--web.listen-address=127.0.0.1:#{web}", out: File::NULL, err: File.join(dir, "log"))
      begin
        finish = Deadline.now + 30 # scraped for 30 s while requests come
        while Deadline.now < finish
          expect(get(port, "/").code).to eq("200")
          sent += 1
          sleep 1 # the load's pace: one request a second across the scrapes
        end
        query = URI("http://127.0.0.1:#{web}/api/v1/query?query=#{URI.encode_www_form_component('sum(nettyrack_requests_total{job="nettyrack"})')}")
        counted = Deadline.wait_until(timeout: 20) do
          result = JSON.parse(Net::HTTP.get(query))["data"]["result"]
          result.first && Float(result.first["value"][1]) == sent && Float(result.first["value"][1])
        rescue Errno::ECONNREFUSED, JSON::ParserError
          false
        end
        expect(counted).to eq(sent)
      ensure
        Process.kill("TERM", server)
        Deadline.value(Thread.new { Process.wait(server) }, 30, "prometheus stopping")
      end
    end
  end
end
