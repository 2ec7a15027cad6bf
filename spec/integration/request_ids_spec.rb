# frozen_string_literal: true

require "json"
require "open3"

# The request id, X-Request-Start and W3C trace context, end to end: `nettyrack` with JSON
# access and server logs on stdout, spec/fixtures/trace_env.ru answering with the env entries,
# curl over HTTP/1.1 and h2c (prior knowledge).
RSpec.describe "Request ids and trace context" do
  let(:traceparent) { "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" }
  let(:made_id) { /\A[0-9a-f]{32}\z/ }

  before(:all) do
    @child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "--access-log", "--access-log-format", "json",
                                  "--log-format", "json", "spec/fixtures/trace_env.ru")
    boot = JSON.parse(@child.stdout_match(/^(\{.*"event":"boot".*\})$/)[1])
    @boot = boot
    @base = boot.fetch("urls").first
  end

  after(:all) { @child&.kill }

  # [status, headers (lower-case name => [values]), parsed JSON body] of one curl exchange.
  def exchange(*args, path: "/")
    out, err, status = Open3.capture3("curl", "-sS", "--max-time", "20", "-D", "-", *args, "#{@base}#{path}")
    raise "curl #{args.join(' ')} failed: #{err}" unless status.success?

    head, body = out.split("\r\n\r\n", 2)
    code = head.lines.first[/\AHTTP\/\S+ (\d+)/, 1].to_i
    fields = head.lines.drop(1).map { |line| line.chomp.split(": ", 2) }
                 .group_by { |name, _| name.downcase }.transform_values { |pairs| pairs.map(&:last) }
    [code, fields, JSON.parse(body)]
  end

  # The JSON access log line of the request whose id is +id+, once it is written.
  def logged(id)
    JSON.parse(@child.stdout_match(/^(\{[^\n]*"request_id":"#{Regexp.escape(id)}"[^\n]*\})$/, timeout: 20)[1])
  end

  it "boots with a JSON line naming the URLs and the pid" do
    expect(@boot).to include("level" => "info", "event" => "boot", "pid" => @child.pid)
    expect(@boot["message"]).to match(/\Anettyrack .* listening on http:\/\/127\.0\.0\.1:\d+\z/)
    expect(@boot["time"]).to match(/\A\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)\z/)
  end

  %w[--http1.1 --http2-prior-knowledge].each do |version|
    context "over #{version.delete_prefix('--')}" do
      it "keeps the id a request sent, in the env, the response and the access log" do
        status, headers, env = exchange(version, "-H", "x-request-id: proxy-id.7#{version}")
        expect(status).to eq(200)
        expect(env["HTTP_X_REQUEST_ID"]).to eq("proxy-id.7#{version}")
        expect(headers["x-request-id"]).to eq(["proxy-id.7#{version}"])
        expect(logged("proxy-id.7#{version}")).to include("status" => 200, "upstream_queue" => nil)
      end

      it "makes one for a request without, or with an insane one, and gives it to the app" do
        [[], ["-H", "x-request-id: has space"], ["-H", "x-request-id: #{'x' * 201}"]].each do |sent|
          status, headers, env = exchange(version, *sent)
          id = headers["x-request-id"]&.first
          expect([status, id]).to match([200, made_id])
          expect(env["HTTP_X_REQUEST_ID"]).to eq(id)
          line = logged(id)
          expect(line.keys).to include("duration", "queue", "app", "upstream_queue")
          expect(line["queue"] + line["app"]).to be <= line["duration"] + 1e-6
        end
      end

      it "lets the app's own x-request-id stand" do
        _, headers, = exchange(version, path: "/own")
        expect(headers["x-request-id"]).to eq(["the-app-s-own"])
      end

      it "sets X-Request-Start to the arrival when absent, and leaves one sent as it was, even malformed" do
        _, _, env = exchange(version)
        micros = env["HTTP_X_REQUEST_START"][/\At=(\d{16})\z/, 1]
        expect(micros.to_i / 1e6).to be_within(60).of(Time.now.to_f)

        sent = "t=#{((Time.now.to_f - 0.25) * 1000).round}"
        _, headers, env = exchange(version, "-H", "x-request-start: #{sent}")
        expect(env["HTTP_X_REQUEST_START"]).to eq(sent)
        expect(logged(headers["x-request-id"].first)["upstream_queue"]).to be_within(5).of(0.25)

        status, headers, env = exchange(version, "-H", "x-request-start: t=yesterday")
        expect([status, env["HTTP_X_REQUEST_START"]]).to eq([200, "t=yesterday"])
        expect(logged(headers["x-request-id"].first)["upstream_queue"]).to be_nil
      end

      it "gives the app a valid traceparent's parts, and leaves traceparent and tracestate as sent" do
        _, _, env = exchange(version, "-H", "traceparent: #{traceparent}", "-H", "tracestate: congo=t61rcWkgMzE")
        expect(env).to include("nettyrack.trace_id" => "4bf92f3577b34da6a3ce929d0e0e4736",
                               "nettyrack.parent_id" => "00f067aa0ba902b7", "nettyrack.trace_sampled" => true,
                               "HTTP_TRACEPARENT" => traceparent, "HTTP_TRACESTATE" => "congo=t61rcWkgMzE")
      end

      it "answers a malformed traceparent with 200 and no trace keys" do
        ["00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01", "ff-#{traceparent[3..]}", "garbage"].each do |bad|
          status, _, env = exchange(version, "-H", "traceparent: #{bad}")
          expect(status).to eq(200)
          expect(env).to include("nettyrack.trace_id" => "absent", "nettyrack.parent_id" => "absent",
                                 "nettyrack.trace_sampled" => "absent", "HTTP_TRACEPARENT" => bad)
        end
      end
    end
  end

  context "at the end (it stops the server)" do
    it "says it stops in a JSON line" do
      @child.signal("TERM")
      stop = JSON.parse(@child.stdout_match(/^(\{.*"event":"stop".*\})$/)[1])
      expect(stop).to include("level" => "info", "message" => "nettyrack: shutting down (SIGTERM)", "reason" => "SIGTERM")
      expect(@child.wait.exitstatus).to eq(0)
    end
  end
end
