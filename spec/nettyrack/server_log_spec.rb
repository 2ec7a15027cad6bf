# frozen_string_literal: true

require "json"
require "stringio"
require "nettyrack/server_log"

RSpec.describe Nettyrack::ServerLog do
  let(:out) { StringIO.new }

  it "writes the text alone by default, answering 0" do
    expect(described_class.new(out).say("nettyrack: shutting down (SIGTERM)", event: "stop", reason: "SIGTERM")).to eq(0)
    expect(out.string).to eq("nettyrack: shutting down (SIGTERM)\n")
  end

  it "writes one JSON object a line with --log-format json: time, level, event, message, then the line's facts" do
    log = described_class.new(out, "json")
    log.say("nettyrack 0.1.0 (...) listening on http://0.0.0.0:9292", event: "boot", urls: ["http://0.0.0.0:9292"], pid: 42)
    log.say("nettyrack: warming up")
    first, second = out.string.lines.map { |line| JSON.parse(line) }
    expect(first.keys).to eq(%w[time level event message urls pid])
    expect(first).to include("level" => "info", "event" => "boot", "urls" => ["http://0.0.0.0:9292"], "pid" => 42,
                             "message" => "nettyrack 0.1.0 (...) listening on http://0.0.0.0:9292")
    expect(second).to include("event" => "log", "message" => "nettyrack: warming up")
  end

  it "writes the time in ISO 8601 with milliseconds, Z at UTC, else the local offset" do
    expect(described_class.time(Time.utc(2026, 11, 23, 16, 38, 29, 380_000))).to eq("2026-11-23T16:38:29.380Z")
    expect(described_class.time(Time.new(2026, 11, 23, 17, 0, 0, "+01:00"))).to eq("2026-11-23T17:00:00.000+01:00")
  end
end
