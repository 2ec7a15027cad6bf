# frozen_string_literal: true

require "net/http"
require_relative "../support/nettyrack_process"
require_relative "../support/otlp_collector"

# Traces through bin/nettyrack as an operator runs it: the OpenTelemetry SDK on the class path
# (CLASSPATH, which the jruby launcher hands the JVM), configured by OTEL_* variables, exporting
# OTLP/HTTP to a stand-in collector (spec/support/otlp_collector.rb). The SDK's jars come from
# `mvn -f bench/otel_lib/pom.xml package` (Maven Central); without them this is skipped.
RSpec.describe "bin/nettyrack with the OpenTelemetry SDK on the class path" do
  let(:jars) { Dir.glob(File.expand_path("../../bench/otel_lib/target/jars/*.jar", __dir__)) }
  let(:app) { File.expand_path("../fixtures/routes.ru", __dir__) }
  let(:trace_id) { "4bf92f3577b34da6a3ce929d0e0e4736" }
  let(:collector) { OtlpCollector.new }
  let(:otel_env) do
    { "CLASSPATH" => jars.join(":"), "OTEL_SERVICE_NAME" => "routes-spec", "OTEL_TRACES_EXPORTER" => "otlp",
      "OTEL_EXPORTER_OTLP_PROTOCOL" => "http/protobuf", "OTEL_EXPORTER_OTLP_ENDPOINT" => collector.endpoint,
      "OTEL_BSP_SCHEDULE_DELAY" => "100", "OTEL_METRICS_EXPORTER" => "none", "OTEL_LOGS_EXPORTER" => "none" }
  end

  before { skip "no OpenTelemetry SDK jars: mvn -f bench/otel_lib/pom.xml package" if jars.empty? }
  after { collector.close }

  it "exports a SERVER span per request, named by route, under the caller's traceparent" do
    child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-t", "2:2", app, env: otel_env)
    port = child.stdout_match(/listening on .*:(\d+)/)[1].to_i
    Net::HTTP.start("127.0.0.1", port, read_timeout: 10) do |http|
      expect(http.get("/users/7", "traceparent" => "00-#{trace_id}-00f067aa0ba902b7-01").code).to eq("200")
      expect(http.get("/boom").code).to eq("500")
    end
    seen = collector.until_seen(%r{(?=.*GET /users/:id)(?=.*/boom)}m, timeout: 30)
    expect(seen).to include("GET /users/:id", "http.route", "/boom", "routes-spec", "org.nettyrack", [trace_id].pack("H*"))
    child.signal("TERM")
    expect(child.wait.exitstatus).to eq(0)
  ensure
    child&.kill
  end

  it "starts no OpenTelemetry with --otel off" do
    child = NettyrackProcess.new("-b", "tcp://127.0.0.1:0", "-t", "2:2", "--otel", "off", app, env: otel_env)
    port = child.stdout_match(/listening on .*:(\d+)/)[1].to_i
    expect(Net::HTTP.get_response(URI("http://127.0.0.1:#{port}/users/7")).code).to eq("200")
    child.signal("TERM")
    expect(child.wait.exitstatus).to eq(0) # a started SDK would have exported its span on the way out
    expect(collector.bodies).to be_empty
  ensure
    child&.kill
  end
end
